"""판 요약 A finished live hand → the facts the payout settles, and the contract's summary of them.

The live hand records what happened (feats, gos in order, a refused showdown, an
oe-myeon); this module says what that comes to in the contract's terms (the README's contract).
``facts`` hands the payout the same ``HandFacts`` that ``contract.parse_summary`` reads from the
hand's ``summary``, built directly: the summary dict is built only where it is an edge (stored,
shown, sent), never to be parsed back. The engine's tests hold the two paths equal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..errors import EngineError
from ..model import HandResult, Outcome, OutcomeType, RefusedJSON, ResultJSON
from ..rules import Rules
from ..summary.facts import Dokbak, DokbakReason, Fixed, HandFacts, Showdown

if TYPE_CHECKING:
    from .state import HandState, LiveOutcome, PlayerState

# First-turn feats (player, feat) → the fixed payment they earn, when the rules pay it.
FEAT_PAYMENTS = {
    "ppuk": "first_turn_ppuk",
    "ppuk2": "consecutive_ppuk",  # a ppuk on the second turn after one on the first (연뻑)
    "ppuk3": "three_consecutive_ppuk",  # and on the third (삼연뻑)
    "ttadak": "first_turn_ttadak",
    "chok": "first_turn_chok",
    "four": "first_turn_four",
    "boar": "boar_pot",
}


# The links of the ppuk chain, in order: a ppuk on the player's first turn, then on the second, then on
# the third (첫뻑, 연뻑, 삼연뻑); ``events.on_ppuk`` records them, this module says what they are paid.
PPUK_CHAIN = ("ppuk", "ppuk2", "ppuk3")


def fixed(state: HandState) -> list[dict]:
    """The fixed payments the first-turn feats earn under the table's rules."""
    return [{"kind": paid.kind, "player": paid.player} for paid in fixed_facts(state)]


def fixed_facts(state: HandState) -> tuple[Fixed, ...]:
    """The fixed payments the first-turn feats earn under the table's rules, each once, in the
    order of the feats."""
    out: list[Fixed] = []
    for name, feat in state.feats:
        kind = _feat_payment(state, name, feat)
        if kind and getattr(state.rules, kind) and Fixed(kind, name) not in out:
            out.append(Fixed(kind, name))
    return tuple(out)


def _feat_payment(state: HandState, name: str, feat: str) -> str | None:
    """A ttadak is four of a month too (pagat): paid as a ttadak where the rules say so, else as four."""
    ttadak_paid = bool(state.rules.first_turn_ttadak)
    if feat in PPUK_CHAIN and state.rules.ppuk_chain == "replace" and _longer_chain_paid(state, name, feat):
        return None  # 연뻑 replaces the first-turn ppuk's payment, 삼연뻑 both
    if feat == "ttadak" and not ttadak_paid:
        return FEAT_PAYMENTS["four"]
    if feat == "four" and ttadak_paid and (name, "ttadak") in state.feats:
        return None
    return FEAT_PAYMENTS[feat]


def _longer_chain_paid(state: HandState, name: str, feat: str) -> bool:
    """Whether a later link of ``name``'s ppuk chain is in the log and paid at this table."""
    later = PPUK_CHAIN[PPUK_CHAIN.index(feat) + 1 :]
    return any((name, link) in state.feats and getattr(state.rules, FEAT_PAYMENTS[link]) for link in later)


def summary(state: HandState) -> dict:
    """The engine contract's hand summary (the README's contract) of the hand so far: the JSON edge
    of a live hand (stored, shown, sent); the payout reads ``facts``."""
    outcome = _finished(state)
    setup, players = state.setup, state.players
    out: dict = {
        "rules": {"preset": setup.preset, "options": dict(setup.options)},
        "players": list(setup.players),
        "dealer": setup.dealer,
        "nagari_carry": setup.nagari_carry,
        **_piles(players),
        "outcome": outcome.to_summary(),
        "dokbak": None,
        "fixed": fixed(state),
        "chip_value": setup.chip_value,
    }
    if state.mission > 1:
        by = state.mission_by
        out["mission"] = {"multiplier": state.mission, "player": by} if by else state.mission
    if state.weol_yak:
        out["weol_yak"] = list(state.weol_yak)
    if reverse := _reverse_go(state):
        out["reverse_go"] = list(reverse)
    stop = _stop_facts(state)
    if stop.last_go:
        out["last_go"] = stop.last_go
    if stop.showdown:
        out["showdown"] = {"offered_by": stop.showdown.offered_by, "refused_by": stop.showdown.refused_by}
    if stop.dokbak:
        dokbak = stop.dokbak
        out["dokbak"] = {"player": dokbak.player, "reason": dokbak.reason.value, "last_card": dokbak.last_card}
    return out


def facts(state: HandState) -> HandFacts:
    """What the finished hand comes to, as the payout reads it: the ``HandFacts`` that
    ``contract.parse_summary`` answers for ``summary(state)`` (in the same order, field by field),
    with none of the summary's checks: the live hand refused every event that would fail them."""
    live = _finished(state)
    setup, players, rules = state.setup, state.players, state.rules
    stop = _stop_facts(state)
    mission = state.mission if state.mission > 1 else 1
    return HandFacts(
        players=setup.players,
        outcome=_outcome(live, setup.dealer, rules),
        captures={p.name: p.captures for p in players},
        junk={},
        gos={p.name: p.gos for p in players if p.gos},
        shakes={p.name: p.shakes for p in players if p.shakes},
        bombs={p.name: p.bombs for p in players if p.bombs},
        dokbak=stop.dokbak,
        showdown=stop.showdown,
        last_go=stop.last_go,
        nagari_carry=setup.nagari_carry,
        fixed=fixed_facts(state),
        mission=mission,
        weol_yak=tuple(state.weol_yak),
        chip_value=setup.chip_value,
        dealer=setup.dealer,
        score_at_last_go={p.name: p.score_at_last_go for p in players if p.gos and p.score_at_last_go is not None},
        reverse_go=_reverse_go(state),
        masks=_masks(players),
        mission_by=state.mission_by if mission > 1 else None,
    )


def _finished(state: HandState) -> LiveOutcome:
    if state.outcome is None:
        raise EngineError("hand_not_finished", "The hand has not ended: it has no summary yet.", "")
    return state.outcome


def _outcome(live: LiveOutcome, dealer: str | None, rules: Rules) -> Outcome:
    """The contract's outcome of the live one, as the summary's ``outcome`` reads: a nagari or a
    void deal has no winner; a month only with a single winner; a void deal is the dealer's
    chongtong where the rules say so."""
    from ..summary.contract import dealer_chongtong

    kind = OutcomeType(live.type)
    if kind in (OutcomeType.NAGARI, OutcomeType.VOID_DEAL):
        return dealer_chongtong(Outcome(kind), dealer, rules)
    month = live.month if len(live.winners) == 1 else None
    return Outcome(kind, live.winners, month)


def _masks(players: tuple[PlayerState, ...]) -> dict[str, int]:
    """The deck mask of each player's captures without bonus cards, as ``cards.check_captures`` finds
    it: the payout counts a pile from its mask when it has one. A live pile keeps its mask."""
    return {p.name: p.mask for p in players if not p.bonus}


def _piles(players: tuple[PlayerState, ...]) -> dict:
    """Each player's captures, and the gos, shakes and bombs of those who have any."""
    return {
        "captures": {p.name: list(p.captures) for p in players},
        "gos": {p.name: p.gos for p in players if p.gos},
        "score_at_last_go": {p.name: p.score_at_last_go for p in players if p.gos},
        "shakes": {p.name: list(p.shakes) for p in players if p.shakes},
        "bombs": {p.name: list(p.bombs) for p in players if p.bombs},
    }


def reverse_go(go_order: tuple[str, ...]) -> tuple[str, ...]:
    """역고: players who said a go after an opponent had said one (in the order of the gos).

    >>> reverse_go(("A", "A", "B", "A"))
    ('B', 'A')
    """
    out: list[str] = []
    for i, name in enumerate(go_order):
        if name not in out and any(other != name for other in go_order[:i]):
            out.append(name)
    return tuple(out)


def _reverse_go(state: HandState) -> tuple[str, ...]:
    """The reverse gos the table pays: none where the rules play none."""
    return reverse_go(state.go_order) if state.rules.reverse_go else ()


class _Stop(NamedTuple):
    last_go: str | None = None
    showdown: Showdown | None = None
    dokbak: Dokbak | None = None


def _stop_facts(state: HandState) -> _Stop:
    """last_go, showdown and oe-myeon: they only matter to a stop."""
    assert state.outcome is not None
    winner = state.outcome.winner
    if state.outcome.type != "stop":
        return _Stop()
    loser_gos = [name for name in state.go_order if name != winner]
    sd = state.refused_showdown
    showdown = Showdown(sd.offered_by, sd.refused_by) if sd and sd.refused_by else None
    om = state.oe_myeon
    # A showdown refusal outranks oe-myeon (rules.md §6) unless the refuser won.
    oe_myeon = om and om.turn == state.turn and om.player != winner and not (sd and sd.refused_by != winner)
    return _Stop(
        loser_gos[-1] if loser_gos else None,
        showdown,
        Dokbak(om.player, DokbakReason.OE_MYEON, om.last_card) if om and oe_myeon else None,
    )


def result(state: HandState) -> ResultJSON | RefusedJSON | None:
    """The contract's result (scores, payments, net) once the hand has ended."""
    if state.outcome is None:
        return None
    try:
        return hand_result(state).json
    except EngineError as err:
        return {"ok": False, "errors": err.errors}


def hand_result(state: HandState) -> HandResult:
    """The finished hand's result in the engine's types: its facts settled by the payout, with the
    contract's JSON of it beside them (what the pages and the API show). Raises the payout's
    refusal, or ``hand_not_finished``."""
    from ..payout import settle
    from ..summary.contract import result_json

    hand = facts(state)
    settled = settle(hand, state.rules)
    return HandResult(hand.outcome, settled.payments, result_json(settled, hand))
