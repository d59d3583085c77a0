"""패 A player's captured cards as bit masks, sorted by kind into a ``Pile``.

Each deck card is one bit of a 48-bit mask: counting a kind is a popcount, holding a set
is one AND. The flexible cards (the cup ``9a``, the bridge ``5a`` where the rules allow)
may be counted as junk: ``counted_as_junk`` moves them.

>>> p = pile(["1g", "3g", "9a", "1j1"])
>>> p.brights.bit_count(), p.animals.bit_count(), p.junk_value
(2, 1, 1)
>>> codes_of(p.mask)
['1g', '1j1', '3g', '9a']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import reduce
from itertools import repeat
from operator import or_
from typing import NamedTuple

from .cards import (
    ANIMAL,
    BONUS_CARDS,
    BRIDGE,
    BRIGHT,
    CHEONG_DAN,
    CHO_DAN,
    CUP,
    DECK,
    DOUBLE_JUNK,
    GODORI,
    HONG_DAN,
    JUNK,
    RAIN_ANIMAL,
    RAIN_BRIGHT,
    RAIN_RIBBON,
    RIBBON,
    Card,
)
from .rules import Rules

# Each deck card is one bit of a 48-bit mask (bit i is DECK[i], which is in display order):
# counting a kind is a popcount, holding a set is one AND. Bonus cards may come in copies,
# so they are kept apart as a tuple of codes.
BIT: dict[str, int] = {card.code: 1 << i for i, card in enumerate(DECK)}
_CODE_OF_BIT: dict[int, str] = {bit: code for code, bit in BIT.items()}


def mask_of(codes: Iterable[str]) -> int:
    """The mask of the deck cards among ``codes`` (bonus cards are not in it)."""
    return reduce(or_, map(BIT.get, codes, repeat(0)), 0)


def codes_of(mask: int) -> list[str]:
    """The codes of a mask, in display order."""
    return list(codes_in(mask))


def _byte_codes(shift: int) -> tuple[tuple[str, ...], ...]:
    """For each value of the mask's byte at ``shift``, the codes of its bits, in order: its lowest
    bit's code before those of the value without it (one step each, at every command's start)."""
    table: list[tuple[str, ...]] = [()]
    for value in range(1, 256):
        low = value & -value
        table.append((_CODE_OF_BIT[low << shift], *table[value ^ low]))
    return tuple(table)


# The codes of a mask, a byte at a time: six lookups whatever the cards (48 bits).
_BYTE_CODES = tuple((shift, _byte_codes(shift)) for shift in range(0, len(DECK), 8))


def codes_in(mask: int) -> tuple[str, ...]:
    out: tuple[str, ...] = ()
    for shift, table in _BYTE_CODES:
        byte = mask >> shift & 255
        if byte:
            out += table[byte]
    return out


def _kind_mask(test: Callable[[Card], bool]) -> int:
    return mask_of(card.code for card in DECK if test(card))


BRIGHTS = _kind_mask(lambda c: c.kind == BRIGHT)
ANIMALS = _kind_mask(lambda c: c.kind == ANIMAL)
RIBBONS = _kind_mask(lambda c: c.kind == RIBBON)
SINGLE_JUNK = _kind_mask(lambda c: c.kind == JUNK and c.junk == 1)
DOUBLE_JUNK_CARDS = _kind_mask(lambda c: c.kind == JUNK and c.junk == 2)
JUNK_CARDS = SINGLE_JUNK | DOUBLE_JUNK_CARDS
BIRDS = mask_of(GODORI)
SETS = {name: mask_of(c.code for c in DECK if c.ribbon_set == name) for name in (HONG_DAN, CHEONG_DAN, CHO_DAN)}
VIP_CARDS = mask_of((CUP, *DOUBLE_JUNK))
PALSSARI = _kind_mask(lambda c: c.month in (4, 7))
B_CUP, B_BRIDGE, B_RAIN_BRIGHT, B_RAIN_ANIMAL, B_RAIN_RIBBON = (
    BIT[CUP],
    BIT[BRIDGE],
    BIT[RAIN_BRIGHT],
    BIT[RAIN_ANIMAL],
    BIT[RAIN_RIBBON],
)
B_FLEXIBLE = B_CUP | B_BRIDGE


# The hot paths build named tuples with all their fields through tuple.__new__, skipping the
# Python-level __new__ that handles keywords and defaults (a few hundred thousand a second).
new_tuple = tuple.__new__


class Pile(NamedTuple):
    """A player's captures sorted by kind (as masks), with the flexible cards counted one way."""

    brights: int
    animals: int  # without the flexible cards counted as junk
    ribbons: int  # without 12r where the rules make it junk
    junk: int  # junk cards, flexible cards counted as junk, 12r where it is junk
    junk_value: int  # all junk, bonus cards and unlisted junk included
    mask: int  # every deck card held
    bonus: tuple[str, ...] = ()  # bonus cards, with repeats
    as_junk: int = 0

    @property
    def empty(self) -> bool:
        return not self.mask and not self.bonus and not self.junk_value

    def count(self, kind: str) -> int:
        return {BRIGHT: self.brights, ANIMAL: self.animals, RIBBON: self.ribbons}[kind].bit_count()


COUNTED_AS = {
    (held, as_junk): tuple(
        (code, JUNK if as_junk & bit else ANIMAL) for code, bit in ((CUP, B_CUP), (BRIDGE, B_BRIDGE)) if held & bit
    )
    for held in (0, B_CUP, B_BRIDGE, B_FLEXIBLE)
    for as_junk in (0, B_CUP, B_BRIDGE, B_FLEXIBLE)
    if as_junk & ~held == 0
}


def flexible_cards(mask: int, rules: Rules) -> tuple[int, ...]:
    """The bits of the captured cards the rules let count as animal or as junk."""
    flex = []
    if rules.cup_flexible and mask & B_CUP:
        flex.append(B_CUP)
    if rules.bridge_flexible and mask & B_BRIDGE:
        flex.append(B_BRIDGE)
    return tuple(flex)


_BONUS_VALUE = {code: card.junk for code, card in BONUS_CARDS.items()}


def pile(codes: Iterable[str], rules: Rules | None = None, extra_junk: int = 0, as_junk: Iterable[str] = ()) -> Pile:
    """Sort ``codes`` by kind, counting the cards in ``as_junk`` as junk."""
    rules = rules or Rules()
    codes = tuple(codes)
    # Adding the bits is quicker than OR-ing them, and the same when no card repeats: a sum of k
    # powers of two has k bits set exactly when they are distinct (a repeat carries). A bonus card
    # adds nothing, so any bonus card or repeat takes the careful way.
    mask = sum(map(BIT.get, codes, repeat(0)))
    bonus: tuple[str, ...] = ()
    if len(codes) != mask.bit_count():
        mask = mask_of(codes)
        bonus = tuple(c for c in codes if c in _BONUS_VALUE)
    base = pile_of_mask(mask, bonus, rules, extra_junk)
    return counted_as_junk(base, mask_of(as_junk), rules) if as_junk else base


def pile_of_mask(mask: int, bonus: tuple[str, ...], rules: Rules, extra_junk: int = 0) -> Pile:
    """The pile of the deck cards in ``mask`` and the bonus cards ``bonus``, nothing counted as junk."""
    junk = mask & JUNK_CARDS
    value = extra_junk + (mask & SINGLE_JUNK).bit_count() + 2 * (mask & DOUBLE_JUNK_CARDS).bit_count()
    if bonus:
        value += sum(_BONUS_VALUE[c] for c in bonus)
    ribbons = mask & RIBBONS
    if not rules.rain_ribbon_counts and mask & B_RAIN_RIBBON:
        # encyclopedia: "the junk cards are those not counted as bright, ribbon, or animal"
        ribbons, junk, value = ribbons ^ B_RAIN_RIBBON, junk | B_RAIN_RIBBON, value + 1
    return new_tuple(Pile, (mask & BRIGHTS, mask & ANIMALS, ribbons, junk, value, mask, bonus, 0))


def counted_as_junk(base: Pile, way: int, rules: Rules) -> Pile:
    """``base`` (nothing counted as junk) with the flexible cards of ``way`` moved to junk."""
    if not way:
        return base
    value = base.junk_value + (rules.cup_junk_value if way & B_CUP else 0) + (2 if way & B_BRIDGE else 0)
    return new_tuple(
        Pile, (base.brights, base.animals & ~way, base.ribbons, base.junk | way, value, base.mask, base.bonus, way)
    )
