"""What the app's front ends (the pages and the API) read from the engine, in one place.

The web only maps the engine's answers to templates and JSON: it imports from here, never from the
engine's modules, so what it depends on is this list. Constants that size its forms (months, card
codes, event kinds, junk reasons), the typed hints of a live hand, the checks of a new table, the
contract, and the few answers of the series the pages show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cards import BONUS_CARDS, BRIGHT, CARDS, CHEONG_DAN, CHO_DAN, DECK, HONG_DAN, JUNK, MONTHS, RIBBON
from .checks import MAX_NAGARI_CARRY
from .combinations import COMBINATION_RECORDS
from .doubles import DOUBLES
from .errors import ERROR_CODES, EngineError
from .group.ledger import MAX_PAYMENT_POINTS, LedgerRow, Owed
from .group.stats import Biggest, PlayerStats
from .group.titles import Title
from .live import codec, hints, kinds
from .live.events import JUNK_REASONS, SOURCES
from .live.hand import EVENTS, META_FIELDS, HandSetup, HandState
from .live.takeback import own_last
from .live.turns import turns_ahead
from .model import RulesDoc
from .payout import money
from .rules import (
    CHOICE_LABELS,
    OPTIONS,
    PRESET_LABELS,
    PRESET_WORDS,
    PRESETS,
    OptionValue,
    Rules,
    changed_options,
    rules_from,
)
from .series import MAX_LENGTH, MAX_NAME, MAX_PLAYERS, MIN_PLAYERS, config_from
from .series.dealer import DAY, NIGHT
from .series.gwangpalli import Claim, Seating, choose, claims, nagari_factor, payable
from .series.model import Deal
from .summary.contract import score_summary
from .summary.facts import FIXED_KINDS, OutcomeType
from .trail import STEP_WORDS

__all__ = [
    "BONUS_CARDS",
    "BRIGHT",
    "CARDS",
    "CHEONG_DAN",
    "CHOICE_LABELS",
    "CHO_DAN",
    "COMBINATION_RECORDS",
    "DAY",
    "DECK",
    "DOUBLES",
    "ERROR_CODES",
    "EVENTS",
    "FIXED_KINDS",
    "HONG_DAN",
    "JUNK",
    "JUNK_REASONS",
    "MAX_LENGTH",
    "MAX_NAGARI_CARRY",
    "MAX_NAME",
    "MAX_PAYMENT_POINTS",
    "MAX_PLAYERS",
    "META_FIELDS",
    "MIN_PLAYERS",
    "MONTHS",
    "NIGHT",
    "OPTIONS",
    "PRESETS",
    "PRESET_LABELS",
    "PRESET_WORDS",
    "RIBBON",
    "SOURCES",
    "STEP_WORDS",
    "Biggest",
    "Claim",
    "Deal",
    "EngineError",
    "HandSetup",
    "HandState",
    "LedgerRow",
    "OptionValue",
    "OutcomeType",
    "Owed",
    "PlayerStats",
    "Rules",
    "RulesDoc",
    "Seating",
    "Title",
    "changed_options",
    "codec",
    "config_from",
    "hints",
    "kinds",
    "money",
    "nagari_factor",
    "own_last",
    "payable",
    "rules_from",
    "score_summary",
    "sitters_of",
    "sitters_paid",
    "turns_ahead",
]


def sitters_of(players: Sequence[str], dealer: str, choices: object) -> Seating | None:
    """광팔기: who plays the hand and who was made to sit out, or None when the choices are refused
    (the series reports that refusal where the hand is counted)."""
    try:
        return choose(players, dealer, choices)
    except EngineError:
        return None


def sitters_paid(shown: Mapping | None, seating: Seating, players: int, rules: Rules) -> tuple[Claim, ...]:
    """광팔기: what each forced sitter is owed for the cards shown (rules.md §10 pays it at once);
    nothing when the cards shown are refused (the series reports it)."""
    if not shown:
        return ()
    try:
        return tuple(c for c in claims(shown, seating, players, rules) if c.points)
    except EngineError:
        return ()
