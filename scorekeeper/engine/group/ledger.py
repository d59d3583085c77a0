"""A group's money: the ledger of evenings (each with its result and settle-up, and the balances
after it), and who still owes whom once payments are counted.

A recorded payment never changes what was won and lost; it only settles.

>>> [t.to_json() for t in owed({"A": 30, "B": -10, "C": -20}, [Transfer("C", "A", 5)], 100)]
[{'from': 'C', 'to': 'A', 'points': 15, 'money': 1500}, {'from': 'B', 'to': 'A', 'points': 10, 'money': 1000}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import EngineError
from ..model import Player, Transfer, TransferJSON
from ..payout import money
from ..series.settle import settle_up
from .facts import Dated

# The largest payment: every integer up to it is exact in a JSON reader's double (a phone's
# JavaScript), and it fits a signed 64-bit column with room to spare (issue 29: 10**30 and 2**63
# reached the database and answered 500).
MAX_PAYMENT_POINTS = 2**53 - 1


@dataclass(frozen=True, slots=True)
class Owed:
    """A transfer that settles up, in points and in money at its chip value."""

    payer: Player
    payee: Player
    points: int
    money: float

    def to_json(self) -> TransferJSON:
        return {"from": self.payer, "to": self.payee, "points": self.points, "money": self.money}


def settled(balances: Mapping[Player, int], chip_value: float) -> tuple[Owed, ...]:
    """The fewest transfers (at most n − 1) that bring ``balances`` to zero."""
    return tuple(Owed(t.payer, t.payee, t.points, money(t.points, chip_value)) for t in settle_up(balances))


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """An evening with its own result (and its settle-up, at its own chip value) and the group's
    balances after it; the running money adds up each evening's at its chip value."""

    id: str
    date: str
    result: dict[Player, int]
    result_money: dict[Player, float]
    settle_up: tuple[Owed, ...]
    balances: dict[Player, int]
    balances_money: dict[Player, float]


def running_balances(players: Sequence[Player], evenings: Iterable[Dated]) -> list[LedgerRow]:
    """Each evening with its own result and the group's balances after it (points and money)."""
    points = dict.fromkeys(players, 0)
    cash: dict[Player, float] = dict.fromkeys(players, 0)
    out = []
    for ev in evenings:
        facts = ev.facts
        chip = facts.chip_value
        for p, v in facts.balances.items():
            points[p] = points.get(p, 0) + v
            cash[p] = cash.get(p, 0) + money(v, chip)
        out.append(
            LedgerRow(
                id=ev.id,
                date=ev.date,
                result=dict(facts.balances),
                result_money={p: money(v, chip) for p, v in facts.balances.items()},
                settle_up=settled(facts.balances, chip),
                balances=dict(points),
                balances_money={p: _tidy(v) for p, v in cash.items()},
            )
        )
    return out


def _tidy(value: float) -> float:
    return int(value) if float(value).is_integer() else round(value, 2)


def balances_of(players: Sequence[Player], evenings: Iterable[Dated]) -> dict[Player, int]:
    """The sum of the evenings' balances: what each player won (+) or lost (−) in all."""
    out = dict.fromkeys(players, 0)
    for ev in evenings:
        for p, v in ev.facts.balances.items():
            out[p] = out.get(p, 0) + v
    return out


def unsettled(balances: Mapping[Player, int], payments: Iterable[Transfer]) -> dict[Player, int]:
    """The balances less what was handed over: a payer's debt shrinks, the payee's due too."""
    left = dict(balances)
    for pay in payments:
        left[pay.payer] = left.get(pay.payer, 0) + pay.points
        left[pay.payee] = left.get(pay.payee, 0) - pay.points
    return left


def owed(balances: Mapping[Player, int], payments: Iterable[Transfer], chip_value: float) -> tuple[Owed, ...]:
    """The fewest transfers (at most n − 1) that settle ``balances`` less ``payments``."""
    return settled(unsettled(balances, payments), chip_value)


def check_payment(
    players: Sequence[Player],
    balances: Mapping[Player, int],
    payments: Iterable[Transfer],
    payer: object,
    payee: object,
    points: object,
    beyond: bool = False,
) -> Transfer:
    """The payment, or a refusal of one that cannot be (``EngineError``, coded): to oneself, from or
    to a stranger, not a whole number of points above zero, or more than is owed unless ``beyond``
    says so."""
    if not isinstance(points, int) or isinstance(points, bool):
        raise EngineError("bad_payment", "points is a whole number of points above zero.", "points")
    if not 0 < points <= MAX_PAYMENT_POINTS:
        raise EngineError(
            "bad_payment", f"points is a whole number of points from 1 to {MAX_PAYMENT_POINTS}.", "points"
        )
    pay = Transfer(_member(players, payer, "from"), _member(players, payee, "to"), points)
    if pay.payer == pay.payee:
        raise EngineError("payment_to_self", "A payment goes from one player to another.", "to")
    left = unsettled(balances, payments)
    room = min(-left.get(pay.payer, 0), left.get(pay.payee, 0))
    if points > room and not beyond:
        raise EngineError(
            "payment_beyond_owed",
            f"{pay.payer} owes {pay.payee} at most {max(room, 0)} points now: say beyond_owed to record more.",
            "points",
        )
    return pay


def _member(players: Sequence[Player], who: object, path: str) -> Player:
    if not isinstance(who, str) or who not in players:
        raise EngineError("payment_stranger", f"{who!r} is not one of the group's players.", path)
    return who
