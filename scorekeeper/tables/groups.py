"""Between the store and the engine for a group (모임): its evenings' facts, statistics and debts.

Each evening's facts (``engine.group.evening_facts``) are kept in the store with the table's
version they were computed at, and read back while the table is at that version: a group's page
never replays every hand of every evening. The group's figures are then the engine's pure
functions of those facts and the payments, kept per process for the group's inputs (the
versions of its tables and of the group itself), compared whole at every view.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy.orm import Session

from ..engine.errors import EngineError
from ..engine.group import facts as group_facts
from ..engine.group import ledger as group_ledger
from ..engine.group import stats as group_stats
from ..engine.group import titles as group_titles
from ..engine.series import MAX_NAME, config_from
from ..store import groups as store
from ..store.db import begin_write
from ..store.models import Group, GroupPayment, Table, utcnow
from . import history, names, paylinks, service
from .refusals import CodedRefusal, Conflict

# One roster limit for a group, whether its players are named at its creation, join through an
# evening or come with an import: a group's own export then always imports back (issue 29: 16
# newcomers joined past the 40 that creation allowed, and the export was refused).
MIN_PLAYERS, MAX_GROUP_PLAYERS = 2, 100
MAX_GROUP_NAME = 120
SETTINGS = ("chip_value", "currency", "rules", "length")
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass
class Evening:
    table: Table
    date: str  # YYYY-MM-DD, the day the table was started
    facts: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.table.public_id, "date": self.date, "facts": self.facts}


@dataclass
class GroupState:
    group: Group
    players: list[str]
    colours: dict[str, str]
    evenings: list[Evening]
    payments: list[GroupPayment]
    figures: dict[str, Any] = field(default_factory=dict)
    pay_links: dict[str, str] = field(default_factory=dict)

    @property
    def chip_value(self) -> float:
        return float(self.group.settings.get("chip_value", 100))

    @property
    def currency(self) -> str:
        return str(self.group.settings.get("currency", "₩"))


# -- creating ---------------------------------------------------------------------------------


def checked_players(value: Any, path: str = "players") -> list[str]:
    if (
        not isinstance(value, list)
        or not all(isinstance(p, str) for p in value)
        or not MIN_PLAYERS <= len(value) <= MAX_GROUP_PLAYERS
    ):
        raise EngineError("bad_value", f"players lists {MIN_PLAYERS} to {MAX_GROUP_PLAYERS} names.", path)
    out = [names.normal_name(p) for p in value]
    for i, p in enumerate(out):
        if len(p) > MAX_NAME:
            raise CodedRefusal("bad_player_name", f"A name is at most {MAX_NAME} characters.", f"{path}[{i}]")
    names.check_names(out, path)
    return out


def checked_name(value: Any, path: str = "name") -> str:
    """A group's name as creation takes it (NFC, trimmed; no control, bidi or only-invisible text),
    for creation and import alike."""
    name = names.normal_name(value)
    if not isinstance(name, str) or not name or len(name) > MAX_GROUP_NAME or names.problem(name):
        raise EngineError(
            "bad_value",
            f"name is the group's name, 1 to {MAX_GROUP_NAME} characters, no control characters.",
            path,
        )
    return name


def checked_colour(value: Any, path: str) -> str:
    """A player's colour: ``#rrggbb`` (the page and the picture draw it)."""
    if not isinstance(value, str) or not COLOUR.fullmatch(value):
        raise EngineError("bad_value", "colour is #rrggbb.", path)
    return value


def checked_newcomers(state: GroupState, players: list[str], path: str = "players") -> list[str]:
    """The players of a new evening (or a table joining) not yet in the group, refused as creation
    would refuse them: one reading like a member's name ("mina" beside "Mina"), or a roster
    growing past ``MAX_GROUP_PLAYERS``."""
    members = {names.same_name_key(p): p for p in state.players}
    newcomers = []
    for i, p in enumerate(players):
        if p in state.players:
            continue
        same = members.get(names.same_name_key(p))
        if same is not None:
            raise CodedRefusal(
                "duplicate_player", f"{p!r} reads the same as the group's player {same!r}.", f"{path}[{i}]"
            )
        newcomers.append(p)
    if len(state.players) + len(newcomers) > MAX_GROUP_PLAYERS:
        raise EngineError(
            "bad_value", f"A group has at most {MAX_GROUP_PLAYERS} players: {len(state.players)} already.", path
        )
    return newcomers


def checked_settings(doc: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """What a new evening of the group starts from, checked as a table's settings are."""
    out = {k: doc[k] for k in SETTINGS if doc.get(k) is not None}
    config_from({"players": players[:2], **out})  # the engine's own refusals, with their paths
    return out


def create(session: Session, doc: dict[str, Any], default_preset: str = "pagat") -> Group:
    """A new group; with no ``rules`` its evenings play ``default_preset`` (the phone's language's)."""
    name = checked_name(doc.get("name"))
    unknown = sorted(set(doc) - {"name", "players", *SETTINGS})
    if unknown:
        raise EngineError("bad_value", f"Unknown field {unknown[0]!r} in the group.", unknown[0])
    if not isinstance(doc.get("rules"), dict | None):
        raise EngineError("bad_value", 'rules is an object {"preset", "options"} or null.', "rules")
    players = checked_players(doc.get("players"))
    settings = checked_settings(doc, players)
    settings.setdefault("rules", {"preset": default_preset, "options": {}})
    return store.create_group(
        session,
        name,
        settings,
        players,
        note=lambda group: history.note(session, "group_created", {"name": name, "players": players}, group=group),
    )


# -- reading ----------------------------------------------------------------------------------


def load(session: Session, group: Group) -> GroupState:
    roster = store.players(session, group)
    tables = store.evenings(session, group)
    pays = store.payments(session, group)
    key, inputs = _memo_key(group, roster, tables, pays)
    hit = _memo.get(key)
    facts: list[dict[str, Any]]
    figures: dict[str, Any] | None
    if hit is not None and hit[0] == inputs:  # nothing changed since: not even the kept facts are read
        facts, figures = hit[1]
    else:
        facts, figures = _facts(session, tables), None
    evenings = [Evening(t, _date(t.created_at), f) for t, f in zip(tables, facts, strict=True)]
    names_ = [p.name for p in roster]
    for ev in evenings:  # a name at an evening but not (any more) in the roster still counts
        names_ += [p for p in ev.facts["players"] if p not in names_]
    state = GroupState(
        group,
        names_,
        {p.name: p.colour for p in roster},
        evenings,
        pays,
        pay_links={p.name: p.pay_link for p in roster if p.pay_link},
    )
    if figures is None:
        figures = _figures(state)
        with _memo_lock:
            _memo.pop(key, None)
            _memo[key] = (inputs, (facts, figures))
            if len(_memo) > _MEMO_SIZE:
                del _memo[next(iter(_memo))]
    state.figures = figures
    return state


def _date(when: datetime) -> str:
    return when.strftime("%Y-%m-%d")


def _facts(session: Session, tables: list[Table]) -> list[dict[str, Any]]:
    """Each evening's facts: kept at the table's version, or computed now and kept."""
    kept = store.kept_facts(session, [t.id for t in tables])
    out = []
    for t in tables:
        hit = kept.get(t.id)
        if hit is not None and hit[0] == t.version and hit[1].get("format") == group_facts.FACTS_FORMAT:
            out.append(hit[1])
            continue
        facts = group_facts.evening_summary(group_facts.evening_facts(service.load(session, t).series))
        store.keep_facts(current_app.extensions["sk_engine"], t.id, t.version, facts)
        out.append(facts)
    return out


# (group id, public id) -> (inputs, (each evening's facts, the group's figures))
_memo: dict[tuple, tuple[Any, Any]] = {}
_memo_lock = threading.Lock()
_MEMO_SIZE = 200


def _memo_key(group: Group, roster: list, tables: list[Table], pays: list[GroupPayment]) -> tuple[tuple, tuple]:
    """The group's key in the memo, and its inputs: every change of the group, of one of its
    tables (the table's version) or of its payments makes other inputs."""
    inputs = (
        group.version,
        tuple(p.name for p in roster),
        tuple((t.id, t.version, t.created_at) for t in tables),
        tuple((p.id, p.payer, p.payee, p.points, p.voided_at is not None) for p in pays),
        tuple(sorted(group.settings.items(), key=str)),
    )
    return (group.id, group.public_id), inputs


def _figures(state: GroupState) -> dict[str, Any]:
    """Balances, owed, statistics (all time and by month), titles, head to head, the ledger."""
    evs = [ev.to_json() for ev in state.evenings]
    balances = group_ledger.balances_of(state.players, evs)
    pays = [payment_json(p, state.chip_value) for p in state.payments]
    standing = [p for p in pays if not p["voided"]]  # a voided payment settles nothing
    # Each evening's statistics were summed up when its facts were kept: a month's and all time's
    # are those sums, never a pass over every hand.
    stats = group_stats.merge_stats((ev["id"], ev["facts"]["stats"]) for ev in evs)
    for p in state.players:
        stats.setdefault(p, group_stats.empty_stats())
    by_month: dict[str, list[dict[str, Any]]] = {}
    for ev in evs:
        by_month.setdefault(ev["date"][:7], []).append(ev)
    months = {
        m: group_stats.merge_stats((ev["id"], ev["facts"]["stats"]) for ev in month) for m, month in by_month.items()
    }
    return {
        "balances": balances,
        "payments": pays,
        "owed": [t.to_json(state.chip_value) for t in group_ledger.owed(balances, standing)],
        "stats": stats,
        "titles": group_titles.titles(stats),
        "months": {m: {"stats": s, "titles": group_titles.titles(s)} for m, s in months.items()},
        "evening_titles": {ev["id"]: group_titles.titles(ev["facts"]["stats"]) for ev in evs},
        "head_to_head": group_stats.merge_head_to_head(ev["facts"]["head_to_head"] for ev in evs),
        "ledger": group_ledger.running_balances(state.players, evs, state.chip_value),
    }


def payment_json(p: GroupPayment, chip_value: float) -> dict[str, Any]:
    from ..engine.payout import money

    return {
        "id": p.id,
        "from": p.payer,
        "to": p.payee,
        "points": p.points,
        "money": money(p.points, chip_value),
        "key": p.key,
        "at": history.iso(p.created_at) if p.created_at else None,
        "voided": p.voided_at is not None,
        "voided_at": history.iso(p.voided_at) if p.voided_at else None,
    }


def transfer_key(state: GroupState, transfer: dict[str, Any]) -> str:
    """The key of marking one transfer of ``owed`` paid, as the group stands now: two phones that
    saw the same debts send the same key, so the transfer is recorded once."""
    # A voided payment stays counted: after a void, the same transfer marked paid again has a key
    # of its own (a new payment), never the voided one's.
    return f"owed:{len(state.payments)}:{transfer['from']}>{transfer['to']}:{transfer['points']}"[:80]


# -- writing ----------------------------------------------------------------------------------


def record_payment(
    session: Session,
    state: GroupState,
    payer: Any,
    payee: Any,
    points: Any,
    key: str | None = None,
    beyond: bool = False,
) -> tuple[GroupPayment, bool]:
    """Record a payment (coded refusals: ``engine.group.check_payment``); (payment, newly recorded)."""
    balances = state.figures["balances"]

    def validate(stored: list[GroupPayment]) -> None:
        group_ledger.check_payment(
            state.players,
            balances,
            [{"from": p.payer, "to": p.payee, "points": p.points} for p in stored if p.voided_at is None],
            payer,
            payee,
            points,
            beyond,
        )

    group_ledger.check_payment(state.players, balances, [], payer, payee, points, True)  # the shape first
    store.lock_group(session, state.group)
    try:
        # A key recorded already is that payment (a second phone's tap), checked against nothing.
        found = store.recorded(session, state.group, key) if key is not None else None
        if found is None:
            validate(store.payments(session, state.group))
    except BaseException:
        session.rollback()
        raise
    if found is not None:
        session.rollback()
        return found, False

    def note(payment: GroupPayment) -> None:
        history.note(session, "payment_recorded", {"payment": _brief(payment)}, group=state.group)

    try:
        return store.add_payment(session, state.group, payer, payee, points, key, note), True
    except store.Duplicate as dup:
        return dup.payment, False


def _brief(p: GroupPayment) -> dict[str, Any]:
    return {"id": p.id, "from": p.payer, "to": p.payee, "points": p.points}


class NotInGroup(LookupError):
    """No such payment, evening or player in the group (answered 404)."""


def void_payment(session: Session, state: GroupState, payment_id: int) -> tuple[GroupPayment, bool]:
    """Void a payment (it stays listed, out of what is owed); (payment, newly voided). Voiding it
    again changes nothing. ``NotInGroup`` when the group has no such payment."""
    store.lock_group(session, state.group)
    found = store.payment_of(session, state.group, payment_id)
    if found is None:
        session.rollback()
        raise NotInGroup(payment_id)
    payment: GroupPayment = found
    newly: list[bool] = []

    def note() -> None:
        newly.append(True)
        history.note(session, "payment_voided", {"payment": _brief(payment)}, group=state.group)

    store.void_payment(session, state.group, payment, note)
    return payment, bool(newly)


def remove_evening(session: Session, state: GroupState, table_id: str) -> None:
    """Remove an evening with no hands (an evening started by mistake); one with hands is a
    ``Conflict`` (``evening_has_hands``), one not of the group ``NotInGroup``."""
    ev = next((e for e in state.evenings if e.table.public_id == table_id), None)
    if ev is None:
        raise NotInGroup(table_id)
    table = ev.table
    store.lock_group(session, state.group)
    note = lambda: history.note(  # noqa: E731
        session, "evening_removed", {"table": table.public_id, "date": ev.date}, group=state.group
    )
    if not store.remove_evening(session, state.group, table, note):
        raise Conflict(
            "This evening has hands: only an empty evening can be removed.", 0, "table", code="evening_has_hands"
        )


def set_pay_link(session: Session, state: GroupState, name: str, value: Any) -> str | None:
    """A player's pay link (``paylinks.checked``; None removes it); the link kept.
    ``NotInGroup`` when ``name`` is not one of the group's players."""
    link = paylinks.checked(value)
    store.lock_group(session, state.group)
    note = lambda: history.note(  # noqa: E731
        session, "pay_link_set", {"player": name, "pay_link": link}, group=state.group
    )
    if not store.set_pay_link(session, state.group, name, link, note):
        raise NotInGroup(name)
    return link


def set_rules(session: Session, state: GroupState, rules: dict[str, Any]) -> None:
    """The rules the group's next evening plays (``{"preset", "options"}``, checked by the engine)."""
    players = state.players[:2] if len(state.players) >= 2 else ["A", "B"]
    config_from({"players": players, "rules": rules})
    store.lock_group(session, state.group)
    settings = dict(state.group.settings) | {"rules": rules, RULES_SET_AT: history.iso(utcnow())}
    note = lambda: history.note(session, "rules_set", {"rules": rules}, group=state.group)  # noqa: E731
    store.set_settings(session, state.group, settings, note)


def last_settings(state: GroupState) -> dict[str, Any]:
    """What a new evening starts from: the last evening's rules, chip value, currency and length
    (else the group's), and its seating order."""
    out = dict(state.group.settings)
    chosen = out.pop(RULES_SET_AT, None)
    if state.evenings:
        last = state.evenings[-1].table
        cfg = last.config
        # Rules an editor chose on the group's page after the last evening began are the next one's.
        keep = ("rules",) if chosen and _when(chosen) > _when(history.iso(last.created_at)) else ()
        out |= {k: cfg[k] for k in SETTINGS if k in cfg and k not in keep}
    return out


RULES_SET_AT = "rules_set_at"


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def seating_from_last(state: GroupState, came: list[str]) -> list[str]:
    """Who came tonight, seated as at the last evening; newcomers after them in the order given."""
    last = state.evenings[-1].facts["players"] if state.evenings else []
    return [p for p in last if p in came] + [p for p in came if p not in last]


def new_evening(session: Session, state: GroupState, doc: dict[str, Any]) -> Table:
    """A table of the group: ``doc`` is a table's settings (anything missing from the last evening);
    its players not yet in the group join it."""
    from .transfer import title_of
    from .writes import create_table

    settings = last_settings(state) | {k: v for k, v in doc.items() if v is not None}
    settings.pop("group", None)
    settings = names.normalised_settings(settings)
    config_from(settings)
    # The reads above (and the facts kept meanwhile on a connection of their own) end here: on
    # SQLite a read transaction cannot become a writer once another has committed.
    if session.in_transaction():
        session.commit()
    newcomers = checked_newcomers(state, settings["players"])
    begin_write(session)
    table = create_table(session, title_of(settings), settings)
    store.join_table(session, state.group, table, newcomers, _evening_note(session, state, table, settings["players"]))
    return table


def _evening_note(session: Session, state: GroupState, table: Table, players: list[str]) -> store.Note:
    return lambda: history.note(
        session,
        "evening_added",
        {"table": table.public_id, "date": _date(table.created_at), "players": list(players)},
        group=state.group,
    )


def attach(session: Session, state: GroupState, table: Table) -> None:
    """An existing table joins the group after the fact (its players join too)."""
    players = list(service.config_of(table).players)
    store.join_table(
        session, state.group, table, checked_newcomers(state, players), _evening_note(session, state, table, players)
    )


def rotate_keys(session: Session, group: Group, which: str) -> tuple[str, str]:
    """New edit and/or read-only secret for the group (``which``: edit, view or both), noted in its
    history with the change; the new (edit, view) secrets."""
    return store.rotate_secrets(
        session, group, which, note=lambda: history.note(session, "keys_rotated", {"which": which}, group=group)
    )
