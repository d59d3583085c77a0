"""The live hand page and a hand's result: view models, event forms, replies."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, Required, TypedDict

from flask import flash, redirect, render_template, url_for

from ...engine.facade import (
    EVENTS,
    JUNK_REASONS,
    META_FIELDS,
    MONTHS,
    Claim,
    Deal,
    HandSetup,
    HandState,
    Seating,
    codec,
    hints,
    kinds,
    own_last,
    sitters_of,
    sitters_paid,
    turns_ahead,
)
from ...store.models import Hand
from ...tables import service
from ..access import seats
from ..access.tables import can_edit, open_table
from ..catalogue import terms
from ..catalogue.i18n import both, current_lang, gettext
from ..catalogue.messages import MESSAGES
from ..server.database import db
from ..views import cardview, tableview
from . import eventlines

KIND_ORDER = (("bright", "kind_bright"), ("animal", "kind_animal"), ("ribbon", "kind_ribbon"), ("junk", "kind_junk"))


class FormEvent(TypedDict, total=False):
    """An event as a live page's button posts it (the engine checks it as any event)."""

    type: Required[str]
    player: str
    cards: list[str]
    month: int
    reason: str
    last_card: bool
    multiplier: int


def event_from(form) -> FormEvent:
    """The event a button posted: only the fields its type takes."""
    kind = EVENTS[form.type.data]
    fields = set(kind.required) | set(kind.optional)
    event: FormEvent = {"type": form.type.data}
    if "player" in fields and form.player.data:
        event["player"] = form.player.data
    if "cards" in fields and form.cards.data:
        event["cards"] = list(dict.fromkeys(form.cards.data))
    if "month" in fields and form.month.data:
        event["month"] = int(form.month.data)
    if "reason" in fields and form.reason.data:
        event["reason"] = form.reason.data
    if "last_card" in fields and form.last_card.data:
        event["last_card"] = True
    if "multiplier" in fields and form.multiplier.data is not None:
        event["multiplier"] = form.multiplier.data
    return event


def form_problem(form) -> str:
    return "; ".join(f"{name}: {', '.join(map(str, errs))}" for name, errs in form.errors.items())


def said(stored: Mapping[str, object]) -> str:
    """A stored event's line and its toast, in the phone's language: "Jun: 난초 초단", "Mina: 10월 흔들기"."""
    event = codec.load(stored)
    parts = [_what(event)]
    month = getattr(event, "month", None)
    if month and event.TYPE in eventlines.MONTH_FIRST:  # "10월 흔들기", as the log says it
        parts = [gettext(eventlines.MONTH_FIRST[event.TYPE], months=terms.months_text([month]))]
    elif month:
        parts.append(gettext("live_month", m=month))
    if isinstance(event, kinds.Mission):
        parts[0] += f" ×{event.multiplier}"  # "미션 ×2"
    who = getattr(event, "player", None)
    return f"{who}: {' · '.join(parts)}" if who else " · ".join(parts)


def _what(event: kinds.Event) -> str:
    if isinstance(event, kinds.Capture):
        return terms.cards_text(list(event.cards))
    if isinstance(event, kinds.TakeJunk):
        return both(f"junk_{event.reason}")  # as the log and the buttons word it
    key = f"ev_{event.TYPE}"
    return both(key) if key in MESSAGES else event.TYPE


def feat_paid(feat: tuple[str, int] | None) -> str:
    """What the last event's first-turn feat pays at once, said with it: " · 첫뻑: 각자 3점씩"."""
    if feat is None:
        return ""
    kind, points = feat
    return " · " + gettext("live_feat_pays", feat=terms.step_label({"id": kind}), n=points)


def _players_view(s, st: dict, classes: dict[str, str]) -> list[dict]:
    out = []
    for p in st["players"]:
        piles = [(key, [cardview.FACES[c] for c in p["captures"][kind]]) for kind, key in KIND_ORDER]
        # may_decide: go or stop would be asked if the turn ended now (the offline queue's guess starts here)
        out.append(p | {"css": classes.get(p["name"], "p0"), "piles": piles, "may_decide": s.eligible(p["name"])})
    return out


def shown_cards(hand) -> dict[str, str]:
    """Cards the forced sitters showed at the start of this hand → the sitter who showed them."""
    shown = (hand.seating or {}).get("shown") or {}
    return {code: sitter for sitter, entry in shown.items() for code in (entry or {}).get("cards", [])}


def _seats(state: service.TableState, hand: Hand) -> Seating | None:
    """The hand's gwangpalli seating (who plays, who was made to sit out), or None."""
    choices = (hand.seating or {}).get("choices")
    if not (state.config.gwangpalli and choices and state.live):
        return None
    return sitters_of(state.config.players, state.live.setup["dealer"], choices)


def forced_sitters(state: service.TableState, hand) -> tuple[str, ...]:
    """The players made to sit out this hand (광팔기): they showed cards and are paid for them."""
    seats = _seats(state, hand)
    return seats.forced if seats else ()


def junk_given(live: service.Live) -> tuple[hints.Given, ...]:
    """The junk the last event of the live hand has its players give (and which cards could go)."""
    return hints.last_event(live.state, live.events).given


def sitter_claims(state: service.TableState, hand: Hand) -> tuple[Claim, ...]:
    """광팔기: what each forced sitter is owed for the cards shown."""
    seats = _seats(state, hand)
    if seats is None:
        return ()
    return sitters_paid((hand.seating or {}).get("shown"), seats, len(state.config.players), state.config.rules)


def owners_map(owners: dict[str, str], shown: dict[str, str], classes: dict[str, str]) -> dict[str, list]:
    """What the picker marks on each card: [owner, colour class] (+ "shown" for a sitter's card)."""
    out = {code: [o, classes.get(o, "")] for code, o in owners.items()}
    out |= {code: [o, classes.get(o, ""), "shown"] for code, o in shown.items() if code not in out}
    return out


class LiveView(TypedDict, total=False):
    """What a live hand's page adds (``_live_view``, which gives every key): the state, whose turn,
    the hints, the sitters. Not total: a finished hand's page (``HandView``) has none of them."""

    st: dict  # the hand's state as its JSON
    players_view: list[dict]
    owners: dict[str, str]  # each captured card → who holds it
    shown: dict[str, str]  # a sitter's card shown → the sitter
    seat: str | None  # this phone's seat, when it edits
    owners_json: dict[str, list]
    current: str | None  # whose turn it is
    eligible: bool  # whether the player whose turn it is may stop
    threats: hints.IfStopped
    claims: tuple[Claim, ...]
    sitters: list[tuple[str, dict]]
    paid_at_end: bool
    weol_yak_offers: tuple[str, ...]
    last_event: str
    given: tuple[hints.Given, ...]
    own_at: int | None
    own_line: str
    last_player: str | None


def _live_view(state: service.TableState, hand, live, classes: dict[str, str]) -> LiveView:
    st = live.state.to_json()
    current = st["turn"]["player"] if st["turn"] else None
    s = live.state
    eligible = bool(current and not st["must_decide"] and not st["must_answer"] and s.eligible(current))
    shown = shown_cards(hand)
    owners = s.captured()
    seat = seats.seat_in(state.table.public_id, s.order) if can_edit() else None
    own_at = own_last(live.events, seat) if seat else None
    last = hints.last_event(s, live.events)
    return LiveView(
        st=st,
        players_view=_players_view(s, st, classes),
        owners=owners,
        shown=shown,
        seat=seat,
        owners_json=owners_map(owners, shown, classes),
        current=current,
        eligible=eligible,
        threats=hints.if_stopped_now(s),
        claims=sitter_claims(state, hand),
        sitters=[(name, (hand.seating or {}).get("shown", {}).get(name) or {}) for name in forced_sitters(state, hand)],
        paid_at_end=state.config.rules.sitter_paid_at_end,
        weol_yak_offers=s.weol_yak_offers(),
        last_event=said(live.events[-1]) + feat_paid(last.feat) if live.events else "",
        given=last.given,
        own_at=own_at,  # the seat's own last event: what its ↶ takes back (engine.live.takeback)
        own_line=said(live.events[own_at]) if own_at is not None else "",
        last_player=live.events[-1].get("player") if live.events else None,
    )


class HandView(tableview.TableView, LiveView, total=False):
    """What the hand page's templates get (``hand_view``): the table page's view, the hand's, and
    either the live hand's (``LiveView``) or the finished hand's result."""

    hand: Required[Hand]
    index: Required[int]
    events: Required[list[tuple[int, str]]]  # each log line with its index, newest first
    seq: Required[int]  # the log's length: what the next tap expects
    can_undo: Required[bool]
    number: Required[int]
    faces: Required[ModuleType]  # the card faces (``views.cardview``)
    junk_reasons: Required[list[str]]
    event_types: Required[set[str]]
    months: Required[list[int]]
    offline: OfflineData  # an editing phone's: what it keeps its taps offline with
    # A finished hand's:
    pi_why: dict[str, hints.PiBakWhy]
    deal: Deal | None
    result: service.ResultJSON | None
    next_dealer: str
    deal_json: Mapping[str, object] | None


def hand_view(state: service.TableState, hand) -> HandView:
    """Everything the hand page shows, live or finished."""
    table = tableview.table_view(state)
    index = state.hands.index(hand)
    live = state.live_of(hand.id)
    events = live.events if live else state.logs.get(hand.id, [])
    last = service.last_log_setup(state) if can_edit() else None
    view: HandView = {
        **table,
        "hand": hand,
        "index": index,
        "live": live,
        "events": list(enumerate(eventlines.describe_all(events)))[::-1],
        "seq": len(events),
        "can_undo": bool(last and last[0].id == hand.id and events),
        "number": index + 1,
        "faces": cardview,
        "junk_reasons": list(JUNK_REASONS),
        "event_types": set(EVENTS),
        "months": list(MONTHS),
    }
    if can_edit():
        view["offline"] = offline_data(state.table, hand, live.state.setup if live else None)
    if live:
        return {**view, **_live_view(state, hand, live, table["classes"])}
    deal = state.series.deals[index] if index < len(state.series.deals) else None
    nxt = state.series.deals[index + 1].dealer if index + 1 < len(state.series.deals) else state.series.next.dealer
    threshold = state.config.rules.pi_bak_threshold(len(deal.seating.players) if deal else 3)
    view["pi_why"] = hints.pi_bak_why(deal.result if deal else None, threshold)
    view["deal"] = deal
    view["result"] = deal.result if deal else None
    view["next_dealer"] = nxt
    view["deal_json"] = deal.to_json(state.config.chip_value) if deal else None
    return view


# The words the script (static/js/queue.js, queue-view.js) writes itself (a pending tap's line comes
# from eventlines' templates instead).
QUEUE_TEXT = (
    "pending_offline",
    "pending_sending",
    "pending_retry",
    "pending_stuck",
    "pending_scores",
    "pending_over",
    "pending_ask",
    "conflict_added",
    "conflict_changed",
    "undo_needs_network",
    "undo_wait",
    "got_it",
    "live_end_turn",
    "live_undone",
    "live_turn_moved",
    "live_waiting_decision",
)
QUEUE_BOTH = ("pending", "not_saved", "already_recorded")


def _kinds(flag: str) -> list[str]:
    return [t for t, kind in EVENTS.items() if getattr(kind, flag)]


class TurnRules(TypedDict):
    """The engine's turn rules, as the page's offline queue reads them."""

    next: dict[str, str]
    passes: list[str]
    asks: list[str]
    answers: list[str]
    ends: list[str]
    ignored: list[str]


def turn_rules(setup: HandSetup | None) -> TurnRules:
    """The engine's turn rules as the offline queue applies them to taps the server has not seen yet."""
    return {
        "next": dict(setup.after) if setup else {},  # who plays after each player
        "passes": _kinds("passes_turn"),  # play moves on with these (end_turn, go)
        "asks": _kinds("asks_decision"),  # the turn's end, where go or stop may be asked (end_turn)
        "answers": _kinds("while_deciding"),  # the answers to that question (go, stop)
        "ends": _kinds("ends_hand"),  # the hand is over with these (stop, nagari, ...)
        "ignored": sorted(META_FIELDS - {"type"}),  # fields the engine ignores: not part of what was tapped
    }


# How each field of a live form reads into an event, as event_from() reads it: the script reads a
# tap made offline the same way (static/js/queue-core.js, eventsOf), from this and form_rules().
FIELD_KINDS = {
    "player": "text",
    "cards": "list",
    "month": "int",
    "reason": "text",
    "last_card": "flag",
    "multiplier": "int",
}


class FormRules(TypedDict):
    fields: dict[str, list[str]]
    kinds: dict[str, str]


def form_rules() -> FormRules:
    """The fields each event type takes (the engine's) and how each reads: what event_from() keeps of a form."""
    return {"fields": {t: sorted(set(k.required) | set(k.optional)) for t, k in EVENTS.items()}, "kinds": FIELD_KINDS}


class OfflineData(eventlines.PageWords):
    """What the live page's script keeps a hand's taps offline with (``offline_data``)."""

    key: str  # the table's and the hand's ids: where the phone keeps its queue
    events: str  # where the taps are sent
    turn: TurnRules
    form: FormRules
    text: dict[str, str]  # the queue's words, in the phone's language
    refuse: dict[str, str]  # the engine's refusals in Korean, by code (empty in English)


def offline_data(table, hand, setup: HandSetup | None = None) -> OfflineData:
    """What the script needs to keep this hand's taps on the phone while it is offline."""
    ko = current_lang() == "ko"
    return {
        "key": f"{table.public_id}.{hand.id}",
        "events": url_for("api.append_event", public_id=table.public_id, hand_id=hand.id),
        # A pending tap reads as its log line will: the server's templates, labels, card names.
        **eventlines.for_page(),
        "turn": turn_rules(setup),
        "form": form_rules(),
        "text": {k: MESSAGES[k][0 if ko else 1] for k in QUEUE_TEXT}
        | {k: both(k) for k in QUEUE_BOTH}
        | {t: both(t) for t in _kinds("while_deciding")},  # the buttons of an offline go/stop question
        # The engine speaks English; Korean phones get the catalog's words for its codes.
        "refuse": {k[len("refuse_") :]: v[0] for k, v in MESSAGES.items() if k.startswith("refuse_")} if ko else {},
    }


class SkipConfirm(TypedDict):
    """The question before a tap ends several turns: whose, the tap's player, and the tap."""

    players: str
    p: str
    event: FormEvent


def skip_confirm(s: HandState, event: FormEvent) -> SkipConfirm:
    """The question a seat's tap from further ahead asks: whose turns it ends, and the tap again."""
    player = event["player"]
    start = s.order.index(s.current or player)
    between = [s.order[(start + k) % len(s.order)] for k in range(turns_ahead(s, player))]
    return {"players": ", ".join(between), "p": player, "event": event}


def reply(
    public_id: str,
    hand_id: int,
    status: int,
    message: str | None = None,
    state: service.TableState | None = None,
    **extra: Any,
):
    """After a tap: the refreshed hand region for the script, or a redirect (post/redirect/get).

    ``state``: the table as the write answered it (else it is loaded: after a refusal, or a write
    that answers no state).

    ``extra``: a seat's tap held until a go or stop (``held``) or asked about (``confirm``); the
    question before taking back another player's event (``takeback``); what an undo took back
    (``undone``, said by the script as its confirmation).
    """
    if tableview.wants_partial():
        state = state or service.load(db(), open_table(public_id))
        hand = state.hand(hand_id)
        if hand is None:
            return render_template("hand/_gone.html", message=message), 404 if status == 200 else status
        return render_template(
            "hand/_region.html", **hand_view(state, hand), message=message, status=status, **extra
        ), status
    if "confirm" in extra:  # without the script: the question on the page it comes back to
        message = gettext("live_skip_confirm", players=extra["confirm"]["players"], p=extra["confirm"]["p"])
    if "takeback" in extra:
        message = gettext("live_takeback_ask", e=extra["takeback"]["line"])
    message = extra.get("undone") or message
    if message:
        flash(message, "error" if status >= 400 else "ok")
    return redirect(url_for("hands.show", public_id=public_id, hand_id=hand_id), 303)
