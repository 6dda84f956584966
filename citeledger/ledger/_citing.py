"""Distinct citing works: grouping inbound observations, self-citation, area profiles.

Pure functions over observations already fetched; no source is asked here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from citeledger._text import key_text
from citeledger.identifiers import Scheme, work_key
from citeledger.ledger._util import _merge_names, _unique
from citeledger.model import RelationKind
from citeledger.page import AreaProfile, CitingWork
from citeledger.resolve.names import shared_authors
from citeledger.resolve.versions import other_publication

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Mapping, Sequence

    from citeledger.identifiers import Identifier
    from citeledger.model import Measurement, Observation, Paper


def _shared_authors(a: Paper, b: Paper) -> tuple[bool | None, tuple[str, ...]]:
    """Whether ``b`` shares an author with ``a`` (None: an author list is unknown), and who.

    One person by ORCID when both records carry one, else by full-name agreement
    (:func:`~citeledger.resolve.names.same_person`): never by family name and first initial alone.
    Shared authors are named as ``b`` (the citing paper) writes them.
    """
    if not a.authors or not b.authors:
        return None, ()
    shared = tuple(dict.fromkeys(author.name for author in shared_authors(a.authors, b.authors)))
    return bool(shared), shared


def _link_reason(a: Identifier, b: Identifier) -> str:
    """Why two identifiers with one work key name the same work."""
    if a.scheme is not b.scheme and Scheme.DOI in (a.scheme, b.scheme):
        doi, arxiv = (a, b) if a.scheme is Scheme.DOI else (b, a)
        return f"arXiv DataCite DOI {doi} is {arxiv}"
    if a == b:
        return f"same identifier {a}"
    return f"versions of one work ({a}, {b})"


def _families(paper: Paper) -> set[str]:
    return {a.family_key for a in paper.authors if a.family_key}


def _apart(pi: Paper, pj: Paper) -> str:
    """Why two citing records of one title were kept apart, naming what does link them."""
    if pi.year is None or pj.year is None:
        why = "year unknown"
    elif pi.year != pj.year:
        why = f"years differ ({pj.year}, {pi.year})"
    elif not _families(pi) or not _families(pj):
        why = "author list unknown"
    else:
        why = "no shared author"
    together = _shared_authors(pj, pi)[1]
    if together:
        why += f"; shared author {together[0]}, but not one publication of the work"
        missing = "no identifier or relation links them, and the resolver's rule for another "
        missing += "publication (one title, agreeing authors, a preprint and its later "
        missing += "published version, or conference and journal versions) does not apply"
    else:
        missing = "no identifier, relation or shared author links them"
    return f"{why}; {missing}"


def _group_citing(
    paper: Paper,
    inbound: Sequence[Observation],
    counts: Mapping[str, list[Measurement]],
) -> list[CitingWork]:
    """Group inbound observations into distinct citing works, with the reason for each merge.

    Observations are grouped only when their identifiers link them (one work key: the same
    identifier, arXiv versions, an arXiv DataCite DOI and its arXiv id), when a source asserted
    a preprint/published (or other version) relation between them, or when they share a title
    of at least four words and either are two publications of one work by the resolver's own
    rule (:func:`~citeledger.resolve.versions.other_publication`: agreeing authors, a preprint
    and its later published version, or conference and journal versions), cite this paper at
    the same reference number (with no contradicting year or author list), or share the year
    and at least one author family name. The same title and year alone never groups (two
    papers can share a title); such look-alikes are listed in ``CitingWork.unlinked`` with why
    they were kept apart.
    """
    parent = list(range(len(inbound)))
    reasons: dict[int, list[str]] = {}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int, why: str) -> None:
        ri, rj = find(i), find(j)
        if ri == rj:
            return
        parent[rj] = ri
        reasons.setdefault(ri, []).extend([*reasons.pop(rj, []), why])

    # 1. Identifiers: one work key (exact identifier, arXiv versions, arXiv DataCite DOIs).
    first_by_key: dict[str, tuple[int, Identifier]] = {}
    for i, obs in enumerate(inbound):
        for ident in obs.citing.identifiers:
            key = work_key(ident)
            if key in first_by_key:
                j, other = first_by_key[key]
                union(j, i, _link_reason(other, ident))
            else:
                first_by_key[key] = (i, ident)
    # 2. Relations a source asserted (preprint of / has preprint / version of).
    for i, obs in enumerate(inbound):
        for rel in obs.citing.related:
            hit = first_by_key.get(work_key(rel.identifier))
            if hit is None:
                continue
            if rel.kind in (RelationKind.PREPRINT_OF, RelationKind.HAS_PREPRINT):
                why = f"preprint and published version ({rel.kind.value} {rel.identifier}"
            else:
                why = f"versions of one work ({rel.kind.value} {rel.identifier}"
            why += f", asserted by {rel.source})" if rel.source else ")"
            union(hit[0], i, why)
    # 3. Same title (at least four words) and year, and a shared author family name.
    by_title: dict[str, list[int]] = {}
    for i, obs in enumerate(inbound):
        title = key_text(obs.citing.title)
        # Generic short titles ("Editorial", "Reply to comment") are never matched on title.
        if len(title.split()) >= 4:
            by_title.setdefault(title, []).append(i)
    lookalikes: dict[int, list[tuple[int, str]]] = {}
    for members in by_title.values():
        for pos, i in enumerate(members):
            pi = inbound[i].citing
            for j in members[:pos]:
                pj = inbound[j].citing
                if find(i) == find(j):
                    continue
                shared = sorted(_families(pi) & _families(pj))
                if pi.year is not None and pi.year == pj.year and shared:
                    union(j, i, f"same title and year ({pi.year}) and shared author {shared[0]}")
                    continue
                versions = other_publication(pj, pi)
                if versions:
                    # The resolver's own rule for another publication of one work.
                    union(j, i, f"another publication of one work: {versions}")
                    continue
                pos_i, pos_j = inbound[i].position, inbound[j].position
                years_clash = pi.year is not None and pj.year is not None and pi.year != pj.year
                authors_clash = bool(_families(pi) and _families(pj)) and not shared
                if pos_i is not None and pos_i == pos_j and not years_clash and not authors_clash:
                    # One title citing this paper at the same reference number: the seed's "same
                    # citing paper seen twice" (two link tables, two states), not two papers.
                    union(j, i, f"same title and same reference number ({pos_i}) citing this paper")
                    continue
                why = _apart(pi, pj)
                lookalikes.setdefault(i, []).append((j, why))
                lookalikes.setdefault(j, []).append((i, why))
    groups: dict[int, list[int]] = {}
    for i in range(len(inbound)):
        groups.setdefault(find(i), []).append(i)

    def citing_work(root: int, members: list[int]) -> CitingWork:
        """One group's citing work: why it was grouped, and the look-alikes kept apart."""
        papers = [inbound[i].citing for i in members]
        best = max(papers, key=lambda p: (len(p.identifiers), bool(p.authors), bool(p.year)))
        if len(papers) > 1:
            # Every version's identifiers and areas (OpenAlex topics, arXiv categories, S2
            # fields), so the area filter and lookups find the work by any of them.
            best = attrs.evolve(
                best,
                identifiers=_unique(i for p in [best, *papers] for i in p.identifiers),
                areas=_merge_names([p.areas for p in [best, *papers]]),
            )
        merged: list[str] = []
        if len(members) > 1:
            becauses = list(dict.fromkeys(reasons.get(root, []))) or ["identical citing paper"]
            merged = [f"{len(members)} observations of one citing work: " + "; ".join(becauses)]
        unlinked: dict[int, str] = {}
        for i in members:
            for k, apart in lookalikes.get(i, []):
                their = find(k)
                if their != root:
                    # Named by its first observation: look-alikes can share a title key.
                    first = inbound[groups[their][0]].id
                    unlinked.setdefault(
                        their,
                        f"same title as the citing work of observation {first}, "
                        f"not grouped ({apart})",
                    )
        self_cite, shared_names = _shared_authors(paper, best)
        return CitingWork(
            key=best.key,
            paper=best,
            observations=_merge_names([[inbound[i].id] for i in members]),
            sources=_merge_names([[inbound[i].source] for i in members]),
            grouping=tuple(merged),
            self_citation=self_cite,
            shared_authors=shared_names,
            cited_by=_cited_by(papers, counts),
            unlinked=tuple(unlinked.values()),
        )

    return [citing_work(*group) for group in sorted(groups.items(), key=lambda kv: kv[1][0])]


def _cited_by(
    papers: Sequence[Paper], counts: Mapping[str, list[Measurement]]
) -> tuple[Measurement, ...]:
    """Every count of any of ``papers`` (by each one's key and work keys), each once."""
    measured: list[Measurement] = []
    for p in papers:
        for key in (p.key, *sorted(p.work_keys)):
            for m in counts.get(key, []):
                if m not in measured:
                    measured.append(m)
    return tuple(measured)


#: How each source's first listed area is named in an area profile's explanation, keyed by
#: source name. The wording belongs to the source's vocabulary (OpenAlex ranks topics and calls
#: the first "primary", arXiv lists the primary category first, Semantic Scholar has fields of
#: study), which only the source's name tells the ledger; an unlisted source gets the neutral
#: "<name> first listed area". A table here rather than a hook on each adapter keeps the
#: explanation text in one place, next to the code that derives the profiles.
AREA_PLACEMENT_LABELS: Mapping[str, str] = {
    "openalex": "OpenAlex primary topic",
    "arxiv": "arXiv primary category",
    "semanticscholar": "Semantic Scholar field of study",
}


def _derived_area_profiles(
    works: Sequence[CitingWork],
    descriptions: Sequence[Paper],
    inbound: Sequence[Observation],
    *,
    offered: set[str],
) -> list[AreaProfile]:
    """Area profiles from the itemized citing papers, one per source that gave their areas.

    Each citing paper counts once, in the first area its source lists (OpenAlex's primary
    topic, arXiv's primary category); the paper's own placement is the first area the *same*
    source gives it, so one vocabulary is compared with itself. Sources that already offered
    a profile (through ``area_profile()``) are left alone.
    """
    by_id = {o.id: o for o in inbound}
    out: list[AreaProfile] = []
    sources = _merge_names(w.sources for w in works)
    for src in sources:
        if src in offered:
            continue
        counts: dict[str, int] = {}
        observed: dt.datetime | None = None
        for w in works:
            mine = [by_id[i] for i in w.observations if i in by_id and by_id[i].source == src]
            areas = next((o.citing.areas for o in mine if o.citing.areas), ())
            if not areas:
                continue
            counts[areas[0]] = counts.get(areas[0], 0) + 1
            latest = max(o.observed for o in mine)
            observed = latest if observed is None else max(observed, latest)
        own = next((d for d in descriptions if d.source == src), None)
        if not counts or observed is None or own is None or not own.areas:
            # Without the same source's placement of the paper there is nothing to compare.
            continue
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        out.append(
            AreaProfile(
                source=src,
                observed=observed,
                citing=ranked,
                own_placement=own.areas[0],
                placement_method=AREA_PLACEMENT_LABELS.get(src, f"{src} first listed area"),
            )
        )
    return out
