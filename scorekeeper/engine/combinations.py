"""족보 The scoring combinations (rules.md §3): one record each, with the small function that finds it.

Each function reads a ``Pile`` (the captures counted one way) and the rules, and answers
``(id, points, cards mask)`` when the pile holds its combination, else ``None``;
``scoring.score`` asks those the table plays.

>>> from .piles import pile
>>> three_brights(pile(["1g", "3g", "8g"]), Rules())[:2]
('three_brights', 3)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .cards import ANIMAL, BONUS, BRIGHT, CHEONG_DAN, CHO_DAN, HONG_DAN, JUNK, RIBBON
from .piles import B_CUP, B_RAIN_ANIMAL, B_RAIN_BRIGHT, BIRDS, PALSSARI, SETS, VIP_CARDS, Pile
from .rules import Rules

# -- the combinations: each function answers (id, points, cards mask) or None ----------------

Found = tuple[str, int, int] | None


def five_brights(p: Pile, r: Rules) -> Found:
    return ("five_brights", r.five_brights, p.brights) if p.brights.bit_count() == 5 else None


def four_brights(p: Pile, r: Rules) -> Found:
    if p.brights.bit_count() != 4:
        return None
    return "four_brights", r.four_brights_with_rain if p.brights & B_RAIN_BRIGHT else 4, p.brights


def three_brights(p: Pile, r: Rules) -> Found:
    return ("three_brights", 3, p.brights) if p.brights.bit_count() == 3 and not p.brights & B_RAIN_BRIGHT else None


def rain_three_brights(p: Pile, r: Rules) -> Found:
    return ("rain_three_brights", 2, p.brights) if p.brights.bit_count() == 3 and p.brights & B_RAIN_BRIGHT else None


def animal_count(p: Pile, r: Rules) -> Found:
    n = p.animals.bit_count()
    return ("animals", n - 4, p.animals) if n >= 5 else None


def _four_birds(p: Pile, r: Rules) -> bool:
    """The four-bird rule applies: the swallow (12a) held and counted as a bird."""
    return bool(r.four_birds and p.animals & B_RAIN_ANIMAL)


def godori(p: Pile, r: Rules) -> Found:
    held = p.animals & BIRDS
    return ("godori", r.godori, held) if held.bit_count() == 3 and not _four_birds(p, r) else None


def yukdori(p: Pile, r: Rules) -> Found:
    held = p.animals & BIRDS
    return ("yukdori", 6, held | B_RAIN_ANIMAL) if held.bit_count() == 3 and _four_birds(p, r) else None


def bidori(p: Pile, r: Rules) -> Found:
    held = p.animals & BIRDS
    return ("bidori", 4, held | B_RAIN_ANIMAL) if held.bit_count() == 2 and _four_birds(p, r) else None


def ribbon_count(p: Pile, r: Rules) -> Found:
    n = p.ribbons.bit_count()
    return ("ribbons", n - 4, p.ribbons) if n >= 5 else None


def ribbon_set(name: str) -> Callable[[Pile, Rules], Found]:
    members = SETS[name]

    def unit(p: Pile, r: Rules) -> Found:
        return (name, 3, members) if p.ribbons & members == members else None

    unit.__name__ = name
    return unit


def junk_count(p: Pile, r: Rules) -> Found:
    return ("junk", p.junk_value - 9, p.junk) if p.junk_value >= 10 else None


def vip(p: Pile, r: Rules) -> Found:
    if r.vip and p.as_junk & B_CUP and p.mask & VIP_CARDS == VIP_CARDS:
        return "vip", 3, VIP_CARDS
    return None


def palssari(p: Pile, r: Rules) -> Found:
    return ("palssari", 8, PALSSARI) if r.palssari and p.mask & PALSSARI == PALSSARI else None


class Combination(NamedTuple):
    """족보 One scoring combination: what a docs page, a score line and the scorer read of it."""

    id: str
    ko: str
    en: str
    option: str | None  # the house-rule option (``Rules`` field) it depends on; None: none
    category: str  # bright / animal / ribbon / junk / bonus: what gwang-bak, pi-bak … look at
    unit: Callable[[Pile, Rules], tuple | None]  # (id, points, cards mask) when the pile holds it
    # The fewest the pile must hold of one count (``GATES``) for the unit to find anything: the
    # scorer compares counts it takes once per pile instead of calling every unit. A unit gated on
    # the brights, animals or ribbons reads only the pile's mask of that kind: the scorer
    # remembers its answer per mask.
    gate: tuple[str, int]
    toward_target: bool = True  # False: paid, but not counted toward the target to go or stop
    # Every option the unit reads (``option`` may be only one of them, or one the pile reads): the
    # scorer shares what a unit found between rules that agree on these (a test holds units to it).
    reads: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.ko} {self.en}"


COMBINATION_RECORDS: tuple[Combination, ...] = (
    Combination(
        "five_brights",
        "오광",
        "five brights",
        "five_brights",
        BRIGHT,
        five_brights,
        ("brights", 5),
        reads=("five_brights",),
    ),
    Combination(
        "four_brights",
        "사광",
        "four brights",
        "four_brights_with_rain",
        BRIGHT,
        four_brights,
        ("brights", 4),
        reads=("four_brights_with_rain",),
    ),
    Combination("three_brights", "삼광", "three brights", None, BRIGHT, three_brights, ("brights", 3)),
    Combination(
        "rain_three_brights", "비삼광", "three brights with rain", None, BRIGHT, rain_three_brights, ("brights", 3)
    ),
    Combination("animals", "열끗", "animals", None, ANIMAL, animal_count, ("animals", 5)),
    Combination("godori", "고도리", "godori", "godori", ANIMAL, godori, ("animals", 3), reads=("godori", "four_birds")),
    Combination(
        "yukdori", "육도리", "four birds", "four_birds", ANIMAL, yukdori, ("animals", 4), reads=("four_birds",)
    ),
    Combination(
        "bidori",
        "비도리",
        "three birds with the swallow",
        "four_birds",
        ANIMAL,
        bidori,
        ("animals", 3),
        reads=("four_birds",),
    ),
    Combination("ribbons", "띠", "ribbons", "rain_ribbon_counts", RIBBON, ribbon_count, ("ribbons", 5)),
    Combination(HONG_DAN, "홍단", "red poem ribbons", None, RIBBON, ribbon_set(HONG_DAN), ("ribbons", 3)),
    Combination(CHEONG_DAN, "청단", "blue ribbons", None, RIBBON, ribbon_set(CHEONG_DAN), ("ribbons", 3)),
    Combination(CHO_DAN, "초단", "red plain ribbons", None, RIBBON, ribbon_set(CHO_DAN), ("ribbons", 3)),
    Combination("junk", "피", "junk", None, JUNK, junk_count, ("junk_value", 10)),
    # VIP: 11jd and 12jd are double junk, so the junk is worth 4 at least.
    Combination(
        "vip",
        "VIP 쌍피 셋",
        "three double junk",
        "vip",
        JUNK,
        vip,
        ("junk_value", 4),
        toward_target=False,
        reads=("vip",),
    ),
    Combination(
        "palssari",
        "팔싸리",
        "eight clovers",
        "palssari",
        BONUS,
        palssari,
        ("cards", 8),
        toward_target=False,
        reads=("palssari",),
    ),
)
"""Every scoring combination, in the order score lines are listed: one record each (rules.md §3).

A combination whose ``option`` is a flag (VIP, palssari, the four-bird rule) scores only where
the table's rules turn it on; other options set its points or what it counts."""
LINE_LABELS: dict[str, str] = {c.id: c.label for c in COMBINATION_RECORDS}


# The counts a combination's gate may name, in the order ``score`` takes them from a pile.
GATES = ("brights", "animals", "ribbons", "junk_value", "cards")
