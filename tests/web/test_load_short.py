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
    # The run starts as after a restart (the server restarted after seeding), every phone's
    # stream opening at once: each stream's first document came, and when the last did is said.
    assert run["restart_s"] > 0
    first = run["paced_info"]["first_documents"]
    assert first["count"] == run["tables"] * run["phones"]
    assert 0 < first["p50_ms"] <= first["max_ms"]
    # (each was asked for at or after the start; the last no later than the 3-s phase and its end)
    assert first["max_ms"] / 1000 <= run["paced_info"]["last_first_document_s"] + 0.01 <= 3 + 2
    assert run["ratio"] > 0


def test_the_generators_collector_stays_out_of_a_timed_phase():
    """Its pauses (up to 441 ms in a 1,000-table burst) were counted in every request waiting
    meanwhile: during a phase nothing is collected, after it everything is again."""
    import gc
    import importlib.util

    spec = importlib.util.spec_from_file_location("load_benchmark", ROOT / "benchmarks" / "load.py")
    load = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = load  # its dataclasses look themselves up there
    try:
        spec.loader.exec_module(load)
    finally:
        del sys.modules[spec.name]

    class Cycle:
        pass

    def garbage() -> int:
        a, b = Cycle(), Cycle()
        a.other, b.other = b, a
        return id(a)

    load.generator_gc_off()
    try:
        made = garbage()
        for _ in range(20_000):  # far past the thresholds that would start a collection
            garbage()
        assert not gc.isenabled() and gc.get_freeze_count() > 0
        assert any(id(o) == made for o in gc.get_objects() if isinstance(o, Cycle)), "collected during the phase"
    finally:
        load.generator_gc_on()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert not any(isinstance(o, Cycle) for o in gc.get_objects()), "left uncollected after the phase"
