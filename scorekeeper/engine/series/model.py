"""What a series produces: its deals, the ledger's entries, the next deal, the series itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import EngineError
from ..model import DealJSON, EntryJSON, NextDealJSON, OutcomeJSON, ResultJSON, SeriesJSON, SetupJSON, TransferJSON
from ..payout import money
from ..trail import net_of
from .config import SeriesConfig
from .gwangpalli import Claim, Seating
from .settle import settle_up

# Ledger kinds.
HAND_PAYMENT, FIXED, GWANGPALLI = "hand_payment", "fixed", "gwangpalli"
KIND_LABELS = {
    HAND_PAYMENT: "판돈 hand payment",
    FIXED: "고정 지불 fixed payment",
    GWANGPALLI: "광팔기 gwangpalli compensation",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One transfer of the ledger."""

    index: int  # the hand record it comes from
    hand: int  # the hand's number in the series (1, 2, …)
    kind: str  # hand_payment, fixed, gwangpalli
    payer: str
    payee: str
    points: int
    reason: str  # the payment's kind: stop, chongtong, first_turn_ppuk … or gwangpalli
    trail: tuple[dict, ...] = ()

    def to_json(self, chip_value: float) -> EntryJSON:
        return {
            "hand": self.hand,
            "index": self.index,
            "kind": self.kind,
            "label": KIND_LABELS[self.kind],
            "reason": self.reason,
            "from": self.payer,
            "to": self.payee,
            "points": self.points,
            "money": money(self.points, chip_value),
            "trail": list(self.trail),
        }


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand record, replayed: who dealt and played, how it ended, what moved."""

    index: int
    number: int | None  # None for a void deal, which is not a hand
    dealer: str
    seating: Seating
    carry: int  # nagari before this hand, passed to it as nagari_carry
    outcome: OutcomeJSON  # the contract's outcome
    winners: tuple[str, ...]
    entries: tuple[Entry, ...]
    balances: dict[str, int]  # running balances after this deal
    result: ResultJSON = field(repr=False)  # the contract's result

    @property
    def counted(self) -> bool:
        return self.number is not None

    @property
    def net(self) -> dict[str, int]:
        return net_of(self.balances, self.entries)

    def to_json(self, chip_value: float) -> DealJSON:
        out: DealJSON = {
            "index": self.index,
            "number": self.number,
            "counted": self.counted,
            "dealer": self.dealer,
            "players": list(self.seating.players),
            "carry": self.carry,
            "outcome": self.outcome,
            "winner": self.winners[0] if self.winners else None,
            "net": self.net,
            "net_money": {p: money(v, chip_value) for p, v in self.net.items()},
            "balances": dict(self.balances),
            "scores": {
                p: {"points": s["points"], "lines": [ln["id"] for ln in s["lines"]]}
                for p, s in self.result.get("scores", {}).items()
            },
        }
        if self.seating.sitting:
            out["sitting"] = self.seating.sitting
        if self.result.get("notes"):
            out["notes"] = self.result["notes"]
        if self.result.get("warnings"):
            out["warnings"] = self.result["warnings"]
        return out


@dataclass(frozen=True, slots=True)
class Pending:
    """Gwangpalli compensation owed at the end of a hand that ended in nagari."""

    index: int  # the hand record the claim was made in
    claim: Claim


@dataclass(frozen=True, slots=True)
class NextDeal:
    """What the next hand needs to know."""

    dealer: str
    nagari_carry: int
    players: tuple[str, ...] | None  # fixed after a nagari at a gwangpalli table
    choosers: tuple[str, ...]  # who chooses to play or sit, in order from the dealer's right
    pending: tuple[Pending, ...] = ()

    def to_json(self) -> NextDealJSON:
        return {
            "dealer": self.dealer,
            "nagari_carry": self.nagari_carry,
            "players": list(self.players) if self.players else None,
            "choosers": list(self.choosers),
            "pending_compensation": [
                {"index": p.index, "sitter": p.claim.sitter, "points": p.claim.points} for p in self.pending
            ],
        }


@dataclass(frozen=True, slots=True)
class Series:
    """A series replayed: every deal, the ledger, the balances, the next deal."""

    config: SeriesConfig
    records: tuple[dict, ...]
    deals: tuple[Deal, ...]
    ledger: tuple[Entry, ...]
    balances: dict[str, int]
    played: int
    next: NextDeal

    @property
    def finished(self) -> bool:
        return self.config.length is not None and self.played >= self.config.length

    def settle_up(self) -> list[TransferJSON]:
        """Who pays whom to settle, in points and money: fewest transfers."""
        chip = self.config.chip_value
        return [
            {"from": t.payer, "to": t.payee, "points": t.points, "money": money(t.points, chip)}
            for t in settle_up(self.balances)
        ]

    def setup(self, choices: Mapping[str, str] | None = None) -> SetupJSON:
        """The setup of the next hand (for a live log): players, dealer, rules, carry, chip value."""
        if self.finished:
            raise EngineError("series_finished", f"The series had its {self.config.length} hands.", "hands")
        from .play import seating_of, setup_of  # play builds Series: imported when first needed

        record = {"choices": dict(choices)} if choices is not None else {}
        return setup_of(self.config, seating_of(self.config, self.next, record, "next").players, self.next)

    # Editing: a new series, replayed from the records.
    def append(self, record: dict) -> Series:
        return _replayed(self.config, (*self.records, record))

    def replace(self, index: int, record: dict) -> Series:
        records = list(self.records)
        records[index] = record
        return _replayed(self.config, records)

    def delete(self, index: int) -> Series:
        records = list(self.records)
        del records[index]
        return _replayed(self.config, records)

    def to_json(self) -> SeriesJSON:
        chip = self.config.chip_value
        return {
            "ok": True,
            **self.config.to_json(),
            "hands": [d.to_json(chip) for d in self.deals],
            "ledger": [e.to_json(chip) for e in self.ledger],
            "balances": dict(self.balances),
            "balances_money": {p: money(v, chip) for p, v in self.balances.items()},
            "settle_up": self.settle_up(),
            "played": self.played,
            "finished": self.finished,
            "next_dealer": self.next.dealer,
            "next": self.next.to_json(),
        }


def _replayed(config: SeriesConfig, records: Sequence[dict]) -> Series:
    from .play import play  # play builds Series: imported when first needed

    return play(config, records)
