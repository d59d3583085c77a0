"""판 요약 A finished live hand → the engine contract's summary, and so its result.

The live hand records what happened (feats, gos in order, a refused showdown, an
oe-myeon); this module says what that comes to in the contract's terms (the README's contract),
so the payments are those ``contract.score_summary`` computes for any summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import EngineError
from ..model import HandResult, RefusedJSON, ResultJSON

if TYPE_CHECKING:
    from .state import HandState, PlayerState

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
    out: list[dict] = []
    for name, feat in state.feats:
        kind = _feat_payment(state, name, feat)
        if kind and getattr(state.rules, kind) and {"kind": kind, "player": name} not in out:
            out.append({"kind": kind, "player": name})
    return out


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
    """The engine contract's hand summary (the README's contract) of the hand so far."""
    outcome = state.outcome
    if outcome is None:
        raise EngineError("hand_not_finished", "The hand has not ended: it has no summary yet.", "")
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
    if state.rules.reverse_go and (reverse := reverse_go(state.go_order)):
        out["reverse_go"] = list(reverse)
    out.update(_stop_extras(state))
    return out


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


def _stop_extras(state: HandState) -> dict:
    """last_go, showdown and oe-myeon: they only matter to a stop."""
    assert state.outcome is not None
    winner = state.outcome.winner
    if state.outcome.type != "stop":
        return {}
    extras: dict = {}
    loser_gos = [name for name in state.go_order if name != winner]
    if loser_gos:
        extras["last_go"] = loser_gos[-1]
    sd = state.refused_showdown
    if sd:
        extras["showdown"] = {"offered_by": sd.offered_by, "refused_by": sd.refused_by}
    om = state.oe_myeon
    # A showdown refusal outranks oe-myeon (rules.md §6) unless the refuser won.
    if om and om.turn == state.turn and om.player != winner and not (sd and sd.refused_by != winner):
        extras["dokbak"] = {"player": om.player, "reason": "oe_myeon", "last_card": om.last_card}
    return extras


def result(state: HandState) -> ResultJSON | RefusedJSON | None:
    """The contract's result (scores, payments, net) once the hand has ended."""
    if state.outcome is None:
        return None
    from ..summary.contract import score_summary

    return score_summary(summary(state))


def hand_result(state: HandState) -> HandResult:
    """The finished hand's result in the engine's types: its facts settled by the payout, with the
    contract's JSON of it beside them (what the pages and the API show). Raises the contract's
    refusal, or ``hand_not_finished``."""
    from ..payout import settle
    from ..summary.contract import parse_summary, result_json

    rules, facts = parse_summary(summary(state))
    settled = settle(facts, rules)
    return HandResult(facts.outcome, settled.payments, result_json(settled, facts))
