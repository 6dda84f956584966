"""Tests of citeledger.model, serialize and the shipped strategies; shared fixtures and data paths live in tests/conftest.py."""
