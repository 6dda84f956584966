"""``python -m citeledger``: the command line (see :mod:`citeledger.cli`)."""

from __future__ import annotations

import sys

from citeledger.cli import main

if __name__ == "__main__":
    sys.exit(main())
