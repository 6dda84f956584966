"""The README's first command, ``python examples/quickstart.py``, runs offline."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "quickstart.py"


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def test_quickstart_text_reproduces_both_seeds() -> None:
    out = run()
    assert (
        "As of 8 August 2026, this Paper Citation Record lists 0 of 0 outbound references and 8 inbound citation observations for arXiv:2104.07857."
        in out
    )
    assert "Observation 2ab751d5-1005-4adb-8649-1c5012e0d69b · inbound" in out
    assert (
        "Citing papers per year: 2021: 8; 2022: 18; 2023: 81; 2024: 350; 2025: 439; 2026: 405."
        in out
    )
    assert "50 most cited of 1,301" in out
    assert "  metadata mismatch     1" in out


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_quickstart_formats(fmt: str) -> None:
    out = run("--format", fmt)
    assert (
        "A citation records a reference. It does not transfer a finding from one paper to another."
        in out
    )


def test_quickstart_json() -> None:
    data = json.loads(run("--format", "json"))
    assert [d["schema"] for d in data] == ["citeledger.paper-citation-record.v1"] * 3


def test_quickstart_plan_runs_offline() -> None:
    out = run("--plan", "2104.07857", "--cap", "500")
    assert "paper: arxiv:2104.07857" in out
    assert "crossref, semanticscholar" in out
    assert "openalex only as an identifier hint" in out
    assert "requests for the checks: 500 when the first source has every list" in out
