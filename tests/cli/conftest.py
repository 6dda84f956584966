"""Tests of the command line and the examples; shared fixtures and data paths live in tests/conftest.py."""
