"""citeledger test suite."""
