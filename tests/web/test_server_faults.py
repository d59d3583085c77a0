"""The real server under faults: killed hard in a burst of appends, and phones racing on one hand.

Each test starts ``scorekeeper serve`` (gunicorn, as deployed) as a subprocess on a free
loopback port, over a SQLite file or a fresh PostgreSQL schema, and talks to it over HTTP
from threads, each a phone with its own keep-alive connection. Every event carries a unique
``id`` (a field the engine ignores), so the stored log can be compared with exactly what the
server acknowledged: an answered append is stored once at its seq, an unanswered one (in
flight at the kill) is stored once or not at all, and nothing else is ever stored.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import pytest
from sqlalchemy import text

from scorekeeper.engine.live.hand import HandSetup, replay
from scorekeeper.store.db import make_engine

PLAYERS = ["A", "B", "C"]
START_TIMEOUT = 20.0


def hand_script() -> list[dict]:
    """59 events of a three-player hand that is still being played after the last one."""
    junk = [f"{m}j{n}" for m in range(1, 12) for n in (1, 2)]
    events: list[dict] = []
    for turn in range(21):
        player = PLAYERS[turn % 3]
        events.append({"type": "capture", "player": player, "cards": [junk[turn]]})
        if turn < 12:
            events.append({"type": "take_junk", "player": player, "reason": "sseul"})
        if turn < 6:
            events.append({"type": "ppuk", "player": player})
        events.append({"type": "end_turn"})
    return events[:59]


SCRIPT = hand_script()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One phone: a keep-alive connection that presents the table's edit secret."""

    def __init__(self, port: int, key: str | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        self.key = key

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_exc) -> None:
        self.conn.close()

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict | None]:
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["X-Table-Key"] = self.key
        try:
            self.conn.request(method, path, None if body is None else json.dumps(body), headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            raise
        try:
            return response.status, json.loads(data) if data else None
        except ValueError:
            return response.status, {"raw": data[:500].decode("utf-8", "replace")}


class Server:
    """``scorekeeper serve`` in a process group of its own, so one SIGKILL takes its workers too."""

    def __init__(self, database_url: str, log_path):
        self.database_url, self.log_path = database_url, log_path
        self.proc: subprocess.Popen | None = None
        self.port = 0

    def start(self) -> Server:
        self.port = free_port()
        env = os.environ | {
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "server-faults",
            "SCOREKEEPER_WORKERS": "2",
            "SCOREKEEPER_THREADS": "4",
            "RATELIMIT_STORAGE_URI": f"sqlite:///{self.log_path.parent / 'ratelimits.db'}",
        }
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with Client(self.port) as client:
                    if client.request("GET", "/api/v1/openapi.json")[0] == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.1)
        self.signal(signal.SIGKILL)
        raise AssertionError(f"the server did not answer within {START_TIMEOUT} s:\n{self.log_tail()}")

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the server's master and workers, and wait for the master to end."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.signal(signal.SIGTERM)
        self.proc = None

    def log_tail(self, lines: int = 40) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return "".join(f.readlines()[-lines:])


@pytest.fixture
def server(database_url, tmp_path):
    """Start the real server over ``database_url``; every one started is stopped afterwards."""
    started: list[Server] = []

    def start() -> Server:
        srv = Server(database_url, tmp_path / "server.log")
        started.append(srv)
        return srv.start()

    yield start
    for srv in started:
        srv.stop()


@dataclass
class LiveTable:
    id: str
    key: str
    hand: int

    @property
    def events_path(self) -> str:
        return f"/api/v1/tables/{self.id}/hands/{self.hand}/events"


def new_live_table(port: int) -> LiveTable:
    with Client(port) as client:
        status, created = client.request("POST", "/api/v1/tables", {"players": PLAYERS, "first_dealer": "A"})
        assert status == 201, created
        client.key = created["edit_key"]
        status, hand = client.request("POST", f"/api/v1/tables/{created['id']}/hands", {"log": {}})
    assert status == 201, hand
    return LiveTable(created["id"], created["edit_key"], hand["id"])


@dataclass
class Ledger:
    """What the phones sent and what the server answered, shared by the phone threads."""

    sent: dict[str, set[str]] = field(default_factory=dict)  # table -> event ids sent
    acked: dict[str, dict[int, str]] = field(default_factory=dict)  # table -> seq -> event id
    statuses: list[int] = field(default_factory=list)
    unanswered: int = 0
    wrong: list = field(default_factory=list)  # answers that are neither stored nor a conflict
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack_count(self) -> int:
        with self.lock:
            return sum(len(a) for a in self.acked.values())


def phone(port: int, table: LiveTable, name: str, ledger: Ledger, stop: threading.Event, attempts: int = 400) -> None:
    """Append the script's next event with the seq last seen, until the hand is at its end.

    A conflict answers the current log: the phone takes its seq and tries the next event.
    """
    with Client(port, table.key) as client:
        _append_until_done(client, table, name, ledger, stop, attempts)


def _append_until_done(
    client: Client, table: LiveTable, name: str, ledger: Ledger, stop: threading.Event, attempts: int
) -> None:
    seq = 0
    for n in range(attempts):
        if stop.is_set() or seq >= len(SCRIPT):
            return
        event = SCRIPT[seq] | {"id": f"{name}-{n}"}
        with ledger.lock:
            ledger.sent.setdefault(table.id, set()).add(event["id"])
        try:
            status, body = client.request("POST", table.events_path, {"seq": seq, "event": event})
        except (OSError, http.client.HTTPException):
            with ledger.lock:
                ledger.unanswered += 1
            return  # the server is gone
        with ledger.lock:
            ledger.statuses.append(status)
            if status == 201 and body["events"][seq].get("id") == event["id"]:
                if seq in ledger.acked.setdefault(table.id, {}):
                    ledger.wrong.append((status, f"seq {seq} acknowledged twice", body))
                ledger.acked[table.id][seq] = event["id"]
            elif not (status == 409 and body["errors"][0]["code"] == "conflict" and body["ok"] is False):
                ledger.wrong.append((status, event, body))
                return
        seq = body["seq"]


def run_phones(
    port: int,
    tables: list[LiveTable],
    per_table: int,
    ledger: Ledger,
    tag: str,
    kill_after: int | None = None,
    kill=None,
    timeout: float = 20.0,
) -> None:
    """Phones racing on each table; with ``kill_after``, ``kill()`` once that many are acknowledged."""
    stop = threading.Event()
    threads = [
        threading.Thread(target=phone, args=(port, t, f"{tag}{ti}p{i}", ledger, stop), daemon=True)
        for ti, t in enumerate(tables)
        for i in range(per_table)
    ]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    if kill_after is not None:
        while ledger.ack_count() < kill_after and any(t.is_alive() for t in threads):
            assert time.monotonic() < deadline, "the burst did not reach the kill point in time"
            time.sleep(0.002)
        assert any(t.is_alive() for t in threads), "the burst was over before the kill"
        kill()
        stop.set()
    for t in threads:
        t.join(max(0.1, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "a phone thread did not finish in time"


def check_stored(
    port: int, database_url: str, tables: list[LiveTable], ledger: Ledger, exactly_acked: bool = False
) -> dict[str, int]:
    """Every acknowledged event stored once at its seq, nothing unsent, gap-free, replayable."""
    lengths = {}
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            for table in tables:
                with Client(port, table.key) as client:
                    status, body = client.request("GET", table.events_path)
                assert status == 200, body
                events = body["events"]
                ids = [e["id"] for e in events]
                acked = ledger.acked.get(table.id, {})
                assert len(set(ids)) == len(ids), "an event is stored twice"
                assert set(ids) <= ledger.sent.get(table.id, set()), "the log holds an event nobody sent"
                assert {seq: ids[seq] if seq < len(ids) else None for seq in acked} == acked, (
                    "an acknowledged event is missing or out of place"
                )
                if exactly_acked:
                    assert ids == [acked[seq] for seq in sorted(acked)]
                assert [{k: v for k, v in e.items() if k != "id"} for e in events] == SCRIPT[: len(events)]
                assert replay(HandSetup.from_json(body["state"]["setup"]), events).to_json() == body["state"]

                seqs = (
                    conn.execute(text("select seq from sk_events where hand_id = :h order by seq"), {"h": table.hand})
                    .scalars()
                    .all()
                )
                assert seqs == list(range(len(events))), "the seq numbers have a gap"
                version = conn.execute(
                    text("select version from sk_tables where public_id = :p"), {"p": table.id}
                ).scalar_one()
                # Created at 1, bumped by the hand and by each event in the same transaction.
                assert version == 2 + len(events) == body["version"]
                lengths[table.id] = len(events)
            orphans = conn.execute(
                text("select count(*) from sk_events e left join sk_hands h on h.id = e.hand_id where h.id is null")
            ).scalar_one()
            assert orphans == 0
    finally:
        engine.dispose()
    if database_url.startswith("sqlite:///"):
        with sqlite3.connect(database_url[len("sqlite:///") :]) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        db.close()
    return lengths


def test_sigkill_mid_burst_loses_no_acknowledged_event(server, database_url):
    srv = server()
    tables = [new_live_table(srv.port) for _ in range(2)]
    ledger = Ledger()
    # Two bursts, each killed once this many appends were acknowledged in all, then restarted.
    for round_, kill_after in enumerate((20, 60)):
        run_phones(
            srv.port, tables, 3, ledger, f"r{round_}t", kill_after=kill_after, kill=lambda: srv.signal(signal.SIGKILL)
        )
        assert not ledger.wrong, ledger.wrong[:3]
        assert all(s in (201, 409) for s in ledger.statuses)
        srv.start()
        lengths = check_stored(srv.port, database_url, tables, ledger)
        assert sum(lengths.values()) >= kill_after

    # The restarted server goes on where the log ends.
    table = tables[0]
    seq = lengths[table.id]
    if seq < len(SCRIPT):
        with Client(srv.port, table.key) as client:
            status, body = client.request(
                "POST", table.events_path, {"seq": seq, "event": SCRIPT[seq] | {"id": "after"}}
            )
        assert status == 201 and body["seq"] == seq + 1, body


def test_racing_phones_store_each_append_once_or_refuse_it(server, database_url):
    srv = server()
    table = new_live_table(srv.port)
    ledger = Ledger()
    run_phones(srv.port, [table], 12, ledger, "race")
    assert ledger.unanswered == 0
    assert not ledger.wrong, ledger.wrong[:3]
    assert ledger.statuses.count(201) == len(SCRIPT)
    assert set(ledger.statuses) <= {201, 409}
    lengths = check_stored(srv.port, database_url, [table], ledger, exactly_acked=True)
    assert lengths[table.id] == len(SCRIPT)
