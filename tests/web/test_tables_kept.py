"""Issue 32: what a process keeps per table holds more tables than one process serves.

Each kind of work kept per table (a live hand with its version, the rows, the replays, the
answers, the log's text) is a ``caching.Bounded``, which lets the oldest tenth go once full. Sized
at the very number of tables a worker served in the 1,000-table benchmark, one table more (a new
hand, another evening opened) let a hundred go, whose next taps and documents read them again
and let the next hundred go: every tap read its hand's snapshot again, for as long as the run
lasted. Each holds ``caching.TABLES_KEPT`` tables now, well past what one process serves
(``BENCHMARKS.md``: ~300–1,000 tables a core).
"""

from __future__ import annotations

import pytest

from scorekeeper import caching
from scorekeeper.tables import service
from scorekeeper.web.server import answers
from scorekeeper.web.views import tablejson

SERVED = 1_000  # the tables one worker followed in the 1,000-table benchmark (every table: 3 phones, 2 workers)

KEPT_PER_TABLE = {
    "settings checked": service._configs,
    "series": service._series,
    "hand replays": service._hands,
    "rows": service._rows,
    "row ids": service._ids,
    "live hands": service._lives,
    "log texts": tablejson._log_texts,
}


@pytest.mark.parametrize("memo", [*KEPT_PER_TABLE.values(), answers._answers], ids=[*KEPT_PER_TABLE, "answers"])
def test_a_thousand_tables_and_more_are_kept_together(memo):
    saved = dict(memo)
    memo.clear()
    try:
        for n in range(SERVED + SERVED // 2):  # half as many again: a second evening, new hands
            memo.put(("table", n), n)
        assert all(memo.get(("table", n)) == n for n in range(SERVED + SERVED // 2)), "a table let go"
    finally:
        memo.clear()
        memo.update(saved)


def test_every_kind_kept_per_table_holds_the_same_number_of_tables():
    assert {memo.size for memo in KEPT_PER_TABLE.values()} == {caching.TABLES_KEPT}
    assert answers._answers.size >= caching.TABLES_KEPT  # a table's answers: one a hand asked for
