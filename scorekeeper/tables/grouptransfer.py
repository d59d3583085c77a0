"""A whole group (모임) as one JSON document, and back: its players, every evening, its payments.

The export is ``{"group": {"name", "players": [{"name", "colour", "pay_link"}], "settings"},
"evenings": [{"id", "date", ...a table's export}], "payments": [{"from", "to", "points", "key", "at",
"voided_at"}], "history": [{"at", "kind", "by", ...}]}``. An import makes a new group with new
secrets (and new tables), every evening replayed and every payment checked as when it was
recorded, its dates, keys and voids kept, and its history (an evening's entries now naming the new
table); a refusal stores nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy.orm import Session

from ..engine.errors import EngineError
from ..engine.group.ledger import check_payment
from ..store import groups as store
from ..store import history as history_store
from ..store import rows as rows_store
from ..store.groups import NewPayment
from ..store.models import Group, Table
from . import groups, history, paylinks, transfer
from .service import load as load_table
from .service import record_of, replay_rows

MAX_EVENINGS = 1000
FORMAT = "scorekeeper-group/1"


def export(session: Session, state: groups.GroupState) -> dict[str, Any]:
    evenings = []
    for ev in state.evenings:
        t = load_table(session, ev.table)
        doc = dict(ev.table.config)
        doc["hands"] = [record_of(h, t.logs.get(h.id)) for h in t.hands]
        evenings.append({"id": ev.table.public_id, "date": ev.table.created_at.isoformat(), **doc})
    return {
        "format": FORMAT,
        "group": {
            "name": state.group.name,
            "settings": state.group.settings,
            "players": [
                {"name": p, "colour": state.colours.get(p, ""), "pay_link": state.pay_links.get(p)}
                for p in state.players
            ],
        },
        "evenings": evenings,
        "payments": [
            {
                "from": p.payer,
                "to": p.payee,
                "points": p.points,
                "key": p.key,
                "at": history.iso(p.created_at),
                "voided_at": history.iso(p.voided_at) if p.voided_at else None,
            }
            for p in state.payments
        ],
        "history": history.of_group(session, state.group),
    }


class Head(NamedTuple):
    """The group of an export: its name, players (with their colours) and settings."""

    name: str
    players: list[str]
    colours: list[str]
    settings: dict[str, Any]


class ImportedEvening(NamedTuple):
    """An evening of an export, read as a table's export is, with its date."""

    title: str
    config: dict[str, Any]
    rows: list[dict[str, Any]]
    when: datetime | None


class Entry(NamedTuple):
    """An entry of an export's history: when, what kind, by whom, and what changed."""

    at: datetime
    kind: str
    by: str
    data: dict[str, Any]


def import_group(session: Session, doc: object) -> Group:
    if not isinstance(doc, dict) or not isinstance(doc.get("group"), dict):
        raise EngineError(
            "bad_series", 'A group export is {"group": {...}, "evenings": [...], "payments": [...]}.', "group"
        )
    head = _head(doc["group"])
    players = head.players
    evenings = _evenings(doc.get("evenings", []), players)
    links = _pay_links(doc["group"])
    entries = _history(doc.get("history", []))
    balances = dict.fromkeys(players, 0)
    pays = doc.get("payments", [])
    if not isinstance(pays, list):
        raise EngineError("bad_payment", "payments lists {from, to, points}.", "payments")
    # Payments are checked against the balances once every evening is replayed (each as a change
    # of hands is, ``tables.service.replay_rows``), in the import's one transaction: the payment doors are
    # the API's, a payment larger than owed is taken as it was. Any refusal stores nothing at all.
    try:
        group = store.insert_group(
            session, head.name, head.settings, list(zip(players, head.colours, strict=True)), links
        )
        tables: dict[str, Table] = {}
        for i, ev in enumerate(evenings):
            table, hands, logs = rows_store.insert_table(
                session, ev.title, ev.config, ev.rows, group_id=group.id, when=ev.when
            )
            old = doc["evenings"][i].get("id")
            if isinstance(old, str):
                tables[old] = table
            for p, v in replay_rows(table, hands, logs).series.balances.items():
                balances[p] += v
        keys: set[str] = set()
        store.insert_payments(session, group, [_payment(pay, j, players, balances, keys) for j, pay in enumerate(pays)])
        _insert_history(session, group, entries, tables)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return group


# An evening's date, in UTC, between these years: 0001-01-01T00:00:00+14:00 is in year 0 in UTC,
# which PostgreSQL keeps and Python cannot read back (every read of the group answered 500).
FIRST_YEAR, LAST_YEAR = 1900, 2999


def _date(value: object, path: str) -> datetime | None:
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


def _head(head: dict[str, Any]) -> Head:
    """The group's name, players, their colours and its settings, each checked as creation checks
    them (``groups.checked_name``, ``checked_players``)."""
    name = groups.checked_name(head.get("name"), "group.name")
    roster_doc = head.get("players")
    if not isinstance(roster_doc, list) or not all(isinstance(p, dict) for p in roster_doc):
        raise EngineError("bad_value", "players lists {name, colour}.", "group.players")
    # Two players whose names read the same but are spelt apart ("Mina" and the evening's newcomer
    # "mina", stored before newcomers were checked against the members) are taken as the two
    # people the export says they are: the export is the group's own record, and each of them has
    # evenings and payments of their own. Refusing them made the group's export impossible to
    # import back (issue 29); renaming one would put a name on the group that nobody chose, and
    # merging them would join two people's ledgers. Creating a group and a new evening's newcomers
    # still refuse a name that reads like a member's (``checked_players``, ``checked_newcomers``);
    # the same spelling twice is refused here too.
    players = groups.checked_players([p.get("name") for p in roster_doc], "group.players", look_alikes=True)
    colours = [
        store.colour_for(i)
        if p.get("colour") is None
        else groups.checked_colour(p["colour"], f"group.players[{i}].colour")
        for i, p in enumerate(roster_doc)
    ]
    return Head(name, players, colours, groups.checked_settings(head.get("settings") or {}, players))


def _evenings(evs_doc: object, players: list[str]) -> list[ImportedEvening]:
    """Each evening's table export read (title, config, records) with its date; every player one
    of the group's."""
    if not isinstance(evs_doc, list) or len(evs_doc) > MAX_EVENINGS:
        raise EngineError("bad_series", f"evenings lists at most {MAX_EVENINGS} table exports.", "evenings")
    evenings = []
    for i, ev in enumerate(evs_doc):
        if not isinstance(ev, dict):
            raise EngineError("bad_series", "An evening is a table's export.", f"evenings[{i}]")
        when = _date(ev.get("date"), f"evenings[{i}].date")
        title, config, rows = transfer.read_document({k: v for k, v in ev.items() if k not in ("date", "id")})
        unknown = [p for p in config["players"] if p not in players]
        if unknown:
            raise EngineError(
                "bad_series_players",
                f"{unknown[0]!r} played an evening but is not in the group.",
                f"evenings[{i}].players",
            )
        evenings.append(ImportedEvening(title, config, rows, when))
    return evenings


# -- what an export keeps besides the evenings: payments' dates, keys and voids; pay links; history --

MAX_HISTORY = 20000


def _payment(pay: object, j: int, players: list[str], balances: dict[str, int], keys: set[str]) -> NewPayment:
    """A payment as exported, checked as the API checks one (larger than owed is taken), with its key,
    date and void (each may be absent: a file of an older version)."""
    if not isinstance(pay, dict):
        raise EngineError("bad_payment", "A payment is {from, to, points}.", f"payments[{j}]")
    paid = check_payment(players, balances, (), pay.get("from"), pay.get("to"), pay.get("points"), beyond=True)
    key = pay.get("key")
    if key is not None:
        if not isinstance(key, str) or not 1 <= len(key) <= 80 or key in keys:
            raise EngineError(
                "bad_payment", "key is a short text (1–80 characters), once a group.", f"payments[{j}].key"
            )
        keys.add(key)
    at = _date(pay.get("at"), f"payments[{j}].at")
    voided_at = _date(pay.get("voided_at"), f"payments[{j}].voided_at")
    return NewPayment(paid.payer, paid.payee, paid.points, key, at, voided_at)


def _pay_links(head: dict[str, Any]) -> list[str | None]:
    return [
        paylinks.checked(p.get("pay_link"), f"group.players[{i}].pay_link")
        for i, p in enumerate(head.get("players") or [])
    ]


def _history(doc: object) -> list[Entry]:
    """The history's entries as exported: each an ``at``, a ``kind`` it knows and a ``by``; the rest kept."""
    if not isinstance(doc, list) or len(doc) > MAX_HISTORY:
        raise EngineError("bad_value", f"history lists at most {MAX_HISTORY} entries.", "history")
    out = []
    for i, e in enumerate(doc):
        path = f"history[{i}]"
        if not isinstance(e, dict) or e.get("kind") not in history.KINDS:
            raise EngineError("bad_value", f"An entry is {{at, kind, by, ...}}, kind one of {history.KINDS}.", path)
        by = e.get("by")
        if not isinstance(by, str) or not 1 <= len(by) <= history.MAX_BY:
            raise EngineError("bad_value", "by is who made the change (1–40 characters).", f"{path}.by")
        at = _date(e.get("at"), f"{path}.at")
        if at is None:
            raise EngineError("bad_value", "at is an ISO date and time.", f"{path}.at")
        out.append(Entry(at, e["kind"], by, {k: v for k, v in e.items() if k not in ("at", "kind", "by")}))
    return out


def _insert_history(session: Session, group: Group, entries: list[Entry], tables: dict[str, Table]) -> None:
    """The imported history, an evening's entries naming (and linked to) its new table; then the import's own."""
    for at, kind, by, data in entries:
        named = data.get("table")
        table = tables.get(named) if isinstance(named, str) else None
        if table is not None:
            data = data | {"table": table.public_id}
        history_store.add(session, kind, by, data, group_id=group.id, table_id=table.id if table else None, at=at)
    history.note(session, "group_imported", {"name": group.name}, group=group)
