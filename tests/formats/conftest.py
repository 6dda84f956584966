"""Tests of citeledger.formats (JATS, TEI, dumps, the XML guard); shared fixtures and data paths live in tests/conftest.py."""
