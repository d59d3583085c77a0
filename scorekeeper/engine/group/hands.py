"""An evening's hands as the group's statistics read them: who played, won, said go, shook, bombed;
what each paid whom, with the doubles of its trail; and each winner's biggest hand with its trail.

A quick-entry hand counts as much as a live one: both are read from their contract summary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..errors import EngineError
from ..live.hand import HandSetup, replay
from ..model import Player
from ..series import Series
from ..series.model import Deal

Trail = tuple[dict[str, Any], ...]  # a payment's trail, as the contract's result writes it


class Paid(NamedTuple):
    """One payment of a hand: ``steps`` are the ids of its trail's steps (the doubles it was paid with)."""

    payer: Player
    payee: Player
    points: int
    kind: str
    steps: frozenset[str]


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A counted hand of an evening (``n``: its number in the series; ``evening``: the evening's id)."""

    n: int
    players: tuple[Player, ...]
    outcome: str | None
    winners: tuple[Player, ...]
    net: dict[Player, int]  # who won or lost points in it
    payments: tuple[Paid, ...]
    gos: dict[Player, int]
    shakes: dict[Player, int]
    bombs: dict[Player, int]
    evening: str = ""


class PaidBy(NamedTuple):
    """What one loser paid for a winner's hand, with the payment's trail."""

    payer: Player
    points: int
    trail: Trail

    def to_json(self) -> dict[str, object]:
        return {"from": self.payer, "points": self.points, "trail": list(self.trail)}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> PaidBy:
        return cls(doc["from"], doc["points"], tuple(doc["trail"]))


class BestHand(NamedTuple):
    """A winner's biggest hand of an evening: its points, number and what each loser paid."""

    points: int
    hand: int
    trail: tuple[PaidBy, ...]


def played_hands(series: Series) -> list[PlayedHand]:
    """The counted hands of an evening (a void deal is not a hand)."""
    return [_played(series, deal) for deal in series.deals if deal.counted]


def _played(series: Series, deal: Deal) -> PlayedHand:
    summary = _summary_of(series, deal)
    assert deal.number is not None  # a counted deal
    return PlayedHand(
        n=deal.number,
        players=tuple(deal.seating.players),
        outcome=deal.outcome.get("type"),
        winners=tuple(deal.winners),
        net={p: v for p, v in deal.net.items() if v},
        payments=tuple(Paid(e.payer, e.payee, e.points, e.kind, _step_ids(e.trail)) for e in deal.entries),
        gos=_per_player(summary.get("gos"), int),
        shakes=_per_player(summary.get("shakes"), len),
        bombs=_per_player(summary.get("bombs"), len),
    )


def _step_ids(trail: Trail) -> frozenset[str]:
    return frozenset(s["id"] for s in trail if isinstance(s, dict) and s.get("id"))


def _per_player(counts: Mapping[Player, Any] | None, count: Callable[[Any], int]) -> dict[Player, int]:
    """A summary's ``{player: gos}`` or ``{player: [months]}`` as counts, the players with none left out."""
    return {p: count(v) for p, v in (counts or {}).items() if v}


def best_hands(series: Series) -> dict[Player, BestHand]:
    """Each winner's biggest hand of the evening with the trails of what each loser paid:
    kept apart from the hands, so that the statistics of many evenings read no trail but these."""
    best: dict[Player, BestHand] = {}
    for deal in series.deals:
        if not deal.counted:
            continue
        assert deal.number is not None
        net = deal.net
        for p in deal.winners:
            if net.get(p, 0) > 0 and (p not in best or net[p] > best[p].points):
                trail = tuple(PaidBy(e.payer, e.points, tuple(e.trail)) for e in deal.entries if e.payee == p)
                best[p] = BestHand(net[p], deal.number, trail)
    return best


def _summary_of(series: Series, deal: Deal) -> Mapping[str, Any]:
    """The contract summary of a hand record: given (quick entry) or the live log's own."""
    record = series.records[deal.index]
    if "summary" in record:
        return record["summary"] if isinstance(record["summary"], dict) else {}
    config = series.config
    setup = {
        "players": list(deal.seating.players),
        "dealer": deal.dealer,
        "rules": config.rules_doc,
        "nagari_carry": deal.carry,
        "chip_value": config.chip_value,
    }
    try:
        return replay(HandSetup.from_json(setup), record["log"]["events"]).summary()
    except EngineError:  # the series replayed it, so this does not happen; counted without its gos then
        return {}
