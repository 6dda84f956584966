"""Free-text extraction: every identifier in a text, and the malformed fragments, with reasons.

.. versionadded:: 0.2.0
   Split out of ``citeledger/identifiers.py``; import from :mod:`citeledger.identifiers`.
"""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING, Final

import attrs

from citeledger.errors import InvalidIdentifier

if TYPE_CHECKING:
    from collections.abc import Callable

    from citeledger.identifiers._types import Identifier

from citeledger.identifiers._normalize import _ARXIV_PATHS, _trim_trailing
from citeledger.identifiers._parse import normalize_arxiv, normalize_doi, parse_identifier
from citeledger.identifiers._schemes import ARXIV_ARCHIVES, Scheme


@attrs.frozen(kw_only=True)
class MalformedFragment:
    """Identifier-looking text that is not a valid identifier.

    Attributes:
        text: The fragment as it appears in the input (line breaks included).
        scheme: The scheme it looks like.
        reason: What is wrong, for people.
        start: Offset of the fragment in the input.
        end: Offset just past the fragment.

    .. versionadded:: 0.1.0
    """

    text: str
    scheme: Scheme
    reason: str
    start: int
    end: int


@attrs.frozen(kw_only=True)
class FoundIdentifiers:
    """What :func:`find_identifiers` found in a text.

    Attributes:
        identifiers: Valid identifiers in order of first appearance, without duplicates.
        malformed: Identifier-looking fragments that failed to parse, in order, with reasons.
        malformed_truncated: True when more than :data:`MAX_MALFORMED` fragments were seen and
            only the first ones are in ``malformed``.

    .. versionadded:: 0.1.0
    """

    identifiers: tuple[Identifier, ...] = ()
    malformed: tuple[MalformedFragment, ...] = ()
    malformed_truncated: bool = False


# One flat alternation of literal anchors (spelled with character classes rather than
# re.IGNORECASE, which measured twice as fast); boundaries are checked by hand, and each handler
# then scans forward. The loop resumes after whatever a handler consumed, so every character is
# looked at a bounded number of times whatever the input: no backtracking across the text.
_ANCHOR_RE: Final = re.compile(
    r"10\."
    r"|[dD][oO][iI]"
    r"|[aA][rR][xX][iI][vV]"
    r"|[pP][mM][iIcC]"
    r"|[cC][oO][rR][pP][uU][sS]"
    r"|[oO]pen[aA]lex\.org/"
    r"|[sS]emantic[sS]cholar\.org/"
    r"|ncbi\.nlm\.nih\.gov/"
    r"|/[0-9]"
)
_CORPUS_LABEL_RE: Final = re.compile(r"corpus[ _]?id(?!\w)", re.IGNORECASE)
_URL_HEAD_CHARS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:/"
)
_ARCHIVE_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-")


def _is_word(c: str) -> bool:
    return c.isalnum() or c == "_"


_SPACE: Final = frozenset(" \t\r\n\f\v\u00a0")
# Characters that end a DOI suffix in running text (a DOI itself has none of these).
_DOI_STOP: Final = frozenset(' \t\r\n\f\v\u00a0"')
_TOKEN_STOP: Final = frozenset(' \t\r\n\f\v\u00a0"<>')
_URL_SCHEMES: Final = ("http://", "https://")
_GAP_RE: Final = re.compile(r"[ \t\r\n\f\v\u00a0]{1,12}")
# After a label: optional spaces, an optional colon, then a short gap (line breaks included).
_AFTER_LABEL_RE: Final = re.compile(r"[ \t\u00a0]{0,3}(:)?[ \t\r\n\f\v\u00a0]{0,12}")
_NUMBER_AFTER_LABEL_RE: Final = re.compile(
    r"[ \t\u00a0]{0,3}(:)?[ \t\r\n\f\v\u00a0]{0,12}([0-9]{0,17})"
)
_PMC_AFTER_LABEL_RE: Final = re.compile(
    r"[ \t\u00a0]{0,3}(:)?[ \t\r\n\f\v\u00a0]{0,12}(?:[pP][mM][cC])?([0-9]{0,17})"
)
# The registrant after "10.": digits with optional dotted sub-parts; '.' separates the repeats,
# so the match cannot backtrack.
_REGISTRANT_RE: Final = re.compile(r"([0-9]*)(?:\.[0-9]+)*")
# A token after a label or in a URL. Bounded: a label repeated without spaces ("doi:doi:...")
# is scanned from each occurrence, and an unbounded token would make that quadratic in the
# text's length. Real DOIs and URLs are far shorter than 1,024 characters.
_TOKEN_RE: Final = re.compile(r'[^\s"<>]{1,1024}')
# The longest arXiv id ("cond-mat.stat-mech/0512345v12") is far shorter than 64 characters.
_ARXIV_TOKEN_RE: Final = re.compile(r"[\w./-]{1,64}")
_HAS_DIGIT_RE: Final = re.compile(r"[0-9]")
#: At most this many malformed fragments are reported per text (a real reference has a few);
#: the cap bounds the output of adversarial input, and ``malformed_truncated`` says it was hit.
MAX_MALFORMED: Final = 1000


class _Scanner:
    """One pass over a text; collects identifiers and malformed fragments."""

    __slots__ = ("found", "malformed", "memo", "seen", "text", "truncated")

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[Identifier] = []
        self.seen: set[Identifier] = set()
        self.malformed: list[MalformedFragment] = []
        self.truncated = False
        # Repeated candidates (a reference list pasted twice, adversarial repetition) are
        # parsed once per scan.
        self.memo: dict[tuple[str, str], Identifier | InvalidIdentifier] = {}

    def attempt(
        self, kind: str, candidate: str, make: Callable[[str], Identifier]
    ) -> Identifier | InvalidIdentifier:
        key = (kind, candidate)
        result = self.memo.get(key)
        if result is None:
            try:
                result = make(candidate)
            except InvalidIdentifier as exc:
                # Kept for its reason only: without its traceback, whose frames hold this
                # scanner and its memo (a reference cycle the collector would have to find).
                result = exc.with_traceback(None)
            self.memo[key] = result
        return result

    def take(
        self,
        kind: str,
        candidate: str,
        make: Callable[[str], Identifier],
        span: tuple[int, int],
        scheme: Scheme,
    ) -> None:
        """Keep ``make(candidate)``, or the fragment at ``span`` as malformed with the reason."""
        result = self.attempt(kind, candidate, make)
        if isinstance(result, InvalidIdentifier):
            self.bad(*span, scheme, result.reason)
        else:
            self.add(result)

    def add(self, ident: Identifier) -> None:
        if ident not in self.seen:
            self.seen.add(ident)
            self.found.append(ident)

    def bad(self, start: int, end: int, scheme: Scheme, reason: str) -> None:
        if len(self.malformed) >= MAX_MALFORMED:
            self.truncated = True
            return
        self.malformed.append(
            MalformedFragment(
                text=self.text[start:end], scheme=scheme, reason=reason, start=start, end=end
            )
        )

    def token_end(self, i: int) -> int:
        m = _TOKEN_RE.match(self.text, i)
        return m.end() if m else i

    def skip_space(self, i: int) -> tuple[int, bool]:
        """Skip at most a dozen whitespace characters; report whether a line break was seen."""
        m = _GAP_RE.match(self.text, i)
        if m is None:
            return i, False
        gap = m.group()
        return m.end(), "\n" in gap or "\r" in gap

    def line_break_join(self, i: int) -> int:
        """Past a whitespace gap containing a line break (PDF extraction), else ``i``."""
        j, newline = self.skip_space(i)
        return j if newline and j < len(self.text) and self.text[j] not in _SPACE else i

    # -- DOI ------------------------------------------------------------------------------
    def scan_doi(self, start: int, *, labelled: bool, label_start: int) -> int:
        text, n = self.text, len(self.text)
        frag_start = label_start if labelled else start
        i = start + 3
        # "(doi:10. \n1126/science.1082244)": the registrant moved to the next line.
        joined = self.line_break_join(i)
        if joined != i and text[joined].isdigit():
            i = joined
        pieces = [text[start : start + 3]]
        rm = _REGISTRANT_RE.match(text, i)
        j = rm.end() if rm else i
        ndigits = len(rm.group(1)) if rm else 0
        if ndigits < 4:
            if labelled:
                self.bad(frag_start, j, Scheme.DOI, "no valid registrant code after '10.'")
            return j
        pieces.append(text[i:j])
        if j < n and text[j] == "/":
            j += 1
        elif text[j : j + 3].lower() == "%2f":
            j += 3
        else:
            if j + 1 < n and text[j] == "." and text[j + 1].isalpha():
                end = len(_trim_trailing(text[: self.token_end(j)]))
                self.bad(
                    frag_start,
                    end,
                    Scheme.DOI,
                    "the '/' between prefix and suffix is missing (replaced by '.'?)",
                )
                return max(end, j)
            if labelled:
                self.bad(frag_start, j, Scheme.DOI, "DOI prefix with no '/' and no suffix")
            return j
        pieces.append("/")
        # "doi:10.1037/ \n1040-3590.17.3.379": the suffix moved to the next line.
        joined = self.line_break_join(j)
        if joined != j and text[joined] not in _DOI_STOP:
            j = joined
        while True:
            k = j
            while k < n and text[k] not in _DOI_STOP:
                # "10.1002/mar.10063https://doi.org/...": a URL glued to the DOI ends it;
                # "</a>" ends a DOI scraped from HTML.
                if k > j and (
                    (text[k] in "hH" and text[k : k + 8].lower().startswith(_URL_SCHEMES))
                    or (text[k] == "<" and text[k + 1 : k + 2] == "/")
                ):
                    break
                k += 1
            pieces.append(text[j:k])
            j = k
            # "...(1996)17:12<714::AID-\nMICR10>...": a DOI broken after a hyphen; the hyphen
            # is kept (typesetters break DOIs at their own hyphens, they do not add one).
            # "doi:10.1016/j. \ngaitpost.2004.05.005": broken after a '.', joined only when
            # the next line goes on in lower case (a new sentence or reference would not).
            if k < n and k > 0 and text[k - 1] in "-." and text[k] in _SPACE:
                joined = self.line_break_join(k)
                if joined != k and (
                    text[joined].islower() or (text[k - 1] == "-" and text[joined].isalnum())
                ):
                    j = joined
                    continue
            break
        raw = "".join(pieces)
        candidate = _trim_trailing(raw)
        end = j - (len(raw) - len(candidate))
        if candidate.endswith("/"):
            self.bad(frag_start, end, Scheme.DOI, "empty suffix after the '/'")
            return j
        self.take("doi", candidate, normalize_doi, (frag_start, end), Scheme.DOI)
        return j

    def scan_doi_label(self, start: int, end: int) -> int:
        text, n = self.text, len(self.text)
        if text[end : end + 5].lower() == ".org/":
            return end  # a doi.org URL: the "10." anchor right after handles the DOI
        lm = _AFTER_LABEL_RE.match(text, end)
        colon = lm is not None and lm.group(1) is not None
        k = lm.end() if lm else end
        if text[k : k + 3] == "10.":
            return self.scan_doi(k, labelled=True, label_start=start)
        if not colon:
            return end  # "Doi K, ..." is a surname, not a label
        tok_end = self.token_end(k)
        token = text[k:tok_end]
        low = token.lower()
        if low.startswith(("http", "doi", "dx.doi", "www.")):
            return k  # a URL or a repeated label: the anchors inside handle it
        if not _trim_trailing(token):
            self.bad(start, min(k, n), Scheme.DOI, "'doi:' label with no DOI after it")
            return k
        self.bad(start, tok_end, Scheme.DOI, f"'doi:' label followed by {token!r}, not '10.'")
        return tok_end

    # -- arXiv ----------------------------------------------------------------------------
    def arxiv_token_end(self, i: int) -> int:
        m = _ARXIV_TOKEN_RE.match(self.text, i)
        return m.end() if m else i

    def scan_arxiv_token(self, frag_start: int, k: int) -> int:
        text = self.text
        tok_end = self.arxiv_token_end(k)
        token = _trim_trailing(text[k:tok_end])
        if not _HAS_DIGIT_RE.search(token):
            return max(k, tok_end) if token else k
        end = k + len(token)
        # ".../pdf/2104.07857v2.pdf" keeps its ".pdf"; the normaliser handles it.
        self.take("arxiv", token, normalize_arxiv, (frag_start, end), Scheme.ARXIV)
        return tok_end

    def scan_arxiv_label(self, start: int, end: int) -> int:
        text, n = self.text, len(self.text)
        if text[end : end + 5].lower() == ".org/":
            k = end + 5
            low = text[k : k + 8].lower()
            for path in _ARXIV_PATHS:
                if low.startswith(path):
                    return self.scan_arxiv_token(start, k + len(path))
            return k
        lm = _AFTER_LABEL_RE.match(text, end)
        k = lm.end() if lm else end
        if k == end:
            return end  # "arXiv.", "arXiv,": not a label
        if k < n and (text[k].isdigit() or text[k].isalpha()):
            return self.scan_arxiv_token(start, k)
        return k

    # -- numeric labels -------------------------------------------------------------------
    def scan_number_label(self, start: int, end: int, scheme: Scheme) -> int:
        text = self.text
        pattern = _PMC_AFTER_LABEL_RE if scheme is Scheme.PMCID else _NUMBER_AFTER_LABEL_RE
        lm = pattern.match(text, end)
        if lm is None:  # cannot happen: every part of the pattern is optional
            return end
        colon = lm.group(1) is not None
        k, j = lm.span(2)
        if j == k:
            if colon:
                self.bad(start, self.token_end(k), scheme, f"'{text[start:end]}:' without a number")
            return k
        self.take(
            scheme.value, text[k:j], partial(parse_identifier, scheme=scheme), (start, j), scheme
        )
        return j

    def scan_url(self, start: int, floor: int) -> int:
        text = self.text
        # Walk back over "https://www." / "api." / "pubmed." so the whole URL is parsed.
        head = start
        while head > floor and start - head < 16 and text[head - 1] in _URL_HEAD_CHARS:
            head -= 1
        tok_end = self.token_end(start)
        token = _trim_trailing(text[head:tok_end])
        result = self.attempt("url", token, parse_identifier)
        if not isinstance(result, InvalidIdentifier):
            self.add(result)
        elif result.scheme is not None:  # an identifier URL gone wrong, not just any ncbi page
            self.bad(head, head + len(token), _exc_scheme(result), result.reason)
        return tok_end

    def old_arxiv_start(self, slash: int, floor: int) -> int | None:
        """Start of ``archive[.SUBJ]`` ending at ``slash``, when it names an arXiv archive."""
        text = self.text
        i = slash
        while i > floor and slash - i < 24 and text[i - 1] in _ARCHIVE_CHARS:
            i -= 1
        if i > 0 and (_is_word(text[i - 1]) or text[i - 1] in "./-"):
            return None
        while i < slash and text[i] in ".-":
            i += 1
        if text[i:slash].partition(".")[0].lower() in ARXIV_ARCHIVES:
            return i
        return None

    def run(self) -> FoundIdentifiers:
        text = self.text
        n = len(text)
        pos = 0
        while True:
            m = _ANCHOR_RE.search(text, pos)
            if m is None:
                break
            start, end = m.start(), m.end()
            before = text[start - 1] if start else " "
            after = text[end] if end < n else " "
            first = text[start]
            # A declined anchor resumes one character on: anchors may overlap ("org/10.").
            nxt = start + 1
            if first == "1":
                if not (_is_word(before) or before == "."):
                    nxt = self.scan_doi(start, labelled=False, label_start=start)
            elif first in "dD":
                if not (_is_word(before) or before == "/") and not (
                    _is_word(after) or after == "-"
                ):
                    nxt = self.scan_doi_label(start, end)
            elif first in "aA":
                if not _is_word(before) and not (_is_word(after) or after == "-"):
                    nxt = self.scan_arxiv_label(start, end)
            elif first in "pP":
                if not (_is_word(before) or before == "/"):
                    nxt = self.scan_pm(start, end)
            elif first in "cC":
                lm = _CORPUS_LABEL_RE.match(text, start)
                if lm and not (_is_word(before) or before == "/"):
                    nxt = self.scan_number_label(start, lm.end(), Scheme.CORPUSID)
            elif first == "/":
                arch = self.old_arxiv_start(start, pos)
                if arch is not None:
                    nxt = self.scan_arxiv_token(arch, arch)
            else:
                nxt = self.scan_url(start, pos)
            pos = max(nxt, start + 1)
        return FoundIdentifiers(
            identifiers=tuple(self.found),
            malformed=tuple(self.malformed),
            malformed_truncated=self.truncated,
        )

    def scan_pm(self, start: int, end: int) -> int:
        """``PMID``, ``PMCID`` labels and bare ``PMC123``."""
        text, n = self.text, len(self.text)
        low = text[start : start + 5].lower()
        if low.startswith("pmid") and not (start + 4 < n and _is_word(text[start + 4])):
            return self.scan_number_label(start, start + 4, Scheme.PMID)
        if low == "pmcid" and not (start + 5 < n and _is_word(text[start + 5])):
            return self.scan_number_label(start, start + 5, Scheme.PMCID)
        if low.startswith("pmc") and start + 3 < n and text[start + 3].isdigit():
            return self.scan_number_label(start, start + 3, Scheme.PMCID)
        return end


def _exc_scheme(exc: InvalidIdentifier) -> Scheme:
    """The scheme an :class:`InvalidIdentifier` was about, defaulting to DOI."""
    try:
        return Scheme(exc.scheme) if exc.scheme else Scheme.DOI
    except ValueError:
        return Scheme.DOI


def find_identifiers(text: str) -> FoundIdentifiers:
    """Every identifier in a free-text reference string, plus malformed look-alikes.

    Finds DOIs (bare ``10.…/…``, after ``doi:``/``DOI``, in doi.org URLs), arXiv ids after
    ``arXiv:`` or in arxiv.org URLs, bare old-style arXiv ids (``hep-th/9901001``: the archive
    name makes them unmistakable; bare new-style ``YYMM.NNNNN`` is *not* taken, since a
    decimal number looks the same), ``PMID:``, ``PMCID:``/``PMC…``, ``CorpusId:`` and
    OpenAlex / Semantic Scholar / PubMed URLs.

    PDF line breaks are repaired only where the identifier would otherwise be incomplete: a
    whitespace gap containing a line break right after ``10.`` or after the ``/``, after a
    ``-`` inside the suffix (the hyphen is kept), or after a ``.`` inside the suffix when the
    next line goes on in lower case (``10.1016/j.`` / ``gaitpost.2004.05.005``). A DOI is never
    joined across a plain space.

    Reported as malformed (with a reason): a ``doi:`` label followed by something that is not a
    DOI (or nothing), ``10.<registrant>`` without a ``/``, a ``/`` replaced by a ``.``
    (``10.1016.j.cell.2009.01.002``), an empty suffix, known-truncated publisher DOIs, and
    labelled arXiv ids that are impossible (month 13, truncated, too early).

    Runs in linear time.

    Example:
        >>> found = find_identifiers("Nature 1999. doi:10.1038/1234 [arXiv:1913.01234]")
        >>> [str(x) for x in found.identifiers]
        ['doi:10.1038/1234']
        >>> [(f.text, f.reason) for f in found.malformed]
        [('arXiv:1913.01234', 'month 13 is not a month (01-12)')]

    .. versionadded:: 0.1.0
    """
    if not isinstance(text, str):
        raise InvalidIdentifier(repr(text), "the text to search must be a string", None)
    return _Scanner(text).run()
