"""Benchmark: a group's page with 200 evenings of 12 hands each (issue 19: under 100 ms of server time).

A group of six is made through its import (200 evenings of three players, 12 quick-entry hands
each, some payments) in a fresh SQLite file; then its page is asked for through the app's WSGI
interface, and each request's server time measured (the test client's time around the app):

- first view: every evening's facts computed from its hands (replayed once) and kept;
- facts kept: a process that has not seen the group (its figures' memo emptied) reads the
  evenings' kept facts, not their hands;
- warm: the same process again (the group's figures kept for its inputs).

Usage::

    python benchmarks/group.py            # 200 evenings × 12 hands, 20 views of each kind
    python benchmarks/group.py --short    # 20 evenings, 3 views: checks it works (CI)
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

PLAYERS = ["민수", "지영", "철수", "영희", "동수", "수진"]
BRIGHTS = ["1g", "3g", "8g"]
JUNK = ["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2", "6j1"]


def hand(i: int, players: list[str]) -> dict:
    """One of a few quick-entry hands, the winner going round: brights, a go with junk, a nagari."""
    winner = players[i % 3]
    kind = i % 4
    if kind == 3:
        return {"summary": {"outcome": {"type": "nagari"}}}
    if kind == 2:
        return {
            "summary": {
                "captures": {winner: [*BRIGHTS, "11g", *JUNK]},
                "gos": {winner: 1},
                "outcome": {"type": "stop", "winner": winner},
            }
        }
    return {"summary": {"captures": {winner: BRIGHTS}, "outcome": {"type": "stop", "winner": winner}}}


def export(evenings: int, hands: int) -> dict:
    evs = []
    for e in range(evenings):
        players = [PLAYERS[(e + k) % len(PLAYERS)] for k in range(3)]
        evs.append(
            {
                "date": f"2026-{1 + e * 12 // max(evenings, 1):02d}-{1 + e % 28:02d}T20:00:00+09:00",
                "players": players,
                "first_dealer": players[0],
                "length": None,
                "hands": [hand(i + e, players) for i in range(hands)],
            }
        )
    return {
        "group": {"name": "벤치 모임", "players": [{"name": p} for p in PLAYERS], "settings": {}},
        "evenings": evs,
        "payments": [{"from": PLAYERS[0], "to": PLAYERS[1], "points": 1}],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--evenings", type=int, default=200)
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--views", type=int, default=20)
    ap.add_argument("--short", action="store_true", help="20 evenings, 3 views: checks it works (CI)")
    args = ap.parse_args()
    if args.short:
        args.evenings, args.views = 20, 3
    print(
        f"date: {date.today()}  machine: {platform.machine()} {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
    from scorekeeper.tables import groups as group_service
    from scorekeeper.web import close_app, create_app

    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {
            "DATABASE_URL": f"sqlite:///{folder / 'group.db'}",
            "SECRET_KEY": "bench",
            "RATELIMIT_ENABLED": False,
            "TESTING": True,
        }
    )
    client = app.test_client()
    start = time.perf_counter()
    made = client.post("/api/v1/groups/import", json=export(args.evenings, args.hands))
    assert made.status_code == 201, made.get_json()
    print(f"group of {args.evenings} evenings × {args.hands} hands imported in {time.perf_counter() - start:.1f} s")
    g = made.get_json()
    client.get(f"/gj/{g['id']}/{g['view_key']}")
    url = f"/g/{g['id']}"

    def view() -> float:
        t0 = time.perf_counter()
        r = client.get(url)
        elapsed = (time.perf_counter() - t0) * 1000
        assert r.status_code == 200, r.status_code
        return elapsed

    first = view()
    kept = []
    for _ in range(args.views):
        group_service._memo.clear()
        kept.append(view())
    warm = [view() for _ in range(args.views)]
    api = []
    for _ in range(args.views):
        t0 = time.perf_counter()
        assert client.get(f"/api/v1/groups/{g['id']}", headers={"X-Group-Key": g["view_key"]}).status_code == 200
        api.append((time.perf_counter() - t0) * 1000)
    print(f"page, first view (facts computed from {args.evenings * args.hands} hands): {first:.0f} ms")
    print(f"page, facts kept: median {statistics.median(kept):.1f} ms, max {max(kept):.1f} ms")
    print(f"page, warm: median {statistics.median(warm):.1f} ms, max {max(warm):.1f} ms")
    print(f"GET /api/v1/groups/{{group}}, warm: median {statistics.median(api):.1f} ms")
    close_app(app)


if __name__ == "__main__":
    main()
