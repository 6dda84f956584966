"""The one XML parser: billion laughs, XXE and external DTDs are refused or neutralised."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from lxml import etree
from pytest_httpserver import HTTPServer

from citeledger.errors import InvalidResponseError, ParseError, UnsafeXMLError
from citeledger.formats._xml import safe_parser, safe_xml
from citeledger.sources._common import decode_xml
from citeledger.sources._transport import Response
from tests.conftest import FIXTURES, SOURCES, requires_shared

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<lolz>&lol9;</lolz>"""

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&xxe;</title></entry></feed>"""

PARAMETER_XXE = b"""<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]><x/>"""


def test_billion_laughs_is_refused() -> None:
    # Refused on the entity declarations, before any expansion (the slow test below times it).
    with pytest.raises(UnsafeXMLError, match="entities"):
        safe_xml(BILLION_LAUGHS, source="test")


@pytest.mark.slow
def test_billion_laughs_is_refused_quickly() -> None:
    started = time.monotonic()
    with pytest.raises(UnsafeXMLError, match="entities"):
        safe_xml(BILLION_LAUGHS, source="test")
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize("doc", [XXE, PARAMETER_XXE], ids=["general", "parameter"])
def test_xxe_file_read_is_refused(doc: bytes) -> None:
    with pytest.raises(UnsafeXMLError) as info:
        safe_xml(doc, source="test")
    assert "root:" not in str(info.value)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_entity_declarations_are_refused_in_any_encoding(encoding: str) -> None:
    text = XXE.decode().replace(
        'version="1.0"?>', f'version="1.0" encoding="{encoding.upper()}"?>', 1
    )
    body = text.encode(encoding)
    with pytest.raises(UnsafeXMLError):
        safe_xml(body, source="test")


def test_without_our_check_lxml_alone_would_still_not_read_the_file() -> None:
    # Defence in depth: even the bare parser, given an XXE, leaves the entity unexpanded.
    root = etree.fromstring(XXE, parser=safe_parser())
    assert "root:" not in etree.tostring(root).decode()


def test_external_dtd_is_never_fetched(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/evil.dtd").respond_with_data('<!ENTITY e "INJECTED">')
    doc = f'<?xml version="1.0"?><!DOCTYPE x SYSTEM "{httpserver.url_for("/evil.dtd")}"><x>a&amp;b</x>'
    root = safe_xml(doc.encode(), source="test")
    assert root.text == "a&b"
    assert httpserver.log == []  # no_network + load_dtd=False: the DTD was not requested


def test_external_dtd_file_is_not_loaded(tmp_path: Path) -> None:
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY e "FROM-THE-DTD">')
    doc = f'<?xml version="1.0"?><!DOCTYPE x SYSTEM "{dtd.as_uri()}"><x>&e;</x>'
    root = safe_xml(doc.encode(), source="test")
    assert "FROM-THE-DTD" not in etree.tostring(root).decode()


def test_excessive_depth_is_a_parse_error() -> None:
    depth = 5000
    doc = b"<a>" * depth + b"</a>" * depth
    with pytest.raises(ParseError):
        safe_xml(doc, source="test")


@pytest.mark.parametrize("body", [b"", b"   \n", b"<feed><entry>", b"not xml at all"])
def test_empty_or_broken_xml_is_a_parse_error(body: bytes) -> None:
    with pytest.raises(ParseError) as info:
        safe_xml(body, source="arxiv")
    assert not isinstance(info.value, UnsafeXMLError)
    assert str(info.value).startswith("arxiv:")


def test_decode_xml_turns_unsafe_xml_into_a_source_error() -> None:
    response = Response(status=200, body=BILLION_LAUGHS, url="http://x/api/query", attempt=1)
    with pytest.raises(InvalidResponseError) as info:
        decode_xml(response, source="arxiv")
    assert info.value.message == "unsafe XML refused"
    assert isinstance(info.value.__cause__, UnsafeXMLError)
    assert (info.value.url, info.value.status) == ("http://x/api/query", 200)


@pytest.mark.parametrize(
    ("name", "root_tag"),
    [
        ("jats/element-citation-ref-list.xml", "article"),
        ("jats/mixed-citation-ref-list.xml", "article"),
        ("tei/grobid-references.tei.xml", "{http://www.tei-c.org/ns/1.0}TEI"),
    ],
)
def test_documents_with_external_dtds_parse(name: str, root_tag: str) -> None:
    # JATS names "JATS-archivearticle1.dtd", GROBID a local schemaLocation: harmless once never
    # loaded.
    root = safe_xml((FIXTURES / name).read_bytes(), source=name)
    assert root.tag == root_tag


@requires_shared
@pytest.mark.parametrize(
    ("name", "root_tag"),
    [
        ("jats/PMC5828200-element-citation-ref-list.xml", "article"),
        ("jats/PMC6398430-mixed-citation-ref-list.xml", "article"),
        (
            "grobid/N18-3011-literature-graph-semantic-scholar.tei.xml",
            "{http://www.tei-c.org/ns/1.0}TEI",
        ),
    ],
)
def test_real_documents_with_external_dtds_parse(name: str, root_tag: str) -> None:
    root = safe_xml((SOURCES / name).read_bytes(), source=name)
    assert root.tag == root_tag
