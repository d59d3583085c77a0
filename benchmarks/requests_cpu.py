"""Benchmark: the app's own CPU for each kind of request a phone makes, in one process.

Usage: ``python benchmarks/requests_cpu.py [--db sqlite|postgres] [--tables 50] [--profile KIND]``.

No gunicorn, no network: Flask's test client calls the app (rate limiter on, as served),
on a SQLite file or a fresh PostgreSQL schema. Each table has a live hand some 30 events
along; then, round robin over the tables: a poll (``GET …/version``), a refresh after
another phone's tap (``GET …/events``, the version moved), an append (``POST …/events``)
a stream opened (``GET /t/<id>/stream``, its first event read, then closed) and an API stream
opened by a process that has never seen the table (``api_stream_cold``: its first event, the
live hand's document; ``--replay`` never reads the kept state, as before). Printed:
the process CPU time per request of each kind. ``--profile KIND`` prints cProfile's
cumulative view of that kind instead. This is the part of ``benchmarks/load.py``'s
"server CPU a request" that is the app's (gunicorn adds ~0.35 ms a request).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from hand import sixty_events  # noqa: E402

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PLAYERS = ["A", "B", "C"]


# A finished hand entered as a summary (``--finished``): what an evening holds before its live hand.
STOP = {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}


def make_tables(client, count: int, script: list[dict], finished: int = 0) -> list[dict]:
    tables = []
    for i in range(count):
        created = client.post(
            "/api/v1/tables", json={"name": f"cpu {i}", "players": PLAYERS, "first_dealer": "A"}
        ).get_json()
        key = created["edit_key"]
        for _ in range(finished):
            r = client.post(
                f"/api/v1/tables/{created['id']}/hands", json={"summary": STOP}, headers={"X-Table-Key": key}
            )
            assert r.status_code == 201, r.data
        hand = client.post(
            f"/api/v1/tables/{created['id']}/hands", json={"log": {}}, headers={"X-Table-Key": key}
        ).get_json()["id"]
        t = {"id": created["id"], "key": key, "hand": hand, "seq": 0}
        for _ in range(30):
            append(client, t, script)
        tables.append(t)
    return tables


def append(client, t: dict, script: list[dict]) -> None:
    if t["seq"] >= len(script) - 2:  # keep the hand live: undo back to 30
        while t["seq"] > 30:
            r = client.post(
                f"/api/v1/tables/{t['id']}/hands/{t['hand']}/undo",
                json={"seq": t["seq"]},
                headers={"X-Table-Key": t["key"]},
            )
            assert r.status_code == 200, r.data
            t["seq"] -= 1
    r = client.post(
        f"/api/v1/tables/{t['id']}/hands/{t['hand']}/events",
        json={"seq": t["seq"], "event": script[t["seq"]]},
        headers={"X-Table-Key": t["key"]},
    )
    assert r.status_code == 201, r.data
    t["seq"] += 1


def poll(client, t: dict, _script) -> None:
    r = client.get(f"/api/v1/tables/{t['id']}/version", headers={"X-Table-Key": t["key"]})
    assert r.status_code == 200


def refresh(client, t: dict, _script) -> None:
    r = client.get(f"/api/v1/tables/{t['id']}/hands/{t['hand']}/events", headers={"X-Table-Key": t["key"]})
    assert r.status_code == 200


def stream(client, t: dict, _script) -> None:
    r = client.get(f"/t/{t['id']}/stream", headers={"X-Table-Key": t["key"]}, buffered=False)
    assert r.status_code == 200
    body = r.response
    while b"data:" not in next(body):
        pass
    r.close()


def api_stream_cold(client, t: dict, _script) -> None:
    """The API push stream opened by a process that has never seen the table (a restart): its
    first event is the live hand's document, built from the store."""
    r = client.get(f"/api/v1/tables/{t['id']}/stream", headers={"X-Table-Key": t["key"]}, buffered=False)
    assert r.status_code == 200
    body = r.response
    while b'"events"' not in next(body):
        pass
    r.close()


def forget() -> None:
    """What a restarted process knows: no replay kept, no answer kept."""
    from scorekeeper.tables import service
    from scorekeeper.web.server import answers

    service.forget()
    answers._answers.clear()


KINDS = {"poll": poll, "refresh": refresh, "append": append, "stream": stream, "api_stream_cold": api_stream_cold}


def measure(client, tables, script, kind: str, rounds: int, profile: bool) -> float:
    fn = KINDS[kind]
    work = []
    for _ in range(rounds):
        work.extend(tables)
    # Process CPU time, not the wall clock: on a busy machine the wall clock counts the waits for a core.
    profiler = cProfile.Profile(time.process_time) if profile else None
    spent = 0.0
    for t in work:
        if kind == "refresh":  # another phone tapped: the version moved since this one's last fetch
            append(client, t, script)
        if kind == "api_stream_cold":
            forget()
        start = time.process_time()
        if profiler:
            profiler.enable()
        fn(client, t, script)
        if profiler:
            profiler.disable()
        spent += time.process_time() - start
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
    return 1000 * spent / len(work)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--profile", choices=list(KINDS))
    parser.add_argument("--kinds", default=",".join(KINDS), help="which kinds, comma-separated")
    parser.add_argument("--finished", type=int, default=0, help="finished hands before each table's live hand")
    parser.add_argument(
        "--replay", action="store_true", help="never read a kept state: every cold load replays (as before)"
    )
    args = parser.parse_args(argv)
    if args.replay:
        from scorekeeper.tables import service

        service.kept_live_hand = lambda conn, table: None  # type: ignore[assignment]
        service._read_kept = lambda *a: None  # type: ignore[assignment]
    from scorekeeper.web import create_app

    script = sixty_events()
    with tempfile.TemporaryDirectory(prefix="sk-cpu-") as tmp:
        schema = None
        if args.db == "sqlite":
            url = f"sqlite:///{tmp}/cpu.db"
        else:
            import psycopg

            raw = PG_URL.replace("postgresql+psycopg://", "postgresql://")
            schema = f"sk_cpu_{uuid.uuid4().hex[:12]}"
            with psycopg.connect(raw, autocommit=True) as conn:
                conn.execute(f'create schema "{schema}"')
            url = f"{PG_URL}{'&' if '?' in PG_URL else '?'}options=-csearch_path%3D{schema}"
        try:
            app = create_app(
                {
                    "DATABASE_URL": url,
                    "SECRET_KEY": "cpu",
                    "RATELIMIT_CREATE": "100000/hour",
                    "RATELIMIT_STORAGE_URI": f"sqlite:///{tmp}/limits.db",
                }
            )
            client = app.test_client()
            tables = make_tables(client, args.tables, script, args.finished)
            kinds = [args.profile] if args.profile else args.kinds.split(",")
            for kind in kinds:
                measure(client, tables, script, kind, 1, False)  # warm
                ms = measure(client, tables, script, kind, args.rounds, args.profile == kind)
                print(f"{args.db} {kind:8} {ms:.3f} ms CPU a request")
            app.extensions["sk_engine"].dispose()
        finally:
            if schema:
                with psycopg.connect(raw, autocommit=True) as conn:
                    conn.execute(f'drop schema "{schema}" cascade')
    return 0


if __name__ == "__main__":
    sys.exit(main())
