"""Helpers of the security tests: the app's route map with real values, the store's rows.

The walkers read ``app.url_map`` itself, so a route added tomorrow is walked tomorrow; a
route with an argument they have no value for fails loudly instead of being skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text

from .conftest import STOP_A

MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ONE_EVENT = {"type": "capture", "player": "A", "cards": ["1j1"]}


def rows_of(app, table_public_id: str) -> dict[str, list[tuple]]:
    """Every stored row of one table: itself, its hands and their events."""
    with app.extensions["sk_engine"].connect() as conn:
        tid = conn.execute(text("select id from sk_tables where public_id = :p"), {"p": table_public_id}).scalar_one()
        return {
            "tables": [tuple(r) for r in conn.execute(text("select * from sk_tables where id = :t"), {"t": tid})],
            "hands": [
                tuple(r)
                for r in conn.execute(text("select * from sk_hands where table_id = :t order by id"), {"t": tid})
            ],
            "events": [
                tuple(r)
                for r in conn.execute(
                    text(
                        "select e.* from sk_events e join sk_hands h on h.id = e.hand_id where h.table_id = :t order by e.id"
                    ),
                    {"t": tid},
                )
            ],
        }


def counts(app) -> dict[str, int]:
    """How many rows each table of the store holds."""
    with app.extensions["sk_engine"].connect() as conn:
        return {
            name: conn.execute(text(f"select count(*) from {name}")).scalar_one()
            for name in (
                "sk_tables",
                "sk_hands",
                "sk_events",
                "sk_groups",
                "sk_group_players",
                "sk_group_payments",
                "sk_history",
            )
        }


@dataclass
class Scene:
    """A table with a quick-entry hand and, when ``live``, a live hand with one event."""

    table: object  # conftest.Table
    summary_hand: int
    live_hand: int | None

    @classmethod
    def make(cls, make_table, live: bool = True, gwangpalli: bool = False, junk: bool = False) -> Scene:
        """``gwangpalli``: four at the table, D made to sit out, showing 1g (a hand with a sitter);
        ``junk``: the live hand's last event moved junk (B hands A the 2j1 it captured)."""
        t = make_table(players=("A", "B", "C", "D")) if gwangpalli else make_table()
        summary = t.add_summary(STOP_A, **({"choices": {"B": "play", "C": "play"}} if gwangpalli else {}))
        hand = None
        if live:
            seating = {"choices": {"B": "play", "C": "play"}, "shown": {"D": {"cards": ["1g"]}}} if gwangpalli else {}
            hand = t.start_live(**seating)
            t.append(hand, [ONE_EVENT])
            if junk:
                t.append(
                    hand,
                    [
                        {"type": "capture", "player": "B", "cards": ["2j1"]},
                        {"type": "take_junk", "player": "A", "reason": "sseul"},
                    ],
                    start=1,
                )
        return cls(t, summary, hand)

    def values(self, hand_id: int | None = None) -> dict[str, object]:
        """A value for each route argument this app uses (a new kind of argument must be added here)."""
        return {
            "public_id": self.table.id,
            "hand_id": hand_id or self.live_hand or self.summary_hand,
            "key": self.table.view_key,
            "code": "en",
            "filename": "app.css",
            "choice": "on",
            # A group's payment, evening and player (issue 28): none of this table's, so a walk of
            # them meets a refusal, never a change.
            "payment_id": 1,
            "table_id": self.table.id,
            "table": self.table.id,
            "name": "A",
            "size": "big",  # 큰 글씨 (/text/<size>)
        }


def build(app, rule, values: dict) -> str:
    missing = [a for a in rule.arguments if a not in values]
    assert not missing, f"the route walker has no value for <{missing[0]}> in {rule.rule}: teach walk.Scene.values one"
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        return adapter.build(rule.endpoint, {a: values[a] for a in rule.arguments}, method=sorted(rule.methods)[0])


def rules(app, methods: frozenset[str]):
    """The rules accepting any of ``methods``, in a stable order."""
    return sorted((r for r in app.url_map.iter_rules() if r.methods & methods), key=lambda r: (r.rule, r.endpoint))


def csrf_header(app, client) -> dict[str, str]:
    """An ``X-CSRFToken`` header valid for ``client``'s session (API writes riding on the cookie)."""
    from flask import session
    from flask_wtf.csrf import generate_csrf

    with app.test_request_context():
        token = generate_csrf()
        raw = session["csrf_token"]
    with client.session_transaction() as sess:
        sess["csrf_token"] = raw
    return {"X-CSRFToken": token}
