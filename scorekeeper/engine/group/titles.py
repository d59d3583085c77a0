"""Titles a table enjoys (피박왕, 고 성공률 1위 …), each with the numbers it was given for."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from ..model import Player
from .stats import PlayerStats

MIN_GO_HANDS = 2  # a go success rate of one go said is luck, not a title


def _count(value: int) -> int | None:
    return value if value >= 1 else None


def _go_rate(s: PlayerStats) -> float | None:
    return s.go_rate if s.go_hands >= MIN_GO_HANDS and s.go_rate > 0 else None


# Each title and what it is for: a player's score, None when not in the running; the highest wins.
TITLES: tuple[tuple[str, Callable[[PlayerStats], float | None]], ...] = (
    ("pi_bak_king", lambda s: _count(s.pi_bak)),
    ("gwang_bak_king", lambda s: _count(s.gwang_bak)),
    ("go_rate_first", _go_rate),
    ("most_wins", lambda s: _count(s.wins)),
    ("big_hand", lambda s: s.biggest.points if s.biggest else None),
    ("shake_king", lambda s: _count(s.shakes)),
)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a title was given: the player's score and hands, with the go counts of a rate or
    where the biggest hand was."""

    value: float
    hands: int
    go_hands: int | None = None
    go_wins: int | None = None
    evening: str | None = None
    hand: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"value": self.value, "hands": self.hands}
        if self.go_hands is not None:
            out |= {"go_hands": self.go_hands, "go_wins": self.go_wins}
        if self.evening is not None:
            out |= {"evening": self.evening, "hand": self.hand}
        return out


class Title(NamedTuple):
    id: str
    player: Player
    reason: Reason

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "player": self.player, "reason": self.reason.to_json()}


def titles(stats: Mapping[Player, PlayerStats]) -> tuple[Title, ...]:
    """The titles of ``stats`` (one scope: an evening, a month, all time), each with its reason.

    A title goes to the one player ahead alone (a tie earns it nobody).
    """
    out = []
    for tid, score in TITLES:
        scores = {p: v for p, s in stats.items() if (v := score(s)) is not None}
        if not scores:
            continue
        top = max(scores.values())
        leaders = [p for p, v in scores.items() if v == top]
        if len(leaders) == 1:
            out.append(Title(tid, leaders[0], _reason(tid, top, stats[leaders[0]])))
    return tuple(out)


def _reason(tid: str, value: float, s: PlayerStats) -> Reason:
    if tid == "go_rate_first":
        return Reason(value, s.hands, go_hands=s.go_hands, go_wins=s.go_wins)
    if tid == "big_hand" and s.biggest:
        return Reason(value, s.hands, evening=s.biggest.evening, hand=s.biggest.hand)
    return Reason(value, s.hands)
