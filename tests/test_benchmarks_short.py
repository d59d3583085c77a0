"""The engine's benchmarks, and the app's CPU a request in one process, run in their ``--short``
mode and print their figures (the figures' size is for BENCHMARKS.md, not a test;
``benchmarks/load.py --short`` has its own test)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NUMBER = r"\d+(?:\.\d+)?"

CASES = [
    (
        "engine.py",
        [rf"parse\+serialise floor: +{NUMBER} s", rf"scorekeeper score --jobs 1: +{NUMBER} s .* {NUMBER}x the floor"],
    ),
    ("hand.py", [rf"replay 60 events: {NUMBER} ms", rf"apply one event to a known state: median {NUMBER} ms"]),
    (
        "series.py",
        [
            rf"series-3p-12-hands\.json: 13 deals, {NUMBER} ms a replay",
            rf"series-4p-gwangpalli\.json: 6 deals, {NUMBER} ms a replay",
        ],
    ),
    ("group.py", [rf"page, facts kept: median {NUMBER} ms", rf"page, warm: median {NUMBER} ms"]),
    # Every kind, the tap all in among them: ``push_there`` broke when a tap came to be kept as the
    # live hand alone, and nothing ran the script to see it.
    (
        "requests_cpu.py",
        [rf"sqlite {kind} +{NUMBER} ms CPU a request" for kind in ("poll", "append", "push_there", "push_there_cold")]
        + [rf"sqlite tap, all in \(push_here \+ push_there\) {NUMBER} ms"],
    ),
]


@pytest.mark.parametrize(("script", "figures"), CASES, ids=[c[0] for c in CASES])
def test_benchmark_short_mode_reports_its_figures(script, figures):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--short"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    for figure in figures:
        assert re.search(figure, proc.stdout), (figure, proc.stdout)
