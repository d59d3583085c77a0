"""정산 Settle-up: who pays whom at the end of a series, in the fewest transfers.

Players whose balances add up to zero among themselves can settle as a group;
a group of ``k`` needs ``k − 1`` transfers, so the fewest transfers come from the
most zero-sum groups. With at most seven players every split can be tried (a
small dynamic programme over subsets). Inside each group the largest debtor pays
the largest creditor, and so on. The result never has more than ``players − 1``
transfers and reproduces the balances exactly.

>>> [(t.payer, t.payee, t.points) for t in settle_up({"A": 30, "B": -10, "C": -20, "D": 5, "E": -5})]
[('C', 'A', 20), ('B', 'A', 10), ('E', 'D', 5)]
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from ..errors import EngineError
from ..model import Transfer

MAX_EXACT = 12  # above this many non-zero balances, plain greedy matching (still ≤ n − 1)


def settle_up(balances: Mapping[str, int]) -> list[Transfer]:
    """The transfers that bring every balance to zero, fewest first; ties by player order."""
    if sum(balances.values()) != 0:
        raise EngineError("unbalanced", "Balances do not add up to zero.", "balances")
    order = {p: n for n, p in enumerate(balances)}
    live = [(p, v) for p, v in balances.items() if v]
    groups = _zero_sum_groups(tuple(v for _, v in live)) if len(live) <= MAX_EXACT else (tuple(range(len(live))),)
    out: list[Transfer] = []
    for group in groups:
        out.extend(_greedy({live[i][0]: live[i][1] for i in group}, order))
    return sorted(out, key=lambda t: (-t.points, order[t.payer], order[t.payee]))


def _greedy(balances: dict[str, int], order: dict[str, int]) -> list[Transfer]:
    left = dict(balances)
    out = []
    while any(left.values()):
        debtor = min(left, key=lambda p: (left[p], order[p]))
        creditor = max(left, key=lambda p: (left[p], -order[p]))
        amount = min(-left[debtor], left[creditor])
        out.append(Transfer(debtor, creditor, amount))
        left[debtor] += amount
        left[creditor] -= amount
    return out


@lru_cache(maxsize=1024)
def _zero_sum_groups(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Split the indices of ``values`` (which sum to zero) into the most zero-sum groups."""
    n = len(values)
    full = (1 << n) - 1
    total = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
    # best[mask]: the most zero-sum prefixes in some ordering of the members of mask.
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
    # Walk back from the whole set, peeling one member at a time, then cut at zero sums.
    order, mask = [], full
    while mask:
        i = next(i for i in range(n) if mask >> i & 1 and best[mask ^ (1 << i)] + (total[mask] == 0) == best[mask])
        order.append(i)
        mask ^= 1 << i
    order.reverse()
    groups, current, running = [], [], 0
    for i in order:
        current.append(i)
        running += values[i]
        if running == 0:
            groups.append(tuple(sorted(current)))
            current = []
    return tuple(groups)
