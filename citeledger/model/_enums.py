"""The string enums of the model: resolution states and methods, kinds, facets and statuses."""

from __future__ import annotations

import enum

from citeledger.identifiers import Scheme

# --------------------------------------------------------------------------- enums


class ResolutionState(enum.StrEnum):
    """The six states of a reference resolution, as in the ledger's reference table."""

    #: A valid identifier found in the catalog, and the metadata agree.
    VERIFIED_EXACT = "verified_exact"
    #: No usable identifier; the best fuzzy candidate passed every threshold, clearly ahead.
    VERIFIED_FUZZY = "verified_fuzzy"
    #: No candidate, below threshold, or ambiguous between look-alikes.
    UNRESOLVED = "unresolved"
    #: Too little could be parsed out of the reference to try.
    PARSE_UNCERTAIN = "parse_uncertain"
    #: An identifier-looking fragment is malformed and no other route verified the reference.
    MALFORMED_IDENTIFIER = "malformed_identifier"
    #: A valid identifier found in the catalog whose metadata clearly disagree.
    METADATA_MISMATCH = "metadata_mismatch"

    @property
    def verified(self) -> bool:
        """Whether this state claims a match."""
        return self in (ResolutionState.VERIFIED_EXACT, ResolutionState.VERIFIED_FUZZY)

    @property
    def label(self) -> str:
        """Human label as printed in the ledger ("verified exact")."""
        return self.value.replace("_", " ")


class Method(enum.StrEnum):
    """How a resolution was reached: by which identifier scheme, fuzzily, or not at all."""

    DOI = "doi"
    ARXIV_ID = "arxiv_id"
    PMID = "pmid"
    PMCID = "pmcid"
    OPENALEX = "openalex"
    S2 = "s2"
    CORPUSID = "corpusid"
    FUZZY_TITLE = "fuzzy_title"
    #: No title: the journal, volume and first page found the work, the year or the authors
    #: confirmed it (references as physics and chemistry print them, "Phys. Rev. 47, 777").
    JOURNAL_VOLUME_PAGE = "journal_volume_page"
    NO_RESOLVER_LINK = "no_resolver_link"

    @classmethod
    def for_scheme(cls, scheme: Scheme | str) -> Method:
        """The method of resolving by an identifier of ``scheme``."""
        return _SCHEME_METHOD[Scheme(scheme)]

    @property
    def label(self) -> str:
        """Human label as printed in the ledger ("arxiv_id", "no resolver link")."""
        return "no resolver link" if self is Method.NO_RESOLVER_LINK else self.value


_SCHEME_METHOD = {
    Scheme.DOI: Method.DOI,
    Scheme.ARXIV: Method.ARXIV_ID,
    Scheme.PMID: Method.PMID,
    Scheme.PMCID: Method.PMCID,
    Scheme.OPENALEX: Method.OPENALEX,
    Scheme.S2: Method.S2,
    Scheme.CORPUSID: Method.CORPUSID,
}


class Agreement(enum.StrEnum):
    """How one field of a reference agrees with a candidate's."""

    AGREE = "agree"
    PARTIAL = "partial"
    DISAGREE = "disagree"
    MISSING = "missing"


class WorkType(enum.StrEnum):
    """Kind of work, coarse enough to compare across sources."""

    ARTICLE = "article"
    PREPRINT = "preprint"
    PROCEEDINGS_ARTICLE = "proceedings_article"
    BOOK = "book"
    CHAPTER = "chapter"
    DATASET = "dataset"
    THESIS = "thesis"
    REPORT = "report"
    SOFTWARE = "software"
    NOTICE = "notice"
    OTHER = "other"


class RelationKind(enum.StrEnum):
    """A link from one work to another, as sources assert it."""

    PREPRINT_OF = "preprint_of"
    HAS_PREPRINT = "has_preprint"
    VERSION_OF = "version_of"
    HAS_VERSION = "has_version"
    SAME_AS = "same_as"


class Direction(enum.StrEnum):
    """Which way an observation points relative to the record's paper."""

    INBOUND = "inbound"
    OUTBOUND = "outbound"


class CheckStatus(enum.StrEnum):
    """Whose word an inbound observation's state is: our check, no check, or the source's.

    .. versionadded:: 0.2.0
    """

    #: The citing work's own reference list was read and every entry resolved against the
    #: paper's small catalog: the state is citeledger's (the resolver's same rules as outbound).
    CHECKED = "checked"
    #: The citing work's reference list could not be had (see :class:`NotChecked`): the source
    #: lists the work as citing, nothing more is claimed (no resolution).
    NOT_CHECKED = "not_checked"
    #: Checking was switched off (``check_inbound=False``): the state is the listing source's.
    ASSERTED = "asserted"


class NotChecked(enum.StrEnum):
    """Why a citing work's reference list was not read.

    .. versionadded:: 0.2.0
    """

    #: No source offers the citing work's reference list in order, by any of its identifiers.
    NO_SOURCE = "no_source"
    #: A source that has the list failed to send it (after the transport's retries).
    FETCH_FAILED = "fetch_failed"
    #: The citing work lies beyond the disclosed check cap.
    CAP = "cap"

    @property
    def label(self) -> str:
        """Human label ("no source has the reference list")."""
        return _NOT_CHECKED_LABELS[self]


_NOT_CHECKED_LABELS = {
    NotChecked.NO_SOURCE: "no source has the reference list",
    NotChecked.FETCH_FAILED: "reference list fetch failed",
    NotChecked.CAP: "beyond the disclosed check cap",
}


class EventKind(enum.StrEnum):
    """Source-reported events about a work."""

    RETRACTION = "retraction"
    CORRECTION = "correction"
    EXPRESSION_OF_CONCERN = "expression_of_concern"
    WITHDRAWAL = "withdrawal"
    ERRATUM = "erratum"
    REINSTATEMENT = "reinstatement"
    ADDENDUM = "addendum"
    OTHER = "other"


class NoticeStatus(enum.StrEnum):
    """Outcome of checking sources for events about a work."""

    EVENTS_FOUND = "events_found"
    #: None found in the named sources as of the check time: not the same as unavailable.
    NONE_FOUND = "none_found"
    UNAVAILABLE = "unavailable"


class MeasurementKind(enum.StrEnum):
    """What a measurement counts."""

    CITED_BY = "cited_by"
    REFERENCES = "references"
    INFLUENTIAL_CITED_BY = "influential_cited_by"


class Facet(enum.StrEnum):
    """The facets of a citation record's coverage vector."""

    REFERENCE_RESOLUTION = "reference_resolution"
    STANDING_NOTICES = "standing_notices"
    INBOUND_ITEMIZATION = "inbound_itemization"
    #: Citing works whose own reference list was read and checked (``.. versionadded:: 0.2.0``).
    INBOUND_RESOLUTION = "inbound_resolution"
    EXTERNAL_CITATION_MEASUREMENTS = "external_citation_measurements"


class CoverageState(enum.StrEnum):
    """How completely a facet was measured."""

    COMPLETE = "complete"
    PARTIAL = "partial"
    UNAVAILABLE = "unavailable"
    NOTHING_TO_MEASURE = "nothing_to_measure"
