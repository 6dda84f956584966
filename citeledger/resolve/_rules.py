"""The decision rules the resolver applies to compared candidates.

Pure functions of a reference's features, its compared candidates (:class:`_Scored`) and the
resolver's configuration: which candidate is best, which is its rival, whether the best is
verified, and the evidence each outcome reports. :mod:`~citeledger.resolve.resolver` finds and
compares the candidates; this module decides; :mod:`~citeledger.resolve._results` builds the
results.
"""

from __future__ import annotations

import re
from operator import itemgetter
from typing import TYPE_CHECKING, Final, TypeVar

from attrs import frozen

from citeledger.identifiers import (
    PREPRINT_DOI_PREFIXES,
    Identifier,
    version_key,
    version_of,
    work_key,
)
from citeledger.model import (
    Agreement,
    Evidence,
    Paper,
    Reference,
)
from citeledger.model._work import paper_order_key
from citeledger.resolve.names import name_keys
from citeledger.resolve.normalize import is_generic_title, normalize_title
from citeledger.resolve.scoring import (
    Comparison,
    ReferenceFeatures,
    VenueKind,
    compare_authors,
    notice_kind,
    same_journal,
    title_similarity,
    title_word_conflict,
    venue_kind,
    without_session_label,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from citeledger.resolve._config import ResolverConfig

# Two catalog records whose titles are at least this similar (and long, with no substituted word)
# may be one work recorded twice (see ``_duplicate_record``). A constant of the catalog's
# description, not a threshold of the decision.
_DUPLICATE_TITLE: Final = 95.0
_DUPLICATE_MIN_LENGTH: Final = 25
# With an agreeing volume and first page, a title at least this similar identifies the article
# (see ``_fuzzy_decision``). A constant, not a threshold of the configuration.
_ARTICLE_TITLE: Final = 95.0
# A title shared with this many other works names a series (see ``_fuzzy_decision``).
_SERIES_OTHERS: Final = 2


_T = TypeVar("_T")


@frozen
class _Scored:
    paper: Paper
    comparison: Comparison
    title: str = ""  # the paper's normalised title


#: Parse confidence of a string the parser read as a title-less style (refparse gives 0.85).
_CONFIDENT_TITLE_LESS: Final = 0.8


def _tie_key(paper: Paper) -> tuple[str, str, int]:
    ids = paper.identifiers
    # ``Paper.key`` of a paper with one identifier is that identifier's work key.
    key = work_key(ids[0]) if len(ids) == 1 else paper.key
    return (key, paper.title or "", paper.year or 0)


def _same_work(a: Paper, b: Paper) -> bool:
    if a is b or a == b:
        return True
    if not a.identifiers or not b.identifiers:
        return False
    return not {version_key(i) for i in a.identifiers}.isdisjoint(
        [version_key(i) for i in b.identifiers]
    )


def _duplicate_record(a: _Scored, b: _Scored) -> bool:
    """Two catalog records that describe one work, one perhaps with fewer fields.

    The same normalised title, or titles that differ only by a typo (similarity at least
    ``_DUPLICATE_TITLE``, both at least 25 characters, and no substituted word or number between
    them: :func:`~citeledger.resolve.scoring.title_word_conflict`); no conflicting year, no
    conflicting identifier, and author lists that agree (or one is empty). Catalogs built from
    scraped sources (Google Scholar) hold such duplicates ("… for mobile data access" and "… for
    mobile data acess", same authors); they are not the look-alikes the margin rule protects
    against.
    """
    pa, pb = a.paper, b.paper
    ta, tb = _one_title(a, b)
    if not ta or not tb:
        return False
    if pa.year is not None and pb.year is not None and pa.year != pb.year:
        return False
    for ia in pa.identifiers:
        if any(ib.scheme == ia.scheme and work_key(ib) != work_key(ia) for ib in pb.identifiers):
            return False
    ka, kb = name_keys(pa.authors), name_keys(pb.authors)
    if ka and kb:
        agreement = compare_authors(ka, kb)[0]
        # Scraped records of one work list its authors in different orders and lengths ("rw
        # moore, a jagatheesan" / "a rajasekar, a jagatheesan"): with the same long title and
        # no year on either side to tell versions apart, one shared author is enough.
        undated = pa.year is None and pb.year is None
        if ta == tb and undated and not is_generic_title(ta):
            return agreement in (Agreement.AGREE, Agreement.PARTIAL)
        return agreement is Agreement.AGREE
    return True


def _shared_identifier(ident: Identifier, scored: Sequence[_Scored]) -> list[_Scored]:
    """The records holding ``ident`` itself when they are different works, else ``[]``.

    Two catalog records under one identifier that are not one work's duplicate records
    (:func:`_duplicate_record`): a catalog merging sources that disagree, or a DOI reused.
    """
    if len(scored) < 2:
        return []  # (the common case: one record found; holding two needs two)
    key = work_key(ident)
    holding = [s for s in scored if any(work_key(i) == key for i in s.paper.identifiers)]
    if len(holding) < 2:
        return []
    first = holding[0]
    if all(_same_work(first.paper, s.paper) and first.paper == s.paper for s in holding[1:]):
        return []
    if all(_duplicate_record(first, s) for s in holding[1:]):
        return []
    return holding


def _compared_nothing(comp: Comparison) -> bool:
    """Whether a comparison found no field on both sides (a bare identifier)."""
    return comp.title is None and all(o[1] is Agreement.MISSING for o in comp.outcomes)


def _one_title(a: _Scored, b: _Scored) -> tuple[str, str]:
    """The two normalised titles if they are one title (equal, or a typo apart), else ``""``s.

    A typo apart: both at least 25 characters, similarity at least ``_DUPLICATE_TITLE`` and no
    substituted word or number (:func:`~citeledger.resolve.scoring.title_word_conflict`).
    """
    ta = a.title or normalize_title(a.paper.title)
    tb = b.title or normalize_title(b.paper.title)
    if not ta or not tb:
        return "", ""
    if (
        ta != tb
        and without_session_label(ta) != without_session_label(tb)
        and (
            min(len(ta), len(tb)) < _DUPLICATE_MIN_LENGTH
            or title_similarity(ta, tb) < _DUPLICATE_TITLE
            or title_word_conflict(ta, tb) is not None
        )
    ):
        return "", ""
    return ta, tb


def _other_version(feats: ReferenceFeatures, best: _Scored, rival: _Scored) -> str:
    """Why ``rival`` is another publication of ``best``'s work that the reference cannot cite.

    ``""`` unless the two records carry one title (:func:`_one_title`) and agreeing author lists
    (the conference paper and its journal version), and the reference's venue kind and year
    rule the rival out (:func:`_other_publication`).
    """
    why = _other_publication(feats, rival.paper)
    if not why or not _one_title(best, rival)[0]:
        return ""
    ka, kb = name_keys(best.paper.authors), name_keys(rival.paper.authors)
    if not ka or not kb or compare_authors(ka, kb)[0] is not Agreement.AGREE:
        return ""
    return why


def _order(items: list[_Scored]) -> list[_Scored]:
    """Best rank first; ties by the papers' keys, then all their fields (never insertion order).

    Keys are computed only inside groups of equal rank, which are rare and small, and the
    fields (:func:`~citeledger.model._work.paper_order_key`) only among papers whose keys are
    equal too: the order is the one of sorting by ``(*key, paper_order_key)``, without reading
    every field of the papers that the key alone tells apart. Nothing is formatted.
    """
    return ranked(items, _rank_of, _paper_of)


def ranked(items: list[_T], rank: Callable[[_T], float], paper: Callable[[_T], Paper]) -> list[_T]:
    """``items`` sorted by ``rank`` (highest first), ties as :func:`_order` breaks them."""
    if len(items) < 2:  # nothing to order
        return items
    items.sort(key=lambda item: -rank(item))
    i = 0
    while i < len(items) - 1:
        j = i + 1
        while j < len(items) and rank(items[j]) == rank(items[i]):
            j += 1
        if j - i > 1:
            keyed = [(_tie_key(paper(s)), s) for s in items[i:j]]
            keyed.sort(key=itemgetter(0))
            if len({k for k, _ in keyed}) < len(keyed):
                keyed.sort(key=lambda ks: (ks[0], paper_order_key(paper(ks[1]))))
            items[i:j] = [s for _, s in keyed]
        i = j
    return items


def _rank_of(item: _Scored) -> float:
    return item.comparison.rank


def _paper_of(item: _Scored) -> Paper:
    return item.paper


def _ident_evidence(ident: Identifier, paper: Paper | None, note: str) -> Evidence:
    if paper is None:
        return Evidence(
            field=ident.scheme.value, agreement=Agreement.MISSING, left=str(ident), note=note
        )
    key = work_key(ident)
    match = next((i for i in paper.identifiers if work_key(i) == key), None)
    if match is None:
        base = version_of(key)
        match = next((i for i in paper.identifiers if version_key(i) == base), None)
    return Evidence(
        field=ident.scheme.value,
        agreement=Agreement.AGREE,
        left=str(ident),
        right=str(match) if match is not None else None,
        note=note,
    )


def _malformed_evidence(ref: Reference) -> list[Evidence]:
    return [
        Evidence(
            field=frag.scheme.value,
            agreement=Agreement.DISAGREE,
            left=frag.text,
            note=f"malformed {frag.scheme.value}: {frag.reason}",
        )
        for frag in ref.malformed
    ]


def _malformed_reason(ref: Reference) -> str:
    parts = [
        f"malformed {frag.scheme.value} {frag.text!r} ({frag.reason})" for frag in ref.malformed
    ]
    return "; ".join(parts)


def _describe(paper: Paper) -> str:
    title = paper.title or "(untitled)"
    title = title if len(title) <= 60 else title[:59] + "…"
    year = f", {paper.year}" if paper.year else ""
    return f"{title!r}{year} [{paper.key}]"


def exact_problems(cfg: ResolverConfig, comp: Comparison) -> list[str]:
    """The fields that clearly disagree with an identifier's record (identifier route)."""
    problems: list[str] = []
    # The title agreement is MISSING exactly when the candidate has no title.
    title_agreement = comp.agreement("title")
    if (
        comp.title is not None
        and title_agreement is not None
        and title_agreement is not Agreement.MISSING
        and comp.title < cfg.min_exact_title_similarity
    ):
        problems.append("title")
    if "year" in comp.hard:
        problems.append("year")
    if "authors" in comp.hard and (comp.title is None or comp.title < 90.0):
        problems.append("authors")
    if "volume+first_page" in comp.hard:
        problems.append("volume+first_page")
    return problems


def locator_decision(
    feats: ReferenceFeatures, candidates: list[_Scored]
) -> tuple[bool, str, _Scored | None, _Scored | None]:
    """(verified, reason, best, rival) of the journal/volume/page route.

    A candidate (same volume and first page) verifies when its journal agrees, nothing
    clearly disagrees (author lists sharing no name, a year beyond the tolerance), the
    exact year or the authors confirm it, and no other work in that journal, volume and
    page could be the one cited (two letters on one page: neither is claimed).
    """
    where = f"volume {feats.volume!r}, first page {feats.first_page!r}"
    if not candidates:
        return False, f"no catalog record has {where}", None, None
    # The same journal (scoring.same_journal: equal names, or one abbreviating all of the
    # other), stricter than the venue agreement that corroborates a title: "Nature" and
    # "Nature Genetics" both have a volume 76 with a page 4350.
    journal = [
        c for c in candidates if not c.comparison.hard and same_journal(feats.venue, c.paper.venue)
    ]
    if not journal:
        best = candidates[0]
        comp = best.comparison
        problems = [f"disagreeing {', '.join(comp.hard)}"] if comp.hard else []
        if not same_journal(feats.venue, best.paper.venue):
            problems.insert(0, f"journal {best.paper.venue!r} is not {feats.venue!r}")
        return (
            False,
            f"{_describe(best.paper)} has {where} but {'; '.join(problems)}",
            best,
            None,
        )
    confirmed = [c for c in journal if _locator_confirmed(c.comparison, c.paper)]
    if not confirmed:
        best = journal[0]
        return (
            False,
            (
                f"{_describe(best.paper)} has {where} in {feats.venue!r}, but neither the year "
                "nor the authors confirm it"
            ),
            best,
            None,
        )
    best = confirmed[0]
    rival = next(
        (
            c
            for c in journal
            if c is not best
            and not _same_work(c.paper, best.paper)
            and not _duplicate_record(best, c)
        ),
        None,
    )
    if rival is not None:
        return (
            False,
            (
                f"ambiguous: {_describe(best.paper)} and {_describe(rival.paper)} both have "
                f"{where} in {feats.venue!r}"
            ),
            best,
            rival,
        )
    agreed = [o[0] for o in best.comparison.outcomes if o[1] is Agreement.AGREE]
    bare = "; the record has no year or authors to check" if _unconfirmable(best.paper) else ""
    return (
        True,
        (
            f"no title; the journal, volume and first page identify {_describe(best.paper)} "
            f"({', '.join(agreed)} agree{bare})"
        ),
        best,
        None,
    )


def fuzzy_decision(
    cfg: ResolverConfig, feats: ReferenceFeatures, ref: Reference, candidates: list[_Scored]
) -> tuple[bool, str, _Scored | None, _Scored | None]:
    """(verified, reason, best, runner-up of another work)."""
    if not candidates:
        return False, "no candidate shares the title's distinctive words", None, None
    best = candidates[0]
    # The rival: the best candidate of another work (a duplicate record of the best is the
    # same work); it is reported with the result. The runner-up the margin is measured
    # against is the best rival the reference could cite: another publication of the best's
    # work (the same title and authors: the journal version, another year, of the conference
    # paper the reference names) is a record the reference cannot be (the rule below refuses
    # it as a best candidate), so it is no look-alike.
    # A notice (a correction, a retraction notice, a comment) and the work it is about are
    # two works, but one cannot be the other's look-alike for this reference either: the
    # reference cites a notice of its own kind or none (``notice_kind``).
    notice = notice_kind(ref.title)
    others = (
        c
        for c in candidates[1:]
        if not _same_work(c.paper, best.paper)
        and not _duplicate_record(best, c)
        and notice_kind(c.paper.title) == notice
    )
    rival = next(others, None)
    runner = rival
    while runner is not None and _other_version(feats, best, runner):
        runner = next(others, None)
    failures, later, note = best_failures(cfg, feats, ref, best)
    comp = best.comparison
    # A title that two or more other dated works in the catalog also carry names a series
    # (a column, an editorial, "reminiscences on influential papers"), not a paper. Issues
    # of a series share title, editor and venue, and a catalog rarely holds every issue, so
    # the year must agree exactly *and* a volume or first page must agree. (One other work
    # with the same title is usually the conference and journal version of one paper, which
    # the margin rule handles; undated records are usually duplicates.)
    series = [c for c in candidates[1:] if _series_member(best, c.paper, c.title)]
    if len(series) >= _SERIES_OTHERS:
        agreed = {o[0] for o in comp.outcomes if o[1] is Agreement.AGREE}
        if "year" not in agreed or not agreed & {"volume", "first_page"}:
            failures.append(
                f"the title recurs ({_describe(series[0].paper)}, …): a series needs the "
                "same year and an agreeing volume or first page"
            )
    failures += later
    if failures:
        return (
            False,
            f"best candidate {_describe(best.paper)}: " + "; ".join(failures),
            best,
            rival,
        )
    if runner is not None:
        lead = comp.rank - runner.comparison.rank
        if lead < cfg.min_margin:
            return (
                False,
                (
                    f"ambiguous: {_describe(best.paper)} leads {_describe(runner.paper)} by "
                    f"{lead:.1f}, {cfg.min_margin:g} needed"
                ),
                best,
                runner,
            )
    if rival is not None and rival is not runner:
        why = _other_version(feats, best, rival)
        note = "; ".join(filter(None, [note, f"the runner-up is {why}"]))
    return True, note, best, rival


def _series_member(best: _Scored, paper: Paper, title: str) -> bool:
    """Whether ``paper`` (normalised title ``title``) is another dated work of ``best``'s title."""
    return (
        bool(best.title)
        and title == best.title
        and paper.year is not None
        and not _same_work(paper, best.paper)
    )


def best_failures(
    cfg: ResolverConfig,
    feats: ReferenceFeatures,
    ref: Reference | Paper,
    best: _Scored,
    *,
    quick: bool = False,
    versions: tuple[Sequence[str], Sequence[str]] | None = None,
) -> tuple[list[str], list[str], str]:
    """Why ``best`` cannot be verified as the reference's work whatever the other candidates.

    The checks of :func:`fuzzy_decision` that read only the reference and this one candidate
    (title, corroborating and disagreeing fields, another printing, another publication, a
    notice); ``fuzzy_decision`` adds the series rule and the margin, which read the others.
    Returns (failures, the failures reported after the series rule's, a note for the reason
    when the author lists were overruled): the candidate fails if either list is not empty.
    ``ref`` may be a paper, read as the reference citing it (``verify``). ``quick``: return
    as soon as the candidate is known to fail (the title, then the disagreeing fields), with
    the failures found so far, for a caller that needs only whether it fails. ``versions``: the
    version keys (:func:`~citeledger.identifiers.version_key`) of the reference's and the
    candidate's identifiers, in order, if computed.
    """
    comp = best.comparison
    title = comp.title or 0.0
    failures: list[str] = []
    need_title = cfg.min_generic_title_similarity if feats.generic else cfg.min_title_similarity
    prefix_ok = (
        not feats.generic
        and comp.prefix_title is not None
        and comp.prefix_title >= cfg.min_prefix_title_similarity
        and comp.corroborations >= cfg.min_prefix_corroborations
    )
    title_ok = title >= need_title or prefix_ok
    # (verify reads this rule and the year's before comparing the other fields:
    # _select.fails_whatever_fields; keep the two in step.)
    if quick and not title_ok:
        return [f"title similarity {title:.1f} below {need_title:g}"], [], ""
    notice = notice_kind(ref.title)
    need_corr = cfg.min_generic_corroborations if feats.generic else cfg.min_corroborations
    conflict = _identifier_conflict(ref, best.paper, versions)
    if conflict:
        need_corr += 1
    # A substituted word or a differing part number: a sibling paper, not a variant spelling.
    # (Only worth computing when the title passes; otherwise the candidate fails anyway.)
    words = title_word_conflict(feats.title, best.title) if best.title and title_ok else None
    if words is not None:
        need_corr += 1
    alone = (
        not feats.generic
        and title >= cfg.min_title_similarity_alone
        and not conflict
        and words is None
    )
    if not title_ok:
        failures.append(f"title similarity {title:.1f} below {need_title:g}")
    hard = list(comp.hard)
    note = ""
    # A near-identical title in the same volume at the same first page is the article: an
    # author list that disagrees is then a reading error (a PDF string that starts mid-list,
    # "H, Nakashima Y (2006) ...", OCR damage, "HuVman DL", "Kamin´skiKamin´ski M"). Not for
    # short or generic titles (several replies titled "Deux oreilles" share a page of Notes
    # and Queries) nor against another identifier of the same scheme.
    if (
        "authors" in hard
        and not feats.generic
        and not conflict
        and title >= _ARTICLE_TITLE
        and comp.agreement("volume") is Agreement.AGREE
        and comp.agreement("first_page") is Agreement.AGREE
    ):
        hard.remove("authors")
        note = (
            "the author lists disagree, but the title, volume and first page identify the article"
        )
    if hard:
        failures.append("disagreeing " + ", ".join(hard))
        if quick:
            return failures, [], note
    page = _other_page(ref, best.paper, comp)
    if page:
        failures.append(page)
    if words is not None:
        # With a substituted title word, a differing volume or page is the other paper's.
        codes = [
            name for name in ("volume", "first_page") if comp.agreement(name) is Agreement.DISAGREE
        ]
        if codes:
            failures.append(f"titles differ ({words}) and so do {', '.join(codes)}")
    if comp.corroborations < need_corr and not alone:
        what = "short/generic title" if feats.generic else "title"
        failures.append(
            f"{what} corroborated by {comp.corroborations} field(s), {need_corr} needed"
            + (" (candidate has a different identifier of the same scheme)" if conflict else "")
            + (f" (titles differ: {words})" if words else "")
        )
    # A conference paper and its journal version (a year or more later, often extended) are
    # two publications of one work: a reference names one of them, and a verified match to
    # the other would put the wrong publication in the ledger. Preprint servers are no kind
    # here (preprint vs published, year +-1, is the same work); a shared DOI still verifies
    # through the identifier route.
    later: list[str] = []
    other = _other_publication(feats, best.paper)
    if other:
        later.append(other)
    theirs = notice_kind(best.paper.title)
    if theirs != notice:
        later.append(
            f"the candidate is a {theirs} notice about the work, not the work"
            if notice is None
            else f"the reference cites a {notice} notice, the candidate is "
            + (f"a {theirs} notice" if theirs else "the work")
        )
    return failures, later, note


def _page_number(text: str | None) -> int | None:
    digits = "".join(c for c in text or "" if c.isdigit())
    return int(digits) if digits and len(digits) <= 7 else None


def _other_page(ref: Reference | Paper, paper: Paper, comp: Comparison) -> str:
    """Why a same-titled candidate in the reference's volume is another work, or ``""``.

    Guidelines and statements printed twice, an executive summary next to the full text, parts
    I and II: one journal volume holds several works of one title, on different pages. When the
    volume agrees and the first page does not (and the cited page does not fall inside the
    candidate's page range, a pinpoint citation), the candidate is the other printing, and the
    title alone must not verify it.
    """
    if (
        comp.agreement("volume") is not Agreement.AGREE
        or comp.agreement("first_page") is not Agreement.DISAGREE
    ):
        return ""
    cited = _page_number(ref.first_page)
    pages = re.split(r"\s*[-–—]\s*", paper.pages or "", maxsplit=1)
    lo = _page_number(pages[0])
    if cited is not None and cited == lo:
        return ""  # "i38" and "38", "e1002" and "1002": one page, printed two ways
    mine, theirs = (ref.first_page or "").lower(), (paper.first_page or "").lower()
    if mine and theirs and (mine.startswith(theirs) or theirs.startswith(mine)):
        return ""  # an article number cut short in the string ("W00A" for "W00A12")
    hi = _page_number(pages[1]) if len(pages) > 1 else None
    if cited is not None and lo is not None and hi is not None and lo <= cited <= hi:
        return ""
    return (
        f"first page {ref.first_page!r} is not the candidate's {paper.first_page!r} in the same "
        "volume: another work of that title there (a second printing, a summary, another part)"
    )


def _unconfirmable(paper: Paper) -> bool:
    """A record with neither a year nor an author: nothing but its locator can be checked."""
    return paper.year is None and not paper.authors


def _locator_confirmed(comp: Comparison, paper: Paper) -> bool:
    # The exact year, or the authors (the first one found, with a compatible initial, or at
    # least some names), confirm a journal/volume/page match. A record that has neither (thin
    # catalogs: a DOI list with journal, volume and page) is taken on its journal, volume and
    # first page: nothing in it can disagree, and the rival rule still refuses a shared page.
    if _unconfirmable(paper):
        return True
    return any(
        (outcome[0] == "year" and outcome[1] is Agreement.AGREE)
        or (outcome[0] == "authors" and outcome[1] in (Agreement.AGREE, Agreement.PARTIAL))
        for outcome in comp.outcomes
    )


#: What one compared field adds to :func:`_agreement_score` (the title adds its similarity).
_FIELD_POINTS: Final = {Agreement.AGREE: 100.0, Agreement.PARTIAL: 50.0, Agreement.DISAGREE: 0.0}


def _agreement_score(comp: Comparison, *, identifier: bool = False) -> float:
    """``Resolution.score``, the same on every route: how much of the evidence agrees, 0-100.

    The mean over the fields both sides have (:class:`Agreement` other than MISSING) of each
    field's points: the title its similarity (0-100), any other field 100 when it agrees, 50
    when it partly agrees, 0 when it disagrees; a matching identifier counts as one more field
    at 100. 100 means every field compared agrees exactly; a typo in the title or a year one
    off lowers it on every route alike. The decision does not use it (see docs/resolver.md).
    """
    points = [100.0] if identifier else []
    # Each outcome read by index (every verified result runs this: unpacking ``name,
    # agreement, score, *_`` built a list per field, half of this function's time).
    missing = Agreement.MISSING
    for outcome in comp.outcomes:
        agreement = outcome[1]
        if agreement is missing:
            continue
        score = outcome[2]
        if score is not None and outcome[0] == "title":
            points.append(max(0.0, min(100.0, score)))
        else:
            points.append(_FIELD_POINTS[agreement])
    return round(sum(points) / len(points), 1) if points else 0.0


def _other_publication(feats: ReferenceFeatures, paper: Paper) -> str:
    """Why ``paper`` is another publication of the work the reference cites, or ``""``.

    One side's venue is a journal and the other's conference proceedings, and both years are
    known and differ: a conference paper and its journal version (see ``_fuzzy_decision``).
    """
    if feats.year is None or paper.year is None or paper.year == feats.year:
        return ""
    mine, theirs = venue_kind(feats.venue), venue_kind(paper.venue)
    if {mine, theirs} != {VenueKind.JOURNAL, VenueKind.CONFERENCE}:
        return ""
    return (
        f"another publication of the work: {feats.venue!r} ({mine}, {feats.year}) "
        f"vs {paper.venue!r} ({theirs}, {paper.year})"
    )


def _identifier_conflict(
    ref: Reference | Paper,
    paper: Paper,
    versions: tuple[Sequence[str], Sequence[str]] | None = None,
) -> bool:
    """The reference names an identifier of a scheme the paper also has, for another work.

    Versions of one deposit (:func:`~citeledger.identifiers.version_key`) are one work, and
    a preprint-server or repository DOI never conflicts with another DOI: a preprint and its
    published version legitimately carry two. ``versions``: the version keys of ``ref``'s and
    ``paper``'s identifiers, in order, if already computed.
    """
    theirs_all = paper.identifiers
    if not theirs_all:
        return False
    for n, ident in enumerate(ref.identifiers):
        scheme = ident.scheme
        # The paper's own identifiers of that scheme, its preprint DOIs aside: a bioRxiv DOI
        # beside the journal DOI does not make another journal DOI compatible.
        same = [j for j, i in enumerate(theirs_all) if i.scheme is scheme]
        if not same:
            continue
        mine = version_key(ident) if versions is None else versions[0][n]
        if mine.startswith(PREPRINT_DOI_PREFIXES):
            continue
        theirs = [
            k
            for k in (
                version_key(theirs_all[j]) if versions is None else versions[1][j] for j in same
            )
            if not k.startswith(PREPRINT_DOI_PREFIXES)
        ]
        if theirs and mine not in theirs:
            return True
    return False
