"""광팔기 Gwangpalli: four to seven at the table, three play (rules.md §10).

Going round from the dealer's right, each non-dealer chooses to play or to sit
out. Once two have chosen to play, the rest are **forced** to sit out; once only
three remain (the dealer included), the rest are forced to play. A forced sitter
shows the brights, the double junk ``11jd`` ``12jd``, the cup ``9a`` and the
jokers of their hand and is paid ``sitter_pay_per_card`` points a card by each of
the two non-dealers who play, twice that with a shake; with four at the table a
rain bright ``12g`` that is the sitter's only bright is not paid. Voluntary
sitters are paid nothing. With ``sitter_paid_at_end`` the losers of the hand pay
instead, at its end; after a nagari the payment waits for the next hand and is
doubled (consecutive nagari as the nagari carry: ×2, ×4 … or a single ×2).

>>> s = choose(["A", "B", "C", "D"], "A", {"B": "play", "C": "play"})
>>> s.players, s.forced, s.voluntary
(('A', 'B', 'C'), ('D',), ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import BONUS, BRIGHT, CARDS, CUP, DOUBLE_JUNK, RAIN_BRIGHT
from ..errors import EngineError
from ..rules import Rules
from .dealer import play_order

PLAY, SIT = "play", "sit"
HAND_SIZE = 7  # cards dealt to each player at a gwangpalli table

LABELS = {
    "gwangpalli_cards": "광팔기 보여 준 패 cards shown",
    "per_card": "장당 points a card",
    "rain_bright_only": "4인 비광만 — 값 없음 four at the table: a lone rain bright is not paid",
    "shake": "흔들기 shake",
    "nagari_deferred": "나가리 뒤 두 배 deferred past a nagari",
    "paid_by_loser": "진 사람이 냄 paid by a loser at the end",
}


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays a hand and who sits out, and why."""

    players: tuple[str, ...]  # the dealer and two others, in seating order
    forced: tuple[str, ...] = ()  # forced to sit out: paid for the cards they show
    voluntary: tuple[str, ...] = ()  # chose to sit out: paid nothing
    forced_to_play: tuple[str, ...] = ()  # had to play: only three remained

    @property
    def sitting(self) -> dict[str, str]:
        return {p: "forced" for p in self.forced} | {p: "voluntary" for p in self.voluntary}


def _check_choices(table: Sequence[str], dealer: str, choices: object, path: str) -> None:
    """The choices' shape: an object of player at the table (not the dealer): "play" or "sit"."""
    if choices is None:
        raise EngineError("missing_choice", "Going round from the dealer's right, each chooses to play or sit.", path)
    if not isinstance(choices, dict):
        raise EngineError("bad_choice", 'choices is an object of player: "play" or "sit".', path)
    for player, choice in choices.items():
        where = f"{path}.{player}"
        if player not in table:
            raise EngineError("unknown_player", f"{player!r} is not at the table.", where)
        if player == dealer:
            raise EngineError("bad_choice", f"{player} deals and always plays: no choice.", where)
        if choice not in (PLAY, SIT):
            raise EngineError("bad_choice", f'{player}\'s choice is "play" or "sit", not {choice!r}.', where)


def choose(table: Sequence[str], dealer: str, choices: Any, path: str = "choices") -> Seating:
    """Who plays, from the choices made going round from the dealer's right.

    A forced choice may be left out of ``choices``; every free choice must be there.
    """
    _check_choices(table, dealer, choices, path)
    order = play_order(table, dealer)[1:]
    playing, forced, voluntary, forced_to_play = [dealer], [], [], []
    for n, player in enumerate(order):
        choice = choices.get(player)
        where = f"{path}.{player}"
        undecided = len(order) - n
        if len(playing) == 3:
            if choice == PLAY:
                raise EngineError("choice_order", f"Two players already chose to play: {player} must sit out.", where)
            forced.append(player)
        elif len(playing) + undecided == 3:
            if choice == SIT:
                raise EngineError("choice_order", f"Only three remain: {player} must play.", where)
            playing.append(player)
            forced_to_play.append(player)
        elif choice is None:
            raise EngineError(
                "missing_choice",
                f"{player} chooses to play or sit out (going round from the dealer's right).",
                where,
            )
        elif choice == PLAY:
            playing.append(player)
        else:
            voluntary.append(player)
    seated = tuple(p for p in table if p in playing)
    return Seating(seated, tuple(forced), tuple(voluntary), tuple(forced_to_play))


def payable(code: str) -> bool:
    """A card a forced sitter is paid for: bright, double junk, the cup, a joker."""
    card = CARDS[code]
    return card.kind in (BRIGHT, BONUS) or code in DOUBLE_JUNK or code == CUP


@dataclass(frozen=True, slots=True)
class Claim:
    """What one forced sitter is owed by each payer, before any deferral."""

    sitter: str
    cards: tuple[str, ...]  # shown, paid for
    unpaid: tuple[str, ...]  # shown, not paid (the lone rain bright with four at the table)
    shake: bool
    per_card: int

    @property
    def points(self) -> int:
        return len(self.cards) * self.per_card * (2 if self.shake else 1)

    def trail(self, factor: int = 1, at_end: bool = False) -> list[dict]:
        lines = [
            {
                "id": "gwangpalli_cards",
                "label": LABELS["gwangpalli_cards"],
                "cards": list(self.cards),
                "value": len(self.cards),
            },
            {"id": "per_card", "label": LABELS["per_card"], "value": self.per_card},
        ]
        if self.unpaid:
            lines.append({"id": "rain_bright_only", "label": LABELS["rain_bright_only"], "cards": list(self.unpaid)})
        if self.shake:
            lines.append({"id": "shake", "label": LABELS["shake"], "factor": 2})
        if factor != 1:
            lines.append({"id": "nagari_deferred", "label": LABELS["nagari_deferred"], "factor": factor})
        if at_end:
            lines.append({"id": "paid_by_loser", "label": LABELS["paid_by_loser"]})
        return lines


def claims(shown: object, seating: Seating, table_size: int, rules: Rules, path: str = "shown") -> tuple[Claim, ...]:
    """The claims of the forced sitters from the cards they show.

    ``shown`` is ``{player: {"cards": [...], "shake": bool}}``. Voluntary sitters may
    show cards too; they are owed nothing. A player who plays shows nothing.
    """
    if shown is None:
        shown = {}
    if not isinstance(shown, dict):
        raise EngineError("bad_shown", 'shown is an object of player: {"cards": [...], "shake": false}.', path)
    seen: dict[str, int] = {}
    out = []
    for player, entry in shown.items():
        where = f"{path}.{player}"
        if player in seating.players:
            raise EngineError("bad_shown", f"{player} plays this hand: only a player sitting out shows cards.", where)
        if player not in seating.forced and player not in seating.voluntary:
            raise EngineError("unknown_player", f"{player!r} is not at the table.", where)
        if not isinstance(entry, dict) or set(entry) - {"cards", "shake"}:
            raise EngineError("bad_shown", 'Each entry is {"cards": [...], "shake": true or false}.', where)
        cards, shake = entry.get("cards", []), entry.get("shake", False)
        if not isinstance(cards, list) or not isinstance(shake, bool):
            raise EngineError("bad_shown", "cards is a list of card codes, shake true or false.", where)
        if len(cards) > HAND_SIZE:
            raise EngineError(
                "too_many_cards", f"A hand holds {HAND_SIZE} cards, {player} shows {len(cards)}.", f"{where}.cards"
            )
        for n, code in enumerate(cards):
            _check_card(code, seen, rules, f"{where}.cards[{n}]")
        if player in seating.forced:
            out.append(claim(player, cards, shake, table_size, rules))
    return tuple(out)


def _check_card(code: object, seen: dict[str, int], rules: Rules, where: str) -> None:
    if not isinstance(code, str) or code not in CARDS:
        raise EngineError("unknown_card", f"{code!r} is not a card code.", where)
    if not payable(code):
        raise EngineError("bad_shown", f"{code} is not shown: only brights, 11jd, 12jd, 9a and jokers are.", where)
    seen[code] = seen.get(code, 0) + 1
    limit = rules.bonus_count(code) if CARDS[code].kind == BONUS else 1
    if CARDS[code].kind == BONUS and limit == 0:
        raise EngineError("bonus_not_in_rules", f"The table plays without {code}.", where)
    if seen[code] > limit:
        raise EngineError("card_twice", f"{code} shown more times than the deck holds it.", where)


def claim(sitter: str, cards: Sequence[str], shake: bool, table_size: int, rules: Rules) -> Claim:
    """One forced sitter's claim; the four-player rain-bright exception applied."""
    brights = [c for c in cards if CARDS[c].kind == BRIGHT]
    lone_rain = table_size == 4 and brights == [RAIN_BRIGHT]
    paid = tuple(c for c in cards if not (lone_rain and c == RAIN_BRIGHT))
    unpaid = (RAIN_BRIGHT,) if lone_rain else ()
    return Claim(sitter, paid, unpaid, shake, rules.sitter_pay_per_card)


def nagari_factor(carry: int, rules: Rules) -> int:
    """The doubling after ``carry`` consecutive nagari (rules.md §10)."""
    if carry <= 0:
        return 1
    return 2**carry if rules.nagari_carry_stacks else 2
