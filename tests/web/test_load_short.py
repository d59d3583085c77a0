"""``benchmarks/load.py --short`` runs and reports figures (their size is for BENCHMARKS.md, not a test)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import postgres_unreachable

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_load_benchmark_short(db, tmp_path):
    if db == "postgres" and (reason := postgres_unreachable()):
        pytest.skip(reason)
    out = tmp_path / "load.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), "--short", "--db", db, "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert f"{db}: saturated mix" in proc.stdout

    (run,) = json.loads(out.read_text())["runs"]
    assert run["db"] == db
    for phase in ("saturated", "hello"):
        figures = run[phase]["all"]
        assert figures["count"] > 0 and figures["per_s"] > 0
        assert 0 < figures["p50_ms"] <= figures["p95_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    # The push model: every phone's stream announced the table's version, and taps reached the others.
    assert run["model"] == "push" and run["paced"]["stream"]["count"] >= run["tables"] * run["phones"]
    assert run["update"]["count"] > 0 and 0 <= run["update"]["p50_ms"] <= run["update"]["p95_ms"]
    for kind in ("poll", "append"):
        assert run["costs"][kind]["count"] > 0 and run["costs"][kind]["cpu_ms"] > 0
    # Every answer was a success or a conflict: no 5xx, no refusal of a valid event.
    assert run["paced_info"]["errors"] == run["saturated_info"]["errors"] == run["hello_info"]["errors"] == {}
    assert run["paced"]["all"]["count"] > 0
    # The generator's own lag, bin by bin over the paced phase (3 s: two bins), never negative.
    lag = run["paced_info"]["client_lag_max_ms_by_2s"]
    assert len(lag) == 2 and all(ms >= 0 for ms in lag)
    # A phone's first request connects: its time is within the request's, and counted apart.
    connects = run["paced_info"]["connects"]
    assert 0 < connects["count"] <= run["paced"]["all"]["count"] and connects["max_ms"] > 0
    assert run["ratio"] > 0
