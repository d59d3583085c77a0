"""A whole group (모임) as one JSON document, and back: its players, every evening, its payments.

The export is ``{"group": {"name", "players": [{"name", "colour"}], "settings"}, "evenings":
[{"date", ...a table's export}], "payments": [{"from", "to", "points"}]}``. An import makes a new
group with new secrets (and new tables), every evening replayed and every payment checked as when
it was recorded; a refusal stores nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from ..engine import group as engine
from ..engine.errors import EngineError
from ..store import groups as store
from ..store import rows as rows_store
from ..store.models import Group
from . import groups as service
from . import transfer
from .service import record_of, replay_rows

MAX_EVENINGS = 1000
FORMAT = "scorekeeper-group/1"


def export(session: Session, state: service.GroupState) -> dict[str, Any]:
    from . import service as tables

    evenings = []
    for ev in state.evenings:
        t = tables.load(session, ev.table)
        doc = dict(ev.table.config)
        doc["hands"] = [record_of(h, t.logs.get(h.id)) for h in t.hands]
        evenings.append({"date": ev.table.created_at.isoformat(), **doc})
    return {
        "format": FORMAT,
        "group": {
            "name": state.group.name,
            "settings": state.group.settings,
            "players": [{"name": p, "colour": state.colours.get(p, "")} for p in state.players],
        },
        "evenings": evenings,
        "payments": [{"from": p.payer, "to": p.payee, "points": p.points} for p in state.payments],
    }


def import_group(session: Session, doc: Any) -> Group:
    if not isinstance(doc, dict) or not isinstance(doc.get("group"), dict):
        raise EngineError(
            "bad_series", 'A group export is {"group": {...}, "evenings": [...], "payments": [...]}.', "group"
        )
    name, players, colours, settings = _head(doc["group"])
    evenings = _evenings(doc.get("evenings", []), players)
    balances = dict.fromkeys(players, 0)
    pays = doc.get("payments", [])
    if not isinstance(pays, list):
        raise EngineError("bad_payment", "payments lists {from, to, points}.", "payments")
    # Payments are checked against the balances once every evening is replayed (each as a change
    # of hands is, ``service.replay_rows``), in the import's one transaction: the payment doors are
    # the API's, a payment larger than owed is taken as it was. Any refusal stores nothing at all.
    try:
        group = store.insert_group(session, name, settings, list(zip(players, colours, strict=True)))
        for title, config, rows, when in evenings:
            table, hands, logs = rows_store.insert_table(session, title, config, rows, group_id=group.id, when=when)
            for p, v in replay_rows(table, hands, logs).series.balances.items():
                balances[p] += v
        checked: list[tuple[str, str, int]] = []
        for j, pay in enumerate(pays):
            if not isinstance(pay, dict):
                raise EngineError("bad_payment", "A payment is {from, to, points}.", f"payments[{j}]")
            engine.check_payment(players, balances, [], pay.get("from"), pay.get("to"), pay.get("points"), beyond=True)
            checked.append((pay["from"], pay["to"], pay["points"]))
        store.insert_payments(session, group, checked)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return group


# An evening's date, in UTC, between these years: 0001-01-01T00:00:00+14:00 is in year 0 in UTC,
# which PostgreSQL keeps and Python cannot read back (every read of the group answered 500).
FIRST_YEAR, LAST_YEAR = 1900, 2999


def _date(value: Any, path: str) -> datetime | None:
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
        if when is not None:
            when = when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)
    except (ValueError, OverflowError):
        when = None
    if when is None or not FIRST_YEAR <= when.year <= LAST_YEAR:
        raise EngineError(
            "bad_value", f"date is an ISO date and time between the years {FIRST_YEAR} and {LAST_YEAR}.", path
        )
    return when


def _head(head: dict[str, Any]) -> tuple[str, list[str], list[str], dict[str, Any]]:
    """The group's name, players, their colours and its settings, each checked as creation checks
    them (``groups.checked_name``, ``checked_players``)."""
    name = service.checked_name(head.get("name"), "group.name")
    roster_doc = head.get("players")
    if not isinstance(roster_doc, list) or not all(isinstance(p, dict) for p in roster_doc):
        raise EngineError("bad_value", "players lists {name, colour}.", "group.players")
    players = service.checked_players([p.get("name") for p in roster_doc], "group.players")
    colours = [
        store.colour_for(i)
        if p.get("colour") is None
        else service.checked_colour(p["colour"], f"group.players[{i}].colour")
        for i, p in enumerate(roster_doc)
    ]
    return name, players, colours, service.checked_settings(head.get("settings") or {}, players)


def _evenings(evs_doc: Any, players: list[str]) -> list[tuple[str, dict[str, Any], list[dict[str, Any]], Any]]:
    """Each evening's table export read (title, config, records) with its date; every player one
    of the group's."""
    if not isinstance(evs_doc, list) or len(evs_doc) > MAX_EVENINGS:
        raise EngineError("bad_series", f"evenings lists at most {MAX_EVENINGS} table exports.", "evenings")
    evenings = []
    for i, ev in enumerate(evs_doc):
        if not isinstance(ev, dict):
            raise EngineError("bad_series", "An evening is a table's export.", f"evenings[{i}]")
        when = _date(ev.get("date"), f"evenings[{i}].date")
        title, config, rows = transfer.read_document({k: v for k, v in ev.items() if k != "date"})
        unknown = [p for p in config["players"] if p not in players]
        if unknown:
            raise EngineError(
                "bad_series_players",
                f"{unknown[0]!r} played an evening but is not in the group.",
                f"evenings[{i}].players",
            )
        evenings.append((title, config, rows, when))
    return evenings
