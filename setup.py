"""The build's one piece that pyproject.toml cannot declare: the optional C title kernel.

``optional=True``: when the extension cannot be compiled (no C compiler, no Python headers) the
build warns and goes on, and ``citeledger.resolve._titles`` uses its pure-Python table.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "citeledger.resolve._titlekernel",
            sources=["citeledger/resolve/_titlekernel.c"],
            optional=True,
        )
    ]
)
