"""Test helpers for users of citeledger (install the ``testing`` extra for the strategies)."""
