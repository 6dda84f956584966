"""The build's one piece that pyproject.toml cannot declare: the optional C extensions.

* ``citeledger.resolve._titlekernel``: the compiled title table (``citeledger.resolve._titles``);
* ``citeledger.resolve._rowkernel``: the compiled title indexing and field folding of
  ``Catalog.from_records`` (``citeledger.resolve._rows``).

Both are ``optional=True``: when an extension cannot be compiled (no C compiler, no Python
headers) the build warns and goes on, so ``pip install .`` still works, and the package uses the
pure-Python implementation of that module instead (identical results, checked by tests; slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "citeledger.resolve._titlekernel",
            sources=["citeledger/resolve/_titlekernel.c"],
            optional=True,
        ),
        Extension(
            "citeledger.resolve._rowkernel",
            sources=["citeledger/resolve/_rowkernel.c"],
            optional=True,
        ),
    ]
)
