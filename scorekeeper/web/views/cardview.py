"""The 48 cards as the templates draw them: month, flower, kind, ribbon, owner.

Presentation only: which card is which comes from ``engine.cards``; this module
adds the CSS classes and the short Korean words the card faces print (templates mark
them lang="ko"). A card's name in words is ``terms.card_name``. Also the cards a table's pickers
offer under its rules (``card_lists``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from ...engine.facade import (
    BONUS_CARDS,
    BRIGHT,
    CARDS,
    CHEONG_DAN,
    CHO_DAN,
    DECK,
    FIXED_KINDS,
    HONG_DAN,
    JUNK,
    MONTHS,
    RIBBON,
    Rules,
    payable,
)
from ..catalogue import terms

RIBBON_CLASS = {HONG_DAN: "rb-hong", CHEONG_DAN: "rb-cheong", CHO_DAN: "rb-cho", None: "rb-plain"}
RIBBON_TEXT = {HONG_DAN: "홍단", CHEONG_DAN: "청단", CHO_DAN: "초단", None: "띠"}
PLAYER_COLOURS = 7  # .p0 … .p6 in app.css


@dataclass(frozen=True, slots=True)
class Face:
    code: str
    month: int
    flower_ko: str  # printed on the face, as the mark is (lang="ko"); "" for a bonus card
    kind: str
    mark: str  # the big word on the face: 광, 쌍피, 홍단, the animal's name …
    classes: str
    mark_id: str = ""  # its word in English mode: the catalogue's ``mark_<id>`` (bright, red, bird …)

    @property
    def double(self) -> bool:
        return "double" in self.classes


def _face(code: str) -> Face:
    card = CARDS[code]
    ko_name = card.label.split(" ")[0]
    classes = [f"k-{card.kind}", f"m{card.month}"]
    if card.kind == BRIGHT:
        mark = "광"
    elif card.kind == RIBBON:
        mark = RIBBON_TEXT[card.ribbon_set]
        classes.append(RIBBON_CLASS[card.ribbon_set])
    elif card.kind == JUNK:
        mark = "쌍피" if card.junk == 2 else "피"
        if card.junk == 2:
            classes.append("double")
    elif card.month == 0:
        mark = {"b2": "2피", "b3": "3피"}.get(code, ko_name)
        classes.append("double")
    else:
        mark = ko_name
        if card.bird:
            classes.append("bird")
    flower_ko = MONTHS[card.month][0] if card.month in MONTHS else ""
    return Face(code, card.month, flower_ko, card.kind, mark, " ".join(classes), _mark_id(card, code))


RIBBON_ID = {HONG_DAN: "red", CHEONG_DAN: "blue", CHO_DAN: "grass", None: "ribbon"}


def _mark_id(card, code: str) -> str:
    if card.kind == BRIGHT:
        return "bright"
    if card.kind == RIBBON:
        return RIBBON_ID[card.ribbon_set]
    if card.kind == JUNK:
        return "double" if card.junk == 2 else "junk"
    if card.month == 0:
        return code  # the bonus cards: b2, b3, bb, bd, bp
    return "bird" if card.bird else code  # 5a, 6a, 7a, 9a, 10a: each its own word


FACES: dict[str, Face] = {code: _face(code) for code in CARDS}
BY_MONTH: list[tuple[int, list[Face]]] = [(m, [FACES[c.code] for c in DECK if c.month == m]) for m in MONTHS]
BONUS_FACES = [FACES[c] for c in BONUS_CARDS]


def player_classes(players) -> dict[str, str]:
    """Each player's colour class, by seat at the table."""
    return {p: f"p{i % PLAYER_COLOURS}" for i, p in enumerate(players)}


class CardLists(TypedDict):
    """The cards the pickers offer under a table's rules."""

    bonus_codes: list[str]  # the jokers the table plays with
    matter: list[Face]  # the cards that count toward a score (and the jokers)
    plain_junk: list[Face]
    payable: list[Face]  # the cards a forced sitter may show (광팔기)
    fixed_kinds: list[str]  # the fixed payments the rules play
    fixed_labels: dict[str, str]


def card_lists(rules: Rules) -> CardLists:
    """The cards the pickers offer under the table's rules."""
    bonus = [c for c in BONUS_CARDS if rules.bonus_count(c)]
    matter, plain_junk, shown = _piles_offered(bonus)
    return {
        "bonus_codes": bonus,
        "matter": matter,
        "plain_junk": plain_junk,
        "payable": shown,
        "fixed_kinds": [k for k in FIXED_KINDS if getattr(rules, k)],
        "fixed_labels": {k: terms.step_label({"id": k}) for k in FIXED_KINDS},
    }


def _piles_offered(bonus: list[str]) -> tuple[list[Face], list[Face], list[Face]]:
    """The faces of the cards that matter to a score, the plain junk, and the cards a sitter may show."""
    deck = [FACES[c.code] for c in DECK]
    return (
        [f for f in deck if f.kind != "junk" or CARDS[f.code].junk == 2] + [FACES[c] for c in bonus],
        [f for f in deck if f.kind == "junk" and CARDS[f.code].junk == 1],
        [FACES[c.code] for c in DECK if payable(c.code)] + [FACES[c] for c in bonus],
    )
