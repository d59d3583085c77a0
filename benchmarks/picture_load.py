"""Benchmark: another table's version poll while a group's share picture is asked for 50 at a time.

Usage: ``python benchmarks/picture_load.py [--db sqlite|postgres|both] [--clients 50] [--seconds 10]
[--players 8] [--changes 2] [--rate N] [--poll-apart] [--source DIR]``.

For each database the app is started under gunicorn as ``scorekeeper serve`` runs it (``load.py``'s
``Gunicorn``: gevent workers, ``SCOREKEEPER_WORKERS``, 2 by default). Through the API: a group of
``--players`` players with an evening of a few hands, its players owing each other; and another
table (not in the group), whose version a phone polls. Then, back to back:

1. *quiet*: that poll every 20 ms for ``--seconds`` s;
2. *pictures*: the same poll while ``--clients`` connections each ask for the group's picture (at
   the digest address of its Open Graph tag, as a chat's link preview does: no cookie, no
   ``If-None-Match``) again as soon as answered; every ``--changes`` s a payment changes what the
   picture shows (a new version: read and drawn again).

Each phase prints the poll's p50/p95/p99/max, the pictures answered by status and their p50/p95,
the server's CPU, and the load average at its start and end: the machine may be shared, so the
figures are only comparable when taken back to back. The poll runs on the picture clients' event
loop, and waits behind their work there too (thousands of 50 KB answers a second): ``--poll-apart``
polls from a forked process of its own instead, as another phone would. Back to back, the
clients ask as fast as the server answers (a cheaper answer: more pictures, the machine as busy);
``--rate N`` paces them to N pictures a second in all, to compare the poll at the same load. ``--source DIR`` runs the
server from another source tree (e.g. ``git archive main | tar -x -C DIR``: the figures before a
change).
PostgreSQL: ``TEST_DATABASE_URL`` or 127.0.0.1:5432, database ``test``; a fresh schema, dropped after.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import multiprocessing
import os
import re
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import load  # noqa: E402  (benchmarks/load.py: the server, the client, the PostgreSQL schema)
from load import Conn, Gunicorn, PostgresSchema, figures, postgres_unreachable  # noqa: E402

POLL_EVERY = 0.02


def won_by(player: str) -> dict:
    return {"captures": {player: ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": player}}


async def _json(conn: Conn, method: str, path: str, body=None, key=None, headers=None, expect=(200, 201)) -> dict:
    status, data = await conn.request(method, path, body, key, headers)
    if status not in expect:
        raise SystemExit(f"{method} {path}: {status} {data[:300]!r}")
    return json.loads(data) if data else {}


async def seed(port: int, players: int) -> dict:
    """A group with an evening of three players' hands, and another table (the one polled)."""
    conn = Conn(port)
    try:
        names = [f"P{i}" for i in range(players)]
        group = await _json(conn, "POST", "/api/v1/groups", {"name": "토요일 모임", "players": names})
        gkey = {"X-Group-Key": group["edit_key"]}
        for start in range(0, players, 3):
            seat = [names[(start + i) % players] for i in range(3)]
            t = await _json(conn, "POST", "/api/v1/tables", {"group": group["id"], "players": seat}, headers=gkey)
            for winner in (seat[0], seat[0], seat[1]):
                await _json(conn, "POST", f"/api/v1/tables/{t['id']}/hands", {"summary": won_by(winner)}, t["edit_key"])
        other = await _json(conn, "POST", "/api/v1/tables", {"players": ["A", "B", "C"]})
        status, page = await conn.request("GET", f"/gj/{group['id']}/{group['view_key']}")
        found = re.search(rb'<meta property="og:image" content="([^"]+)"', page)
        if status != 200 or not found:
            raise SystemExit(f"share link: {status}, no og:image")
        image = html.unescape(found.group(1).decode()).split("127.0.0.1", 1)[-1]
        image = re.sub(r"^https?://[^/]+", "", image)
        return {"group": group, "other": other, "image": image, "names": names}
    finally:
        conn.close()


async def poller(port: int, other: dict, stop_at: float, out: list[float], errors: list[str]) -> None:
    conn = Conn(port)
    path = f"/api/v1/tables/{other['id']}/version"
    try:
        while time.monotonic() < stop_at:
            start = time.perf_counter()
            try:
                status, _ = await conn.request("GET", path, key=other["edit_key"])
            except (OSError, asyncio.IncompleteReadError) as err:
                errors.append(type(err).__name__)
                continue
            elapsed = time.perf_counter() - start
            if status == 200:
                out.append(elapsed)
            else:
                errors.append(str(status))
            await asyncio.sleep(max(0.0, POLL_EVERY - elapsed))
    finally:
        conn.close()


async def picture_client(
    port: int, image: str, stop_at: float, times: list[float], statuses: dict, every: float = 0.0, offset: float = 0.0
) -> None:
    """Ask for the picture again as soon as answered, or (``every`` > 0) once every ``every`` s."""
    conn = Conn(port)
    try:
        await asyncio.sleep(offset)
        while time.monotonic() < stop_at:
            start = time.perf_counter()
            try:
                status, _body = await conn.request("GET", image)
            except (OSError, asyncio.IncompleteReadError) as err:
                status = type(err).__name__
            times.append(time.perf_counter() - start)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 503:
                await asyncio.sleep(0.5)  # as a client told Retry-After would (at most 2 s)
            elif every:
                await asyncio.sleep(max(0.0, every - (time.perf_counter() - start)))
    finally:
        conn.close()


def _poll_apart(port: int, other: dict, seconds: float, found) -> None:
    """``poller`` in a forked process (``--poll-apart``), its figures sent back on ``found``."""
    polls: list[float] = []
    errors: list[str] = []
    asyncio.run(poller(port, other, time.monotonic() + seconds, polls, errors))
    found.put((polls, errors))


async def payer(port: int, seeded: dict, every: float, stop_at: float, made: list[int]) -> None:
    """A payment every ``every`` s: what the picture shows changes, its next request draws it."""
    if every <= 0:
        return
    conn = Conn(port)
    names, group = seeded["names"], seeded["group"]
    try:
        while time.monotonic() + every < stop_at:
            await asyncio.sleep(every)
            status, _ = await conn.request(
                "POST",
                f"/api/v1/groups/{group['id']}/payments",
                {"from": names[-1], "to": names[0], "points": 1, "beyond_owed": True},
                headers={"X-Group-Key": group["edit_key"]},
            )
            made.append(status)
    finally:
        conn.close()


async def phase(server: Gunicorn, seeded: dict, args, clients: int) -> dict:
    load0, cpu0 = os.getloadavg(), server.cpu_seconds()
    stop_at = time.monotonic() + args.seconds
    polls: list[float] = []
    poll_errors: list[str] = []
    times: list[float] = []
    statuses: dict = {}
    payments: list[int] = []
    apart = None
    if args.poll_apart:  # the poll in a process of its own: not behind the picture clients' loop
        fork = multiprocessing.get_context("fork")
        found: Any = fork.Queue()
        apart = fork.Process(target=_poll_apart, args=(server.port, seeded["other"], args.seconds, found))
        apart.start()
        tasks = []
    else:
        tasks = [poller(server.port, seeded["other"], stop_at, polls, poll_errors)]
    every = clients / args.rate if args.rate else 0.0  # each client's share of --rate
    tasks += [
        picture_client(server.port, seeded["image"], stop_at, times, statuses, every, every * i / max(1, clients))
        for i in range(clients)
    ]
    if clients:
        tasks.append(payer(server.port, seeded, args.changes, stop_at, payments))
    await asyncio.gather(*tasks)
    if apart is not None:
        polls, poll_errors = found.get(timeout=args.seconds + 30)
        apart.join()
    return {
        "clients": clients,
        "poll": figures(polls, args.seconds) if polls else None,
        "poll_errors": poll_errors[:10],
        "pictures": figures(times, args.seconds) if times else None,
        "picture_statuses": {str(k): v for k, v in statuses.items()},
        "payments": payments,
        "server_cpu_s": round(server.cpu_seconds() - cpu0, 2),
        "loadavg": [load0[0], os.getloadavg()[0]],
    }


async def run(args, db: str, url: str, workdir: str) -> dict:
    env = {
        "DATABASE_URL": url,
        "SECRET_KEY": "picture-benchmark",
        "SCOREKEEPER_RATELIMIT_CREATE": "100000/hour",
    }
    server = Gunicorn("scorekeeper.web:create_app()", env, os.path.join(workdir, f"gunicorn-{db}.log"))
    try:
        server.wait_ready("/api/v1/openapi.json", timeout=180)  # a loaded machine starts slowly
        seeded = await seed(server.port, args.players)
        quiet = await phase(server, seeded, args, 0)
        loaded = await phase(server, seeded, args, args.clients)
        return {"db": db, "quiet": quiet, "pictures": loaded}
    finally:
        server.stop()


def report(results: dict) -> None:
    print(f"source: {results['source']}")
    for run_ in results["runs"]:
        for name in ("quiet", "pictures"):
            p = run_[name]
            poll = p["poll"] or {}
            line = (
                f"{run_['db']:8} {name:8} poll p50 {poll.get('p50_ms')} ms  p95 {poll.get('p95_ms')} ms  "
                f"p99 {poll.get('p99_ms')} ms  max {poll.get('max_ms')} ms  ({poll.get('count')} polls)"
            )
            if p["pictures"]:
                pic = p["pictures"]
                line += (
                    f" | pictures {pic['per_s']}/s p50 {pic['p50_ms']} ms p95 {pic['p95_ms']} ms "
                    f"{p['picture_statuses']} | {len(p['payments'])} payments"
                )
            line += f" | server CPU {p['server_cpu_s']} s | load {p['loadavg'][0]:.1f}→{p['loadavg'][1]:.1f}"
            print(line)
            if p["poll_errors"]:
                print(f"         poll errors: {p['poll_errors']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--clients", type=int, default=50, help="connections asking for the picture at once")
    parser.add_argument("--seconds", type=float, default=10.0, help="each phase")
    parser.add_argument("--players", type=int, default=8, help="the group's players")
    parser.add_argument("--changes", type=float, default=2.0, metavar="S", help="a payment every S s (0: none)")
    parser.add_argument(
        "--rate", type=float, default=0.0, metavar="N", help="pictures asked a second in all (0: back to back)"
    )
    parser.add_argument(
        "--poll-apart",
        action="store_true",
        help="poll from a process of its own (else on the picture clients' event loop, behind their work)",
    )
    parser.add_argument("--source", default=load.ROOT, metavar="DIR", help="the source tree the server runs")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    load.SOURCE = os.path.abspath(args.source)
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    if "postgres" in dbs and (reason := postgres_unreachable()):
        print(f"skipping PostgreSQL: {reason}", file=sys.stderr)
        dbs.remove("postgres")
    results: dict = {"source": load.SOURCE, "args": vars(args), "runs": []}
    with tempfile.TemporaryDirectory(prefix="sk-picture-") as workdir:
        for db in dbs:
            if db == "sqlite":
                url = f"sqlite:///{os.path.join(workdir, 'pictures.db')}"
                results["runs"].append(asyncio.run(run(args, db, url, workdir)))
            else:
                with PostgresSchema() as url:
                    results["runs"].append(asyncio.run(run(args, db, url, workdir)))
    report(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
