"""판 화면 The live view of a hand, as JSON: whose turn, who must decide, each player's piles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import summary as hand_summary

if TYPE_CHECKING:
    from .state import HandState, PlayerState


def view(state: HandState) -> dict:
    """The live view: whose turn, who must decide, each player's piles and score."""
    return {
        "setup": state.setup.to_json(),
        "seq": state.seq,
        "turn": _turn(state),
        "must_decide": state.must_decide,
        "must_answer": state.must_answer,
        "showdown": _showdown(state),
        "target": state.setup.target,
        "players": [_player(state, p) for p in state.players],
        "fixed": hand_summary.fixed(state),
        "over": state.over,
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def _turn(state: HandState) -> dict | None:
    if state.over:
        return None
    return {
        "player": state.current,
        "number": state.round,
        "of": state.setup.turns_each,
        "first": state.round == 1,
        "last": state.round == state.setup.turns_each,
        "index": state.turn,
    }


def _showdown(state: HandState) -> dict | None:
    sd = state.showdown
    if sd is None or (sd.refused_by and not state.refused_showdown):
        return None
    return {"offered_by": sd.offered_by, "accepted_by": list(sd.accepted_by), "refused_by": sd.refused_by}


def _player(state: HandState, p: PlayerState) -> dict:
    return {
        "name": p.name,
        "dealer": p.name == state.setup.dealer,
        "captures": p.grouped(),
        "score": state.score(p.name).to_json(),
        "gos": p.gos,
        "score_at_last_go": p.score_at_last_go,
        "needs": state.needs(p.name),
        "shakes": list(p.shakes),
        "bombs": list(p.bombs),
        "ppuk": len(p.ppuks),
    }
