"""Tests of citeledger.resolve (catalog, scoring, resolver); shared fixtures and data paths live in tests/conftest.py."""
