"""citeledger quickstart: build the two seed citation records offline and print them.

    python examples/quickstart.py                       # both seed records + the demo's outbound table
    python examples/quickstart.py --format html > out.html
    python examples/quickstart.py --live --mailto you@example.org 2104.07857
    python examples/quickstart.py --plan 2104.07857      # what --live would ask, no network

Offline, everything comes from the sample source embedded in the package (no network). With
``--live`` the real arXiv, Crossref, OpenAlex and Semantic Scholar APIs are asked (polite pool via
``--mailto``); that path is documented but not run in CI. It discovers who cites the paper
(OpenAlex, Semantic Scholar) and then checks each citing work's own reference list (Crossref
deposited references, then Semantic Scholar references; OpenAlex ``referenced_works`` only as a
hint), so each inbound observation carries a reference number and citeledger's own state.
``--plan`` prints which source answers what and the request count, without any network.
"""

from __future__ import annotations

import argparse
import sys

import citeledger as cl
from citeledger.errors import SourceNotFound
from citeledger.sources.sample import DEMO, ZERO, ZERO_INFINITY, SampleSource

LIVE_SOURCES = ("arxiv", "crossref", "openalex", "semanticscholar")


def _emit(record: cl.CitationRecord, fmt: str, view: str) -> str:
    if fmt == "json":
        return record.to_json()
    return record.render(fmt, view=view)


def offline(fmt: str) -> None:
    sample = SampleSource()
    # The seed citation record (ledger view) and the seed paper page (page view).
    zi = cl.build_record(ZERO_INFINITY, [sample], now=sample.as_of(ZERO_INFINITY), inbound_cap=100)
    zero = cl.build_record(ZERO, [sample], now=sample.as_of(ZERO), inbound_cap=100)
    # A paper with a reference list, resolved against the embedded catalog: all six states.
    demo = cl.build_record(
        DEMO, [sample], now=sample.as_of(DEMO), resolver=cl.Resolver(sample.catalog())
    )
    if fmt == "json":
        # One JSON array of the three records, each tagged citeledger.paper-citation-record.v1.
        print("[" + ",\n".join(r.to_json() for r in (zi, zero, demo)) + "]")
        return
    print(_emit(zi, fmt, "ledger"))
    print(_emit(zero, fmt, "page"))
    if fmt == "text":
        print(f"Outbound references of {demo.paper.title}")
        print()
        for count in demo.resolution_counts():
            print(f"  {count.state.label:<22}{count.count}")
        print()
        for obs in demo.outbound:
            state = obs.state.label if obs.state else "not resolved"
            ref = obs.reference
            title = (ref.title or ref.raw or "") if ref else ""
            print(f"  [{obs.position:>2}] {state:<21} {title[:70]}")
    else:
        print(demo.render(fmt, view="ledger"))


def live(paper_id: str, mailto: str | None, fmt: str, cap: int) -> None:
    sources = []
    for name in LIVE_SOURCES:
        try:
            try:
                sources.append(
                    cl.load_source(name, mailto=mailto) if mailto else cl.load_source(name)
                )
            except TypeError:  # a source without a polite pool takes no mailto
                sources.append(cl.load_source(name))
        except SourceNotFound as exc:
            print(f"skipping {name}: {exc}", file=sys.stderr)
    record = cl.build_record(
        paper_id, sources, inbound_cap=cap, network=True, check_inbound=True, check_cap=cap
    )
    print(_emit(record, fmt, "full"))


def plan(paper_id: str, cap: int) -> None:
    """Print what ``--live`` would ask of each source, and the request count; no network."""
    from citeledger.ledger._inbound import _ordered_sources  # noqa: PLC0415 - example only
    from citeledger.sources import CitationSource  # noqa: PLC0415 - example only

    sources = [cl.load_source(name) for name in LIVE_SOURCES]
    full, ordered, hints = _ordered_sources(sources)
    listing = [s.name for s in sources if isinstance(s, CitationSource)]
    print(f"paper: {cl.parse_identifier(paper_id)}")
    print(f"1. discover citing works: {', '.join(listing)} (at most {cap:,} each)")
    print(
        "2. check each citing work (at most "
        f"{cap:,}): its reference list from the first of {', '.join(s.name for s in full + ordered)}"
        f" that has it; {', '.join(s.name for s in hints)} only as an identifier hint"
    )
    print(
        f"3. requests for the checks: {cap:,} when the first source has every list, up to "
        f"{cap * (len(ordered) + len(hints)):,} when none has one"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("paper_id", nargs="?", help="with --live: the paper (arXiv id, DOI, ...)")
    parser.add_argument("--format", choices=("text", "markdown", "html", "json"), default="text")
    parser.add_argument("--live", action="store_true", help="use the real APIs (network)")
    parser.add_argument(
        "--plan", action="store_true", help="print what --live would ask (no network)"
    )
    parser.add_argument(
        "--mailto", help="contact address for the polite pools (Crossref, OpenAlex)"
    )
    parser.add_argument(
        "--cap", type=int, default=200, help="inbound page cap for --live (default 200)"
    )
    args = parser.parse_args(argv)
    if args.plan:
        plan(args.paper_id or "arXiv:2104.07857", args.cap)
    elif args.live:
        if not args.paper_id:
            parser.error("--live needs a paper id")
        live(args.paper_id, args.mailto, args.format, args.cap)
    else:
        offline(args.format)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # piped into `head`: stop quietly
        sys.stderr.close()
        sys.exit(0)
