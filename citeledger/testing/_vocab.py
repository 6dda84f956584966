"""Vocabularies and drawing helpers shared by :mod:`citeledger.testing.strategies`."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar, cast

from hypothesis import strategies as st

if TYPE_CHECKING:
    from collections.abc import Callable


# --------------------------------------------------------------------------------------------
# Vocabularies. Written for this module (not copied from any data set): common words of
# scholarly titles across fields, a few eponyms with diacritics, names from many languages.
# --------------------------------------------------------------------------------------------

_TITLE_WORDS: Final = tuple(
    """
    accelerated accurate acoustic active adaptive adversarial aerosol aggregation algebraic
    algorithm alignment allocation amplification analysis anomalous antibody approach
    approximate architecture assessment asymmetric asymptotic atmospheric attention automated
    autonomous bacterial balanced bayesian behaviour benchmark binding biological biomarkers
    boundary brain calibration cancer carbon cardiac catalytic causal cellular characterization
    chemical chronic classification climate clinical clustering coherent cohort collective
    combinatorial communication comparative complex compression computational condensed
    conditional conformal connectivity conservation constraints continuous control convergence
    convex coronary correlated cortical coupling critical crystal cyclic dark decentralized
    decoding deep defects delivery dense density design detection deterministic development
    diabetes diagnosis differential diffusion digital dimensional discrete disease disorder
    distributed diversity domain dynamics early ecological effective efficient elastic
    electronic embedding emission empirical endoscopic energy engineering ensemble entanglement
    environmental enzyme equations equilibrium estimation evaluation evidence evolution exact
    excitation experimental explainable exploration expression factors fast feedback field
    finite flexible flow fluid formation framework functional fusion galaxy gaussian gene
    generalization generative genetic genome geometric global gradient graph gravitational
    growth health heterogeneous hierarchical high human hybrid hydrogen imaging immune impact
    improved inference infection information inhibition integrated interaction interface
    intervention invariant inverse kernel kinetic label language large lattice layer learning
    linear liquid local long low machine magnetic management mapping markov mass materials
    matrix measurement mechanical mechanisms medical membrane memory metabolic method microbial
    model modelling modulation molecular monitoring mortality motion multimodal multiscale
    mutations natural network neural neuronal noise nonlinear novel nuclear numerical
    observations online optical optimal optimization orbital oscillations outcomes oxidative
    parallel parameter particle patients pattern perception performance periodic phase
    phenotype photonic physical plasma policy polymer population potential prediction
    pretraining prevalence probabilistic processing protein quantum random rapid reasoning
    receptor recognition reconstruction recurrent reduction regression regulation reinforcement
    relativistic reliable representation resistance resolution response retrieval risk robust
    sampling scalable scattering segmentation selection semantic sensing sequence signal
    simulation single social soft solar sparse spatial spectral spin stability statistical
    stellar stochastic strategies stress structural structure study supervised surface survey
    symmetry synthesis synthetic system temporal tensor theory thermal tissue topological
    trade-offs training transfer transformer transition transport treatment trial tumour
    uncertainty universal unsupervised validation variational vascular vision visual wave weak
    zero-shot
    """.split()  # noqa: SIM905 - a word list reads best as text
)

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


def _flag(draw: st.DrawFn, value: bool | None) -> bool:
    return draw(st.booleans()) if value is None else value
