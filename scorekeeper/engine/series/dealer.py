"""선 The dealer: the draw for the first dealer and the turn order (rules.md §10).

Players are listed in seating order going to the right (counter-clockwise): the
player after the dealer in the list sits at the dealer's right and plays second.

The draw: each player draws a card. At night the earliest month deals, a tie
broken by the lower card (junk < ribbon < animal < bright); by day the latest
month, a tie broken by the higher card. Two junk of one month (``1j1``, ``1j2``)
have the same rank: the tied players draw again (``redraws``).

>>> draw_for_dealer(["A", "B", "C"], "night", [{"A": "3g", "B": "1j1", "C": "1r"}]).dealer
'B'
>>> draw_for_dealer(["A", "B", "C"], "day", [{"A": "12jd", "B": "1g", "C": "12a"}]).dealer
'C'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import CARDS, KIND_RANK
from ..errors import EngineError
from ..model import DrawJSON

NIGHT, DAY = "night", "day"
TIMES = (NIGHT, DAY)


def play_order(players: Sequence[str], dealer: str) -> tuple[str, ...]:
    """The players in turn order: the dealer first, then to the right.

    >>> play_order(["A", "B", "C", "D"], "C")
    ('C', 'D', 'A', 'B')
    """
    i = list(players).index(dealer)
    return tuple(players[i:]) + tuple(players[:i])


def draw_rank(code: str, time: str) -> tuple[int, int]:
    """How good a drawn card is: the best card has the highest rank."""
    card = CARDS[code]
    rank = (card.month, KIND_RANK[card.kind])
    return (-rank[0], -rank[1]) if time == NIGHT else rank


@dataclass(frozen=True, slots=True)
class Draw:
    """The draw for the first dealer: each round's cards and who won it."""

    time: str
    rounds: tuple[tuple[tuple[str, str], ...], ...]  # each round: ((player, card), …)
    dealer: str

    def to_json(self) -> DrawJSON:
        rounds = [dict(r) for r in self.rounds]
        return {"time": self.time, "cards": rounds[0], "redraws": rounds[1:], "dealer": self.dealer}


def draw_for_dealer(players: Sequence[str], time: object, rounds: Sequence[Any], path: str = "draw") -> Draw:
    """The first dealer from the cards drawn; refuses a tie that was not drawn again."""
    if time not in TIMES:
        raise EngineError("bad_draw", 'The draw is at night or by day: time is "night" or "day".', f"{path}.time")
    contenders = list(players)
    kept = []
    for n, cards in enumerate(rounds):
        where = f"{path}.cards" if n == 0 else f"{path}.redraws[{n - 1}]"
        if not contenders[1:]:
            raise EngineError("bad_draw", "The dealer is already decided: no more redraws.", where)
        _check_round(cards, contenders, where)
        best = max(draw_rank(cards[p], time) for p in contenders)
        kept.append(tuple((p, cards[p]) for p in contenders))
        contenders = [p for p in contenders if draw_rank(cards[p], time) == best]
    if contenders[1:]:
        tied = ", ".join(contenders)
        raise EngineError(
            "draw_tie",
            f"{tied} drew cards of the same rank: they draw again (add a redraw).",
            f"{path}.redraws",
        )
    return Draw(time, tuple(kept), contenders[0])


def _check_round(cards: object, contenders: list[str], path: str) -> None:
    if not isinstance(cards, dict) or set(cards) != set(contenders):
        who = ", ".join(contenders)
        raise EngineError("bad_draw", f"The draw needs one card from each of {who}, and no one else.", path)
    seen: set[str] = set()
    for player in contenders:
        code = cards[player]
        where = f"{path}.{player}"
        if not isinstance(code, str) or code not in CARDS:
            raise EngineError("unknown_card", f"{code!r} is not a card code.", where)
        if CARDS[code].month == 0:
            raise EngineError("bad_draw", f"{player} drew a joker ({code}): put it aside and draw again.", where)
        if code in seen:
            raise EngineError("card_twice", f"{code} drawn twice in one round.", where)
        seen.add(code)


def next_dealer(players_in_hand: Sequence[str], dealer: str, winners: Sequence[str]) -> str:
    """The winner deals the next hand; the same dealer after a nagari or a void deal.

    With two winners (two chongtong), the first of them in turn order deals.
    """
    if not winners:
        return dealer
    return next(p for p in play_order(players_in_hand, dealer) if p in winners)
