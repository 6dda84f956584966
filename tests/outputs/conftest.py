"""Tests of tables, exports and Dask (citeledger.frames, exports, dask, _progress); shared fixtures and data paths live in tests/conftest.py."""
