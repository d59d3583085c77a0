"""끝내기 Ending a series early (rules.md §13 reading 10).

The table may stop before its last hand: the series then has exactly the hands
played, so it is finished, no hand can be added and the settle-up is final. The
change is to the series document's ``length``; everything else is replayed as it was.

>>> from . import config_from, play
>>> doc = {"players": ["A", "B", "C"], "length": 12}
>>> s = play(config_from(doc), [{"summary": {"captures": {"A": ["1g", "3g", "8g"]},
...                                          "outcome": {"type": "stop", "winner": "A"}}}])
>>> ended = end_early(doc, s)
>>> ended["length"], play(config_from(ended), s.records).finished
(1, True)
"""

from __future__ import annotations

from typing import Any

from ..errors import EngineError
from . import Series


def end_early(doc: dict[str, Any], series: Series, hand_in_play: bool = False) -> dict[str, Any]:
    """The series document ended after the hands ``series`` has played; a coded refusal otherwise.

    A hand still being played is never settled half-way: it must be finished or deleted first.
    """
    if hand_in_play:
        raise EngineError("hand_not_finished", "A hand is being played: finish or delete it before ending.", "hands")
    if series.deals and not series.deals[-1].counted:
        # A void deal is redealt at once: its hand is not played yet, and a finished series takes no deal.
        raise EngineError(
            "hand_not_finished", "The last deal was void and is being redealt: delete it to end here.", "hands"
        )
    if series.finished:
        raise EngineError("series_finished", "The series has already ended.", "length")
    if series.played == 0:
        raise EngineError("bad_value", "No hand has been played: there is nothing to settle.", "length")
    return dict(doc) | {"length": series.played}
