"""An evening's facts: its balances, statistics and head to head, summed up once.

What a group keeps of each evening (with its table's version): a group's page then reads these,
never every hand of every evening. ``to_json``/``from_json`` are the store's JSON of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..model import Player
from ..series import Series
from .hands import BestHand, PlayedHand, best_hands, played_hands
from .stats import PlayerStats, head_to_head, player_stats

FACTS_FORMAT = 1  # bumped when what ``evening_facts`` answers changes: facts kept before are computed again


@dataclass(frozen=True, slots=True)
class EveningFacts:
    players: tuple[Player, ...]
    balances: dict[Player, int]
    chip_value: float
    played: int
    stats: dict[Player, PlayerStats]
    head_to_head: dict[Player, dict[Player, int]]
    # Not kept: the statistics and head to head sum the hands up, and each player's biggest hand
    # carries the trail of its evening's best.
    hands: tuple[PlayedHand, ...] = ()
    best: dict[Player, BestHand] = field(default_factory=dict)

    def kept(self) -> EveningFacts:
        """What a group keeps of an evening: its facts without its hands and best hands."""
        return replace(self, hands=(), best={})

    def to_json(self) -> dict[str, object]:
        """The facts as the store keeps them (without the hands and best hands)."""
        return {
            "format": FACTS_FORMAT,
            "players": list(self.players),
            "balances": self.balances,
            "chip_value": self.chip_value,
            "played": self.played,
            "stats": {p: s.to_json() for p, s in self.stats.items()},
            "head_to_head": self.head_to_head,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> EveningFacts | None:
        """The facts kept, or None when they were kept in another format (computed again then)."""
        if doc.get("format") != FACTS_FORMAT:
            return None
        return cls(
            tuple(doc["players"]),
            doc["balances"],
            doc["chip_value"],
            doc["played"],
            {p: PlayerStats.from_json(s) for p, s in doc["stats"].items()},
            doc["head_to_head"],
        )


class Dated(Protocol):
    """An evening of a group: its id (its table's), its date (YYYY-MM-DD) and its facts."""

    @property
    def id(self) -> str: ...

    @property
    def date(self) -> str: ...

    @property
    def facts(self) -> EveningFacts: ...


def evening_facts(series: Series) -> EveningFacts:
    """An evening (``engine.series.Series``) as the facts the group's statistics read."""
    hands = played_hands(series)
    best = best_hands(series)
    return EveningFacts(
        players=tuple(series.config.players),
        balances=dict(series.balances),
        chip_value=series.config.chip_value,
        played=series.played,
        stats=player_stats(hands, {"": best}),
        head_to_head=head_to_head(hands),
        hands=tuple(hands),
        best=best,
    )
