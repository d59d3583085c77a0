"""화투 The hwatu deck: 48 cards and the bonus cards, defined once.

A card's **code** is its month and kind letter (rules.md §1): ``g`` bright 광,
``a`` animal 열끗, ``r`` ribbon 띠, ``j`` junk 피, with a digit where a month has two
junk and ``jd`` for a double junk 쌍피. Bonus cards (jokers) start with ``b``:
``b2`` and ``b3`` are worth two and three junk; ``bb`` (boss junk), ``bd`` (double)
and ``bp`` (bright protection) are the other pagat jokers. A table may hold several
of one bonus kind; they share the code, which may then appear that many times.

>>> CARDS["9a"].month, CARDS["9a"].kind, CARDS["11jd"].junk
(9, 'animal', 2)
"""

from __future__ import annotations

from dataclasses import dataclass

BRIGHT, ANIMAL, RIBBON, JUNK, BONUS = "bright", "animal", "ribbon", "junk", "bonus"
KINDS = (BRIGHT, ANIMAL, RIBBON, JUNK)
# Junk < ribbon < animal < bright: the tie-break of the draw for dealer (rules.md §10).
KIND_RANK = {JUNK: 0, BONUS: 0, RIBBON: 1, ANIMAL: 2, BRIGHT: 3}

HONG_DAN, CHEONG_DAN, CHO_DAN = "hong_dan", "cheong_dan", "cho_dan"


@dataclass(frozen=True, slots=True)
class Card:
    code: str
    month: int  # 0 for bonus cards
    kind: str
    junk: int = 0  # junk value when counted as junk (쌍피 2, bonus 2/3)
    ribbon_set: str | None = None
    bird: bool = False  # one of the godori birds 2a 4a 8a
    label: str = ""


MONTHS = {
    1: ("송학", "pine"),
    2: ("매조", "plum"),
    3: ("벚꽃", "cherry"),
    4: ("흑싸리", "wisteria"),
    5: ("난초", "iris"),
    6: ("모란", "peony"),
    7: ("홍싸리", "bush clover"),
    8: ("공산", "pampas"),
    9: ("국화", "chrysanthemum"),
    10: ("단풍", "maple"),
    11: ("똥", "paulownia"),
    12: ("비", "rain"),
}


def _deck() -> tuple[Card, ...]:
    g, a, r, j = BRIGHT, ANIMAL, RIBBON, JUNK
    rows = [
        Card("1g", 1, g, label="학 crane"),
        Card("1r", 1, r, ribbon_set=HONG_DAN, label="홍단 red poem"),
        Card("2a", 2, a, bird=True, label="꾀꼬리 bird"),
        Card("2r", 2, r, ribbon_set=HONG_DAN, label="홍단 red poem"),
        Card("3g", 3, g, label="만개 curtain"),
        Card("3r", 3, r, ribbon_set=HONG_DAN, label="홍단 red poem"),
        Card("4a", 4, a, bird=True, label="두견새 cuckoo"),
        Card("4r", 4, r, ribbon_set=CHO_DAN, label="초단 red plain"),
        Card("5a", 5, a, label="다리 bridge"),
        Card("5r", 5, r, ribbon_set=CHO_DAN, label="초단 red plain"),
        Card("6a", 6, a, label="나비 butterflies"),
        Card("6r", 6, r, ribbon_set=CHEONG_DAN, label="청단 blue"),
        Card("7a", 7, a, label="멧돼지 boar"),
        Card("7r", 7, r, ribbon_set=CHO_DAN, label="초단 red plain"),
        Card("8g", 8, g, label="달 moon"),
        Card("8a", 8, a, bird=True, label="기러기 geese"),
        Card("9a", 9, a, label="국진 sake cup"),
        Card("9r", 9, r, ribbon_set=CHEONG_DAN, label="청단 blue"),
        Card("10a", 10, a, label="사슴 deer"),
        Card("10r", 10, r, ribbon_set=CHEONG_DAN, label="청단 blue"),
        Card("11g", 11, g, label="봉황 phoenix"),
        Card("12g", 12, g, label="비광 rain man"),
        Card("12a", 12, a, label="제비 swallow"),
        Card("12r", 12, r, label="비띠 rain ribbon"),
        Card("11jd", 11, j, junk=2, label="쌍피 double junk"),
        Card("12jd", 12, j, junk=2, label="쌍피 double junk"),
    ]
    for month in range(1, 12):
        for n in (1, 2):
            rows.append(Card(f"{month}j{n}", month, j, junk=1, label="피 junk"))
    return tuple(sorted(rows, key=lambda c: (c.month, -KIND_RANK[c.kind], c.code)))


DECK: tuple[Card, ...] = _deck()

BONUS_CARDS: dict[str, Card] = {
    c.code: c
    for c in (
        Card("b2", 0, BONUS, junk=2, label="쌍피 보너스 two-junk joker"),
        Card("b3", 0, BONUS, junk=3, label="쓰리피 보너스 three-junk joker"),
        Card("bb", 0, BONUS, junk=0, label="보스피 boss-junk joker"),
        Card("bd", 0, BONUS, junk=0, label="더블 double joker"),
        Card("bp", 0, BONUS, junk=0, label="광 보호 bright-protection joker"),
    )
}

CARDS: dict[str, Card] = {c.code: c for c in DECK} | BONUS_CARDS

CUP, BRIDGE, RAIN_BRIGHT, RAIN_ANIMAL, RAIN_RIBBON = "9a", "5a", "12g", "12a", "12r"
GODORI = frozenset({"2a", "4a", "8a"})
DOUBLE_JUNK = frozenset({"11jd", "12jd"})


def month_cards(month: int) -> tuple[Card, ...]:
    """The four cards of a month."""
    return tuple(c for c in DECK if c.month == month)


_SORT_KEYS = {code: (card.month or 13, -KIND_RANK[card.kind], code) for code, card in CARDS.items()}


def sort_key(code: str) -> tuple[int, int, str]:
    """Order cards by month, then bright → animal → ribbon → junk."""
    return _SORT_KEYS[code]
