"""Tests of citeledger.sources (adapters, transport, registry, testing helpers); shared fixtures and data paths live in tests/conftest.py."""
