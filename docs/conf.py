"""Sphinx configuration: MyST Markdown pages, furo, autodoc with Google-style docstrings.

Built in CI with ``sphinx-build -W --keep-going -b html docs docs/_build/html``: every warning
fails the build. Nothing here reaches the network (no intersphinx), so the build runs offline.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import re
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version

project = "citeledger"
author = "citeledger developers"
copyright = f"{dt.datetime.now(dt.UTC).year}, {author}"  # noqa: A001 - Sphinx's name
try:
    release = _dist_version("citeledger")
except PackageNotFoundError:  # building from a tree that is not installed
    release = "0.0.0+unknown"
# The sidebar shows "0.1 (dev)", not a 40-character setuptools-scm version with a commit and date.
_short = re.match(r"\d+\.\d+", release)
version = (_short.group() if _short else release) + (" (dev)" if "dev" in release else "")

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints"]

# MyST: ::: fences, definition lists, and anchors for headings so pages link to sections.
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# autodoc: types are shown in the descriptions (from the annotations), members in source
# order, and only the names each module lists in __all__.
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_preserve_defaults = True
# Annotations are postponed (``from __future__ import annotations``); names only imported under
# TYPE_CHECKING (pandas, pyarrow, distributed) cannot be resolved at build time, which is fine:
# nitpicky stays off, so an unresolvable annotation is rendered as text, not a warning.
nitpicky = False
# The optional extras' imports, mocked only when missing, so the reference has the Dask and
# strategies pages from a plain ``pip install -e ".[docs]"`` too; an installed extra is used
# as is (mocking Hypothesis when it is there would hide the strategies' real signatures).
autodoc_mock_imports = [
    name
    for name in ("dask", "distributed", "pandas", "pyarrow", "hypothesis", "tqdm")
    if importlib.util.find_spec(name) is None
]

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
napoleon_attr_annotations = True

html_theme = "furo"
html_title = f"citeledger {version}"
html_static_path: list[str] = []
