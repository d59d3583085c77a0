"""Between the store and the engine for a group (모임): its evenings' facts, statistics and debts.

Each evening's facts (``engine.group.facts.evening_facts``) are kept in the store with the table's
version they were computed at, and read back while the table is at that version: a group's page
never replays every hand of every evening. The group's figures (``engine.group.figures``) are then
the engine's pure functions of those facts and the payments, kept per process for the group's
inputs (the versions of its tables and of the group itself), compared whole at every view.

The types of those figures (``LedgerRow``, ``PlayerStats``, ``Title``, ``TransferJSON``) and
``money`` are re-exported: the web reads them here, with the group's state, not from the engine.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..caching import Bounded
from ..engine.errors import EngineError
from ..engine.group.facts import EveningFacts, evening_facts
from ..engine.group.figures import Figures, figures
from ..engine.group.ledger import LedgerRow as LedgerRow
from ..engine.group.ledger import Owed, check_payment
from ..engine.group.stats import PlayerStats as PlayerStats
from ..engine.group.titles import Title as Title
from ..engine.model import RulesDoc, Transfer
from ..engine.model import TransferJSON as TransferJSON
from ..engine.series import MAX_NAME, config_from
from ..engine.trail import money as money
from ..store import groups as store
from ..store.db import begin_write
from ..store.models import Group, GroupPayment, GroupPlayer, Table, utcnow
from . import history, names, paylinks
from .refusals import CodedRefusal, Conflict
from .service import config_of
from .service import load as load_table

# One roster limit for a group, whether its players are named at its creation, join through an
# evening or come with an import: a group's own export then always imports back (issue 29: 16
# newcomers joined past the 40 that creation allowed, and the export was refused).
MIN_PLAYERS, MAX_GROUP_PLAYERS = 2, 100
MAX_GROUP_NAME = 120
SETTINGS = ("chip_value", "currency", "rules", "length")
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True, slots=True)
class Evening:
    table: Table
    date: str  # YYYY-MM-DD, the day the table was started
    facts: EveningFacts

    @property
    def id(self) -> str:
        return self.table.public_id


@dataclass(frozen=True, slots=True)
class GroupState:
    group: Group
    players: list[str]
    colours: dict[str, str]
    evenings: list[Evening]
    payments: list[GroupPayment]
    figures: Figures
    pay_links: dict[str, str]

    @property
    def chip_value(self) -> float:
        return _chip_value(self.group)

    @property
    def currency(self) -> str:
        return str(self.group.settings.get("currency", "₩"))


def _chip_value(group: Group) -> float:
    return float(group.settings.get("chip_value", 100))


def standing(payments: Iterable[GroupPayment]) -> list[Transfer]:
    """The payments that settle (a voided one settles nothing)."""
    return [Transfer(p.payer, p.payee, p.points) for p in payments if p.voided_at is None]


# -- creating ---------------------------------------------------------------------------------


def checked_players(value: object, path: str = "players", *, look_alikes: bool = False) -> list[str]:
    """A group's players, checked as a table's are (``names.check_names``; ``look_alikes``: two
    that read the same but are spelt apart are taken, for an import's roster)."""
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
    names.check_names(out, path, look_alikes=look_alikes)
    return out


def checked_name(value: object, path: str = "name") -> str:
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


def checked_colour(value: object, path: str) -> str:
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
    with _committed(session):
        group = store.insert_group(session, name, settings, [(p, store.colour_for(i)) for i, p in enumerate(players)])
        history.note(session, "group_created", {"name": name, "players": players}, group=group)
    return group


# -- reading ----------------------------------------------------------------------------------


def load(session: Session, group: Group, facts_writer: Engine) -> GroupState:
    """The group, its evenings' facts (those not kept yet are kept through ``facts_writer``, in a
    transaction of their own) and its figures."""
    roster = store.players(session, group)
    tables = store.evenings(session, group)
    pays = store.payments(session, group)
    key, inputs = _memo_key(group, roster, tables, pays)
    hit = _memo.get(key)
    kept: Figures | None = None
    if hit is not None and hit[0] == inputs:  # nothing changed since: not even the kept facts are read
        facts, kept = hit[1]
    else:
        facts = _facts(session, tables, facts_writer)
    evenings = [Evening(t, _date(t.created_at), f) for t, f in zip(tables, facts, strict=True)]
    players = [p.name for p in roster]
    for ev in evenings:  # a name at an evening but not (any more) in the roster still counts
        players += [p for p in ev.facts.players if p not in players]
    if kept is None:
        kept = figures(players, evenings, standing(pays), _chip_value(group))
        _memo.put(key, (inputs, (facts, kept)))
    return GroupState(
        group,
        players,
        {p.name: p.colour for p in roster},
        evenings,
        pays,
        kept,
        {p.name: p.pay_link for p in roster if p.pay_link},
    )


def _date(when: datetime) -> str:
    return when.strftime("%Y-%m-%d")


def _facts(session: Session, tables: list[Table], facts_writer: Engine) -> list[EveningFacts]:
    """Each evening's facts: kept at the table's version, or computed now and kept."""
    kept = store.kept_facts(session, [t.id for t in tables])
    out = []
    for t in tables:
        hit = kept.get(t.id)
        facts = EveningFacts.from_json(hit.facts) if hit is not None and hit.version == t.version else None
        if facts is None:
            facts = evening_facts(load_table(session, t).series).kept()
            store.keep_facts(facts_writer, t.id, t.version, facts.to_json())
        out.append(facts)
    return out


# (group id, public id) -> (inputs, (each evening's facts, the group's figures))
_memo: Bounded[tuple[int, str], tuple[tuple, tuple[list[EveningFacts], Figures]]] = Bounded(200)


def _memo_key(
    group: Group, roster: list[GroupPlayer], tables: list[Table], pays: list[GroupPayment]
) -> tuple[tuple[int, str], tuple]:
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


def transfer_key(state: GroupState, transfer: Owed) -> str:
    """The key of marking one transfer of ``owed`` paid, as the group stands now: two phones that
    saw the same debts send the same key, so the transfer is recorded once."""
    # A voided payment stays counted: after a void, the same transfer marked paid again has a key
    # of its own (a new payment), never the voided one's.
    return f"owed:{len(state.payments)}:{transfer.payer}>{transfer.payee}:{transfer.points}"[:80]


# -- writing: each write one transaction, with its history's entry ----------------------------


@contextmanager
def _committed(session: Session) -> Iterator[None]:
    """Commit what the block wrote, or roll it all back on any refusal or failure."""
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise


@contextmanager
def _writing(session: Session, group: Group) -> Iterator[None]:
    """One write of ``group``: serialised against its other writers (``store.lock_group``), committed
    whole or not at all."""
    # The reads before (and the facts kept meanwhile on a connection of their own) end here: on
    # SQLite a read transaction cannot become a writer once another has committed.
    if session.in_transaction():
        session.commit()
    begin_write(session)
    with _committed(session):
        store.lock_group(session, group)
        yield


def record_payment(
    session: Session,
    state: GroupState,
    payer: object,
    payee: object,
    points: object,
    key: str | None = None,
    beyond: bool = False,
) -> tuple[GroupPayment, bool]:
    """Record a payment (coded refusals: ``engine.group.ledger.check_payment``); (payment, newly recorded)."""
    balances = state.figures.balances
    pay = check_payment(state.players, balances, (), payer, payee, points, True)  # the shape first

    try:
        with _writing(session, state.group):
            # A key recorded already is that payment (a second phone's tap), checked against nothing.
            found = store.recorded(session, state.group, key) if key is not None else None
            if found is not None:
                return found, False
            stored = standing(store.payments(session, state.group))
            check_payment(state.players, balances, stored, payer, payee, points, beyond)
            payment = store.add_payment(session, state.group, pay.payer, pay.payee, pay.points, key)
            history.note(session, "payment_recorded", {"payment": _brief(payment)}, group=state.group)
    except IntegrityError:  # its key recorded meanwhile: that payment is this one
        found = store.recorded(session, state.group, key) if key is not None else None
        if found is None:
            raise
        return found, False
    return payment, True


def _brief(p: GroupPayment) -> history.PaymentBrief:
    return {"id": p.id, "from": p.payer, "to": p.payee, "points": p.points}


class NotInGroup(LookupError):
    """No such payment, evening or player in the group (answered 404)."""


def void_payment(session: Session, state: GroupState, payment_id: int) -> tuple[GroupPayment, bool]:
    """Void a payment (it stays listed, out of what is owed); (payment, newly voided). Voiding it
    again changes nothing. ``NotInGroup`` when the group has no such payment."""
    with _writing(session, state.group):
        payment = store.payment_of(session, state.group, payment_id)
        if payment is None:
            raise NotInGroup(payment_id)
        newly = store.void_payment(session, state.group, payment)
        if newly:
            history.note(session, "payment_voided", {"payment": _brief(payment)}, group=state.group)
    return payment, newly


def remove_evening(session: Session, state: GroupState, table_id: str) -> None:
    """Remove an evening with no hands (an evening started by mistake); one with hands is a
    ``Conflict`` (``evening_has_hands``), one not of the group ``NotInGroup``."""
    ev = next((e for e in state.evenings if e.table.public_id == table_id), None)
    if ev is None:
        raise NotInGroup(table_id)
    with _writing(session, state.group):
        if not store.remove_evening(session, state.group, ev.table):
            raise Conflict(
                "This evening has hands: only an empty evening can be removed.", 0, "table", code="evening_has_hands"
            )
        history.note(session, "evening_removed", {"table": ev.id, "date": ev.date}, group=state.group)


def set_pay_link(session: Session, state: GroupState, name: str, value: object) -> str | None:
    """A player's pay link (``paylinks.checked``; None removes it); the link kept.
    ``NotInGroup`` when ``name`` is not one of the group's players."""
    link = paylinks.checked(value)
    with _writing(session, state.group):
        if not store.set_pay_link(session, state.group, name, link):
            raise NotInGroup(name)
        history.note(session, "pay_link_set", {"player": name, "pay_link": link}, group=state.group)
    return link


def set_rules(session: Session, state: GroupState, rules: RulesDoc) -> None:
    """The rules the group's next evening plays (``{"preset", "options"}``, checked by the engine)."""
    players = state.players[:2] if len(state.players) >= 2 else ["A", "B"]
    config_from({"players": players, "rules": rules})
    settings = dict(state.group.settings) | {"rules": rules, RULES_SET_AT: history.iso(utcnow())}
    with _writing(session, state.group):
        store.set_settings(session, state.group, settings)
        history.note(session, "rules_set", {"rules": rules}, group=state.group)


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
    if isinstance(out.get("rules"), str):
        # A bare preset name, as the API took for a new table (and imports still take): read as
        # the object every reader of these settings expects (the group's page failed on it).
        out["rules"] = {"preset": out["rules"], "options": {}}
    return out


RULES_SET_AT = "rules_set_at"


def _when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def seating_from_last(state: GroupState, came: list[str]) -> list[str]:
    """Who came tonight, seated as at the last evening; newcomers after them in the order given."""
    last = state.evenings[-1].facts.players if state.evenings else ()
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
    _join(session, state, table, newcomers, settings["players"])
    return table


def _join(session: Session, state: GroupState, table: Table, newcomers: list[str], players: list[str]) -> None:
    with _writing(session, state.group):
        store.join_table(session, state.group, table, newcomers)
        history.note(
            session,
            "evening_added",
            {"table": table.public_id, "date": _date(table.created_at), "players": list(players)},
            group=state.group,
        )


def attach(session: Session, state: GroupState, table: Table) -> None:
    """An existing table joins the group after the fact (its players join too)."""
    players = list(config_of(table).players)
    _join(session, state, table, checked_newcomers(state, players), players)


def rotate_keys(session: Session, group: Group, which: str) -> tuple[str, str]:
    """New edit and/or read-only secret for the group (``which``: edit, view or both), noted in its
    history with the change; the new (edit, view) secrets."""
    with _writing(session, group):
        secrets = store.renew_secrets(session, group, which)
        history.note(session, "keys_rotated", {"which": which}, group=group)
    return secrets
