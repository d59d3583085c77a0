"""The series' configuration: what the table agreed before the first hand."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from .. import checks
from ..cards import BONUS_CARDS
from ..checks import MAX_NAME
from ..errors import EngineError
from ..model import ConfigJSON, RulesDoc
from ..rules import Rules, rules_from
from .dealer import Draw, draw_for_dealer

MIN_PLAYERS, MAX_PLAYERS = 2, 7
MAX_LENGTH = 1000
DEFAULT_LENGTH = 12
DEFAULT_CHIP_VALUE = 100
DEFAULT_CURRENCY = "₩"

SERIES_FIELDS = frozenset(
    {
        "note",
        "name",
        "players",
        "rules",
        "chip_value",
        "currency",
        "length",
        "first_dealer",
        "draw",
        "hands",
    }
)


@dataclass(frozen=True, slots=True)
class SeriesConfig:
    """What the table agreed before the first hand."""

    players: tuple[str, ...]  # at the table, in seating order going to the right
    rules: Rules
    rules_doc: RulesDoc  # {"preset", "options"}: passed on to every hand
    first_dealer: str
    chip_value: float = DEFAULT_CHIP_VALUE
    currency: str = DEFAULT_CURRENCY
    length: int | None = DEFAULT_LENGTH  # None: open-ended
    draw: Draw | None = None

    @property
    def gwangpalli(self) -> bool:
        return len(self.players) > 3

    def to_json(self) -> ConfigJSON:
        out: ConfigJSON = {
            "players": list(self.players),
            "rules": self.rules_doc,
            "chip_value": self.chip_value,
            "currency": self.currency,
            "length": self.length,
            "first_dealer": self.first_dealer,
        }
        if self.draw:
            out["draw"] = self.draw.to_json()
        return out


def config_from(doc: Any) -> SeriesConfig:
    """Check the series' settings (everything but ``hands``)."""
    if not isinstance(doc, dict):
        raise EngineError("bad_series", "A series is a JSON object.", "")
    unknown = sorted(set(doc) - SERIES_FIELDS)
    if unknown:
        raise EngineError("bad_series", f"Unknown field {unknown[0]!r} in the series.", unknown[0])
    if not isinstance(doc.get("note"), str | None):
        raise EngineError("bad_value", "note is a line of text (or null).", "note")
    players = checks.players(
        doc.get("players"),
        MIN_PLAYERS,
        MAX_PLAYERS,
        "bad_series_players",
        f"players lists {MIN_PLAYERS} to {MAX_PLAYERS} distinct names of 1–{MAX_NAME} characters, in seating order.",
        "players",
    )
    rules, rules_doc = rules_of(doc.get("rules"))
    if len(players) == MAX_PLAYERS and not sum(rules.bonus_count(b) for b in BONUS_CARDS):
        raise EngineError(
            "bad_series_players",
            "Seven at the table are dealt 7 × 7 = 49 cards: the deck needs at least one joker (rules.md §10, pagat).",
            "players",
        )
    chip = checks.chip_value(doc.get("chip_value", DEFAULT_CHIP_VALUE), "chip_value")
    currency = doc.get("currency", DEFAULT_CURRENCY)
    if not isinstance(currency, str) or len(currency) > 8 or any(unicodedata.category(c) == "Cc" for c in currency):
        raise EngineError(
            "bad_value", "currency is a short label such as ₩, KRW or $, no control characters.", "currency"
        )
    length = doc.get("length", DEFAULT_LENGTH)
    if length is not None and not checks.is_whole(length, 1, MAX_LENGTH):
        raise EngineError("bad_value", f"length is a number of hands from 1 to {MAX_LENGTH} (or null).", "length")
    draw = _draw_of(doc.get("draw"), players)
    dealer = _first_dealer(doc.get("first_dealer"), players, draw)
    return SeriesConfig(players, rules, rules_doc, dealer, chip, currency, length, draw)


def _first_dealer(dealer: object, players: tuple[str, ...], draw: Draw | None) -> str:
    """The first dealer: as given (and as the draw made them, where one is recorded), else the
    draw's, else the first at the table."""
    if dealer is None:
        return draw.dealer if draw else players[0]
    if not isinstance(dealer, str) or dealer not in players:
        raise EngineError("dealer_not_at_table", f"{dealer!r} is not at the table.", "first_dealer")
    if draw and draw.dealer != dealer:
        raise EngineError("bad_draw", f"The draw makes {draw.dealer} the first dealer, not {dealer}.", "first_dealer")
    return dealer


def _draw_of(spec: object, players: tuple[str, ...]) -> Draw | None:
    """The draw for the first dealer the series records, checked; None when it records none."""
    if spec is None:
        return None
    if not isinstance(spec, dict) or set(spec) - {"time", "cards", "redraws"}:
        raise EngineError("bad_draw", "draw is {time, cards, redraws}.", "draw")
    redraws = spec.get("redraws", [])
    if not isinstance(redraws, list):
        raise EngineError("bad_draw", "redraws lists the rounds drawn again after a tie.", "draw.redraws")
    return draw_for_dealer(players, spec.get("time"), [spec.get("cards"), *redraws])


def rules_of(spec: object) -> tuple[Rules, RulesDoc]:
    """The series' rules, and the spec every hand is given: ``{preset, options}``."""
    preset, options = checks.rules_spec(spec, "rules is {preset, options}.", "rules", closed=True)
    options = options or {}
    return rules_from(preset, options), {"preset": preset, "options": dict(options)}
