"""Benchmark: replaying a 60-event live hand (what the app does on every tap), and undo.

Usage: ``python benchmarks/hand.py`` (``--short``: a few runs, to check it works). The hand:
three players, 21 turns, a junk card captured and junk taken on most turns, six ppuk, ending in a nagari. Also: one
event applied to the state before it (what an append costs once the state is known).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from datetime import date

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from scorekeeper.engine.live.hand import HandSetup, apply, replay


def sixty_events() -> list[dict]:
    junk_cards = [f"{m}j{n}" for m in range(1, 12) for n in (1, 2)]
    events: list[dict] = []
    for turn in range(21):
        player = "ABC"[turn % 3]
        events.append({"type": "capture", "player": player, "cards": [junk_cards[turn]]})
        if turn < 12:
            events.append({"type": "take_junk", "player": player, "reason": "sseul"})
        if turn < 6:
            events.append({"type": "ppuk", "player": player})
        events.append({"type": "end_turn"})
    return events


def timed(fn, runs: int) -> tuple[float, float]:
    """(median, best) of ``runs`` timings of ``fn``: the median for a quiet machine, the best for a
    busy one (other work only ever adds time)."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), min(samples)


def per_event(setup, events: list[dict], runs: int) -> list[float]:
    """For each event, the median time of applying it to the known state before it (the app's
    append: the state of the log so far is remembered, the new event is checked and applied)."""
    states = [replay(setup, events[:i]) for i in range(len(events))]
    out = []
    for state, event in zip(states, events):
        out.append(timed(lambda: apply(state, event), runs)[0])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200, help="timings of each measurement (their median is kept)")
    ap.add_argument("--short", action="store_true", help="5 runs: checks the benchmark works (CI)")
    args = ap.parse_args()
    runs = 5 if args.short else args.runs
    setup = HandSetup.create(["A", "B", "C"], "A")
    events = sixty_events()
    assert len(events) == 60 and replay(setup, events).over
    full, full_best = timed(lambda: replay(setup, events), runs)
    with_result, with_result_best = timed(lambda: replay(setup, events).result(), runs)
    applies = sorted(per_event(setup, events, runs))
    print(
        f"date: {date.today()}  machine: {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}"
    )
    print(f"replay 60 events: {full * 1000:.3f} ms median of {runs} (best {full_best * 1000:.3f} ms)  goal <= 0.3 ms")
    print(f"replay 60 events + payments: {with_result * 1000:.3f} ms (best {with_result_best * 1000:.3f} ms)")
    print(
        f"apply one event to a known state: median {statistics.median(applies) * 1000:.4f} ms, "
        f"slowest {applies[-1] * 1000:.4f} ms (each the median of {runs})  goal <= 0.05 ms"
    )


if __name__ == "__main__":
    main()
