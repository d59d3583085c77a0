"""족보 Scores: a player's captured cards → score lines (RULES.md §3).

Each combination is one record in ``COMBINATION_RECORDS`` (id, Korean and English
label, the option it depends on, category) with one small function: it reads a
``Pile`` (the captures counted one way) and the rules, and answers the line it
scores or ``None``. ``score`` runs them all; ``best_score`` tries every way of counting the
flexible cards (the cup ``9a``, and the bridge ``5a`` where the rules allow).

>>> s = score(pile(["1g", "3g", "8g", "2a", "4a", "8a"]), Rules())
>>> s.points, [line.id for line in s.lines]
(8, ['three_brights', 'godori'])
"""
from __future__ import annotations

from functools import lru_cache, reduce
from itertools import combinations as subsets, repeat
from operator import or_
from typing import Callable, Iterable, NamedTuple

from .cards import (
    ANIMAL, BONUS, BONUS_CARDS, BRIDGE, BRIGHT, CHEONG_DAN, CHO_DAN, CUP, DECK, DOUBLE_JUNK, GODORI,
    HONG_DAN, JUNK, RAIN_ANIMAL, RAIN_BRIGHT, RAIN_RIBBON, RIBBON,
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
    return list(_codes_of(mask))


def _byte_codes(shift: int) -> tuple[tuple[str, ...], ...]:
    """For each value of the mask's byte at ``shift``, the codes of its bits, in order."""
    return tuple(tuple(_CODE_OF_BIT[1 << (shift + i)] for i in range(8) if value >> i & 1) for value in range(256))


# The codes of a mask, a byte at a time: six lookups whatever the cards (48 bits).
_BYTE_CODES = tuple((shift, _byte_codes(shift)) for shift in range(0, len(DECK), 8))


def _codes_of(mask: int) -> tuple[str, ...]:
    out: tuple[str, ...] = ()
    for shift, table in _BYTE_CODES:
        byte = mask >> shift & 255
        if byte:
            out += table[byte]
    return out


def _kind_mask(test) -> int:
    return mask_of(card.code for card in DECK if test(card))


BRIGHTS = _kind_mask(lambda c: c.kind == BRIGHT)
ANIMALS = _kind_mask(lambda c: c.kind == ANIMAL)
RIBBONS = _kind_mask(lambda c: c.kind == RIBBON)
SINGLE_JUNK = _kind_mask(lambda c: c.kind == JUNK and c.junk == 1)
DOUBLE_JUNK_CARDS = _kind_mask(lambda c: c.kind == JUNK and c.junk == 2)
JUNK_CARDS = SINGLE_JUNK | DOUBLE_JUNK_CARDS
BIRDS = mask_of(GODORI)
SETS = {name: _kind_mask(lambda c, n=name: c.ribbon_set == n) for name in (HONG_DAN, CHEONG_DAN, CHO_DAN)}
VIP_CARDS = mask_of((CUP, *DOUBLE_JUNK))
PALSSARI = _kind_mask(lambda c: c.month in (4, 7))
B_CUP, B_BRIDGE, B_RAIN_BRIGHT, B_RAIN_ANIMAL, B_RAIN_RIBBON = (
    BIT[CUP], BIT[BRIDGE], BIT[RAIN_BRIGHT], BIT[RAIN_ANIMAL], BIT[RAIN_RIBBON])
B_FLEXIBLE = B_CUP | B_BRIDGE


# The hot paths build named tuples with all their fields through tuple.__new__, skipping the
# Python-level __new__ that handles keywords and defaults (a few hundred thousand a second).
_new = tuple.__new__


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


class Line(NamedTuple):
    """One scoring combination a player holds."""

    id: str
    points: int
    category: str  # bright / animal / ribbon / junk: what gwang-bak, pi-bak … look at
    cards: int = 0  # a mask
    toward_target: bool = True
    bonus: tuple[str, ...] = ()  # bonus cards in the line (junk)

    def to_json(self) -> dict:
        out = {"id": self.id, "label": LINE_LABELS[self.id], "points": self.points,
               "cards": [*_codes_of(self.cards), *self.bonus]}
        if not self.toward_target:
            out["toward_target"] = False
        return out


class Score(NamedTuple):
    points: int
    toward_target: int
    lines: tuple[Line, ...]
    pile: Pile
    categories: frozenset[str] = frozenset()  # of the lines: what gwang-bak, pi-bak … ask

    def has(self, category: str) -> bool:
        return category in self.categories

    @property
    def counted_as(self) -> dict[str, str]:
        """How each flexible card is counted: {"9a": "junk"}."""
        p = self.pile
        return dict(_COUNTED_AS[p.mask & B_FLEXIBLE, p.as_junk & B_FLEXIBLE])

    def to_json(self) -> dict:
        p = self.pile
        return {
            "points": self.points,
            "toward_target": self.toward_target,
            "lines": [line.to_json() for line in self.lines] if self.lines else [],
            "counted_as": self.counted_as if p.mask & B_FLEXIBLE else {},
            "counts": {
                BRIGHT: p.brights.bit_count(), ANIMAL: p.animals.bit_count(), RIBBON: p.ribbons.bit_count(),
                JUNK: p.junk_value,
            },
        }


# (flexible cards held, those counted as junk) → how each held one is counted, as (code, kind) pairs.
_COUNTED_AS = {
    (held, as_junk): tuple((code, JUNK if as_junk & bit else ANIMAL)
                           for code, bit in ((CUP, B_CUP), (BRIDGE, B_BRIDGE)) if held & bit)
    for held in (0, B_CUP, B_BRIDGE, B_FLEXIBLE) for as_junk in (0, B_CUP, B_BRIDGE, B_FLEXIBLE) if as_junk & ~held == 0
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


def pile(codes: Iterable[str], rules: Rules | None = None, extra_junk: int = 0,
         as_junk: Iterable[str] = ()) -> Pile:
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
    return _new(Pile, (mask & BRIGHTS, mask & ANIMALS, ribbons, junk, value, mask, bonus, 0))


def counted_as_junk(base: Pile, way: int, rules: Rules) -> Pile:
    """``base`` (nothing counted as junk) with the flexible cards of ``way`` moved to junk."""
    if not way:
        return base
    value = base.junk_value + (rules.cup_junk_value if way & B_CUP else 0) + (2 if way & B_BRIDGE else 0)
    return _new(Pile, (base.brights, base.animals & ~way, base.ribbons, base.junk | way, value, base.mask, base.bonus, way))


# -- the combinations: each function answers (id, points, cards mask) or None ----------------

def five_brights(p: Pile, r: Rules):
    return ("five_brights", r.five_brights, p.brights) if p.brights.bit_count() == 5 else None


def four_brights(p: Pile, r: Rules):
    if p.brights.bit_count() != 4:
        return None
    return "four_brights", r.four_brights_with_rain if p.brights & B_RAIN_BRIGHT else 4, p.brights


def three_brights(p: Pile, r: Rules):
    return ("three_brights", 3, p.brights) if p.brights.bit_count() == 3 and not p.brights & B_RAIN_BRIGHT else None


def rain_three_brights(p: Pile, r: Rules):
    return ("rain_three_brights", 2, p.brights) if p.brights.bit_count() == 3 and p.brights & B_RAIN_BRIGHT else None


def animal_count(p: Pile, r: Rules):
    n = p.animals.bit_count()
    return ("animals", n - 4, p.animals) if n >= 5 else None


def _four_birds(p: Pile, r: Rules) -> bool:
    """The four-bird rule applies: the swallow (12a) held and counted as a bird."""
    return bool(r.four_birds and p.animals & B_RAIN_ANIMAL)


def godori(p: Pile, r: Rules):
    held = p.animals & BIRDS
    return ("godori", r.godori, held) if held.bit_count() == 3 and not _four_birds(p, r) else None


def yukdori(p: Pile, r: Rules):
    held = p.animals & BIRDS
    return ("yukdori", 6, held | B_RAIN_ANIMAL) if held.bit_count() == 3 and _four_birds(p, r) else None


def bidori(p: Pile, r: Rules):
    held = p.animals & BIRDS
    return ("bidori", 4, held | B_RAIN_ANIMAL) if held.bit_count() == 2 and _four_birds(p, r) else None


def ribbon_count(p: Pile, r: Rules):
    n = p.ribbons.bit_count()
    return ("ribbons", n - 4, p.ribbons) if n >= 5 else None


def ribbon_set(name: str) -> Callable[[Pile, Rules], tuple | None]:
    members = SETS[name]

    def unit(p: Pile, r: Rules):
        return (name, 3, members) if p.ribbons & members == members else None

    unit.__name__ = name
    return unit


def junk_count(p: Pile, r: Rules):
    return ("junk", p.junk_value - 9, p.junk) if p.junk_value >= 10 else None


def vip(p: Pile, r: Rules):
    if r.vip and p.as_junk & B_CUP and p.mask & VIP_CARDS == VIP_CARDS:
        return "vip", 3, VIP_CARDS
    return None


def palssari(p: Pile, r: Rules):
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
    # scorer compares counts it takes once per pile instead of calling every unit.
    gate: tuple[str, int]
    toward_target: bool = True  # False: paid, but not counted toward the target to go or stop

    @property
    def label(self) -> str:
        return f"{self.ko} {self.en}"


COMBINATION_RECORDS: tuple[Combination, ...] = (
    Combination("five_brights", "오광", "five brights", "five_brights", BRIGHT, five_brights, ("brights", 5)),
    Combination("four_brights", "사광", "four brights", "four_brights_with_rain", BRIGHT, four_brights,
                ("brights", 4)),
    Combination("three_brights", "삼광", "three brights", None, BRIGHT, three_brights, ("brights", 3)),
    Combination("rain_three_brights", "비삼광", "three brights with rain", None, BRIGHT, rain_three_brights,
                ("brights", 3)),
    Combination("animals", "열끗", "animals", None, ANIMAL, animal_count, ("animals", 5)),
    Combination("godori", "고도리", "godori", "godori", ANIMAL, godori, ("animals", 3)),
    Combination("yukdori", "육도리", "four birds", "four_birds", ANIMAL, yukdori, ("animals", 4)),
    Combination("bidori", "비도리", "three birds with the swallow", "four_birds", ANIMAL, bidori, ("animals", 3)),
    Combination("ribbons", "띠", "ribbons", "rain_ribbon_counts", RIBBON, ribbon_count, ("ribbons", 5)),
    Combination(HONG_DAN, "홍단", "red poem ribbons", None, RIBBON, ribbon_set(HONG_DAN), ("ribbons", 3)),
    Combination(CHEONG_DAN, "청단", "blue ribbons", None, RIBBON, ribbon_set(CHEONG_DAN), ("ribbons", 3)),
    Combination(CHO_DAN, "초단", "red plain ribbons", None, RIBBON, ribbon_set(CHO_DAN), ("ribbons", 3)),
    Combination("junk", "피", "junk", None, JUNK, junk_count, ("junk_value", 10)),
    # VIP: 11jd and 12jd are double junk, so the junk is worth 4 at least.
    Combination("vip", "VIP 쌍피 셋", "three double junk", "vip", JUNK, vip, ("junk_value", 4), toward_target=False),
    Combination("palssari", "팔싸리", "eight clovers", "palssari", BONUS, palssari, ("cards", 8),
                toward_target=False),
)
"""Every scoring combination, in the order score lines are listed: one record each (RULES.md §3).

A combination whose ``option`` is a flag (VIP, palssari, the four-bird rule) scores only where
the table's rules turn it on; other options set its points or what it counts."""
LINE_LABELS: dict[str, str] = {c.id: c.label for c in COMBINATION_RECORDS}


# The counts a combination's gate may name, in the order ``score`` takes them from a pile.
GATES = ("brights", "animals", "ribbons", "junk_value", "cards")


def _played(with_vip: bool, with_palssari: bool) -> tuple[Combination, ...]:
    """The combinations the rules play (VIP and palssari only where they are on)."""
    off = {"vip": not with_vip, "palssari": not with_palssari}
    return tuple(c for c in COMBINATION_RECORDS if not off.get(c.id, False))


@lru_cache(maxsize=4)
def _combinations(with_vip: bool, with_palssari: bool) -> tuple[tuple[Callable, str, bool], ...]:
    """(unit, category, toward target) of the combinations the rules play."""
    return tuple((c.unit, c.category, c.toward_target) for c in _played(with_vip, with_palssari))


_Gated = tuple[int, int, tuple[tuple[int, Callable, str, bool], ...]]


@lru_cache(maxsize=8)
def _gated(with_vip: bool, with_palssari: bool, four_birds: bool) -> tuple[_Gated, ...]:
    """The combinations the rules play (yukdori and bidori only under the four-bird rule) as the
    scorer's loop reads them: in runs that share a gate's count (the records list them so),
    each run (count index, its least gate, ((least, unit, category, toward target), …))."""
    runs: list[tuple[int, list]] = []
    for c in _played(with_vip, with_palssari):
        if c.option == "four_birds" and not four_birds:
            continue
        gate = GATES.index(c.gate[0])
        if not runs or runs[-1][0] != gate:
            runs.append((gate, []))
        runs[-1][1].append((c.gate[1], c.unit, c.category, c.toward_target))
    return tuple((gate, min(m[0] for m in members), tuple(members)) for gate, members in runs)


def score(p: Pile, rules: Rules) -> Score:
    """Every combination ``p`` holds under ``rules``, added up."""
    if _holds_nothing(p, rules):  # four piles in ten: no unit need look
        return _new(Score, (0, 0, (), p, NO_CATEGORIES))
    lines = []
    have = (p.brights.bit_count(), p.animals.bit_count(), p.ribbons.bit_count(), p.junk_value, p.mask.bit_count())
    for gate, fewest, members in _gated(rules.vip, rules.palssari, rules.four_birds):
        n = have[gate]
        if n < fewest:  # too few for any combination of this run: no need to ask them
            continue
        for least, unit, category, counts in members:
            if n < least:
                continue
            hit = unit(p, rules)
            if hit and hit[1]:
                lines.append(_new(Line, (hit[0], hit[1], category, hit[2], counts,
                                         p.bonus if hit[0] == "junk" else ())))
    if not lines:  # most losers' piles: nothing scores
        return _new(Score, (0, 0, (), p, NO_CATEGORIES))
    total = toward = 0
    for line in lines:
        total += line.points
        if line.toward_target:
            toward += line.points
    return _new(Score, (total, toward, tuple(lines), p, frozenset([line.category for line in lines])))


NO_CATEGORIES: frozenset[str] = frozenset()


def _holds_nothing(p: Pile, rules: Rules) -> bool:
    """Too few of every kind for any combination: under 3 brights, 5 animals, 2 birds (bidori
    needs two and the swallow), 3 ribbons (a set), 10 junk, and neither VIP nor palssari played."""
    return (p.junk_value < 10 and p.brights.bit_count() < 3 and p.animals.bit_count() < 5
            and p.ribbons.bit_count() < 3 and (p.animals & BIRDS).bit_count() < 2
            and not rules.vip and not rules.palssari)


def all_scores(codes: Iterable[str], rules: Rules, extra_junk: int = 0) -> list[Score]:
    """The score for each way of counting the flexible cards (one to four ways)."""
    return _ways(pile(codes, rules, extra_junk), rules)


def ways_of_mask(mask: int, rules: Rules, extra_junk: int = 0) -> list[Score]:
    """``all_scores`` of a pile of deck cards given as a mask (no bonus card)."""
    return _ways(pile_of_mask(mask, (), rules, extra_junk), rules)


# The ways of counting the flexible cards held (as junk: their bits), nothing moved first.
_WAYS: dict[tuple[int, ...], tuple[int, ...]] = {flex: tuple(sum(s) for n in range(len(flex) + 1) for s in subsets(flex, n))
         for flex in ((B_CUP,), (B_BRIDGE,), (B_CUP, B_BRIDGE))}


def _ways(base: Pile, rules: Rules) -> list[Score]:
    if not base.mask & B_FLEXIBLE:  # most piles: neither the cup nor the bridge, one way
        return [score(base, rules)]
    flex = flexible_cards(base.mask, rules)
    if not flex:
        return [score(base, rules)]
    return [score(counted_as_junk(base, way, rules), rules) for way in _WAYS[flex]]


def best_score(codes: Iterable[str], rules: Rules, extra_junk: int = 0) -> Score:
    """The way of counting that gives the most toward the target, then the most points."""
    return best_of(all_scores(codes, rules, extra_junk))


def best_of(ways: list[Score]) -> Score:
    """The way of counting with the most toward the target, then the most points."""
    return ways[0] if len(ways) == 1 else max(ways, key=lambda s: (s.toward_target, s.points))


_BEST_OF_MASK: dict[tuple[int, tuple[str, ...], int], tuple[Rules, Score]] = {}


def best_score_of_mask(mask: int, bonus: tuple[str, ...], rules: Rules) -> Score:
    """``best_score`` of a pile given as a mask, remembered: a live hand asks for the same piles
    again and again (every replay of its log). Keyed by the rules object's identity, which the
    entry keeps alive, so an id is never reused while its entry stands."""
    key = (mask, bonus, id(rules))
    hit = _BEST_OF_MASK.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_BEST_OF_MASK) >= 65536:
        _BEST_OF_MASK.clear()  # bounded; the piles of the hands being played come back at once
    best = best_of(_ways(pile_of_mask(mask, bonus, rules), rules))
    _BEST_OF_MASK[key] = (rules, best)
    return best
