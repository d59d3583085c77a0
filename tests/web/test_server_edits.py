"""Two phones editing one finished hand at once, on the real server (issue 10, item 2).

Before: both edits were acknowledged and one silently disappeared (50 of 50 races). Now each
edit carries the ETag it was made against: in every round exactly one is taken, the other is a
409 carrying the winner's hand, and the stored hand is the one acknowledged. SQLite and PostgreSQL.
"""

from __future__ import annotations

import http.client
import json
import threading

from .conftest import STOP_A
from .test_server_faults import server  # noqa: F401 - the fixture, reused

ROUNDS = 50


def send(port: int, method: str, path: str, key: str | None = None, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request(
            method,
            path,
            None if body is None else json.dumps(body),
            {"Content-Type": "application/json"} | ({"X-Table-Key": key} if key else {}) | (headers or {}),
        )
        r = conn.getresponse()
        return r.status, r.getheader("ETag"), json.loads(r.read() or b"{}")
    finally:
        conn.close()


def test_racing_edits_of_one_hand_lose_nothing(server):
    port = server().port
    status, _, made = send(port, "POST", "/api/v1/tables", body={"players": ["A", "B", "C"], "first_dealer": "A"})
    assert status == 201
    key, base = made["edit_key"], f"/api/v1/tables/{made['id']}"
    status, _, hand = send(port, "POST", f"{base}/hands", key, {"summary": STOP_A})
    assert status == 201
    path = f"{base}/hands/{hand['id']}"
    for round_ in range(ROUNDS):
        _, etag, _ = send(port, "GET", path, key)
        edits = [STOP_A | {"junk": {"B": round_ % 9}}, STOP_A | {"junk": {"C": round_ % 9 + 1}}]
        answers: list = [None, None]
        start = threading.Barrier(2)

        def phone(i: int) -> None:
            start.wait()
            answers[i] = send(port, "PUT", path, key, {"summary": edits[i]}, {"If-Match": etag})

        threads = [threading.Thread(target=phone, args=(i,)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        statuses = sorted(a[0] for a in answers)
        assert statuses == [200, 409], (round_, answers)
        won = next(i for i, a in enumerate(answers) if a[0] == 200)
        lost = answers[1 - won]
        assert lost[2]["errors"][0]["code"] == "conflict" and lost[2]["hand"]["summary"]["junk"] == edits[won]["junk"]
        assert lost[1] == answers[won][1]  # the 409's ETag is the winner's
        _, now, stored = send(port, "GET", path, key)
        assert stored["summary"]["junk"] == edits[won]["junk"] and now == answers[won][1], round_
