"""Tests of citeledger.ledger (building and rendering the citation record); shared fixtures and data paths live in tests/conftest.py."""
