"""The engine's domain types: what its parts hand one another, typed, and JSON only at the edges.

A hand's outcome, a line of a payment's trail (``Step``), a payment, a settled hand, a hand's
result as a series reads it, a transfer that settles up. The contract
(``summary/contract.py``) is the JSON edge of scoring: it reads a summary into ``HandFacts``
and writes a ``Settlement`` out; a series reads each hand's result into a ``HandResult``.

The types on the scoring path (``Outcome``, ``Step``, ``Payment``, ``Note``, ``Settlement``) are
named tuples: immutable and typed like a frozen dataclass, but several times cheaper to build
and unpack, and a summary builds dozens of steps (the engine benchmark counts them).

>>> Step("base", value=5).to_json()
{'id': 'base', 'label': '점수 score', 'value': 5}
>>> Step.from_json(Step("go_bonus", value=1, detail=(("gos", 1),)).to_json())
Step(id='go_bonus', value=1, factor=None, detail=(('gos', 1),))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Literal, NamedTuple, NotRequired, TypedDict

from .rules import OptionValue
from .scoring import Score
from .trail import NOTE_LABELS, STEP_LABELS, net_of

Card = str  # a card's code: "1g", "9a", "12jd", "b2"
Player = str  # a player's name, as the summary gives it
Month = int  # 1 to 12


class OutcomeType(str, Enum):
    """How a hand ended (rules.md §2)."""

    STOP = "stop"
    """스톱: a player with an eligible score stopped and wins."""
    NAGARI = "nagari"
    """나가리: no winner; the next hand pays double."""
    CHONGTONG = "chongtong"
    """총통: four of a month in hand at the deal, an instant win (fixed payment)."""
    THREE_PPUK = "three_ppuk"
    """삼뻑: a player's third ppuk of the hand, an instant win (fixed payment)."""
    VOID_DEAL = "void_deal"
    """Four of a month on the table at the deal: redeal, no payment."""


_OUTCOME_TYPES = {t.value: t for t in OutcomeType}
# Each type's word, read by ``Outcome.to_json`` once a summary: an enum's ``value`` is a property,
# a few times dearer than a dict's lookup.
_TYPE_WORDS = {t: t.value for t in OutcomeType}


class Outcome(NamedTuple):
    type: OutcomeType
    winners: tuple[Player, ...] = ()
    month: Month | None = None

    @property
    def winner(self) -> Player | None:
        return self.winners[0] if self.winners else None

    def to_json(self) -> OutcomeJSON:
        """The contract's outcome: type, the winner (and every winner when several), the month."""
        out: OutcomeJSON = {"type": _TYPE_WORDS[self.type]}
        if self.winners:
            out["winner"] = self.winners[0]
            if len(self.winners) > 1:
                out["winners"] = list(self.winners)
        if self.month:
            out["month"] = self.month
        return out

    @classmethod
    def from_json(cls, doc: Mapping) -> Outcome:
        """The contract's outcome read back (as ``to_json`` writes it, or a live hand's)."""
        winners = doc.get("winners") or ([doc["winner"]] if doc.get("winner") else [])
        return cls(_OUTCOME_TYPES[doc["type"]], tuple(winners), doc.get("month"))


class Step(NamedTuple):
    """One line of a payment's trail: an amount added (``value``) or a double (``factor``)."""

    id: str
    value: int | None = None
    factor: int | None = None
    detail: tuple[tuple[str, object], ...] = ()

    def to_json(self) -> dict:
        id, value, factor, detail = self  # one unpacking: quicker than field lookups
        out: dict = {"id": id, "label": STEP_LABELS[id]}
        if value is not None:
            out["value"] = value
        if factor is not None:
            out["factor"] = factor
        for key, val in detail:
            out[key] = val
        return out

    @classmethod
    def from_json(cls, doc: Mapping) -> Step:
        """A step read back from the contract's JSON: every key but id, label, value and factor is
        its detail, in order (so ``to_json`` writes it again byte for byte)."""
        detail = tuple((k, v) for k, v in doc.items() if k not in _STEP_KEYS)
        return cls(doc["id"], doc.get("value"), doc.get("factor"), detail)


_STEP_KEYS = frozenset({"id", "label", "value", "factor"})


class Payment(NamedTuple):
    payer: Player
    payee: Player
    points: int
    kind: str  # "stop", or the fixed payment's id
    trail: tuple[Step, ...]

    @classmethod
    def from_json(cls, doc: Mapping) -> Payment:
        """A payment of the contract's result read back (its money is the chip value's, not kept)."""
        return cls(doc["from"], doc["to"], doc["points"], doc["kind"], tuple(map(Step.from_json, doc["trail"])))


class Note(NamedTuple):
    """Why a rule did not apply, or applied to another player: a settlement's notes."""

    id: str
    player: Player | None = None

    def to_json(self) -> dict:
        out = {"id": self.id, "label": NOTE_LABELS[self.id]}
        if self.player is not None:
            out["player"] = self.player
        return out


class Settlement(NamedTuple):
    scores: dict[Player, Score]
    payments: tuple[Payment, ...]
    notes: tuple[Note, ...] = ()
    target: int = 0

    @property
    def net(self) -> dict[Player, int]:
        return net_of(self.scores, self.payments)


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand as a series reads it, from the contract's result (a quick-entry summary's, or
    the one a live hand answers): how it ended and what was paid; ``json`` is that result as the
    pages and the API show it."""

    outcome: Outcome
    payments: tuple[Payment, ...]
    json: ResultJSON

    @classmethod
    def from_json(cls, result: ResultJSON) -> HandResult:
        return cls(Outcome.from_json(result["outcome"]), tuple(map(Payment.from_json, result["payments"])), result)


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment that settles up balances."""

    payer: Player
    payee: Player
    points: int


# -- The JSON the engine answers, by shape ------------------------------------------------------
# What the contract and a series write for the API and the pages: typed here so that what reads
# them (the series, the pages' view models) says which keys it expects. They stay dicts: each is
# written out as it is. A key that is a Python keyword ("from") needs the functional form.


class OutcomeJSON(TypedDict):
    """The contract's outcome (``Outcome.to_json``)."""

    type: str
    winner: NotRequired[Player]
    winners: NotRequired[list[Player]]
    month: NotRequired[Month]


# A transfer that settles up, in points and money.
TransferJSON = TypedDict("TransferJSON", {"from": Player, "to": Player, "points": int, "money": float})


class RulesDoc(TypedDict):
    """The rules a series passes on to each of its hands: a preset and its changed options."""

    preset: str
    options: dict[str, OptionValue]


class DrawJSON(TypedDict):
    """The draw for the first dealer: the cards of each round and who won it."""

    time: str
    cards: dict[Player, Card]
    redraws: list[dict[Player, Card]]
    dealer: Player


class ConfigJSON(TypedDict):
    """A series' settings as it answers them."""

    players: list[Player]
    rules: RulesDoc
    chip_value: float
    currency: str
    length: int | None
    first_dealer: Player
    draw: NotRequired[DrawJSON]


class SetupJSON(TypedDict):
    """What a series tells its next hand (a live log's set-up, a summary's filled-in fields)."""

    players: list[Player]
    dealer: Player
    rules: RulesDoc
    nagari_carry: int
    chip_value: float


# One transfer of a series' ledger.
EntryJSON = TypedDict(
    "EntryJSON",
    {
        "hand": int,
        "index": int,
        "kind": str,
        "label": str,
        "reason": str,
        "from": Player,
        "to": Player,
        "points": int,
        "money": float,
        "trail": list[dict],
    },
)


class HandScoreJSON(TypedDict):
    """A player's score in a series' hand: the points and the ids of the lines that made them."""

    points: int
    lines: list[str]


class DealJSON(TypedDict):
    """One hand record of a series, replayed."""

    index: int
    number: int | None
    counted: bool
    dealer: Player
    players: list[Player]
    carry: int
    outcome: OutcomeJSON
    winner: Player | None
    net: dict[Player, int]
    net_money: dict[Player, float]
    balances: dict[Player, int]
    scores: dict[Player, HandScoreJSON]
    sitting: NotRequired[dict[Player, str]]  # forced or voluntary
    notes: NotRequired[list[dict]]
    warnings: NotRequired[list[dict]]


class PendingJSON(TypedDict):
    """Gwangpalli compensation still owed: the hand record of the claim, the sitter, the points."""

    index: int
    sitter: Player
    points: int


class NextDealJSON(TypedDict):
    """What the next hand of a series needs to know."""

    dealer: Player
    nagari_carry: int
    players: list[Player] | None
    choosers: list[Player]
    pending_compensation: list[PendingJSON]


class SeriesJSON(ConfigJSON):
    """A series replayed, as ``scorekeeper replay``, the API and the pages answer it."""

    ok: bool
    hands: list[DealJSON]
    ledger: list[EntryJSON]
    balances: dict[Player, int]
    balances_money: dict[Player, float]
    settle_up: list[TransferJSON]
    played: int
    finished: bool
    next_dealer: Player
    next: NextDealJSON


class RefusedJSON(TypedDict):
    """A document the engine refused, as a replay or the contract answers it: the coded errors."""

    ok: Literal[False]
    errors: list[dict]


# One payment of the contract's result: who pays whom, in points and money, and its trail.
PaymentJSON = TypedDict(
    "PaymentJSON",
    {"from": Player, "to": Player, "points": int, "money": float, "kind": str, "trail": list[dict]},
)


class ResultJSON(TypedDict):
    """The contract's result of a hand (``scorekeeper score``, POST /api/v1/score, a finished live
    hand): how it ended, each player's score, the payments, the net; unknown fields warned of."""

    ok: Literal[True]
    outcome: OutcomeJSON
    target: int
    scores: dict[Player, dict]
    payments: list[PaymentJSON]
    net: dict[Player, int]
    net_money: dict[Player, float]
    notes: list[dict]
    warnings: NotRequired[list[dict]]
