"""Tests of citeledger.identifiers; shared fixtures and data paths live in tests/conftest.py."""
