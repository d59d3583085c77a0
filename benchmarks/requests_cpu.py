"""Benchmark: the app's own CPU for each kind of request a phone makes, in one process.

Usage: ``python benchmarks/requests_cpu.py [--db sqlite|postgres] [--tables 50] [--profile KIND] [--short]``.

No gunicorn, no network: Flask's test client calls the app (rate limiter on, as served),
on a SQLite file or a fresh PostgreSQL schema. Each table has a live hand some 30 events
along; then, round robin over the tables: a poll (``GET …/version``), a refresh after
another phone's tap (``GET …/events``, the version moved), an append (``POST …/events``), a
conflict (a tap one event behind the log, ``conflict``), a stream opened (``GET
/t/<id>/stream``, its first event read, then closed) and an API stream opened by a process that
has never seen the table (``api_stream_cold``: its first event, the live hand's document;
``--replay`` never reads the kept state, as before), and one opened while another stream of the
process follows the table (``api_stream``: the open itself). Printed: the process CPU time per
request of each kind.

A tap's cost all in, as ``load.py``'s phones make it (each of a table's three phones follows the
table's API push stream; the two workers hold some of each table's streams), in two parts:
``push_here``, an append with one stream of this process following the table (the append and
that stream's event, sent from the appending request's answer); ``push_there``, the same change
as the other process meets it, with two streams following: the streams' events, the change
loaded once for both from the rows that process kept at the version before (the append itself
made here, not counted; SQLite's version check, made a dozen times a second whatever the taps,
not counted either). ``push_here + push_there`` is the app's CPU a tap, all in, but gunicorn's
parsing and writing. ``push_there_cold``: the same, in a process that keeps none of the table's
rows (its streams' first events read from the kept state, as after a restart). ``--profile KIND`` prints cProfile's
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


def conflict(client, t: dict, script: list[dict]) -> None:
    """A tap on a log its phone has not yet been shown: one event behind, answered 409 with the
    current log (a restart's opening burst has a few hundred of them)."""
    r = client.post(
        f"/api/v1/tables/{t['id']}/hands/{t['hand']}/events",
        json={"seq": t["seq"] - 1, "event": script[t["seq"]]},
        headers={"X-Table-Key": t["key"]},
    )
    assert r.status_code == 409, r.data


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


def api_stream(client, t: dict, script) -> None:
    """The API push stream opened while another stream of this process follows the table: its
    first event kept, what is measured is the open itself (issue 32: the burst after a restart
    is mostly such opens, the table's other phones)."""
    api_stream_cold(client, t, script)


# -- a tap all in: the streams that carry it -----------------------------------------------------
STREAMS_THERE = 2  # the other worker's share of a table's three phones' streams (load.py: 1.5 a worker)


def read_change(body) -> None:
    """Read a stream up to its next event carrying a hand's log."""
    while b'"events"' not in next(body):
        pass


def follow(client, t: dict, count: int) -> list:
    """``count`` API streams open on ``t`` in this process, each past its first event."""
    t.setdefault("streams", [])
    while len(t["streams"]) < count:
        r = client.get(f"/api/v1/tables/{t['id']}/stream", headers={"X-Table-Key": t["key"]}, buffered=False)
        assert r.status_code == 200
        read_change(r.response)
        t["streams"].append(r)
    return t["streams"][:count]


def push_here(client, t: dict, script) -> None:
    """An append, and the event of the one stream of this process following the table."""
    (stream,) = t["following"]
    append(client, t, script)
    read_change(stream.response)


def push_there(client, t: dict, script) -> None:
    """The events of two streams in a process that did not make the change: measured after
    ``before_there`` made it (see ``measure``); as ``push_there_cold``, after ``before_there_cold``
    (a process that does not keep the table's rows, its streams' first events read from the kept
    state, as after a restart)."""
    for stream in t["following"]:
        read_change(stream.response)


def before_there_cold(client, t: dict, script) -> None:
    """The change, made as if by another process, met by a process that keeps nothing of the
    table (as after a restart) and is offered nothing."""
    append(client, t, script)
    forget()
    client.application.extensions["sk_push"]._deltas.pop(t["id"], None)


def before_there(client, t: dict, script) -> None:
    """The change, made as if by another process: this process keeps what it kept of the table
    before it (its rows, the live hand, the replay, the answers) and is offered nothing."""
    from scorekeeper.tables import service
    from scorekeeper.web.server import answers

    # Every entry of the table in what the process keeps, by table (id, public id) or by hand:
    # a tap kept in ``_lives`` alone since the tap from the live hand, in ``_rows`` before it.
    by_table = [k for k in (*service._rows, *service._lives) if k[1] == t["id"]]
    table_id = by_table[0][0] if by_table else None
    ids = {"_ids": {t["id"]}, "_series": {table_id}, "_hands": {t["hand"]}}

    def mine(name: str, key) -> bool:
        return (key[1] == t["id"]) if name in ("_rows", "_lives") else key in ids[name]

    names = ("_rows", "_lives", "_ids", "_series", "_hands")
    kept_before = {n: {k: v for k, v in getattr(service, n).items() if mine(n, k)} for n in names}
    append(client, t, script)
    for name, entries in kept_before.items():
        kept = getattr(service, name)
        for k in [k for k in kept if mine(name, k)]:
            del kept[k]
        kept.update(entries)
    for k in [k for k in answers._answers if k[1] == t["id"]]:
        del answers._answers[k]
    client.application.extensions["sk_push"]._deltas.pop(t["id"], None)


def forget() -> None:
    """What a restarted process knows: no replay kept, no answer kept, no log's text kept."""
    from scorekeeper.tables import service
    from scorekeeper.web.server import answers
    from scorekeeper.web.views import tablejson

    service.forget()
    answers._answers.clear()
    tablejson.forget()


KINDS = {
    "poll": poll,
    "refresh": refresh,
    "append": append,
    "conflict": conflict,
    "stream": stream,
    "api_stream_cold": api_stream_cold,
    "api_stream": api_stream,
    "push_here": push_here,
    "push_there": push_there,
    "push_there_cold": push_there,  # after its own "before" (``BEFORE``)
}


PROFILE_SORT, PROFILE_LINES = "cumulative", 45


# What each kind finds done before it, not measured.
BEFORE = {
    "refresh": append,  # another phone tapped: the version moved since this one's last fetch
    "api_stream_cold": lambda *_: forget(),
    "push_there": before_there,
    "push_there_cold": before_there_cold,
}
FOLLOWERS = {
    "api_stream": 1,
    "push_here": 1,
    "push_there": STREAMS_THERE,
    "push_there_cold": STREAMS_THERE,
}  # streams open on each table


def measure(client, tables, script, kind: str, rounds: int, profile: bool) -> float:
    fn = KINDS[kind]
    for t in tables:  # the streams a tap's change goes to, open before the first
        if kind in FOLLOWERS:
            t["following"] = follow(client, t, FOLLOWERS[kind])
    before = BEFORE.get(kind)
    work = []
    for _ in range(rounds):
        work.extend(tables)
    # Process CPU time, not the wall clock: on a busy machine the wall clock counts the waits for a core.
    profiler = cProfile.Profile(time.process_time) if profile else None
    spent = 0.0
    for t in work:
        if before is not None:  # not measured: what the request finds done before it
            before(client, t, script)
        start = time.process_time()
        if profiler:
            profiler.enable()
        fn(client, t, script)
        if profiler:
            profiler.disable()
        spent += time.process_time() - start
    if profiler:
        pstats.Stats(profiler).sort_stats(PROFILE_SORT).print_stats(PROFILE_LINES)
    return 1000 * spent / len(work)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--profile", choices=list(KINDS))
    parser.add_argument("--profile-sort", default="cumulative", help="cProfile's order: cumulative, tottime…")
    parser.add_argument("--profile-lines", type=int, default=45)
    parser.add_argument("--kinds", default=",".join(KINDS), help="which kinds, comma-separated")
    parser.add_argument("--finished", type=int, default=0, help="finished hands before each table's live hand")
    parser.add_argument("--short", action="store_true", help="a few seconds, for the tests: 4 tables, 1 round")
    parser.add_argument(
        "--replay", action="store_true", help="never read a kept state: every cold load replays (as before)"
    )
    args = parser.parse_args(argv)
    if args.short:
        args.tables, args.rounds = 4, 1
    global PROFILE_SORT, PROFILE_LINES
    PROFILE_SORT, PROFILE_LINES = args.profile_sort, args.profile_lines
    if args.replay:
        from scorekeeper.tables import service

        service.kept_live_hand = lambda conn, table: None  # type: ignore[assignment]
        service._read_kept = lambda *a: None  # type: ignore[assignment]
    from scorekeeper.web import close_app, create_app

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
                    # SQLite's watcher checks by itself every 75 ms: a thread whose CPU, whatever
                    # the taps, would land on whichever request was being measured. Its streams
                    # here are rung by the commits of this process instead.
                    "PUSH_CHECK_MS": 3_600_000,
                }
            )
            client = app.test_client()
            tables = make_tables(client, args.tables, script, args.finished)
            kinds = [args.profile] if args.profile else args.kinds.split(",")
            spent = {}
            for kind in kinds:
                measure(client, tables, script, kind, 1, False)  # warm
                spent[kind] = ms = measure(client, tables, script, kind, args.rounds, args.profile == kind)
                print(f"{args.db} {kind:8} {ms:.3f} ms CPU a request")
            if "push_here" in spent and "push_there" in spent:
                both = spent["push_here"] + spent["push_there"]
                print(f"{args.db} tap, all in (push_here + push_there) {both:.3f} ms")
            for t in tables:
                for r in t.get("streams", ()):
                    r.close()
            close_app(app)
        finally:
            if schema:
                with psycopg.connect(raw, autocommit=True) as conn:
                    conn.execute(f'drop schema "{schema}" cascade')
    return 0


if __name__ == "__main__":
    sys.exit(main())
