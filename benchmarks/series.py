"""Benchmark: recomputing a whole series from its hand records, as every edit does.

The series is a pure function of its settings and its records, so an edit of any
hand replays all of them. Measured in-process (no start-up), best of ``--repeat``
runs of ``--rounds`` replays each. Usage::

    python benchmarks/series.py               # the two examples, 200 replays, best of 5
    python benchmarks/series.py --rounds 50 --repeat 3
    python benchmarks/series.py --short       # 2 replays: checks it works (CI)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from scorekeeper.engine.series import series_from_document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "replay"
CASES = ("series-3p-12-hands.json", "series-4p-gwangpalli.json")


def best_time(doc: dict, rounds: int, repeat: int) -> float:
    """Seconds for one replay of ``doc`` (and its JSON answer), best of ``repeat``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(rounds):
            series_from_document(doc).to_json()
        best = min(best, (time.perf_counter() - start) / rounds)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--short", action="store_true", help="2 rounds, once: checks the benchmark works (CI)")
    args = ap.parse_args()
    if args.short:
        args.rounds, args.repeat = 2, 1
    print(
        f"date: {date.today()}  machine: {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    for name in CASES:
        doc = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
        seconds = best_time(doc, args.rounds, args.repeat)
        deals = len(doc["hands"])
        print(f"{name}: {deals} deals, {seconds * 1000:.2f} ms a replay ({seconds / deals * 1000:.3f} ms a deal)")


if __name__ == "__main__":
    main()
