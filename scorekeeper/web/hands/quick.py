"""Quick entry: the form's fields ↔ a hand summary of the engine contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict, cast

from ...store.models import Hand
from ...tables.refusals import EngineError, ErrorJSON
from ...tables.seating import NextSeating
from ...tables.service import Deal, Seating, TableState
from ..views.forms import opts
from .forms import PlayerEntry, QuickForm, SeatingForm

PATHS = {
    "outcome.month": "month",
    "outcome": "winner",
    "dokbak": "dokbak_player",
    "last_go": "last_go",
    "mission": "mission",
    "mission.player": "mission_player",
    "shown": "sitters",
}


def prepare(form: QuickForm, players: tuple[str, ...], sitters: tuple[str, ...] = ()) -> QuickForm:
    """Size the form for the hand's players and fill the choices of its selects."""
    while len(form.entries) < len(players):
        form.entries.append_entry()
    while len(form.sitters) < len(sitters):
        form.sitters.append_entry()
    names = opts([("", "–")] + [(p, p) for p in players])
    form.winner.choices = names
    form.dokbak_player.choices = names
    form.last_go.choices = names
    form.mission_player.choices = names
    return form


def seat_entries(form: QuickForm, players: tuple[str, ...]) -> list[tuple[str, PlayerEntry]]:
    """Each player with the form entry of their seat (``entries-<seat>-…``), or an empty one.

    WTForms numbers a FieldList by the indices posted: a seat with nothing posted must not
    take the next seat's entry.
    """
    from flask import request

    posted = {key.split("-")[1] for key in request.form if key.startswith("entries-")} if request.form else None
    by_seat = {entry.name.rsplit("-", 1)[-1]: entry for entry in form.entries.entries}
    blank = PlayerEntry(prefix="blank-", formdata=None)
    return [
        (p, by_seat.get(str(i), blank) if posted is None or str(i) in posted else blank) for i, p in enumerate(players)
    ]


# -- the summary the form describes (the contract's JSON: what is stored and scored) -------------


class OutcomeJSON(TypedDict, total=False):
    type: str
    winner: str
    month: int


class DokbakJSON(TypedDict):
    player: str
    reason: str


class FixedJSON(TypedDict):
    kind: str
    player: str


class MissionJSON(TypedDict):
    multiplier: int
    player: str


class Summary(TypedDict, total=False):
    """A quick entry's hand summary; the series adds players, dealer, rules, carry and stakes."""

    captures: dict[str, list[str]]
    junk: dict[str, int]
    gos: dict[str, int]
    shakes: dict[str, list[int]]
    bombs: dict[str, list[int]]
    outcome: OutcomeJSON
    dokbak: DokbakJSON | None
    fixed: list[FixedJSON]
    last_go: str
    mission: int | MissionJSON


ALWAYS = ("captures", "outcome", "dokbak")  # written even when empty
INSTANT_WINS = ("stop", "chongtong", "three_ppuk")  # the outcomes that name a winner


def summary_from(form: QuickForm, players: tuple[str, ...]) -> Summary:
    """The summary the form describes."""
    entries = seat_entries(form, players)
    summary: Summary = {
        **_piles_from(entries),
        "outcome": _outcome_from(form),
        "dokbak": _dokbak_from(form),
        "fixed": [{"kind": k, "player": p} for p, e in entries for k in (e.fixed.data or [])],
    }
    if form.last_go.data:
        summary["last_go"] = form.last_go.data
    if form.mission.data and form.mission.data > 1:
        summary["mission"] = _mission_from(form)
    return cast(Summary, {k: v for k, v in summary.items() if v or k in ALWAYS})


def _piles_from(entries: list[tuple[str, PlayerEntry]]) -> Summary:
    """Each player's captures, and the junk, gos, shakes and bombs of those who have any."""
    return {
        "captures": {p: list(e.cards.data or []) for p, e in entries},
        "junk": {p: e.junk.data for p, e in entries if e.junk.data},
        "gos": {p: e.gos.data for p, e in entries if e.gos.data},
        "shakes": {p: list(e.shakes.data) for p, e in entries if e.shakes.data},
        "bombs": {p: list(e.bombs.data) for p, e in entries if e.bombs.data},
    }


def _outcome_from(form: QuickForm) -> OutcomeJSON:
    outcome: OutcomeJSON = {"type": form.outcome.data}
    if form.outcome.data in INSTANT_WINS and form.winner.data:
        outcome["winner"] = form.winner.data
    if form.outcome.data == "chongtong" and form.month.data:
        outcome["month"] = int(form.month.data)
    return outcome


def _dokbak_from(form: QuickForm) -> DokbakJSON | None:
    return {"player": form.dokbak_player.data, "reason": form.dokbak_reason.data} if form.dokbak_player.data else None


def _mission_from(form: QuickForm) -> int | MissionJSON:
    player = form.mission_player.data  # who completed it: it multiplies only their win
    return {"multiplier": form.mission.data, "player": player} if player else form.mission.data


class Shown(TypedDict):
    """What a forced sitter showed (gwangpalli)."""

    cards: list[str]
    shake: bool


def shown_from(form: QuickForm, sitters: tuple[str, ...]) -> dict[str, Shown]:
    out = {}
    for name, entry in zip(sitters, form.sitters.entries):
        if entry.cards.data or entry.shake.data:
            out[name] = Shown(cards=list(entry.cards.data or []), shake=bool(entry.shake.data))
    return out


# -- a stored summary shown again in the form (editing a past hand) ----------------------------


class EntryData(TypedDict):
    cards: list[str]
    junk: int
    gos: int
    shakes: list[int]
    bombs: list[int]
    fixed: list[str]


class FormData(TypedDict):
    outcome: str
    winner: str
    month: str
    entries: list[EntryData]
    dokbak_player: str
    dokbak_reason: str
    last_go: str
    mission: int
    mission_player: str
    sitters: list[Shown]


def data_from(
    summary: Summary, players: tuple[str, ...], shown: Mapping[str, Shown] | None, sitters: tuple[str, ...]
) -> FormData:
    """Form data that shows a stored summary again (the summary as stored: the contract's JSON)."""
    outcome = summary.get("outcome") or {}
    dokbak = summary.get("dokbak")
    mission, mission_player = _mission_of(summary.get("mission", 1))
    return {
        "outcome": outcome.get("type", "stop"),
        "winner": outcome.get("winner", ""),
        "month": str(outcome.get("month", "")),
        "entries": [_entry_data(summary, p) for p in players],
        "dokbak_player": dokbak.get("player", "") if dokbak else "",
        "dokbak_reason": dokbak.get("reason", "oe_myeon") if dokbak else "oe_myeon",
        "last_go": summary.get("last_go", ""),
        "mission": mission,
        "mission_player": mission_player,
        "sitters": [_shown_data((shown or {}).get(s)) for s in sitters],
    }


def _entry_data(summary: Summary, p: str) -> EntryData:
    return {
        "cards": (summary.get("captures") or {}).get(p, []),
        "junk": (summary.get("junk") or {}).get(p, 0),
        "gos": (summary.get("gos") or {}).get(p, 0),
        "shakes": (summary.get("shakes") or {}).get(p, []),
        "bombs": (summary.get("bombs") or {}).get(p, []),
        "fixed": [f["kind"] for f in summary.get("fixed") or [] if f.get("player") == p],
    }


def _mission_of(mission: int | MissionJSON) -> tuple[int, str]:
    """(multiplier, who completed it): a mission is a multiplier or {multiplier, player}."""
    if isinstance(mission, dict):
        return mission.get("multiplier", 1), mission.get("player", "")
    return mission, ""


def _shown_data(entry: Shown | None) -> Shown:
    if not entry:
        return {"cards": [], "shake": False}
    return {"cards": entry.get("cards", []), "shake": entry.get("shake", False)}


class HandRecord(TypedDict, total=False):
    """A hand record as the series reads it: the summary, and the seating at four or more."""

    summary: Summary
    choices: dict[str, str]
    shown: dict[str, Shown]


def seating_record(
    seating: Seating | None, choices: dict[str, str] | None, shown: dict[str, Shown] | None
) -> HandRecord | None:
    """The seating part of a hand record: the choices made and the cards shown."""
    if seating is None or not choices:
        return None
    out: HandRecord = {"choices": choices}
    if shown:
        out["shown"] = shown
    return out


def prepare_seating(form: SeatingForm | QuickForm, sitters: tuple[str, ...]) -> SeatingForm | QuickForm:
    while len(form.sitters) < len(sitters):
        form.sitters.append_entry()
    return form


def record_from(form: QuickForm, seat: NextSeating) -> HandRecord:
    """The hand record the form describes (summary, and the seating at four or more)."""
    record: HandRecord = {"summary": summary_from(form, seat.players)}
    extra = seating_record(seat.seating, seat.choices, shown_from(form, seat.sitters))
    if extra:
        record.update(extra)
    return record


def past_seating(deal: Deal, hand: Hand) -> NextSeating:
    choices = (hand.seating or {}).get("choices")
    return NextSeating(deal.seating, choices, [], bool(choices))


def field_problems(form: QuickForm) -> list[ErrorJSON]:
    """The form's own refusals (a tampered select, a number out of range) as coded errors."""
    out: list[ErrorJSON] = []

    def walk(name: str, errs: object) -> None:
        if isinstance(errs, dict):
            for key, sub in errs.items():
                walk(f"{name}-{key}" if name else str(key), sub)
        elif isinstance(errs, (list, tuple)):
            for i, e in enumerate(errs):
                if isinstance(e, (dict, list, tuple)):
                    walk(f"{name}-{i}", e)
                else:
                    out.append({"code": "bad_value", "message": f"{name}: {e}", "path": ""})

    walk("", form.errors)
    return out


def preview(state: TableState, record: HandRecord, index: int | None = None) -> tuple[Deal | None, list[ErrorJSON]]:
    """The deal the record makes in the series, as saving it would: (deal, errors).

    The preview shows the deal's ledger entries — the hand's payments and the fixed
    ones, 광팔기 compensation, nagari doubling — which are exactly what saving records.
    """
    try:
        series = state.series.append(dict(record)) if index is None else state.series.replace(index, dict(record))
    except EngineError as err:
        return None, err.errors  # type: ignore[return-value]  # the engine's {code, message, path}
    return series.deals[-1 if index is None else index], []


def render(state, form, seat, deal, errors, hand=None):
    from flask import render_template

    from ..views import tableview

    view = tableview.table_view(state)
    template = "hand/_preview.html" if tableview.wants_partial() else "hand/quick.html"
    status = 422 if errors or form.errors else 200
    return render_template(
        template, **view, form=form, seat=seat, deal=deal, refusals=errors, edit_hand=hand, players=seat.players
    ), status
