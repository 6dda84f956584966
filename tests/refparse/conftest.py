"""Tests of citeledger.refparse (reference-string parsing); shared fixtures and data paths live in tests/conftest.py."""
