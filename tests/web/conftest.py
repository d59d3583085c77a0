"""Helpers of the web tests: tables made through the API, a hand with a go and pi-bak."""

from __future__ import annotations

import re

import pytest

GO_PIBAK = [
    {
        "type": "capture",
        "player": "A",
        "cards": ["1g", "3g", "8g", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2"],
    },
    {"type": "end_turn", "player": "A"},
    {"type": "go", "player": "A"},
    {"type": "capture", "player": "B", "cards": ["6j1", "6j2", "7j1", "7j2", "8j1"]},
    {"type": "end_turn", "player": "B"},
    {"type": "capture", "player": "C", "cards": ["9j1"]},
    {"type": "end_turn", "player": "C"},
    {"type": "capture", "player": "A", "cards": ["11g"]},
    {"type": "end_turn", "player": "A"},
    {"type": "stop", "player": "A"},
]
# What the engine pays for GO_PIBAK: B 12 (×2 gwang-bak), C 24 (×2 gwang-bak, ×2 pi-bak).
GO_PIBAK_PAYMENTS = {("B", "A"): 12, ("C", "A"): 24}

STOP_A = {"captures": {"A": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "A"}}


class Table:
    def __init__(self, client, created: dict):
        self.client = client
        self.id = created["id"]
        self.edit_key = created["edit_key"]
        self.view_key = created["view_key"]

    @property
    def url(self) -> str:
        return f"/t/{self.id}"

    def enter(self, key: str | None = None):
        return self.client.get(f"/j/{self.id}/{key or self.edit_key}")

    def api(self, method: str, path: str = "", key: str | None = None, **kwargs):
        headers = {"X-Table-Key": key or self.edit_key} | kwargs.pop("headers", {})
        return self.client.open(f"/api/v1/tables/{self.id}{path}", method=method, headers=headers, **kwargs)

    def start_live(self, **body) -> int:
        r = self.api("POST", "/hands", json={"log": {}} | body)
        assert r.status_code == 201, r.get_json()
        return r.get_json()["id"]

    def append(self, hand_id: int, events: list[dict], start: int = 0):
        for seq, event in enumerate(events, start):
            r = self.api("POST", f"/hands/{hand_id}/events", json={"seq": seq, "event": event})
            assert r.status_code == 201, (event, r.get_json())
        return r

    def add_summary(self, summary: dict, **extra):
        r = self.api("POST", "/hands", json={"summary": summary} | extra)
        assert r.status_code == 201, r.get_json()
        return r.get_json()["id"]

    def state(self) -> dict:
        return self.api("GET").get_json()


@pytest.fixture
def make_table(client):
    def make(players=("A", "B", "C"), **config) -> Table:
        body = {"players": list(players), "first_dealer": players[0]} | config
        r = client.post("/api/v1/tables", json=body)
        assert r.status_code == 201, r.get_json()
        return Table(client, r.get_json())

    return make


@pytest.fixture
def table(make_table):
    """A three-player table this client may edit."""
    t = make_table()
    t.enter()
    return t


def seq_of(html: bytes) -> int:
    return int(re.search(rb'name="seq" value="(\d+)"', html).group(1))


# -- a group ------------------------------------------------------------------------------------

# A hand 지영 wins with three brights (3 points): the groups' tests' first hand.
BRIGHTS = {"captures": {"지영": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "지영"}}


def group_with_an_empty_evening(client, name: str = "토요일", players=("민수", "지영", "철수")) -> dict:
    """A group made through the API, its keys, and one evening of its players with no hand yet
    (``["table"]``, its keys too)."""
    g = client.post("/api/v1/groups", json={"name": name, "players": list(players)}).get_json()
    g["table"] = client.post(
        "/api/v1/tables",
        json={"group": g["id"], "players": list(players)},
        headers={"X-Group-Key": g["edit_key"]},
    ).get_json()
    return g


def group_with_an_evening(client) -> dict:
    """The groups' tests' group, made through the API: 토요일 of 민수, 지영 and 철수, its keys, and
    one evening (``["table"]``) whose first hand 지영 won (``BRIGHTS``)."""
    g = group_with_an_empty_evening(client)
    t = g["table"]
    r = client.post(
        f"/api/v1/tables/{t['id']}/hands", json={"summary": BRIGHTS}, headers={"X-Table-Key": t["edit_key"]}
    )
    assert r.status_code == 201
    return g
