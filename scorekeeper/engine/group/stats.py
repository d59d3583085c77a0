"""A player's statistics over any selection of hands (an evening, a month, all time), and head to head.

Each hand a player played counts as a ``PlayerStats`` of that hand alone; a selection's statistics
are those added up (``total``), so that the statistics of many evenings are their evenings' own
added up (``merge_stats``), never a pass over every hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from typing import Any

from ..model import Player
from .hands import BestHand, PaidBy, PlayedHand


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


@dataclass(frozen=True, slots=True)
class Biggest:
    """A player's biggest hand won: its points, evening and number, and what each loser paid (the trail)."""

    points: int
    evening: str
    hand: int
    trail: tuple[PaidBy, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "points": self.points,
            "evening": self.evening,
            "hand": self.hand,
            "trail": [t.to_json() for t in self.trail],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Biggest:
        return cls(doc["points"], doc["evening"], doc["hand"], tuple(map(PaidBy.from_json, doc["trail"])))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's statistics (``engine.group.player_stats``): counts of hands, and of the payments
    this player made with each double (``pi_bak``, ``gwang_bak``, ``meong_tta``, ``go_bak``, ``dok_bak``)."""

    hands: int = 0
    wins: int = 0
    win_rate: float = field(init=False, default=0.0)
    stops: int = 0
    points_won: int = 0
    points_lost: int = 0
    net: int = 0
    gos: int = 0
    go_hands: int = 0
    go_wins: int = 0
    go_rate: float = field(init=False, default=0.0)
    shakes: int = 0
    bombs: int = 0
    nagari: int = 0
    pi_bak: int = 0
    gwang_bak: int = 0
    meong_tta: int = 0
    go_bak: int = 0
    dok_bak: int = 0
    biggest: Biggest | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "win_rate", _rate(self.wins, self.hands))
        object.__setattr__(self, "go_rate", _rate(self.go_wins, self.go_hands))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = dict(zip(JSON_FIELDS, _FIGURES(self), strict=True))
        out["biggest"] = self.biggest.to_json() if self.biggest else None
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> PlayerStats:
        biggest = doc.get("biggest")
        return cls(*map(doc.__getitem__, COUNTERS), biggest=Biggest.from_json(biggest) if biggest else None)


# The counts, in the order ``PlayerStats`` takes them; every figure but the biggest hand, as the JSON names them.
COUNTERS = tuple(f.name for f in fields(PlayerStats) if f.init and not f.kw_only)
JSON_FIELDS = tuple(f.name for f in fields(PlayerStats) if f.name != "biggest")
_COUNTS = attrgetter(*COUNTERS)
_FIGURES = attrgetter(*JSON_FIELDS)


def total(parts: Iterable[PlayerStats], biggest: Biggest | None = None) -> PlayerStats:
    """``parts`` added up, with the biggest hand given."""
    return PlayerStats(*(sum(column) for column in zip(*map(_COUNTS, parts), strict=True)), biggest=biggest)


def _played(p: Player, hand: PlayedHand) -> PlayerStats:
    """One hand ``p`` played."""
    net = hand.net.get(p, 0)
    won = p in hand.winners
    gos = hand.gos.get(p, 0)
    return PlayerStats(
        hands=1,
        wins=int(won),
        stops=int(won and hand.outcome == "stop"),
        points_won=max(net, 0),
        points_lost=max(-net, 0),
        net=net,
        gos=gos,
        go_hands=int(gos > 0),
        go_wins=int(gos > 0 and won),
        shakes=hand.shakes.get(p, 0),
        bombs=hand.bombs.get(p, 0),
        nagari=int(hand.outcome == "nagari"),
    )


def _sat_out(net: int) -> PlayerStats:
    """A sitter paid for shown cards (광팔기): points moved, no hand played."""
    return PlayerStats(net=net, points_won=max(net, 0), points_lost=max(-net, 0))


def _suffered(steps: frozenset[str]) -> PlayerStats:
    """One payment made with these doubles (trail step ids): each double counts one."""
    return PlayerStats(
        pi_bak=int("pi_bak" in steps),
        gwang_bak=int("gwang_bak" in steps),
        meong_tta=int(not steps.isdisjoint(("meong_dda", "meong_bak", "meong_bak_five"))),
        go_bak=int("go_bak" in steps),
        dok_bak=int("dok_bak" in steps),  # paid another loser's share too
    )


def player_stats(
    hands: Iterable[PlayedHand], best: Mapping[str, Mapping[Player, BestHand]] | None = None
) -> dict[Player, PlayerStats]:
    """Per player over ``hands`` (``evening_facts`` hands, each with its evening).

    ``best`` (evening id → that evening's best hands) gives the biggest hand its trail.
    """
    rows: dict[Player, list[PlayerStats]] = {}
    biggest: dict[Player, tuple[int, str, int]] = {}
    for hand in hands:
        for p in hand.players:
            rows.setdefault(p, []).append(_played(p, hand))
            net = hand.net.get(p, 0)
            if p in hand.winners and net > 0 and (p not in biggest or net > biggest[p][0]):
                biggest[p] = (net, hand.evening, hand.n)
        for p, net in hand.net.items():
            if p not in hand.players:
                rows.setdefault(p, []).append(_sat_out(net))
        for pay in hand.payments:
            rows.setdefault(pay.payer, []).append(_suffered(pay.steps))
    return {p: total(parts, _biggest(p, biggest.get(p), best or {})) for p, parts in rows.items()}


def _biggest(
    p: Player, found: tuple[int, str, int] | None, best: Mapping[str, Mapping[Player, BestHand]]
) -> Biggest | None:
    if found is None:
        return None
    points, evening, hand = found
    kept = best.get(evening, {}).get(p)
    return Biggest(points, evening, hand, kept.trail if kept and kept.hand == hand else ())


def merge_stats(parts: Iterable[tuple[str, Mapping[Player, PlayerStats]]]) -> dict[Player, PlayerStats]:
    """The statistics of several evenings (``(evening id, that evening's stats)``) as one:
    what ``player_stats`` answers for all their hands together, without reading a hand."""
    rows: dict[Player, list[PlayerStats]] = {}
    biggest: dict[Player, Biggest] = {}
    for evening, stats in parts:
        for p, s in stats.items():
            rows.setdefault(p, []).append(s)
            b = s.biggest
            if b and (p not in biggest or b.points > biggest[p].points):
                biggest[p] = replace(b, evening=evening)
    return {p: total(ss, biggest.get(p)) for p, ss in rows.items()}


def head_to_head(hands: Iterable[PlayedHand]) -> dict[Player, dict[Player, int]]:
    """``out[p][q]``: what ``p`` took from ``q`` less what ``p`` paid ``q`` (so ``out[q][p] == -out[p][q]``)."""
    out: dict[Player, dict[Player, int]] = {}
    for hand in hands:
        for pay in hand.payments:
            a, b, v = pay.payee, pay.payer, pay.points
            out.setdefault(a, {}).setdefault(b, 0)
            out.setdefault(b, {}).setdefault(a, 0)
            out[a][b] += v
            out[b][a] -= v
    return out


def merge_head_to_head(parts: Iterable[Mapping[Player, Mapping[Player, int]]]) -> dict[Player, dict[Player, int]]:
    out: dict[Player, dict[Player, int]] = {}
    for h2h in parts:
        for p, row in h2h.items():
            into = out.setdefault(p, {})
            for q, v in row.items():
                into[q] = into.get(q, 0) + v
    return out
