"""귀띔 What the live page tells the table beside the scores, worked out here and typed.

- ``if_stopped_now``: the baks each player would pay if the leader (the best score toward the
  target) stopped now. The hand as it stands is settled as if the leader had just said stop, and
  each payment's trail says which doubles the payer would suffer (피박, 광박, 멍따, 고박) and how
  the cup 9a was counted: the warning follows the table's rules exactly, pi-bak escapes included.
- ``last_event``: what the log's last event did beyond itself: the fixed payment a first-turn feat
  earns at once, and the junk each opponent handed over (and could have handed instead).
- ``pi_bak_why``: for a finished hand's result, each loser's pi-bak, paid or escaped.

The web maps these to its templates; it computes none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import EngineError
from ..model import Player
from ..payout import settle
from .hand import replay
from .junk import named_value
from .state import HandState, LiveOutcome
from .summary import facts as hand_facts

__all__ = ["Bak", "Given", "IfStopped", "LastEvent", "PiBakWhy", "if_stopped_now", "last_event", "pi_bak_why"]

BAKS = ("pi_bak", "gwang_bak", "meong_dda", "go_bak")


@dataclass(frozen=True, slots=True)
class Bak:
    """A double the payer would suffer; a pi-bak says the payer's junk."""

    id: str
    junk: int | None = None


@dataclass(frozen=True, slots=True)
class IfStopped:
    """The what-if of the leader's stop: nobody leads (``leader`` None) before anyone scores."""

    junk_needed: int  # the pi-bak threshold at this table
    leader: Player | None = None
    baks: Mapping[Player, tuple[Bak, ...]] = field(default_factory=dict)  # by payer, in payment order
    counted_as: Mapping[Player, Mapping[str, str]] = field(default_factory=dict)  # {"9a": "junk"}
    escapes: Mapping[Player, int] = field(default_factory=dict)  # a loser escaping pi-bak: their junk


def if_stopped_now(state: HandState) -> IfStopped:
    """The baks each opponent would pay if the leader stopped now, and how the cup counted."""
    nobody = IfStopped(state.rules.pi_bak_threshold(len(state.players)))
    scores = {p.name: state.score(p.name) for p in state.players}
    leader = max(scores, key=lambda name: scores[name].toward_target)
    if state.over or scores[leader].toward_target <= 0:
        return nobody
    try:
        # A what-if, not a stop the engine would take now: right after a go the leader may not
        # stop until the score rises, yet the baks the others face are the ones to warn about.
        # The scores at the last gos are left out: they would refuse the leader's stop below them.
        stopped = state.but(outcome=LiveOutcome("stop", (leader,)), must_decide=None)
        settled = settle(hand_facts(stopped)._replace(score_at_last_go={}), state.rules)
    except EngineError:
        return nobody
    baks: dict[Player, tuple[Bak, ...]] = {}
    for pay in settled.payments:
        found = tuple(Bak(s.id, dict(s.detail).get("junk")) for s in pay.trail if s.id in BAKS)  # type: ignore[arg-type]
        if found:
            baks[pay.payer] = baks.get(pay.payer, ()) + found
    escapes: dict[Player, int] = {}
    if scores[leader].has("junk"):
        # The leader scores junk, so every loser not paying pi-bak escapes it: say with how many.
        escapes = {
            name: s.pile.junk_value
            for name, s in settled.scores.items()
            if name != leader and not any(b.id == "pi_bak" for b in baks.get(name, ()))
        }
    counted_as = {name: s.counted_as for name, s in settled.scores.items()}
    return IfStopped(nobody.junk_needed, leader, baks, counted_as, escapes)


@dataclass(frozen=True, slots=True)
class Given:
    """Junk one opponent handed over in the last event, and what they could have handed instead."""

    giver: Player
    gave: tuple[str, ...]
    could: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LastEvent:
    """What the last event did beyond itself: a first-turn feat's fixed payment (its kind and the
    points each opponent pays), and the junk it moved."""

    feat: tuple[str, int] | None = None
    given: tuple[Given, ...] = ()


_FEAT_EVENTS = ("ppuk", "take_junk", "capture")
_JUNK_EVENTS = ("take_junk", "bomb")


def last_event(state: HandState, events: list[dict]) -> LastEvent:
    """The feat paid and the junk given by the last of ``events`` (the log that made ``state``).

    A first-turn ppuk (ttadak, chok, four of a month) is paid by each opponent whatever the hand
    comes to: said with the event, the table knows it happened. The engine moves the cheapest junk
    unless the event names the cards; the table may say right after which card each giver really
    handed over."""
    if not events:
        return LastEvent()
    last = events[-1]
    wants_feat = bool(state.feats) and state.feats[-1][0] == last.get("player") and last.get("type") in _FEAT_EVENTS
    wants_junk = last.get("type") in _JUNK_EVENTS
    if not (wants_feat or wants_junk):
        return LastEvent()
    before = replay(state.setup, events[:-1])
    return LastEvent(
        _feat_paid(state, before, last["player"]) if wants_feat else None,
        _junk_given(state, before, last["player"]) if wants_junk else (),
    )


def _feat_paid(after: HandState, before: HandState, player: Player) -> tuple[str, int] | None:
    paid_before = {f["kind"] for f in after.but(feats=before.feats).fixed() if f["player"] == player}
    new = [f["kind"] for f in after.fixed() if f["player"] == player and f["kind"] not in paid_before]
    return (new[0], getattr(after.rules, new[0])) if new else None


def _junk_given(after: HandState, before: HandState, taker: Player) -> tuple[Given, ...]:
    out = []
    for giver in after.opponents(taker):
        held, left = list(before.player(giver).captures), list(after.player(giver).captures)
        gave = list(held)
        for code in left:
            gave.remove(code)
        if gave:
            could = tuple(c for c in dict.fromkeys(held) if named_value(c, after.rules) > 0)
            out.append(Given(giver, tuple(gave), could))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PiBakWhy:
    """A loser's pi-bak in a finished hand: the junk it was paid on, or the junk that escaped it,
    and how the cup 9a counted."""

    pi_bak: int | None
    escaped: int | None
    cup: str | None
    threshold: int


def pi_bak_why(result: Mapping | None, threshold: int) -> dict[Player, PiBakWhy]:
    """For a finished hand's result (the contract's JSON, as a series keeps it): each stop payer's
    pi-bak, paid or escaped, and how 9a counted."""
    if not result or not result.get("payments"):
        return {}
    scores = result.get("scores") or {}
    out: dict[Player, PiBakWhy] = {}
    for pay in result["payments"]:
        if pay.get("kind", "stop") != "stop":
            continue
        winner_junk = any(line.get("id") == "junk" for line in scores.get(pay["to"], {}).get("lines", []))
        paid = next((s for s in pay.get("trail", []) if s.get("id") == "pi_bak"), None)
        loser = scores.get(pay["from"]) or {}
        junk = loser.get("counts", {}).get("junk")
        out[pay["from"]] = PiBakWhy(
            paid.get("junk", junk) if paid else None,
            junk if (winner_junk and not paid) else None,
            (loser.get("counted_as") or {}).get("9a"),
            threshold,
        )
    return out
