"""Reference resolution: normalisation, field scoring, the catalog and the resolver.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from citeledger.resolve.catalog import CandidateProvider, Catalog
from citeledger.resolve.resolver import Resolver, ResolverConfig, verify, verify_many

__all__ = ["CandidateProvider", "Catalog", "Resolver", "ResolverConfig", "verify", "verify_many"]
