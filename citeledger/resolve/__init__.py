"""Reference resolution: normalisation, scoring, the catalog and the resolver."""

from __future__ import annotations
