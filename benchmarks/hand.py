"""Benchmark: replaying a 60-event live hand (what the app does on every tap), and undo.

Usage: ``python benchmarks/hand.py``. The hand: three players, 21 turns, a junk
card captured and junk taken on most turns, six ppuk, ending in a nagari.
"""
from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from datetime import date

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from scorekeeper.engine.hand import HandSetup, replay  # noqa: E402


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


def timed(fn, runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    setup = HandSetup.create(["A", "B", "C"], "A")
    events = sixty_events()
    assert len(events) == 60 and replay(setup, events).over
    full = timed(lambda: replay(setup, events), 50)
    with_result = timed(lambda: replay(setup, events).result(), 50)
    print(f"date: {date.today()}  machine: {platform.machine()} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    print(f"replay 60 events: {full * 1000:.2f} ms (median of 50)")
    print(f"replay 60 events + payments: {with_result * 1000:.2f} ms")


if __name__ == "__main__":
    main()
