"""The paper citation record (the ledger): coverage, observations, notices, measurements.

:func:`build_record` composes any set of sources into one :class:`CitationRecord` for one paper.
Sources that fail, lack a capability or stop paging early never abort the record: the coverage
vector says what was measured ("measured X of Y"), by which named sources, when, and what could
not be measured and why; :attr:`CitationRecord.reports` keeps every source call's outcome.

A citation records a reference. It does not transfer a finding from one paper to another.

The package: :mod:`~citeledger.ledger.record` (the values, :data:`SCHEMA`; the record's small
parts are defined in ``_parts``), :mod:`~citeledger.ledger.build` (:func:`build_record` and its
phases), and private helpers for source calls (``_calls``), listings of citing papers
(``_listings``), notices (``_notices``), citing works (``_citing``), coverage rows
(``_coverage``), the renderings (``_render`` and its ``_render_page``, ``_render_text``,
``_render_html``) and the JSON Schema (``_schema``).

.. versionadded:: 0.1.0
.. versionchanged:: 0.2.0
   A package (was the module ``citeledger/ledger.py``); the public names are unchanged.
"""

from citeledger.ledger import record
from citeledger.ledger._parts import *  # noqa: F403 - the record's small parts
from citeledger.ledger.build import build_record
from citeledger.ledger.record import *  # noqa: F403 - the record's names, listed in record.__all__

__all__ = ["build_record"]
__all__ += record.__all__
