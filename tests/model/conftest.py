"""Tests of citeledger.model, serialize and the shipped strategies; shared fixtures and data paths live in tests/conftest.py."""

from __future__ import annotations

from typing import Any

import citeledger as cl
from citeledger.identifiers import MalformedFragment
from citeledger.model import (
    Author,
    Coverage,
    Event,
    Evidence,
    Measurement,
    NoticeCheck,
    Observation,
    Paper,
    Reference,
    Relation,
    Resolution,
)

#: Every value type the Hypothesis plug-in registers a strategy for (``st.from_type(cls)``):
#: the registration tests draw each one, the serialisation tests round-trip each one.
MODEL_TYPES: list[type[Any]] = [
    cl.DOI,
    cl.ArxivId,
    cl.PMID,
    cl.PMCID,
    cl.OpenAlexId,
    cl.S2PaperId,
    cl.CorpusId,
    MalformedFragment,
    Author,
    Relation,
    Paper,
    Reference,
    Evidence,
    Resolution,
    Observation,
    Event,
    NoticeCheck,
    Measurement,
    Coverage,
]
