"""Hands: start one live, append its events, undo; quick entry; results; edit, delete."""

from __future__ import annotations

from typing import Any, cast

from flask import abort, flash, redirect, render_template, request, url_for

from ...store.rows import hand_version
from ...tables import service, taps, writes
from ...tables.refusals import Stale, WriteRefused
from ...tables.seating import next_seating, seat_args
from ..access import seats
from ..access.tables import open_table
from ..catalogue import terms
from ..catalogue.i18n import gettext as _
from ..catalogue.i18n import refusal
from ..server.database import db
from ..server.security import EDIT
from ..views import tableview
from ..views.forms import attach_errors
from . import bp, liveview, quick
from .forms import DeleteForm, EventForm, GiveForm, QuickForm, SeatingForm, SeqForm

# The delete form carries the hand's version, as the edit form does (``store.hand_version``).
bp.add_app_template_global(hand_version, "hand_version")


@bp.app_template_global("live_claims")
def live_claims(state: service.TableState) -> tuple[liveview.Claim, ...]:
    """The forced sitters' claims of the hand being played, for the table's standings."""
    return liveview.sitter_claims(state, state.live.hand) if state.live else ()


@bp.app_template_global("live_payers")
def live_payers(state: service.TableState) -> str:
    """Who pays a forced sitter (광팔기): each player of the hand but its dealer."""
    live = state.live
    if live is None:
        return ""
    return ", ".join(p for p in live.state.order if p != live.state.setup.dealer)


def _load(public_id: str, need: str = "view") -> service.TableState:
    return service.load(db(), open_table(public_id, need))


def _hand(state: service.TableState, hand_id: int):
    hand = state.hand(hand_id)
    if hand is None:
        abort(404)
    return hand


def _expected(form) -> int | None:
    value = (form.count.data or "").strip()
    return int(value) if value.isdigit() else None


def _to_table(public_id: str):
    return redirect(url_for("tables.show", public_id=public_id), 303)


@bp.get("/hands/new")
def new(public_id: str):
    """The start of a hand; with four or more at the table, who plays and what the sitters show."""
    state = _load(public_id, EDIT)
    if not state.can_start:
        flash(_("cannot_start"), "error")
        return _to_table(public_id)
    mode = "quick" if request.args.get("mode") == "quick" else "live"
    seat = next_seating(state, request.args)
    if mode == "quick" and seat.seating is not None:
        return redirect(url_for("hands.quick_entry", public_id=public_id, **seat_args(state, seat.choices)))
    form = quick.prepare_seating(SeatingForm(), seat.sitters)
    return render_template(
        "hand/new.html",
        **tableview.table_view(state),
        seat=seat,
        mode=mode,
        form=form,
        args=seat_args(state, seat.choices),
    ), 422 if seat.errors else 200


@bp.post("/hands")
def start(public_id: str):
    """Start a live hand (its setup comes from the series)."""
    state = _load(public_id, EDIT)
    seat = next_seating(state, request.args)
    form = quick.prepare_seating(SeatingForm(), seat.sitters)
    if not form.validate_on_submit() or seat.errors or (seat.asked and seat.seating is None):
        flash(_("cannot_start"), "error")
        return redirect(url_for("hands.new", public_id=public_id, **seat_args(state, seat.choices)), 303)
    seating = quick.seating_record(seat.seating, seat.choices, quick.shown_from(form, seat.sitters))
    try:
        hand = writes.add_hand(db(), state, "log", None, dict(seating) if seating else None, _expected(form))
    except WriteRefused as err:
        started = _load(public_id, EDIT).live
        if started is not None:
            # Two phones tapped "Start" for the same hand: the first one started it; join it.
            flash(_("live_another_phone"), "ok")
            return redirect(url_for("hands.show", public_id=public_id, hand_id=started.hand.id), 303)
        _flash_refusal(err)
        return _to_table(public_id)
    return redirect(url_for("hands.show", public_id=public_id, hand_id=hand.id), 303)


@bp.get("/hands/<int:hand_id>")
def show(public_id: str, hand_id: int):
    state = _load(public_id)
    hand = _hand(state, hand_id)
    view = liveview.hand_view(state, hand)
    template = "hand/_region.html" if tableview.wants_partial() else "hand/show.html"
    return render_template(template, **view)


@bp.post("/hands/<int:hand_id>/events")
def append(public_id: str, hand_id: int):
    """Append one event: checked by replaying the whole log, refused if stale.

    ``then=go|stop`` with an end of turn says the player's answer in the same tap: the
    End turn button of a player who has reached the target is "Go" and "Stop".
    """
    state = _load(public_id, EDIT)
    live = state.live_of(hand_id)
    form = EventForm()
    if live is None:
        return liveview.reply(public_id, hand_id, 409, _("hand_not_live"))
    if not form.validate_on_submit():
        return liveview.reply(public_id, hand_id, 400, liveview.form_problem(form))
    event = liveview.event_from(form)
    shown = liveview.shown_cards(live.hand)
    refused = next((c for c in event.get("cards", []) if c in shown), None)
    if refused:
        return liveview.reply(public_id, hand_id, 422, _("live_shown_card_refused", c=terms.card_name(refused)))
    seat = seats.seat_in(public_id, live.state.order)
    skip = request.form.get("skip") == "1"
    tap = taps.Tap(dict(event), form.seq.data, seat, request.form.get("then"), skip)
    if tap.answers_for_another and request.form.get("for_them") != "1":
        return liveview.reply(public_id, hand_id, 409, _("live_not_your_answer", p=event.get("player")))
    try:
        # A seat's tap passes the turns before it; an End turn with its go or stop stores both or neither.
        now, waiting = taps.record(db(), state, hand_id, tap)
    except WriteRefused as err:
        if err.code == "skip_turns" and tap.seat_tap:
            return liveview.reply(public_id, hand_id, 409, None, confirm=liveview.skip_confirm(live.state, event))
        return _live_refused(public_id, hand_id, err)
    if waiting is not None:
        # Go or stop is asked first: the turn's end is stored, the tap held for the page to send after.
        held = {"event": event, "skip": skip}
        return liveview.reply(public_id, hand_id, 409, _("live_waiting_decision", p=waiting), state=now, held=held)
    return liveview.reply(public_id, hand_id, 200, state=now)


def _live_refused(public_id: str, hand_id: int, err: WriteRefused):
    """A refused change of the live hand's log, answered on its region: 409 or the engine's 422."""
    if err.kind == "refused":
        return liveview.reply(public_id, hand_id, 422, refusal(err.errors[0]))
    return liveview.reply(public_id, hand_id, 409, _("hand_not_live") if err.kind == "not_live" else _("err_conflict"))


def _flash_refusal(err: WriteRefused) -> None:
    """A refused write said on the next page: the engine's refusals in the phone's language."""
    if err.kind == "refused":
        for e in err.errors:
            flash(refusal(e), "error")
    else:
        flash(_("err_conflict"), "error")


@bp.post("/hands/<int:hand_id>/give")
def give(public_id: str, hand_id: int):
    """Which junk a giver really handed over in the last event: that card instead of the cheapest.

    The last event is stored again naming each giver's card (the others' as the engine chose
    them), in place, if the log is still the length the phone saw.
    """
    state = _load(public_id, EDIT)
    live = state.live_of(hand_id)
    form = GiveForm()
    if live is None:
        return liveview.reply(public_id, hand_id, 409, _("hand_not_live"))
    if not form.validate_on_submit():
        return liveview.reply(public_id, hand_id, 400, liveview.form_problem(form))
    given = liveview.junk_given(live)
    entry = next((g for g in given if g.giver == form.giver.data), None)
    if form.seq.data != len(live.events) or entry is None:
        return liveview.reply(public_id, hand_id, 409, _("err_conflict"))
    if form.card.data not in entry.could:
        return liveview.reply(public_id, hand_id, 422, _("live_give_not_junk", c=terms.card_name(form.card.data)))
    names = {g.giver: list(g.gave) for g in given}
    cards = names[entry.giver]
    if form.card.data not in cards:
        names[entry.giver] = [form.card.data, *cards[1:]]
    event = dict(live.events[-1]) | {"give": names}
    try:
        writes.replace_last_event(db(), state, hand_id, form.seq.data, event)
    except WriteRefused as err:
        return _live_refused(public_id, hand_id, err)
    return liveview.reply(public_id, hand_id, 200)


@bp.post("/hands/<int:hand_id>/shown")
def correct_shown(public_id: str, hand_id: int):
    """Correct what the forced sitters showed, during the hand (never a card already captured)."""
    state = _load(public_id, EDIT)
    live = state.live_of(hand_id)
    back = redirect(url_for("hands.show", public_id=public_id, hand_id=hand_id), 303)
    if live is None:
        flash(_("hand_not_live"), "error")
        return back
    sitters = liveview.forced_sitters(state, live.hand)
    form = quick.prepare_seating(SeatingForm(), sitters)
    if not sitters or not form.validate_on_submit():
        flash(_("cannot_start"), "error")
        return back
    shown = quick.shown_from(form, sitters)
    taken = next((c for entry in shown.values() for c in entry["cards"] if c in live.state.captured()), None)
    if taken:
        flash(_("live_shown_taken", c=terms.card_name(taken)), "error")
        return back
    seating = {k: v for k, v in (live.hand.seating or {}).items() if k != "shown"} | ({"shown": shown} if shown else {})
    try:
        writes.edit_hand(db(), state, live.hand, seating=seating)
    except WriteRefused as err:
        _flash_refusal(err)
    else:
        flash(_("live_shown_fixed"), "ok")
    return back


@bp.post("/hands/<int:hand_id>/undo")
def undo(public_id: str, hand_id: int):
    """Remove the last event of the last hand (a finished one opens again).

    A seated phone's ↶ takes back its own player's last event wherever it stands in the log
    (``writes.take_back_own``); the table's last event (``last``) when it is another player's only
    once the phone has answered the question naming it (``confirm``). The answer says what went.
    """
    state = _load(public_id, EDIT)
    last = service.last_log_setup(state)
    form = SeqForm()
    if last is None or last[0].id != hand_id:
        return liveview.reply(public_id, hand_id, 409, _("undo_not_last"))
    if not form.validate_on_submit():
        return liveview.reply(public_id, hand_id, 400, liveview.form_problem(form))
    if form.seq.data == 0:
        return liveview.reply(public_id, hand_id, 422, _("nothing_to_undo"))
    hand, log = last[0], state.logs.get(hand_id) or (state.live.events if state.live else [])
    seat = seats.seat_in(public_id, last[1]["players"])
    if seat is not None and not form.last.data:
        return _take_back_own(state, hand, seat, form.at.data, log)
    shown = log[form.seq.data - 1] if form.seq.data <= len(log) else {}
    asked = _ask_first(public_id, hand_id, seat, form, log, shown) if seat is not None else None
    if asked is not None:
        return asked
    try:
        writes.undo(db(), state, hand, form.seq.data)
    except WriteRefused as err:
        return _live_refused(public_id, hand_id, err)
    return liveview.reply(
        public_id, hand_id, 200, undone=_("live_undone_of", e=liveview.said(shown)) if shown else None
    )


def _ask_first(public_id: str, hand_id: int, seat: str, form: SeqForm, log: list[dict], shown: dict):
    """A seated phone undoing the table's last event: refused when the event it was asked about has
    moved, asked first when that event is another player's (or the table's); else None."""
    if form.confirm.data and form.at.data is not None and form.at.data != form.seq.data - 1:
        # The question named the event at ``at``: the log has moved since, so it is not the one asked about.
        return liveview.reply(public_id, hand_id, 409, _("err_conflict"))
    if shown.get("player") != seat and not form.confirm.data:
        # Another player's event (or the table's): the seated phone is asked first, naming it.
        ask = {"line": liveview.said(log[-1]), "at": len(log) - 1} if log else None
        return liveview.reply(public_id, hand_id, 409, None, takeback=ask)
    return None


def _take_back_own(state: service.TableState, hand, seat: str, at: int | None, log: list[dict]):
    """A seated phone's ↶: its player's last event, and the answer names it; when a later event
    would no longer hold without it, the refusal names that event and why."""
    public_id = state.table.public_id
    try:
        _index, event = writes.take_back_own(db(), state, hand, seat, at)
    except WriteRefused as err:
        if err.code == "takeback_breaks_log" and len(err.errors) > 1:
            later = err.errors[0].get("index", 0)
            mine = log[at] if at is not None and at < len(log) else {}
            message = _(
                "live_takeback_breaks",
                e=liveview.said(mine) if mine else seat,
                later=liveview.said(log[later]) if later < len(log) else "",
                why=refusal(err.errors[1]),
            )
            return liveview.reply(public_id, hand.id, 422, message)
        if err.code == "nothing_to_undo":
            return liveview.reply(public_id, hand.id, 422, _("live_nothing_of", p=seat))
        return _live_refused(public_id, hand.id, err)
    return liveview.reply(public_id, hand.id, 200, undone=_("live_undone_of", e=liveview.said(event)))


def _quick(state, form, seat, index=None, store_record=None, hand=None):
    """Preview the form's hand through the engine; on "save", store it and go to its result."""
    deal, errors, stale = None, [], False
    if form.validate_on_submit():
        record = quick.record_from(form, seat)
        deal, errors = quick.preview(state, record, index)
        errors = _said(errors)
        if not errors and request.form.get("action") == "save" and not tableview.wants_partial():
            try:
                saved = store_record(record, quick.seating_record(seat.seating, seat.choices, record.get("shown")))
            except Stale as err:
                # Another phone edited this hand: keep this phone's entry, show the conflict, and
                # carry the current version so that saving again is a deliberate overwrite.
                form.version.data, stale = hand_version(err.hand), True
                errors = [{"code": "conflict", "message": _("edit_stale", now=_stored_outcome(err.hand)), "path": ""}]
            except WriteRefused as err:
                errors = _said(
                    err.errors
                    if err.kind == "refused"
                    else [{"code": "conflict", "message": _("err_conflict"), "path": ""}]
                )
            else:
                return redirect(url_for("hands.show", public_id=state.table.public_id, hand_id=saved.id), 303)
    elif request.method == "POST":
        errors = _said(quick.field_problems(form))
    page, status = quick.render(state, form, seat, deal, attach_errors(form, errors, quick.PATHS), hand=hand)
    return page, 409 if stale else status


def _said(errors: list[dict]) -> list[dict]:
    """Coded refusals in the phone's language (the stale edit above is written in it already)."""
    return [e | {"message": refusal(e)} for e in errors]


def _stored_outcome(hand) -> str:
    """How a stored summary ended, in a few words: "stop · B", "nagari"."""
    outcome = (hand.summary or {}).get("outcome") or {}
    winners = outcome.get("winners") or ([outcome["winner"]] if outcome.get("winner") else [])
    return " · ".join(str(p) for p in [terms.outcome_label(outcome.get("type", "?")), *winners])


@bp.route("/quick", methods=["GET", "POST"])
def quick_entry(public_id: str):
    """The whole hand after it ended, with the payment previewed by the engine."""
    state = _load(public_id, EDIT)
    seat = next_seating(state, request.args)
    if not state.can_start or seat.seating is None:
        asked: dict[str, Any] = request.args.to_dict()
        return redirect(url_for("hands.new", public_id=public_id, mode="quick", **asked), 303)
    form = quick.prepare(QuickForm(), seat.players, seat.sitters)

    def add(record, seating):
        return writes.add_hand(db(), state, "summary", record["summary"], seating, _expected(form))

    return _quick(state, form, seat, store_record=add)


@bp.route("/hands/<int:hand_id>/edit", methods=["GET", "POST"])
def edit(public_id: str, hand_id: int):
    """Change a past quick-entry hand; everything after it is replayed."""
    state = _load(public_id, EDIT)
    hand = _hand(state, hand_id)
    index = state.hands.index(hand)
    if hand.kind != "summary" or index >= len(state.series.deals):
        flash(_("edit_live_hint"), "error")
        return redirect(url_for("hands.show", public_id=public_id, hand_id=hand_id), 303)
    seat = quick.past_seating(state.series.deals[index], hand)
    data = (
        None
        if request.method == "POST"
        else quick.data_from(
            cast(quick.Summary, hand.summary), seat.players, (hand.seating or {}).get("shown"), seat.sitters
        )
    )
    form = quick.prepare(QuickForm(data=data), seat.players, seat.sitters)
    if request.method == "GET":
        form.version.data = hand_version(hand)

    def update(record, seating):
        # A form without a version is refused as stale, never saved over a change it did not see.
        return writes.edit_hand(db(), state, hand, record["summary"], seating, expected_version=form.version.data or "")

    return _quick(state, form, seat, index, update, hand)


@bp.post("/hands/<int:hand_id>/delete")
def delete(public_id: str, hand_id: int):
    state = _load(public_id, EDIT)
    hand = _hand(state, hand_id)
    form = DeleteForm()
    if not form.validate_on_submit():
        flash(_("delete_confirm"), "error")
        return redirect(url_for("hands.show", public_id=public_id, hand_id=hand_id), 303)
    try:
        writes.delete_hand(db(), state, hand, form.version.data or "")
    except WriteRefused as err:
        if err.kind == "stale":
            flash(_("delete_stale"), "error")
        elif err.kind == "conflict":
            flash(_("err_conflict"), "error")
            return _to_table(public_id)
        else:
            _flash_refusal(err)
        return redirect(url_for("hands.show", public_id=public_id, hand_id=hand_id), 303)
    flash(_("hand_deleted"), "ok")
    return _to_table(public_id)
