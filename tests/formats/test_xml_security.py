"""Hostile XML through the JATS and TEI parsers: refused (UnsafeXMLError) or neutralised."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from citeledger.errors import UnsafeXMLError
from citeledger.formats.jats import parse_jats_paper, parse_jats_references
from citeledger.formats.tei import parse_tei_paper, parse_tei_references

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytest_httpserver import HTTPServer

PARSERS: list[Callable[[bytes], Any]] = [
    parse_jats_references,
    parse_jats_paper,
    parse_tei_references,
    parse_tei_paper,
]

JATS_BODY = (
    b"<article><front><article-meta><title-group><article-title>T &e;</article-title>"
    b"</title-group></article-meta></front><back><ref-list><ref id='r1'><mixed-citation>"
    b"Cited &e; work</mixed-citation></ref></ref-list></back></article>"
)
TEI_BODY = (
    b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>T &e;'
    b"</title></titleStmt></fileDesc></teiHeader><text><back><listBibl><biblStruct xml:id='b0'>"
    b"<monogr><title>Cited &e; work</title></monogr><note type='raw_reference'>Cited &e; work"
    b"</note></biblStruct></listBibl></back></text></TEI>"
)


def bodies(doctype: bytes) -> list[tuple[Callable[[bytes], Any], bytes]]:
    out = []
    for parse in PARSERS:
        root = b"article" if "jats" in parse.__name__ else b"TEI"
        body = JATS_BODY if root == b"article" else TEI_BODY
        out.append((parse, doctype.replace(b"ROOT", root) + body))
    return out


def billion_laughs() -> bytes:
    lines = [b"<!DOCTYPE ROOT [", b'<!ENTITY e0 "lol">']
    lines += [f'<!ENTITY e{i} "{f"&e{i - 1};" * 10}">'.encode() for i in range(1, 10)]
    lines += [b'<!ENTITY e "&e9;">', b"]>"]
    return b"\n".join(lines)


@pytest.mark.parametrize(("parse", "body"), bodies(billion_laughs()))
def test_billion_laughs_refused(parse: Callable[[bytes], Any], body: bytes) -> None:
    started = time.monotonic()
    with pytest.raises(UnsafeXMLError):
        parse(body)
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize(
    ("parse", "body"), bodies(b'<!DOCTYPE ROOT [<!ENTITY e SYSTEM "file:///etc/passwd">]>')
)
def test_xxe_file_read_refused(parse: Callable[[bytes], Any], body: bytes) -> None:
    with pytest.raises(UnsafeXMLError):
        parse(body)


@pytest.mark.parametrize(
    ("parse", "body"), bodies(b'<!DOCTYPE ROOT [<!ENTITY e SYSTEM "file:///etc/passwd">]>')
)
def test_xxe_refused_in_utf16(parse: Callable[[bytes], Any], body: bytes) -> None:
    encoded = body.decode().encode("utf-16")
    with pytest.raises(UnsafeXMLError):
        parse(encoded)


def test_parameter_entity_refused() -> None:
    body = b'<!DOCTYPE article [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>' + JATS_BODY
    with pytest.raises(UnsafeXMLError):
        parse_jats_references(body)


def _text(result: Any) -> str:
    return repr(result)


@pytest.mark.parametrize(("parse", "body"), bodies(b'<!DOCTYPE ROOT SYSTEM "file:///etc/passwd">'))
def test_external_dtd_file_not_loaded(parse: Callable[[bytes], Any], body: bytes) -> None:
    # The DTD is never read: parsing succeeds, the undefined entity stays unexpanded.
    result = parse(body)
    shown = _text(result)
    assert "root:x:" not in shown
    assert "/bin/" not in shown
    if parse is parse_jats_references:
        assert [r.raw for r in result] == ["Cited work"]  # the entity reference is dropped
    if parse is parse_tei_references:
        assert [r.title for r in result] == ["Cited work"]


@pytest.mark.parametrize(("parse", "index"), [(p, i) for i, p in enumerate(PARSERS)])
def test_external_dtd_over_network_not_fetched(
    parse: Callable[[bytes], Any], index: int, httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/evil.dtd").respond_with_data(
        '<!ENTITY e "PWNED-BY-DTD">', content_type="application/xml-dtd"
    )
    url = httpserver.url_for("/evil.dtd").encode()
    _, body = bodies(b'<!DOCTYPE ROOT SYSTEM "' + url + b'">')[index]
    result = parse(body)
    assert "PWNED-BY-DTD" not in _text(result)
    assert httpserver.log == []  # no request was made for the DTD


def test_real_jats_doctype_still_parses() -> None:
    # PMC files name an external DTD by public id; it is ignored, the document parses.
    doctype = (
        b'<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD '
        b'v1.0 20120330//EN" "JATS-archivearticle1.dtd">'
    )
    body = doctype + JATS_BODY.replace(b" &e;", b"")
    (ref,) = parse_jats_references(body)
    assert ref.raw == "Cited work"
