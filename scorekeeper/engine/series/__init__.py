"""판 A series: the hands of an evening, the dealer, the nagari carry, the ledger.

A series is a pure function of its configuration and its list of hand records:
``play(config, records)`` replays them in order, so editing or deleting a past
hand recomputes everything after it (dealer, carry, seating, ledger, balances).

Each hand record is turned into a contract summary (docs/rules.md, the README's contract) and
scored by ``contract.score_summary``; that result (outcome, payments) is all the
series reads from a hand. A record is either a quick-entry summary or a live
event log replayed by ``engine.hand``; the series fills in what it knows —
players, dealer, rules, nagari carry, chip value.

- The winner deals the next hand; after a nagari the same dealer deals again and
  the next hand gets ``nagari_carry`` + 1; a void deal is not a hand and changes
  nothing (unless the rules make it the dealer's chongtong win).
- With four to seven at the table, each record says who plays (``gwangpalli``);
  after a nagari the same three play again, without choosing.
- Every transfer goes into the ledger with its hand and its trail; balances add up
  to zero after every hand; ``settle_up`` lists who pays whom.

>>> s = play(config_from({"players": ["A", "B"], "first_dealer": "B", "length": 3}), [
...     {"summary": {"captures": {"A": ["1r", "2r", "3r", "6r", "9r", "10r"]},
...                  "outcome": {"type": "stop", "winner": "A"}}}])
>>> s.balances, s.next.dealer, s.finished
({'A': 8, 'B': -8}, 'A', False)
"""

from __future__ import annotations

from ..checks import MAX_NAME
from .config import (
    DEFAULT_CHIP_VALUE,
    DEFAULT_CURRENCY,
    DEFAULT_LENGTH,
    MAX_LENGTH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SERIES_FIELDS,
    SeriesConfig,
    config_from,
)
from .document import replay_series_document, series_from_document
from .model import FIXED, GWANGPALLI, HAND_PAYMENT, KIND_LABELS, Deal, Entry, NextDeal, Pending, Series
from .play import RECORD_FIELDS, play

__all__ = [
    "DEFAULT_CHIP_VALUE",
    "DEFAULT_CURRENCY",
    "DEFAULT_LENGTH",
    "FIXED",
    "GWANGPALLI",
    "HAND_PAYMENT",
    "KIND_LABELS",
    "MAX_LENGTH",
    "MAX_NAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RECORD_FIELDS",
    "SERIES_FIELDS",
    "Deal",
    "Entry",
    "NextDeal",
    "Pending",
    "Series",
    "SeriesConfig",
    "config_from",
    "play",
    "replay_series_document",
    "series_from_document",
]
