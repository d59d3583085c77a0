"""A group's figures from its evenings' facts and its payments: balances, what is owed,
statistics (all time and by month), titles, head to head and the ledger."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..model import Player, Transfer
from .facts import Dated
from .ledger import LedgerRow, Owed, balances_of, owed, running_balances
from .stats import PlayerStats, merge_head_to_head, merge_stats
from .titles import Title, titles


@dataclass(frozen=True, slots=True)
class Scope:
    """The statistics of some evenings (a month's) and their titles."""

    stats: dict[Player, PlayerStats]
    titles: tuple[Title, ...]


@dataclass(frozen=True, slots=True)
class Figures:
    balances: dict[Player, int]
    owed: tuple[Owed, ...]  # at the group's chip value
    stats: dict[Player, PlayerStats]
    titles: tuple[Title, ...]
    months: dict[str, Scope]  # YYYY-MM of the evenings' dates
    evening_titles: dict[str, tuple[Title, ...]]
    head_to_head: dict[Player, dict[Player, int]]
    ledger: tuple[LedgerRow, ...]


def figures(
    players: Sequence[Player], evenings: Sequence[Dated], payments: Iterable[Transfer], chip_value: float
) -> Figures:
    """The group's figures; ``payments`` are those standing (a voided payment settles nothing)."""
    balances = balances_of(players, evenings)
    # Each evening's statistics were summed up when its facts were kept: a month's and all time's
    # are those sums, never a pass over every hand.
    stats = merge_stats((ev.id, ev.facts.stats) for ev in evenings)
    for p in players:
        stats.setdefault(p, PlayerStats())
    by_month: dict[str, list[Dated]] = {}
    for ev in evenings:
        by_month.setdefault(ev.date[:7], []).append(ev)
    months = {m: merge_stats((ev.id, ev.facts.stats) for ev in month) for m, month in by_month.items()}
    return Figures(
        balances=balances,
        owed=owed(balances, payments, chip_value),
        stats=stats,
        titles=titles(stats),
        months={m: Scope(s, titles(s)) for m, s in months.items()},
        evening_titles={ev.id: titles(ev.facts.stats) for ev in evenings},
        head_to_head=merge_head_to_head(ev.facts.head_to_head for ev in evenings),
        ledger=tuple(running_balances(players, evenings)),
    )
