"""What happened in a hand, apart from the house rules: the input of ``payout``.

``contract.parse_summary`` builds these from the JSON summary after checking it;
the live hand builds the same facts from its event log (``live.summary.facts``), with no
summary to parse.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType
from typing import NamedTuple

from ..model import Outcome, OutcomeType

__all__ = [
    "FIXED_KINDS",
    "PPUK_CHAIN_KINDS",
    "Dokbak",
    "DokbakReason",
    "Fixed",
    "HandFacts",
    "Outcome",
    "OutcomeType",
    "Showdown",
]


class DokbakReason(str, Enum):
    """Why one loser pays for both (rules.md §6), in order of precedence."""

    SHOWDOWN = "showdown"
    GO_BAK = "go_bak"
    OE_MYEON = "oe_myeon"


FIXED_KINDS = (
    "first_turn_ppuk",
    "first_turn_ttadak",
    "first_turn_chok",
    "first_turn_four",
    "boar_pot",
    "consecutive_ppuk",
    "three_consecutive_ppuk",
)
# The fixed payments of the ppuk chain, link by link (연뻑 and 삼연뻑 follow the first-turn ppuk).
PPUK_CHAIN_KINDS = ("first_turn_ppuk", "consecutive_ppuk", "three_consecutive_ppuk")


class Dokbak(NamedTuple):
    player: str
    reason: DokbakReason
    last_card: bool = False  # oe-myeon exception b: it was the loser's last card


class Showdown(NamedTuple):
    offered_by: str
    refused_by: str


class Fixed(NamedTuple):
    kind: str
    player: str


NOTHING: Mapping = MappingProxyType({})  # the shared, read-only default of the per-player fields


class HandFacts(NamedTuple):
    """Immutable, and a tuple: built once per summary, it should cost next to nothing."""

    players: tuple[str, ...]
    outcome: Outcome
    captures: Mapping[str, tuple[str, ...]] = NOTHING
    junk: Mapping[str, int] = NOTHING
    gos: Mapping[str, int] = NOTHING
    shakes: Mapping[str, tuple[int, ...]] = NOTHING
    bombs: Mapping[str, tuple[int, ...]] = NOTHING
    dokbak: Dokbak | None = None
    showdown: Showdown | None = None
    last_go: str | None = None
    nagari_carry: int = 0
    fixed: tuple[Fixed, ...] = ()
    mission: int = 1
    weol_yak: tuple[str, ...] = ()
    chip_value: float = 100
    dealer: str | None = None
    score_at_last_go: Mapping[str, int] = NOTHING  # where known: a live hand
    reverse_go: tuple[str, ...] = ()  # players who said a go after an opponent's go (역고)
    masks: Mapping[str, int] = NOTHING  # the deck mask of captures without bonus cards, when known
    mission_by: str | None = None  # who completed the mission, when named: it multiplies only their win

    def opponents(self, player: str) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != player)
