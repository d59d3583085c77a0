"""정산 Settle-up: who pays whom, in the fewest transfers."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.series.settle import settle_up


def _rows(balances):
    return [(t.payer, t.payee, t.points) for t in settle_up(balances)]


def _apply(balances, transfers):
    left = dict(balances)
    for t in transfers:
        left[t.payer] += t.points
        left[t.payee] -= t.points
    return left


@pytest.mark.parametrize(
    "balances, rows",
    [
        pytest.param({"A": 0, "B": 0, "C": 0}, [], id="all-square"),
        pytest.param({"A": 8, "B": -8}, [("B", "A", 8)], id="two-players"),
        pytest.param({"A": 12, "B": -5, "C": -7}, [("C", "A", 7), ("B", "A", 5)], id="one-creditor"),
        pytest.param({"A": -12, "B": 5, "C": 7}, [("A", "C", 7), ("A", "B", 5)], id="one-debtor"),
        pytest.param(
            {"A": 30, "B": -30, "C": 10, "D": -10}, [("B", "A", 30), ("D", "C", 10)], id="two-pairs-two-transfers"
        ),
        # Greedy alone pays C→A 4, D→B 3, E→A 2, E→B 1 (four); the pair B/C settles apart (three).
        pytest.param(
            {"A": 6, "B": 4, "C": -4, "D": -3, "E": -3},
            [("C", "B", 4), ("D", "A", 3), ("E", "A", 3)],
            id="zero-sum-group-beats-greedy",
        ),
        pytest.param({"A": 5, "B": 0, "C": -5}, [("C", "A", 5)], id="a-square-player-is-left-out"),
        pytest.param(
            {"A": 3, "B": 3, "C": 3, "D": -3, "E": -3, "F": -3, "G": 0},
            [("D", "A", 3), ("E", "B", 3), ("F", "C", 3)],
            id="seven-at-the-table",
        ),
    ],
)
def test_settle_up(balances, rows):
    assert _rows(balances) == rows


def test_unbalanced_is_refused():
    with pytest.raises(EngineError) as err:
        settle_up({"A": 3, "B": -2})
    assert err.value.code == "unbalanced"


def _fewest(values: list[int]) -> int:
    """Brute force: players with a non-zero balance minus the most zero-sum groups."""
    live = [v for v in values if v]

    def groups(items: tuple[int, ...]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        best = 0
        for k in range(len(rest) + 1):
            for chosen in combinations(range(len(rest)), k):
                if first + sum(rest[i] for i in chosen) == 0:
                    others = tuple(v for i, v in enumerate(rest) if i not in chosen)
                    best = max(best, 1 + groups(others))
        return best

    return len(live) - groups(tuple(live))


balances_st = st.lists(st.integers(-60, 60), min_size=1, max_size=6).map(
    lambda vs: {chr(65 + i): v for i, v in enumerate([*vs, -sum(vs)])}
)


@settings(max_examples=200, deadline=None)
@given(balances_st)
def test_settle_up_reproduces_balances_in_the_fewest_transfers(balances):
    transfers = settle_up(balances)
    assert all(t.points > 0 and t.payer != t.payee for t in transfers)
    assert _apply(balances, transfers) == dict.fromkeys(balances, 0)
    assert len(transfers) <= len(balances) - 1
    assert len(transfers) == _fewest(list(balances.values()))
