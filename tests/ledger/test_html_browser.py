"""The HTML record in a real browser: headless Chromium lays it out, the test reads the layout.

The page wraps ``record.render("html")`` and ends with a script that measures the layout (the
chart's box, the document's scroll width) and writes the numbers into the DOM as JSON;
``chromium --dump-dom`` prints the DOM after scripts ran, so no DevTools client or websocket
library is needed. The same check takes screenshots (light, and dark as JupyterLab's dark theme
shows it) into ``$CITELEDGER_ARTIFACTS`` (CI keeps that directory; ``docs/_static`` regenerates
the screenshots in the docs), else into the test's temporary directory.

The notebook check executes ``examples/notebook.ipynb`` with nbconvert, measures the record's
output cell the same way and screenshots ``notebook.png``.

Skipped, with the reason, when no Chromium binary is installed (``apt-get install chromium``;
``.ci/run`` installs it), and the notebook check when nbconvert or ipykernel is missing (the
``notebook`` and ``tests`` extras install both).
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import citeledger as cl
from citeledger.sources.sample import SampleSource

pytestmark = pytest.mark.browser

CHROMIUM = next(
    (
        found
        for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
        if (found := shutil.which(name))
    ),
    None,
)
requires_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary on PATH (apt-get install -y chromium)"
)

WIDTH, HEIGHT = 1280, 900
ZERO = "arXiv:1910.02054"

_MEASURE = """
<script>
(function () {
  var chart = document.querySelector(".cl-chart");
  var box = chart ? chart.getBoundingClientRect() : null;
  var doc = document.documentElement;
  var out = {
    viewport: [window.innerWidth, window.innerHeight],
    scrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth),
    clientWidth: doc.clientWidth,
    chart: box ? [box.left, box.top, box.right, box.bottom] : null,
    details: document.querySelectorAll(".citeledger-record details").length,
    openDetails: document.querySelectorAll(".citeledger-record details[open]").length,
    font: getComputedStyle(document.querySelector(".citeledger-record")).fontFamily
  };
  var pre = document.createElement("pre");
  pre.id = "cl-measure";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def _record() -> cl.CitationRecord:
    sample = SampleSource()
    return cl.build_record(ZERO, [sample], now=sample.as_of(ZERO), inbound_cap=100)


def _page(body: str, *, dark: bool = False, measure: bool = True) -> str:
    # Dark: the colours JupyterLab's dark theme gives an output cell, and its theme attribute.
    style = "body{margin:16px;background:#111;color:#d4d4d4}" if dark else "body{margin:16px}"
    attr = ' data-jp-theme-light="false"' if dark else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(ZERO)}</title><style>{style}</style></head>"
        f"<body{attr}>{body}{_MEASURE if measure else ''}</body></html>"
    )


def _chromium(
    tmp_path: Path, page: Path, *extra: str, width: int = WIDTH, height: int = HEIGHT
) -> str:
    assert CHROMIUM is not None
    cmd = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        # Offline: every host name fails at once (nbconvert's page names CDN scripts).
        "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--window-size={width},{height}",
        *extra,
        page.as_uri(),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _measure(tmp_path: Path, body: str, *, width: int = WIDTH) -> dict[str, Any]:
    page = tmp_path / f"measure-{width}.html"
    page.write_text(_page(body), encoding="utf-8")
    dom = _chromium(tmp_path, page, "--dump-dom", width=width)
    found = re.search(r'<pre id="cl-measure">(.*?)</pre>', dom, flags=re.DOTALL)
    assert found, dom[-2000:]
    data: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return data


def _artifacts(tmp_path: Path) -> Path:
    where = os.environ.get("CITELEDGER_ARTIFACTS")
    out = Path(where) if where else tmp_path / "artifacts"
    out.mkdir(parents=True, exist_ok=True)
    return out


@requires_chromium
def test_chart_in_first_viewport_and_no_horizontal_overflow(tmp_path: Path) -> None:
    body = _record().render("html")
    got = _measure(tmp_path, body)
    view_w, view_h = got["viewport"]
    assert view_w == WIDTH
    # The viewport the browser reports (a --dump-dom window is a little shorter than the
    # screenshot's): the whole chart must be inside it, unscrolled.
    assert 700 <= view_h <= HEIGHT
    left, top, right, bottom = got["chart"]
    assert 0 <= left < right <= view_w
    assert 0 <= top < bottom <= view_h, f"chart at y={top}..{bottom}, viewport {view_h} high"
    assert got["scrollWidth"] <= got["clientWidth"], got
    # The observation blocks are folded, so the page view comes first.
    assert got["details"] >= 1
    assert got["openDetails"] == 0
    assert "system-ui" in got["font"]


@requires_chromium
def test_no_horizontal_overflow_in_a_narrow_pane(tmp_path: Path) -> None:
    """A narrow notebook pane (or a phone): tables wrap, the chart scales down."""
    got = _measure(tmp_path, _record().render("html"), width=480)
    assert got["scrollWidth"] <= got["clientWidth"], got
    left, _, right, _ = got["chart"]
    assert right - left <= 480


@requires_chromium
def test_screenshots_light_and_dark(tmp_path: Path) -> None:
    body = _record().render("html")
    out = _artifacts(tmp_path)
    for name, dark in (("record.png", False), ("record-dark.png", True)):
        page = tmp_path / f"{name}.html"
        page.write_text(_page(body, dark=dark, measure=False), encoding="utf-8")
        shot = out / name
        _chromium(tmp_path, page, f"--screenshot={shot}")
        data = shot.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        # IHDR: width and height, big-endian, right after the signature and chunk header.
        assert int.from_bytes(data[16:20], "big") == WIDTH
        assert int.from_bytes(data[20:24], "big") == HEIGHT
        assert len(data) > 20_000  # a rendered page, not a blank one


# -- the notebook ---------------------------------------------------------------------------
# examples/notebook.ipynb executed and converted by nbconvert (the `notebook` extra), then laid
# out by the same headless Chromium: what a reader of the notebook sees under `record`.

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "notebook.ipynb"
NB_HEIGHT = 1300  # tall enough for the notebook's first cells and the record's chart
#: The chart must start within this many pixels of the top of the record's output cell.
CHART_WITHIN = 600

requires_nbconvert = pytest.mark.skipif(
    importlib.util.find_spec("nbconvert") is None or importlib.util.find_spec("ipykernel") is None,
    reason="nbconvert or ipykernel not installed (pip install -e '.[notebook]')",
)

_NB_MEASURE = """
<script>
(function () {
  var rec = document.querySelector(".citeledger-record");
  var cell = rec ? (rec.closest(".jp-OutputArea-output") || rec) : null;
  function box(el) {
    if (!el) { return null; }
    var b = el.getBoundingClientRect();
    return [b.left, b.top + window.scrollY, b.right, b.bottom + window.scrollY];
  }
  var doc = document.documentElement;
  var out = {
    records: document.querySelectorAll(".citeledger-record").length,
    cell: box(cell),
    chart: box(rec && rec.querySelector(".cl-chart")),
    firstDetails: box(rec && rec.querySelector("details")),
    openDetails: rec ? rec.querySelectorAll("details[open]").length : -1,
    recordWidth: rec ? [rec.scrollWidth, rec.clientWidth] : null,
    scrollWidth: Math.max(doc.scrollWidth, document.body.scrollWidth),
    clientWidth: doc.clientWidth,
    heading: box(rec && rec.querySelector("h3")),
    headingWeight: rec && rec.querySelector("h3") ?
      getComputedStyle(rec.querySelector("h3")).fontWeight : null
  };
  var pre = document.createElement("pre");
  pre.id = "cl-measure";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


def _notebook_html(tmp_path: Path) -> str:
    """Execute the notebook on a fresh kernel and convert it, as ``jupyter nbconvert`` does."""
    cmd = [
        sys.executable,
        "-m",
        "nbconvert",
        "--to",
        "html",
        "--execute",
        "--ExecutePreprocessor.timeout=300",
        f"--output-dir={tmp_path}",
        "--output=notebook",
        str(NOTEBOOK),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return (tmp_path / "notebook.html").read_text(encoding="utf-8")


@requires_chromium
@requires_nbconvert
def test_notebook_opens_the_record_with_its_chart(tmp_path: Path) -> None:
    """In the executed notebook the record's page view, chart included, opens its output cell.

    The observation blocks come after it, folded; nothing overflows sideways; and a screenshot
    of the notebook's top (``notebook.png``) lands next to the record's.
    """
    page_html = _notebook_html(tmp_path)
    page = tmp_path / "notebook-measure.html"
    page.write_text(page_html.replace("</body>", _NB_MEASURE + "</body>", 1), encoding="utf-8")
    dom = _chromium(tmp_path, page, "--dump-dom", height=NB_HEIGHT)
    found = re.search(r'<pre id="cl-measure">(.*?)</pre>', dom, flags=re.DOTALL)
    assert found, dom[-2000:]
    got: dict[str, Any] = json.loads(html.unescape(found.group(1)))

    assert got["records"] >= 1, "no rich display of the record in the converted notebook"
    cell_top = got["cell"][1]
    _, chart_top, chart_right, chart_bottom = got["chart"]
    assert 0 <= chart_top - cell_top <= CHART_WITHIN, (
        f"chart starts {chart_top - cell_top:.0f} px into the record's output cell"
    )
    # The observation blocks come after the chart, folded.
    assert got["firstDetails"] is not None
    assert got["firstDetails"][1] >= chart_bottom
    assert got["openDetails"] == 0
    # The chart is on the first screen of the notebook, and nothing overflows sideways.
    assert chart_bottom <= NB_HEIGHT
    assert chart_right <= WIDTH
    record_scroll, record_client = got["recordWidth"]
    assert record_scroll <= record_client, got
    assert got["scrollWidth"] <= got["clientWidth"], got
    # JupyterLab's stylesheet does not flatten the record's section headings.
    assert int(got["headingWeight"]) >= 600, got

    shot_page = tmp_path / "notebook-shot.html"
    shot_page.write_text(page_html, encoding="utf-8")
    shot = _artifacts(tmp_path) / "notebook.png"
    _chromium(tmp_path, shot_page, f"--screenshot={shot}", height=NB_HEIGHT)
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert int.from_bytes(data[16:20], "big") == WIDTH
    assert int.from_bytes(data[20:24], "big") == NB_HEIGHT
    assert len(data) > 20_000
