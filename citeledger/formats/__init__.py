"""File formats that are not sources: JATS and GROBID TEI documents, bulk dump readers.

Each reader is pure (bytes or a file in, model values out). All XML goes through the one guarded
entry point, :func:`citeledger.formats._xml.safe_xml`; the JATS and TEI readers share its
reading helpers.

- :mod:`citeledger.formats.jats`: JATS XML (PubMed Central, publishers).
- :mod:`citeledger.formats.tei`: GROBID TEI.
- :mod:`citeledger.formats.dumps`: OpenAlex, Crossref and OpenCitations bulk dumps.

.. versionadded:: 0.2.0
   Moved here from :mod:`citeledger.sources`.
"""

from __future__ import annotations

__all__: list[str] = []
