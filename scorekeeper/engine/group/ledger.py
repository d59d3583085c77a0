"""A group's money: the ledger of evenings with the balances after each, and who still owes whom.

A recorded payment never changes what was won and lost; it only settles.

>>> [t.to_json(100) for t in owed({"A": 30, "B": -10, "C": -20}, [{"from": "C", "to": "A", "points": 5}])]
[{'from': 'C', 'to': 'A', 'points': 15, 'money': 1500}, {'from': 'B', 'to': 'A', 'points': 10, 'money': 1000}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import EngineError
from ..payout import money
from ..series.settle import settle_up

# The largest payment: every integer up to it is exact in a JSON reader's double (a phone's
# JavaScript), and it fits a signed 64-bit column with room to spare (issue 29: 10**30 and 2**63
# reached the database and answered 500).
MAX_PAYMENT_POINTS = 2**53 - 1


def running_balances(
    players: Sequence[str], evenings: Sequence[Mapping[str, Any]], chip_value: float
) -> list[dict[str, Any]]:
    """Each evening with its own result and the group's balances after it (points and money).

    Money of an evening is at its own chip value; the running money adds those up.
    """
    points = dict.fromkeys(players, 0)
    cash: dict[str, float] = dict.fromkeys(players, 0)
    out = []
    for ev in evenings:
        facts = ev["facts"]
        chip = facts.get("chip_value", chip_value)
        for p, v in facts["balances"].items():
            points[p] = points.get(p, 0) + v
            cash[p] = cash.get(p, 0) + money(v, chip)
        out.append(
            {
                "id": ev["id"],
                "date": ev["date"],
                "result": dict(facts["balances"]),
                "result_money": {p: money(v, chip) for p, v in facts["balances"].items()},
                "balances": dict(points),
                "balances_money": {p: _tidy(v) for p, v in cash.items()},
            }
        )
    return out


def _tidy(value: float) -> float:
    return int(value) if float(value).is_integer() else round(value, 2)


def balances_of(players: Sequence[str], evenings: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The sum of the evenings' balances: what each player won (+) or lost (−) in all."""
    out = dict.fromkeys(players, 0)
    for ev in evenings:
        for p, v in ev["facts"]["balances"].items():
            out[p] = out.get(p, 0) + v
    return out


@dataclass(frozen=True, slots=True)
class Owed:
    payer: str
    payee: str
    points: int

    def to_json(self, chip_value: float) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "points": self.points, "money": money(self.points, chip_value)}


def unsettled(balances: Mapping[str, int], payments: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """The balances less what was handed over: a payer's debt shrinks, the payee's due too."""
    left = dict(balances)
    for pay in payments:
        left[pay["from"]] = left.get(pay["from"], 0) + int(pay["points"])
        left[pay["to"]] = left.get(pay["to"], 0) - int(pay["points"])
    return left


def owed(balances: Mapping[str, int], payments: Iterable[Mapping[str, Any]]) -> list[Owed]:
    """The fewest transfers (at most n − 1) that settle ``balances`` less ``payments``."""
    return [Owed(t.payer, t.payee, t.points) for t in settle_up(unsettled(balances, payments))]


def check_payment(
    players: Sequence[str],
    balances: Mapping[str, int],
    payments: Iterable[Mapping[str, Any]],
    payer: Any,
    payee: Any,
    points: Any,
    beyond: bool = False,
) -> None:
    """Refuse a payment that cannot be (``EngineError``, coded): to oneself, from or to a stranger,
    not a whole number of points above zero, or more than is owed unless ``beyond`` says so."""
    if not isinstance(points, int) or isinstance(points, bool):
        raise EngineError("bad_payment", "points is a whole number of points above zero.", "points")
    if not 0 < points <= MAX_PAYMENT_POINTS:
        raise EngineError(
            "bad_payment", f"points is a whole number of points from 1 to {MAX_PAYMENT_POINTS}.", "points"
        )
    for who, path in ((payer, "from"), (payee, "to")):
        if not isinstance(who, str) or who not in players:
            raise EngineError("payment_stranger", f"{who!r} is not one of the group's players.", path)
    if payer == payee:
        raise EngineError("payment_to_self", "A payment goes from one player to another.", "to")
    left = unsettled(balances, payments)
    room = min(-left.get(payer, 0), left.get(payee, 0))
    if points > room and not beyond:
        raise EngineError(
            "payment_beyond_owed",
            f"{payer} owes {payee} at most {max(room, 0)} points now: say beyond_owed to record more.",
            "points",
        )
