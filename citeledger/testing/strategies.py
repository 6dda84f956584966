"""Hypothesis strategies for the citeledger model: the tools to property-test resolution rules.

Install the ``testing`` extra (``pip install citeledger[testing]``) for Hypothesis. Every
strategy is a plain function whose options are keyword-only (Hypothesis guides/api-style.rst),
and every value drawn satisfies the model's invariants, so ``structure(unstructure(x)) == x``.

* identifiers: :func:`dois`, :func:`arxiv_ids`, :func:`pmids`, :func:`pmcids`,
  :func:`openalex_ids`, :func:`s2_ids`, :func:`corpus_ids`, :func:`identifiers`, and
  :func:`malformed_identifier_strings` for identifier-looking text that must be rejected;
* the model: :func:`authors`, :func:`titles`, :func:`papers`, :func:`references`,
  :func:`evidences`, :func:`resolutions`, :func:`observations`, :func:`events`,
  :func:`notice_checks`, :func:`measurements`, :func:`coverages`;
* :func:`noisy_references`: realistic citations *of a given paper*, as authors and PDF
  extraction mangle them (case, diacritics, Unicode normal forms, initials, abbreviated venues,
  dropped fields, "et al.", PDF hyphenation, whitespace and punctuation noise).

Example:
    A resolution rule should recognise every realistic citation of a paper::

        from hypothesis import given, strategies as st
        from citeledger.testing.strategies import noisy_references, papers


        @given(st.data())
        def test_my_rule(data):
            paper = data.draw(papers(with_identifiers=False))
            ref = data.draw(noisy_references(paper, keep_identifiers=False))
            assert my_rule(ref, paper)

With the ``hypothesis`` entry point registered, ``st.from_type(Paper)`` works too.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar, cast

from hypothesis import strategies as st

from citeledger.identifiers import Identifier, MalformedFragment, Scheme
from citeledger.model import (
    Agreement,
    Author,
    Coverage,
    CoverageState,
    Direction,
    Event,
    EventKind,
    Evidence,
    Facet,
    Measurement,
    MeasurementKind,
    Method,
    NoticeCheck,
    NoticeStatus,
    Observation,
    Paper,
    Reference,
    Relation,
    RelationKind,
    Resolution,
    ResolutionState,
    WorkType,
)
from citeledger.testing._idgen import (
    arxiv_ids,
    corpus_ids,
    dois,
    identifiers,
    malformed_identifier_strings,
    openalex_ids,
    pmcids,
    pmids,
    s2_ids,
)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "arxiv_ids",
    "authors",
    "corpus_ids",
    "coverages",
    "dois",
    "events",
    "evidences",
    "identifiers",
    "malformed_fragments",
    "malformed_identifier_strings",
    "measurements",
    "noisy_references",
    "notice_checks",
    "observations",
    "openalex_ids",
    "papers",
    "pmcids",
    "pmids",
    "references",
    "relations",
    "resolutions",
    "s2_ids",
    "titles",
    "utc_datetimes",
]

# --------------------------------------------------------------------------------------------
# Vocabularies. Written for this module (not copied from any data set): common words of
# scholarly titles across fields, a few eponyms with diacritics, names from many languages.
# --------------------------------------------------------------------------------------------

_TITLE_WORDS: Final = (
    "accelerated", "accurate", "acoustic", "active", "adaptive", "adversarial", "aerosol",
    "aggregation", "algebraic", "algorithm", "alignment", "allocation", "amplification",
    "analysis", "anomalous", "antibody", "approach", "approximate", "architecture", "assessment",
    "asymmetric", "asymptotic", "atmospheric", "attention", "automated", "autonomous",
    "bacterial", "balanced", "bayesian", "behaviour", "benchmark", "binding", "biological",
    "biomarkers", "boundary", "brain", "calibration", "cancer", "carbon", "cardiac", "catalytic",
    "causal", "cellular", "characterization", "chemical", "chronic", "classification",
    "climate", "clinical", "clustering", "coherent", "cohort", "collective", "combinatorial",
    "communication", "comparative", "complex", "compression", "computational", "condensed",
    "conditional", "conformal", "connectivity", "conservation", "constraints", "continuous",
    "control", "convergence", "convex", "coronary", "correlated", "cortical", "coupling",
    "critical", "crystal", "cyclic", "dark", "decentralized", "decoding", "deep", "defects",
    "delivery", "dense", "density", "design", "detection", "deterministic", "development",
    "diabetes", "diagnosis", "differential", "diffusion", "digital", "dimensional", "discrete",
    "disease", "disorder", "distributed", "diversity", "domain", "dynamics", "early", "ecological",
    "effective", "efficient", "elastic", "electronic", "embedding", "emission", "empirical",
    "endoscopic", "energy", "engineering", "ensemble", "entanglement", "environmental", "enzyme",
    "equations", "equilibrium", "estimation", "evaluation", "evidence", "evolution", "exact",
    "excitation", "experimental", "explainable", "exploration", "expression", "factors", "fast",
    "feedback", "field", "finite", "flexible", "flow", "fluid", "formation", "framework",
    "functional", "fusion", "galaxy", "gaussian", "gene", "generalization", "generative",
    "genetic", "genome", "geometric", "global", "gradient", "graph", "gravitational", "growth",
    "health", "heterogeneous", "hierarchical", "high", "human", "hybrid", "hydrogen", "imaging",
    "immune", "impact", "improved", "inference", "infection", "information", "inhibition",
    "integrated", "interaction", "interface", "intervention", "invariant", "inverse", "kernel",
    "kinetic", "label", "language", "large", "lattice", "layer", "learning", "linear", "liquid",
    "local", "long", "low", "machine", "magnetic", "management", "mapping", "markov", "mass",
    "materials", "matrix", "measurement", "mechanical", "mechanisms", "medical", "membrane",
    "memory", "metabolic", "method", "microbial", "model", "modelling", "modulation",
    "molecular", "monitoring", "mortality", "motion", "multimodal", "multiscale", "mutations",
    "natural", "network", "neural", "neuronal", "noise", "nonlinear", "novel", "nuclear",
    "numerical", "observations", "online", "optical", "optimal", "optimization", "orbital",
    "oscillations", "outcomes", "oxidative", "parallel", "parameter", "particle", "patients",
    "pattern", "perception", "performance", "periodic", "phase", "phenotype", "photonic",
    "physical", "plasma", "policy", "polymer", "population", "potential", "prediction",
    "pretraining", "prevalence", "probabilistic", "processing", "protein", "quantum", "random",
    "rapid", "reasoning", "receptor", "recognition", "reconstruction", "recurrent", "reduction",
    "regression", "regulation", "reinforcement", "relativistic", "reliable", "representation",
    "resistance", "resolution", "response", "retrieval", "risk", "robust", "sampling",
    "scalable", "scattering", "segmentation", "selection", "semantic", "sensing", "sequence",
    "signal", "simulation", "single", "social", "soft", "solar", "sparse", "spatial",
    "spectral", "spin", "stability", "statistical", "stellar", "stochastic", "strategies",
    "stress", "structural", "structure", "study", "supervised", "surface", "survey", "symmetry",
    "synthesis", "synthetic", "system", "temporal", "tensor", "theory", "thermal", "tissue",
    "topological", "trade-offs", "training", "transfer", "transformer", "transition",
    "transport", "treatment", "trial", "tumour", "uncertainty", "universal", "unsupervised",
    "validation", "variational", "vascular", "vision", "visual", "wave", "weak", "zero-shot",
)  # fmt: skip

# Eponyms as they appear in titles; their accents are what reference strings lose.
_EPONYMS: Final = (
    "Schrödinger", "Poincaré", "Gödel", "Erdős", "Bézier", "Hölder", "Lévy", "Möbius",
    "Fréchet", "Kähler", "Sørensen", "Čech", "Łojasiewicz", "Ångström", "Gâteaux", "Bragg",
    "Fourier", "Markov", "Hilbert", "Navier-Stokes",
)  # fmt: skip

_STOPWORDS: Final = ("of", "for", "in", "and", "with", "on", "via", "from", "to", "under", "the")

# Eponyms make up about one title word in seventeen.
_CONTENT_WORDS: Final = st.sampled_from(_TITLE_WORDS + _EPONYMS)

_FAMILY_NAMES: Final = (
    "Smith", "Müller", "García", "Nguyễn", "Wang", "Kowalski", "Sørensen", "Dvořák", "Øster",
    "Çelik", "Šimić", "Núñez", "Ibáñez", "Pérez", "Björk", "Łukasik", "Okonkwo", "Tanaka",
    "Yılmaz", "Žukauskas", "Rossi", "Dubois", "Lefèvre", "Schäfer", "Kim", "Chen", "Singh",
    "Patel", "Johansson", "Virtanen", "O'Brien", "Fitzgerald", "Abramowitz", "Hernández",
    "Gonçalves", "Mäkinen", "Ferreira", "Ivanova", "Popescu", "Rajbhandari", "Endo", "Doe",
    "van der Berg", "de la Cruz", "von Neumann", "Le Roux", "da Silva", "Al-Sayed",
    "Smith-Jones", "Zhang", "Bianchi", "Novák",
)  # fmt: skip

_GIVEN_NAMES: Final = (
    "José", "Zoë", "Jürgen", "François", "Søren", "Ilkka", "Ana", "Łucja", "Chidi", "Yuki",
    "Mehmet", "Ewa", "Jean-Pierre", "Marie", "Björn", "Ngozi", "Wei", "Priya", "Olga",
    "Andrés", "Agnès", "Håkon", "Samyam", "Kate", "John", "Mary Ann", "Hans Peter", "Ioana",
    "Sinéad", "Tomáš", "Dániel", "Ayşe", "Li", "Rafael", "Émilie", "Karl", "Hye-jin", "Aoife",
)  # fmt: skip

# (full name, ISO 4 style abbreviation)
_VENUES: Final = (
    ("Journal of Machine Learning Research", "J. Mach. Learn. Res."),
    ("Physical Review Letters", "Phys. Rev. Lett."),
    ("Proceedings of the National Academy of Sciences", "Proc. Natl. Acad. Sci."),
    ("Nature Communications", "Nat. Commun."),
    ("IEEE Transactions on Pattern Analysis and Machine Intelligence",
     "IEEE Trans. Pattern Anal. Mach. Intell."),
    ("Journal of the American Chemical Society", "J. Am. Chem. Soc."),
    ("Nucleic Acids Research", "Nucleic Acids Res."),
    ("Annals of Statistics", "Ann. Stat."),
    ("Journal of Chemical Physics", "J. Chem. Phys."),
    ("Astrophysical Journal", "Astrophys. J."),
    ("Neural Computation", "Neural Comput."),
    ("Communications of the ACM", "Commun. ACM"),
    ("New England Journal of Medicine", "N. Engl. J. Med."),
    ("Gastrointestinal Endoscopy", "Gastrointest. Endosc."),
    ("Monthly Notices of the Royal Astronomical Society", "Mon. Not. R. Astron. Soc."),
    ("Journal of Fluid Mechanics", "J. Fluid Mech."),
    ("Bioinformatics", "Bioinformatics"),
    ("Advances in Neural Information Processing Systems", "Adv. Neural Inf. Process. Syst."),
    ("Journal of High Energy Physics", "J. High Energy Phys."),
    ("Biometrika", "Biometrika"),
    ("Annals of Mathematics", "Ann. Math."),
    ("Lecture Notes in Computer Science", "Lect. Notes Comput. Sci."),
)  # fmt: skip

_AREAS: Final = (
    "cs.LG", "cs.CL", "cs.CV", "cs.AI", "stat.ML", "math.PR", "math.OC", "q-bio.NC",
    "astro-ph.CO", "hep-th", "cond-mat.stat-mech", "quant-ph", "physics.flu-dyn",
    "Medicine", "Biology", "Chemistry", "Computer science",
)  # fmt: skip

_SOURCES: Final = ("crossref", "openalex", "semanticscholar", "arxiv", "opencitations")
_NOTICE_SOURCES: Final = ("crossref", "retractionwatch", "openalex", "pubmed")

_FORMS: Final[tuple[Literal["NFC", "NFD"], ...]] = ("NFC", "NFD")
_ACCENTED: Final = {"a": "á", "e": "é", "i": "í", "o": "ö", "u": "ü", "n": "ñ", "c": "ç"}
# Letters NFKD leaves whole; a reference string folds them like this.
_FOLD: Final = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "ı": "i", "ß": "ss"})


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


# --------------------------------------------------------------------------------------------
# Small building blocks
# --------------------------------------------------------------------------------------------

T = TypeVar("T")


@st.composite
def _call(draw: st.DrawFn, build: Callable[[st.DrawFn], Any]) -> Any:
    return build(draw)


def _drawing(build: Callable[[st.DrawFn], T]) -> st.SearchStrategy[T]:
    """A strategy drawing ``build(draw)``.

    Like ``@st.composite`` on ``build``, but decorating happens once, here at import: Hypothesis
    inspects the source of every function it decorates, which would otherwise cost milliseconds
    each time a strategy such as ``papers()`` is built (and ``data.draw(noisy_references(p))``
    builds one per example).
    """
    return cast("st.SearchStrategy[T]", _call(build))


_TEXT: Final = st.text(
    alphabet=st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=30
)
_SOURCE_NAMES: Final = st.sampled_from(_SOURCES)


def utc_datetimes(
    *, min_value: dt.datetime | None = None, max_value: dt.datetime | None = None
) -> st.SearchStrategy[dt.datetime]:
    """Aware datetimes, drawn in a few time zones and converted to UTC as the model stores them.

    Args:
        min_value: Earliest naive value (default 1990-01-01).
        max_value: Latest naive value (default 2100-01-01).
    """
    zones = st.sampled_from(
        (
            dt.UTC,
            dt.timezone(dt.timedelta(hours=2)),
            dt.timezone(dt.timedelta(hours=-5, minutes=-30)),
        )
    )
    return st.datetimes(
        min_value=min_value or dt.datetime(1990, 1, 1),  # noqa: DTZ001 - hypothesis bounds are naive
        max_value=max_value or dt.datetime(2100, 1, 1),  # noqa: DTZ001
        timezones=zones,
    ).map(lambda d: d.astimezone(dt.UTC))


def _orcid_checksum(digits: str) -> str:
    # ISO 7064 MOD 11-2, as ORCID specifies for its last character.
    total = 0
    for d in digits:
        total = (total + int(d)) * 2
    check = (12 - total % 11) % 11
    return "X" if check == 10 else str(check)


@st.composite
def _orcids(draw: st.DrawFn) -> str:
    digits = "000" + "".join(
        draw(st.lists(st.sampled_from("0123456789"), min_size=12, max_size=12))
    )
    digits = digits[:15]
    full = digits + _orcid_checksum(digits)
    return "-".join(full[i : i + 4] for i in range(0, 16, 4))


def authors(
    *, with_orcid: bool | None = None, with_raw: bool | None = None, ascii_only: bool = False
) -> st.SearchStrategy[Author]:
    """Authors with family and given names from many languages (diacritics included).

    Args:
        with_orcid: True always draws a (checksum-valid) ORCID iD, False never, None either.
        with_raw: True always sets ``raw`` ("Given Family"), False never, None either.
        ascii_only: Strip diacritics from the names.
    """
    orcids = _orcids()

    def build(draw: st.DrawFn) -> Author:
        family = draw(st.sampled_from(_FAMILY_NAMES))
        given = draw(st.sampled_from(_GIVEN_NAMES))
        if ascii_only:
            family, given = _strip_accents(family), _strip_accents(given)
        orcid = draw(orcids) if _flag(draw, with_orcid) else None
        raw = f"{given} {family}" if _flag(draw, with_raw) else None
        return Author(family=family, given=given, raw=raw, orcid=orcid)

    return _drawing(build)


def _flag(draw: st.DrawFn, value: bool | None) -> bool:
    return draw(st.booleans()) if value is None else value


def titles(
    *, min_words: int = 3, max_words: int = 14, subtitle: bool | None = None
) -> st.SearchStrategy[str]:
    """Realistic titles: words of scholarly titles, some eponyms with diacritics, a subtitle.

    Args:
        min_words: Fewest content words (stop words such as "of" come on top).
        max_words: Most content words.
        subtitle: True adds ": Subtitle" to every title of four or more content words, False
            never, None sometimes.
    """
    if min_words < 1 or max_words < min_words:
        msg = f"need 1 <= min_words <= max_words, got {min_words}, {max_words}"
        raise ValueError(msg)

    content = st.lists(_CONTENT_WORDS, min_size=min_words, max_size=max_words)
    masks = st.integers(0, 2**max_words - 1)

    def build(draw: st.DrawFn) -> str:
        # Few draws per title (a list, two bit masks): titles are drawn a lot, keep them cheap.
        picked = draw(content)
        stop_mask = draw(masks) & draw(masks)  # about one gap in four gets a stop word
        # The subtitle starts at content word ``cut`` (never after a stop word: "of: X").
        cut = (
            draw(st.integers(2, len(picked) - 1))
            if len(picked) >= 4 and _flag(draw, subtitle)
            else -1
        )
        words: list[str] = []
        for i, word in enumerate(picked):
            if i == cut:
                words[-1] += ":"
                word = word[:1].upper() + word[1:]  # noqa: PLW2901 - the subtitle's capital
            elif i and stop_mask >> i & 1:
                words.append(_STOPWORDS[(i + len(word)) % len(_STOPWORDS)])
            words.append(word)
        words[0] = words[0][:1].upper() + words[0][1:]
        if draw(st.booleans()):  # Title Case, as many journals print it
            words = [w if w in _STOPWORDS else w[:1].upper() + w[1:] for w in words]
        return " ".join(words)

    return _drawing(build)


def relations() -> st.SearchStrategy[Relation]:
    """Links between works (preprint of, version of, ...)."""
    return st.builds(
        Relation,
        kind=st.sampled_from(RelationKind),
        identifier=identifiers(),
        source=st.none() | _SOURCE_NAMES,
    )


@st.composite
def _pages(draw: st.DrawFn) -> str:
    first = draw(st.integers(1, 3000))
    style = draw(st.integers(0, 2))
    if style == 0:
        return f"{first}-{first + draw(st.integers(0, 40))}"
    if style == 1:
        return f"e{draw(st.integers(1000, 999999))}"
    return str(first)


def papers(
    *,
    with_identifiers: bool | None = None,
    min_title_words: int = 3,
    max_title_words: int = 14,
    max_authors: int = 8,
    work_types: tuple[WorkType, ...] | None = None,
) -> st.SearchStrategy[Paper]:
    """Papers with realistic titles, authors, venues, years and (optionally) identifiers.

    Args:
        with_identifiers: True draws at least one identifier, False none, None either.
        min_title_words: Fewest content words in the title.
        max_title_words: Most content words in the title.
        max_authors: Most authors (at least one is always drawn).
        work_types: Restrict the work type; None draws any (or none).
    """
    if max_authors < 1:
        msg = f"max_authors must be >= 1, got {max_authors}"
        raise ValueError(msg)

    # Sub-strategies are built once here, not per draw: building a composite strategy inspects
    # its source, which would dominate the cost of every example.
    if with_identifiers is None:
        id_lists = st.lists(identifiers(), max_size=3)
    elif with_identifiers:
        id_lists = st.lists(identifiers(), min_size=1, max_size=3)
    else:
        id_lists = st.just([])
    title_st = titles(min_words=min_title_words, max_words=max_title_words)
    author_lists = st.lists(authors(), min_size=1, max_size=max_authors)
    abstracts = st.none() | titles(min_words=8, max_words=30)
    relation_lists = st.lists(relations(), max_size=2)
    pages = st.none() | _pages()

    def build(draw: st.DrawFn) -> Paper:
        ids = draw(id_lists)
        year = draw(st.none() | st.integers(1950, 2026))
        date = None
        if year is not None and draw(st.booleans()):
            date = draw(st.dates(dt.date(year, 1, 1), dt.date(year, 12, 31)))
        venue = draw(st.none() | st.sampled_from(_VENUES).map(lambda v: v[0]))
        work_type = draw(
            st.none() | (st.sampled_from(work_types) if work_types else st.sampled_from(WorkType))
        )
        return Paper(
            identifiers=ids,
            title=draw(title_st),
            authors=draw(author_lists),
            year=year,
            date=date,
            venue=venue,
            volume=draw(st.none() | st.integers(1, 400).map(str)),
            issue=draw(st.none() | st.integers(1, 24).map(str)),
            pages=draw(pages),
            work_type=work_type,
            areas=draw(st.lists(st.sampled_from(_AREAS), max_size=3, unique=True)),
            abstract=draw(abstracts),
            related=draw(relation_lists),
            source=draw(st.none() | _SOURCE_NAMES),
        )

    return _drawing(build)


@st.composite
def _malformed_fragment(draw: st.DrawFn) -> MalformedFragment:
    text = draw(malformed_identifier_strings())
    start = draw(st.integers(0, 500))
    return MalformedFragment(
        text=text,
        scheme=draw(st.sampled_from(Scheme)),
        reason=draw(st.sampled_from(("DOI has no suffix", "month 13 does not exist", "truncated"))),
        start=start,
        end=start + len(text),
    )


def malformed_fragments() -> st.SearchStrategy[MalformedFragment]:
    """Malformed fragments as :func:`citeledger.identifiers.find_identifiers` reports them."""
    return _malformed_fragment()


def references(*, with_raw: bool | None = None) -> st.SearchStrategy[Reference]:
    """Structured reference-list entries (not tied to any paper; see :func:`noisy_references`).

    Args:
        with_raw: True always sets a raw string, False never, None either.
    """
    title_st = st.none() | titles(max_words=10)
    author_lists = st.lists(authors(with_orcid=False), max_size=5)
    id_lists = st.lists(identifiers(), max_size=2)
    malformed_lists = st.lists(malformed_fragments(), max_size=2)

    def build(draw: st.DrawFn) -> Reference:
        title = draw(title_st)
        raw = None
        if _flag(draw, with_raw):
            raw = draw(_TEXT) if title is None else f"{title}. {draw(_TEXT)}"
        first_page = draw(st.none() | st.integers(1, 3000).map(str))
        return Reference(
            position=draw(st.none() | st.integers(1, 400)),
            raw=raw,
            key=draw(st.none() | st.integers(1, 400).map(lambda n: f"ref{n}")),
            title=title,
            authors=draw(author_lists),
            year=draw(st.none() | st.integers(1900, 2026)),
            venue=draw(
                st.none() | st.sampled_from(_VENUES).map(lambda v: v[draw(st.integers(0, 1))])
            ),
            volume=draw(st.none() | st.integers(1, 400).map(str)),
            issue=draw(st.none() | st.integers(1, 24).map(str)),
            first_page=first_page,
            last_page=None
            if first_page is None
            else draw(st.none() | st.integers(1, 40).map(lambda n: str(int(first_page) + n))),
            identifiers=draw(id_lists),
            malformed=draw(malformed_lists),
            asserted_by=draw(st.none() | st.sampled_from(("publisher", "crossref"))),
            parse_confidence=draw(st.none() | st.floats(0, 1)),
            parse_doubt=draw(st.none() | _TEXT),
            unreadable=draw(st.none() | _TEXT),
            extra=draw(
                st.lists(st.tuples(st.sampled_from(("note", "url", "edition")), _TEXT), max_size=2)
            ),
        )

    return _drawing(build)


def evidences() -> st.SearchStrategy[Evidence]:
    """Per-field comparison evidence."""
    return st.builds(
        Evidence,
        field=st.sampled_from(("title", "authors", "year", "venue", "doi", "arxiv", "pages")),
        agreement=st.sampled_from(Agreement),
        score=st.none() | st.floats(0, 100),
        left=st.none() | _TEXT,
        right=st.none() | _TEXT,
        note=st.none() | _TEXT,
    )


_ID_METHODS: Final = (
    Method.DOI,
    Method.ARXIV_ID,
    Method.PMID,
    Method.PMCID,
    Method.OPENALEX,
    Method.S2,
    Method.CORPUSID,
)


def resolutions(
    *, states: tuple[ResolutionState, ...] | None = None
) -> st.SearchStrategy[Resolution]:
    """Resolutions consistent with their state.

    Verified exact and metadata mismatch resolve by an identifier scheme and name a target;
    verified fuzzy resolves by fuzzy title with a target; the other states have no target.

    Args:
        states: Restrict the states drawn.
    """
    targets = papers(max_authors=3)
    alternatives = st.lists(papers(max_authors=2), max_size=2)
    evidence_lists = st.lists(evidences(), max_size=3)

    def build(draw: st.DrawFn) -> Resolution:
        state = draw(st.sampled_from(states or tuple(ResolutionState)))
        if state in (ResolutionState.VERIFIED_EXACT, ResolutionState.METADATA_MISMATCH):
            method: Method | None = draw(st.sampled_from(_ID_METHODS))
        elif state is ResolutionState.VERIFIED_FUZZY:
            method = Method.FUZZY_TITLE
        else:
            method = draw(
                st.none() | st.sampled_from((Method.NO_RESOLVER_LINK, Method.FUZZY_TITLE))
            )
        has_target = state.verified or state is ResolutionState.METADATA_MISMATCH
        return Resolution(
            state=state,
            method=method,
            target=draw(targets) if has_target else None,
            score=draw(st.floats(0, 100)),
            evidence=draw(evidence_lists),
            reason=draw(st.text(max_size=40)),
            alternatives=draw(alternatives) if state is ResolutionState.UNRESOLVED else (),
        )

    return _drawing(build)


def observations(*, direction: Direction | None = None) -> st.SearchStrategy[Observation]:
    """Sightings of a citation by one source (deterministic ids computed by the model).

    Args:
        direction: Restrict the direction; None draws either.
    """
    maybe_resolutions = st.none() | resolutions()
    works = papers(max_authors=3)
    maybe_references = st.none() | references()
    times = utc_datetimes()

    def build(draw: st.DrawFn) -> Observation:
        resolution = draw(maybe_resolutions)
        cited = resolution.target if resolution is not None else draw(st.none() | works)
        return Observation(
            direction=direction or draw(st.sampled_from(Direction)),
            citing=draw(works),
            cited=cited,
            position=draw(st.none() | st.integers(1, 400)),
            reference=draw(maybe_references),
            resolution=resolution,
            source=draw(_SOURCE_NAMES),
            observed=draw(times),
            contexts=draw(st.lists(_TEXT, max_size=2)),
            intents=draw(
                st.lists(
                    st.sampled_from(("methodology", "background", "result")),
                    max_size=2,
                    unique=True,
                )
            ),
            influential=draw(st.none() | st.booleans()),
        )

    return _drawing(build)


def events(*, kinds: tuple[EventKind, ...] | None = None) -> st.SearchStrategy[Event]:
    """Source-reported events (retractions, corrections, ...).

    Args:
        kinds: Restrict the kinds drawn.
    """
    return st.builds(
        Event,
        kind=st.sampled_from(kinds or tuple(EventKind)),
        subject=st.none() | identifiers(),
        notice=st.none() | dois(arxiv=False),
        date=st.none() | st.dates(dt.date(1950, 1, 1), dt.date(2030, 12, 31)),
        source=st.sampled_from(_NOTICE_SOURCES),
        label=st.none()
        | st.sampled_from(("Retraction", "Correction", "erratum", "Expression of Concern")),
        reason=st.none() | _TEXT,
    )


def notice_checks(*, status: NoticeStatus | None = None) -> st.SearchStrategy[NoticeCheck]:
    """Outcomes of checking sources for notices, valid for their status.

    "None found" always names its sources and time; "unavailable" always says why.

    Args:
        status: Restrict the status drawn.
    """
    event_lists = st.lists(events(), min_size=1, max_size=3)
    times = utc_datetimes()

    def build(draw: st.DrawFn) -> NoticeCheck:
        chosen = status or draw(st.sampled_from(NoticeStatus))
        subject: Identifier | None = draw(st.none() | identifiers())
        sources = draw(
            st.lists(st.sampled_from(_NOTICE_SOURCES), min_size=1, max_size=3, unique=True)
        )
        if chosen is NoticeStatus.EVENTS_FOUND:
            return NoticeCheck.found(
                draw(event_lists),
                sources=sources,
                checked=draw(times),
                subject=subject,
            )
        if chosen is NoticeStatus.NONE_FOUND:
            return NoticeCheck.none_found(sources=sources, checked=draw(times), subject=subject)
        return NoticeCheck.unavailable(
            draw(
                st.sampled_from(
                    (
                        "crossref returned 503 after 3 attempts",
                        "rate limited",
                        "no identifier to query",
                    )
                )
            ),
            sources=draw(st.lists(st.sampled_from(_NOTICE_SOURCES), max_size=2, unique=True)),
            checked=draw(st.none() | times),
            subject=subject,
        )

    return _drawing(build)


def measurements(
    *,
    sources: tuple[str, ...] | None = None,
    kinds: tuple[MeasurementKind, ...] | None = None,
    max_value: int = 100_000,
) -> st.SearchStrategy[Measurement]:
    """One source's dated counts.

    Args:
        sources: Restrict the sources drawn (one name gives comparable measurements).
        kinds: Restrict what is counted.
        max_value: Largest count.
    """
    return st.builds(
        Measurement,
        value=st.integers(0, max_value),
        source=st.sampled_from(sources or _SOURCES),
        observed=utc_datetimes(),
        kind=st.sampled_from(kinds or tuple(MeasurementKind)),
        subject=st.none() | identifiers(),
    )


def coverages(*, states: tuple[CoverageState, ...] | None = None) -> st.SearchStrategy[Coverage]:
    """Coverage entries whose counts agree with their state.

    Complete entries measured everything, partial ones fewer (with a reason), unavailable ones
    say why, and "nothing to measure" counts nothing.

    Args:
        states: Restrict the states drawn.
    """
    times = st.none() | utc_datetimes()

    def build(draw: st.DrawFn) -> Coverage:
        state = draw(st.sampled_from(states or tuple(CoverageState)))
        total: int | None = draw(st.integers(1, 500))
        reason = None
        if state is CoverageState.COMPLETE:
            measured = total
        elif state is CoverageState.PARTIAL:
            assert total is not None  # for mypy: drawn just above
            measured = draw(st.integers(0, total - 1))
            total = draw(st.sampled_from((total, None)))
            reason = draw(st.sampled_from(("page cap of 100 reached", "2 sources timed out")))
        elif state is CoverageState.UNAVAILABLE:
            measured, total = 0, None
            reason = "source unavailable: HTTP 503 after 3 attempts"
        else:
            measured, total = 0, 0
        return Coverage(
            facet=draw(st.sampled_from(Facet)),
            measured=measured,
            total=total,
            sources=draw(st.lists(_SOURCE_NAMES, max_size=3, unique=True)),
            observed=draw(times),
            state=state,
            reason=reason,
            note=draw(st.none() | st.just("under the disclosed page cap of 100")),
        )

    return _drawing(build)


# --------------------------------------------------------------------------------------------
# Noisy citations of one paper
# --------------------------------------------------------------------------------------------


def _abbreviate_venue(venue: str) -> str:
    for full, short in _VENUES:
        if full == venue:
            return short
    # Generic ISO 4-ish: drop function words, cut long words to a stem with a full stop.
    words = [w for w in venue.split() if w.lower() not in {"of", "the", "and", "in", "on", "for"}]
    return " ".join(w[:4] + "." if len(w) > 5 else w for w in words)


def _add_accent(word: str, draw: st.DrawFn) -> str:
    # The paper's metadata may be ASCII-folded while the citing author typed the accents.
    for name in (*_FAMILY_NAMES, *_EPONYMS):
        if _strip_accents(name) == word and name != word:
            return name
    vowels = [i for i, c in enumerate(word) if c in _ACCENTED]
    if not vowels:
        return word
    i = draw(st.sampled_from(vowels))
    return word[:i] + _ACCENTED[word[i]] + word[i + 1 :]


def _case(text: str, mode: int) -> str:
    if mode == 1:
        return text.lower()
    if mode == 2:
        return text.upper()
    if mode == 3:
        return " ".join(w[:1].upper() + w[1:] for w in text.split(" "))
    if mode == 4:  # sentence case
        return text[:1] + text[1:].lower()
    return text


def _noisy_title(draw: st.DrawFn, title: str) -> str:
    text = _case(title, draw(st.integers(0, 4)))
    diacritics = draw(st.integers(0, 3))
    if diacritics == 1:
        text = _strip_accents(text)
    elif diacritics == 2:
        words = text.split(" ")
        i = draw(st.integers(0, len(words) - 1))
        words[i] = _add_accent(words[i], draw)
        text = " ".join(words)
    punct = draw(st.integers(0, 4))
    if punct == 1:
        text = text.replace(":", "")
    elif punct == 2:
        text = text.replace("-", " ")
    elif punct == 3:
        text = f"\u201c{text}\u201d"
    elif punct == 4 and ":" in text and draw(st.booleans()):
        text = text.split(":", 1)[0]  # the subtitle is dropped
    return unicodedata.normalize(draw(st.sampled_from(_FORMS)), text)


def _noisy_author(draw: st.DrawFn, author: Author) -> Author:
    family = author.family or author.name
    given = author.given
    if draw(st.booleans()):
        family = _strip_accents(family)
    elif draw(st.integers(0, 4)) == 0:
        family = _add_accent(family, draw)
    if given:
        style = draw(st.integers(0, 3))
        parts = [p for p in given.replace("-", " -").split() if p]
        if style == 1:  # "J. P.", "J.-P."
            given = " ".join(("-" + p[1] + "." if p.startswith("-") else p[0] + ".") for p in parts)
            given = given.replace(" -", "-")
        elif style == 2:  # Vancouver "JP"
            given = "".join(p.lstrip("-")[0] for p in parts)
        elif style == 3:
            given = _strip_accents(given)
    if draw(st.integers(0, 5)) == 0:
        family = family.upper()
    form = draw(st.sampled_from(_FORMS))
    return Author(
        family=unicodedata.normalize(form, family),
        given=None if given is None else unicodedata.normalize(form, given),
    )


def _render_author(author: Author, style: int) -> str:
    family = author.family or ""
    given = author.given or ""
    if not given:
        return family
    if style == 1:  # Vancouver: "Smith JP"
        initials = "".join(p[0] for p in given.replace(".", " ").replace("-", " ").split())
        return f"{family} {initials}"
    if style == 2:  # "J. P. Smith"
        return f"{given} {family}"
    return f"{family}, {given}"


def _render(ref: Reference, *, et_al: bool, style: int, doi_text: str | None) -> str:
    names = [_render_author(a, style) for a in ref.authors]
    if style == 1:
        who = ", ".join(names)
    elif len(names) > 1 and not et_al:
        who = ", ".join(names[:-1]) + (", and " if style == 2 else " & ") + names[-1]
    else:
        who = ", ".join(names)
    if et_al:
        who += ", et al." if style != 1 else " et al."
    parts = [who.rstrip(".") + "." if who else ""]
    if style == 0 and ref.year is not None:  # APA: year after the authors
        parts.append(f"({ref.year}).")
    if ref.title:
        parts.append(ref.title.rstrip(".") + ".")
    venue_bits = [ref.venue or ""]
    if ref.volume:
        venue_bits.append(ref.volume + (f"({ref.issue})" if ref.issue else ""))
    if ref.first_page:
        venue_bits.append(ref.first_page + (f"\u2013{ref.last_page}" if ref.last_page else ""))
    venue = ", ".join(b for b in venue_bits if b)
    if venue:
        parts.append(venue + ("." if style == 0 or ref.year is None else ""))
    if style != 0 and ref.year is not None:
        parts.append(f"({ref.year})." if style == 2 else f"{ref.year}.")
    if doi_text:
        parts.append(doi_text)
    return " ".join(p for p in parts if p)


def _pdf_noise(draw: st.DrawFn, text: str) -> str:
    words = text.split(" ")
    long_words = [i for i, w in enumerate(words) if len(w) >= 8 and w.isalpha()]
    hyphenate = bool(long_words) and draw(st.booleans())
    if hyphenate:  # PDF hyphenation: "Endo-\nscopic"
        i = draw(st.sampled_from(long_words))
        cut = draw(st.integers(3, len(words[i]) - 3))
        words[i] = f"{words[i][:cut]}-\n{words[i][cut:]}"
    if len(words) > 3 and draw(st.integers(0, 1)):  # a line break where a space was
        i = draw(st.integers(1, len(words) - 1))
        words[i] = "\n" + words[i]
    out = " ".join(words).replace(" \n", "\n")
    noise = draw(st.integers(0, 3))
    if noise == 1:
        out = out.replace(". ", " .  ", 1)  # stray space before punctuation
    elif noise == 2:
        out = out.replace(", ", " ,", 1)
    elif noise == 3:
        out = "  " + out + " "
    return out


def noisy_references(
    paper: Paper,
    *,
    position: int | None = None,
    raw: bool | None = None,
    keep_identifiers: bool | None = None,
    drop_fields: bool = True,
) -> st.SearchStrategy[Reference]:
    r"""Realistic citations of ``paper``, as a citing paper's reference list prints them.

    The noise is what resolvers meet in practice: title case changed (lower, UPPER, Title,
    sentence), diacritics stripped or added, NFC or NFD, given names cut to initials ("J. P.",
    "JP"), family names upper-cased, venues abbreviated ("J. Mach. Learn. Res."), the subtitle
    dropped, fields dropped (year, venue, volume, pages), trailing authors replaced by "et al.";
    and in the raw-string variant, PDF hyphenation ("Endo-\nscopic"), line breaks and stray
    whitespace or punctuation. The paper's title (up to the subtitle) is always cited, so a
    sound resolution rule can find the paper.

    The raw-string variant goes through :meth:`Reference.from_string` (the parser in
    :mod:`citeledger.refparse`).

    Args:
        paper: The cited paper (needs a title).
        position: The reference's position in the list; None draws one.
        raw: True draws only raw-string references, False only structured ones, None both.
        keep_identifiers: True keeps the paper's identifiers, False drops them, None either.
        drop_fields: Whether fields other than title and first author may be dropped.

    Raises:
        ValueError: the paper has no title.
    """
    if not paper.title:
        msg = "noisy_references needs a paper with a title"
        raise ValueError(msg)

    def build(draw: st.DrawFn) -> Reference:
        pos = position if position is not None else draw(st.integers(1, 300))
        title = _noisy_title(draw, paper.title or "")
        people = [_noisy_author(draw, a) for a in paper.authors]
        et_al = False
        if drop_fields and len(people) > 2 and draw(st.booleans()):
            people = people[: draw(st.integers(1, min(3, len(people) - 1)))]
            et_al = True

        def keep(value: object) -> bool:
            return value is not None and not (drop_fields and draw(st.integers(0, 3)) == 0)

        venue = paper.venue
        if venue is not None and draw(st.booleans()):
            venue = _abbreviate_venue(venue)
        ids = paper.identifiers if _flag(draw, keep_identifiers) else ()
        structured = Reference(
            position=pos,
            title=title,
            authors=people,
            year=paper.year if keep(paper.year) else None,
            venue=venue if keep(venue) else None,
            volume=paper.volume if keep(paper.volume) else None,
            issue=paper.issue if keep(paper.issue) else None,
            first_page=paper.first_page if keep(paper.first_page) else None,
            identifiers=ids,
        )
        if not _flag(draw, raw):
            return structured
        doi = next((i for i in ids if i.scheme is Scheme.DOI), None)
        doi_text = None
        if doi is not None:
            doi_text = draw(
                st.sampled_from(
                    (f"doi:{doi.value}", f"https://doi.org/{doi.value}", f"DOI {doi.value}")
                )
            )
        arxiv = next((i for i in ids if i.scheme is Scheme.ARXIV), None)
        if doi_text is None and arxiv is not None:
            doi_text = f"arXiv:{arxiv.value}"
        text = _render(structured, et_al=et_al, style=draw(st.integers(0, 2)), doi_text=doi_text)
        text = _pdf_noise(draw, text)
        return Reference.from_string(text, position=pos)

    return _drawing(build)
