"""족보 Scores: a player's captured cards → score lines (RULES.md §3).

Each combination is one small function in ``COMBINATIONS``: it reads a ``Pile``
(the captures counted one way) and the rules, and answers the line it scores or
``None``. ``score`` runs them all; ``best_scores`` tries every way of counting the
flexible cards (the cup ``9a``, and the bridge ``5a`` where the rules allow).

>>> s = score(pile(["1g", "3g", "8g", "2a", "4a", "8a"]), Rules())
>>> s.points, [line.id for line in s.lines]
(8, ['three_brights', 'godori'])
"""
from __future__ import annotations

from itertools import combinations as subsets
from typing import Callable, Iterable, NamedTuple

from .cards import (
    ANIMAL, BONUS, BRIDGE, BRIGHT, CARDS, CHEONG_DAN, CHO_DAN, CUP, DOUBLE_JUNK, GODORI,
    HONG_DAN, JUNK, RAIN_ANIMAL, RAIN_BRIGHT, RAIN_RIBBON, RIBBON, sort_key,
)
from .rules import Rules

LINE_LABELS: dict[str, str] = {
    "five_brights": "오광 five brights",
    "four_brights": "사광 four brights",
    "three_brights": "삼광 three brights",
    "rain_three_brights": "비삼광 three brights with rain",
    "animals": "열끗 animals",
    "godori": "고도리 godori",
    "yukdori": "육도리 four birds",
    "bidori": "비도리 three birds with the swallow",
    "ribbons": "띠 ribbons",
    HONG_DAN: "홍단 red poem ribbons",
    CHEONG_DAN: "청단 blue ribbons",
    CHO_DAN: "초단 red plain ribbons",
    "junk": "피 junk",
    "vip": "VIP 쌍피 셋 three double junk",
    "palssari": "팔싸리 eight clovers",
}


class Pile(NamedTuple):
    """A player's captures, sorted by kind, with the flexible cards counted one way."""

    brights: frozenset[str]
    animals: frozenset[str]
    ribbons: frozenset[str]
    junk: tuple[str, ...]  # junk cards, bonus cards (with repeats) and flexible cards counted as junk
    junk_value: int
    codes: frozenset[str]
    as_junk: frozenset[str] = frozenset()

    @property
    def empty(self) -> bool:
        return not self.codes and not self.junk_value


class Line(NamedTuple):
    """One scoring combination a player holds."""

    id: str
    points: int
    category: str  # bright / animal / ribbon / junk: what gwang-bak, pi-bak … look at
    cards: tuple[str, ...] = ()
    toward_target: bool = True

    def to_json(self) -> dict:
        out = {"id": self.id, "label": LINE_LABELS[self.id], "points": self.points,
               "cards": sorted(self.cards, key=sort_key)}
        if not self.toward_target:
            out["toward_target"] = False
        return out


class Score(NamedTuple):
    points: int
    toward_target: int
    lines: tuple[Line, ...]
    pile: Pile

    def has(self, category: str) -> bool:
        return any(line.category == category for line in self.lines)

    @property
    def counted_as(self) -> dict[str, str]:
        """How each flexible card is counted: {"9a": "junk"}."""
        return {c: JUNK if c in self.pile.as_junk else ANIMAL for c in (CUP, BRIDGE) if c in self.pile.codes}

    def to_json(self) -> dict:
        p = self.pile
        return {
            "points": self.points,
            "toward_target": self.toward_target,
            "lines": [line.to_json() for line in self.lines],
            "counted_as": self.counted_as,
            "counts": {
                BRIGHT: len(p.brights), ANIMAL: len(p.animals), RIBBON: len(p.ribbons), JUNK: p.junk_value,
            },
        }


def flexible_cards(codes: Iterable[str], rules: Rules) -> tuple[str, ...]:
    """The captured cards the rules let count as animal or as junk."""
    flex = []
    if rules.cup_flexible and CUP in codes:
        flex.append(CUP)
    if rules.bridge_flexible and BRIDGE in codes:
        flex.append(BRIDGE)
    return tuple(flex)


_BY_KIND = {
    kind: frozenset(code for code, card in CARDS.items() if card.kind == kind)
    for kind in (BRIGHT, ANIMAL, RIBBON, JUNK, BONUS)
}
_JUNKISH = _BY_KIND[JUNK] | _BY_KIND[BONUS]
_RIBBONS_NO_RAIN = _BY_KIND[RIBBON] - {RAIN_RIBBON}
_JUNK_VALUE = {code: card.junk for code, card in CARDS.items()}


def pile(codes: Iterable[str], rules: Rules | None = None, extra_junk: int = 0,
         as_junk: frozenset[str] = frozenset()) -> Pile:
    """Sort ``codes`` by kind, counting the cards in ``as_junk`` as junk."""
    rules = rules or Rules()
    codes = tuple(codes)
    held = frozenset(codes)
    junk = held & _JUNKISH
    value = extra_junk + sum(map(_JUNK_VALUE.__getitem__, junk))
    if len(held) != len(codes):  # several copies of a bonus card
        value += sum(_JUNK_VALUE[c] for c in codes) - sum(_JUNK_VALUE[c] for c in held)
    for code in as_junk:
        value += rules.cup_junk_value if code == CUP else 2
    if rules.rain_ribbon_counts:
        ribbons = held & _BY_KIND[RIBBON]
    else:  # encyclopedia: "the junk cards are those not counted as bright, ribbon, or animal"
        ribbons = held & _RIBBONS_NO_RAIN
        if RAIN_RIBBON in held:
            junk, value = junk | {RAIN_RIBBON}, value + 1
    junk_cards = tuple(junk | as_junk)
    if len(held) != len(codes):
        junk_cards += _repeats(codes)
    animals = held & _BY_KIND[ANIMAL]
    return Pile(held & _BY_KIND[BRIGHT], animals - as_junk if as_junk else animals, ribbons,
                junk_cards, value, held, as_junk)


def _repeats(codes: tuple[str, ...]) -> tuple[str, ...]:
    """The second and later copies of a code (only bonus cards come in copies)."""
    seen: set[str] = set()
    repeats = [c for c in codes if c in seen or seen.add(c)]
    return tuple(repeats)


# -- the combinations: each answers (id, points, cards) or None --------------------------

def bright_set(p: Pile, r: Rules):
    n, rain = len(p.brights), RAIN_BRIGHT in p.brights
    if n == 5:
        return "five_brights", r.five_brights, p.brights
    if n == 4:
        return "four_brights", r.four_brights_with_rain if rain else 4, p.brights
    if n == 3:
        return ("rain_three_brights", 2, p.brights) if rain else ("three_brights", 3, p.brights)
    return None


def animal_count(p: Pile, r: Rules):
    n = len(p.animals)
    return ("animals", n - 4, p.animals) if n >= 5 else None


def birds(p: Pile, r: Rules):
    held = GODORI & p.codes
    if r.four_birds and RAIN_ANIMAL in p.animals:
        if len(held) == 3:
            return "yukdori", 6, (*held, RAIN_ANIMAL)
        if len(held) == 2:
            return "bidori", 4, (*held, RAIN_ANIMAL)
    return ("godori", r.godori, held) if len(held) == 3 else None


def ribbon_count(p: Pile, r: Rules):
    n = len(p.ribbons)
    return ("ribbons", n - 4, p.ribbons) if n >= 5 else None


def ribbon_set(name: str) -> Callable[[Pile, Rules], tuple | None]:
    members = tuple(c.code for c in CARDS.values() if c.ribbon_set == name)

    def unit(p: Pile, r: Rules):
        return (name, 3, members) if p.codes.issuperset(members) else None

    unit.__name__ = name
    return unit


def junk_count(p: Pile, r: Rules):
    return ("junk", p.junk_value - 9, p.junk) if p.junk_value >= 10 else None


def vip(p: Pile, r: Rules):
    if r.vip and CUP in p.as_junk and p.codes.issuperset(DOUBLE_JUNK):
        return "vip", 3, (CUP, *DOUBLE_JUNK)
    return None


PALSSARI = tuple(c.code for c in CARDS.values() if c.month in (4, 7))


def palssari(p: Pile, r: Rules):
    return ("palssari", 8, PALSSARI) if r.palssari and p.codes.issuperset(PALSSARI) else None


# (unit, category, counts toward the target)
COMBINATIONS: tuple[tuple[Callable, str, bool], ...] = (
    (bright_set, BRIGHT, True),
    (animal_count, ANIMAL, True),
    (birds, ANIMAL, True),
    (ribbon_count, RIBBON, True),
    (ribbon_set(HONG_DAN), RIBBON, True),
    (ribbon_set(CHEONG_DAN), RIBBON, True),
    (ribbon_set(CHO_DAN), RIBBON, True),
    (junk_count, JUNK, True),
    (vip, JUNK, False),
    (palssari, BONUS, False),
)


def score(p: Pile, rules: Rules) -> Score:
    """Every combination ``p`` holds under ``rules``, added up."""
    lines = []
    total = toward = 0
    for unit, category, counts in COMBINATIONS:
        hit = unit(p, rules)
        if hit and hit[1]:
            lines.append(Line(hit[0], hit[1], category, hit[2], counts))
            total += hit[1]
            if counts:
                toward += hit[1]
    return Score(total, toward, tuple(lines), p)


def all_scores(codes: Iterable[str], rules: Rules, extra_junk: int = 0) -> list[Score]:
    """The score for each way of counting the flexible cards (one to four ways)."""
    base = pile(codes, rules, extra_junk)
    flex = flexible_cards(base.codes, rules)
    if not flex:
        return [score(base, rules)]
    ways = [frozenset(s) for n in range(len(flex) + 1) for s in subsets(flex, n)]
    return [score(counted_as_junk(base, way, rules), rules) for way in ways]


def counted_as_junk(base: Pile, way: frozenset[str], rules: Rules) -> Pile:
    """``base`` (nothing counted as junk) with the flexible cards of ``way`` moved to junk."""
    if not way:
        return base
    value = base.junk_value + sum(rules.cup_junk_value if c == CUP else 2 for c in way)
    return Pile(base.brights, base.animals - way, base.ribbons, base.junk + tuple(way), value, base.codes, way)


def best_score(codes: Iterable[str], rules: Rules, extra_junk: int = 0) -> Score:
    """The way of counting that gives the most toward the target, then the most points."""
    return max(all_scores(codes, rules, extra_junk), key=lambda s: (s.toward_target, s.points))
