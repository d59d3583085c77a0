"""Quick entry: the form's fields ↔ a hand summary of the engine contract."""

from __future__ import annotations

from typing import Any

from ...engine.series.gwangpalli import Seating
from ..views.forms import opts
from .forms import PlayerEntry, QuickForm

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


def seat_entries(form: QuickForm, players: tuple[str, ...]) -> list[tuple[str, Any]]:
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


def summary_from(form: QuickForm, players: tuple[str, ...]) -> dict[str, Any]:
    """The summary the form describes; the series adds players, dealer, rules, carry and stakes."""
    entries = seat_entries(form, players)
    outcome: dict[str, Any] = {"type": form.outcome.data}
    if form.outcome.data in ("stop", "chongtong", "three_ppuk") and form.winner.data:
        outcome["winner"] = form.winner.data
    if form.outcome.data == "chongtong" and form.month.data:
        outcome["month"] = int(form.month.data)
    summary: dict[str, Any] = {
        "captures": {p: list(e.cards.data or []) for p, e in entries},
        "junk": {p: e.junk.data for p, e in entries if e.junk.data},
        "gos": {p: e.gos.data for p, e in entries if e.gos.data},
        "shakes": {p: list(e.shakes.data) for p, e in entries if e.shakes.data},
        "bombs": {p: list(e.bombs.data) for p, e in entries if e.bombs.data},
        "outcome": outcome,
        "dokbak": None,
        "fixed": [{"kind": k, "player": p} for p, e in entries for k in (e.fixed.data or [])],
    }
    if form.dokbak_player.data:
        summary["dokbak"] = {"player": form.dokbak_player.data, "reason": form.dokbak_reason.data}
    if form.last_go.data:
        summary["last_go"] = form.last_go.data
    if form.mission.data and form.mission.data > 1:
        player = form.mission_player.data  # who completed it: it multiplies only their win
        summary["mission"] = {"multiplier": form.mission.data, "player": player} if player else form.mission.data
    return {k: v for k, v in summary.items() if v or k in ("captures", "outcome", "dokbak")}


def shown_from(form: QuickForm, sitters: tuple[str, ...]) -> dict[str, Any]:
    out = {}
    for name, entry in zip(sitters, form.sitters.entries):
        if entry.cards.data or entry.shake.data:
            out[name] = {"cards": list(entry.cards.data or []), "shake": bool(entry.shake.data)}
    return out


def data_from(
    summary: dict[str, Any], players: tuple[str, ...], shown: dict | None, sitters: tuple[str, ...]
) -> dict[str, Any]:
    """Form data that shows a stored summary again (editing a past hand)."""
    outcome = summary.get("outcome") or {}
    entries = [
        {
            "cards": (summary.get("captures") or {}).get(p, []),
            "junk": (summary.get("junk") or {}).get(p, 0),
            "gos": (summary.get("gos") or {}).get(p, 0),
            "shakes": (summary.get("shakes") or {}).get(p, []),
            "bombs": (summary.get("bombs") or {}).get(p, []),
            "fixed": [f["kind"] for f in summary.get("fixed") or [] if f.get("player") == p],
        }
        for p in players
    ]
    dokbak = summary.get("dokbak") or {}
    mission = summary.get("mission", 1)
    mission_player = ""
    if isinstance(mission, dict):  # {multiplier, player}
        mission, mission_player = mission.get("multiplier", 1), mission.get("player", "")
    return {
        "outcome": outcome.get("type", "stop"),
        "winner": outcome.get("winner", ""),
        "month": str(outcome.get("month", "")),
        "entries": entries,
        "dokbak_player": dokbak.get("player", ""),
        "dokbak_reason": dokbak.get("reason", "oe_myeon"),
        "last_go": summary.get("last_go", ""),
        "mission": mission,
        "mission_player": mission_player,
        "sitters": [
            {"cards": (shown or {}).get(s, {}).get("cards", []), "shake": (shown or {}).get(s, {}).get("shake", False)}
            for s in sitters
        ],
    }


def seating_record(seating: Seating | None, choices: dict | None, shown: dict | None) -> dict | None:
    """The seating part of a hand record: the choices made and the cards shown."""
    if seating is None or not choices:
        return None
    out: dict[str, Any] = {"choices": choices}
    if shown:
        out["shown"] = shown
    return out


def prepare_seating(form, sitters: tuple[str, ...]):
    while len(form.sitters) < len(sitters):
        form.sitters.append_entry()
    return form


def record_from(form: QuickForm, seat) -> dict[str, Any]:
    """The hand record the form describes (summary, and the seating at four or more)."""
    record: dict[str, Any] = {"summary": summary_from(form, seat.players)}
    extra = seating_record(seat.seating, seat.choices, shown_from(form, seat.sitters))
    if extra:
        record.update(extra)
    return record


def past_seating(deal, hand):
    from ...tables.seating import NextSeating

    choices = (hand.seating or {}).get("choices")
    return NextSeating(deal.seating, choices, [], bool(choices))


def field_problems(form) -> list[dict[str, Any]]:
    """The form's own refusals (a tampered select, a number out of range) as coded errors."""
    out: list[dict[str, Any]] = []

    def walk(name: str, errs) -> None:
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


def preview(state, record: dict, index: int | None = None):
    """The deal the record makes in the series, as saving it would: (deal, errors).

    The preview shows the deal's ledger entries — the hand's payments and the fixed
    ones, 광팔기 compensation, nagari doubling — which are exactly what saving records.
    """
    from ...engine.errors import EngineError

    try:
        series = state.series.append(record) if index is None else state.series.replace(index, record)
    except EngineError as err:
        return None, err.errors
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
