"""판 A series: the hands of an evening, the dealer, the nagari carry, the ledger.

A series is a pure function of its configuration and its list of hand records:
``play(config, records)`` replays them in order, so editing or deleting a past
hand recomputes everything after it (dealer, carry, seating, ledger, balances).

Each hand record is turned into a contract summary (RULES.md, DESIGN.md) and
scored by ``contract.score_summary``; that result (outcome, payments) is all the
series reads from a hand. A record is either a quick-entry summary or a live
event log replayed by ``engine.hand``; the series fills in what it knows —
players, dealer, rules, nagari carry, chip value.

- The winner deals the next hand; after a nagari the same dealer deals again and
  the next hand gets ``nagari_carry`` + 1; a void deal is not a hand and changes
  nothing (unless the rules make it the dealer's chongtong win).
- With four to seven at the table, each record says who plays (``gwangpalli``);
  after a nagari the same three play again, without choosing.
- Every transfer goes into the ledger with its hand and its trail; balances add up
  to zero after every hand; ``settle_up`` lists who pays whom.

>>> s = play(config_from({"players": ["A", "B"], "first_dealer": "B", "length": 3}), [
...     {"summary": {"captures": {"A": ["1r", "2r", "3r", "6r", "9r", "10r"]},
...                  "outcome": {"type": "stop", "winner": "A"}}}])
>>> s.balances, s.next.dealer, s.finished
({'A': 8, 'B': -8}, 'A', False)
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from . import gwangpalli
from .cards import BONUS_CARDS
from .contract import score_summary
from .dealer import Draw, draw_for_dealer, next_dealer, play_order
from .errors import EngineError
from .gwangpalli import Claim, Seating
from .payout import money
from .rules import DEFAULT_PRESET, Rules, rules_from
from .settle import settle_up

MIN_PLAYERS, MAX_PLAYERS = 2, 7
MAX_NAME = 40
MAX_LENGTH = 1000
DEFAULT_LENGTH = 12
DEFAULT_CHIP_VALUE = 100
DEFAULT_CURRENCY = "₩"

SERIES_FIELDS = frozenset({
    "note", "name", "players", "rules", "chip_value", "currency", "length", "first_dealer", "draw", "hands",
})
RECORD_FIELDS = frozenset({"summary", "log", "choices", "shown", "note"})
SUPPLIED = ("players", "dealer", "rules", "nagari_carry", "chip_value")  # filled in by the series

# Ledger kinds.
HAND_PAYMENT, FIXED, GWANGPALLI = "hand_payment", "fixed", "gwangpalli"
KIND_LABELS = {
    HAND_PAYMENT: "판돈 hand payment",
    FIXED: "고정 지불 fixed payment",
    GWANGPALLI: "광팔기 gwangpalli compensation",
}


# -- configuration ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SeriesConfig:
    """What the table agreed before the first hand."""

    players: tuple[str, ...]  # at the table, in seating order going to the right
    rules: Rules
    rules_doc: dict  # {"preset", "options"}: passed on to every hand
    first_dealer: str
    chip_value: float = DEFAULT_CHIP_VALUE
    currency: str = DEFAULT_CURRENCY
    length: int | None = DEFAULT_LENGTH  # None: open-ended
    draw: Draw | None = None

    @property
    def gwangpalli(self) -> bool:
        return len(self.players) > 3

    def to_json(self) -> dict[str, Any]:
        out = {
            "players": list(self.players), "rules": self.rules_doc, "chip_value": self.chip_value,
            "currency": self.currency, "length": self.length, "first_dealer": self.first_dealer,
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
    players = _players(doc.get("players"))
    rules, rules_doc = _rules(doc.get("rules"))
    if len(players) == MAX_PLAYERS and not sum(rules.bonus_count(b) for b in BONUS_CARDS):
        raise EngineError("bad_series_players", "Seven at the table are dealt 7 × 7 = 49 cards: the deck needs "
                          "at least one joker (RULES.md §8, pagat).", "players")
    chip = doc.get("chip_value", DEFAULT_CHIP_VALUE)
    if isinstance(chip, bool) or not isinstance(chip, (int, float)) or not 0 <= chip <= 1e9 or math.isnan(chip):
        raise EngineError("bad_value", "chip_value is the money per point, a number from 0.", "chip_value")
    currency = doc.get("currency", DEFAULT_CURRENCY)
    if not isinstance(currency, str) or len(currency) > 8:
        raise EngineError("bad_value", "currency is a short label such as ₩, KRW or $.", "currency")
    length = doc.get("length", DEFAULT_LENGTH)
    if length is not None and (isinstance(length, bool) or not isinstance(length, int)
                               or not 1 <= length <= MAX_LENGTH):
        raise EngineError("bad_value", f"length is a number of hands from 1 to {MAX_LENGTH} (or null).", "length")
    draw = None
    if doc.get("draw") is not None:
        spec = doc["draw"]
        if not isinstance(spec, dict) or set(spec) - {"time", "cards", "redraws"}:
            raise EngineError("bad_draw", "draw is {time, cards, redraws}.", "draw")
        redraws = spec.get("redraws", [])
        if not isinstance(redraws, list):
            raise EngineError("bad_draw", "redraws lists the rounds drawn again after a tie.", "draw.redraws")
        draw = draw_for_dealer(players, spec.get("time"), [spec.get("cards"), *redraws])
    dealer = doc.get("first_dealer")
    if dealer is None:
        dealer = draw.dealer if draw else players[0]
    elif dealer not in players:
        raise EngineError("dealer_not_at_table", f"{dealer!r} is not at the table.", "first_dealer")
    elif draw and draw.dealer != dealer:
        raise EngineError("bad_draw", f"The draw makes {draw.dealer} the first dealer, not {dealer}.", "first_dealer")
    return SeriesConfig(players, rules, rules_doc, dealer, chip, currency, length, draw)


def _players(players: Any) -> tuple[str, ...]:
    ok = (
        isinstance(players, list) and MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        and all(isinstance(p, str) and p.strip() and len(p) <= MAX_NAME for p in players)
        and len(set(players)) == len(players)
    )
    if not ok:
        raise EngineError(
            "bad_series_players",
            f"players lists {MIN_PLAYERS} to {MAX_PLAYERS} distinct names of 1–{MAX_NAME} characters, "
            "in seating order.", "players")
    return tuple(players)


def _rules(spec: Any) -> tuple[Rules, dict]:
    spec = spec or {}
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict) or set(spec) - {"preset", "options"}:
        raise EngineError("bad_value", "rules is {preset, options}.", "rules")
    preset, options = spec.get("preset", DEFAULT_PRESET), spec.get("options") or {}
    return rules_from(preset, options), {"preset": preset, "options": dict(options)}


# -- what the series produces -----------------------------------------------------------

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

    def to_json(self, chip_value: float) -> dict[str, Any]:
        return {
            "hand": self.hand, "index": self.index, "kind": self.kind, "label": KIND_LABELS[self.kind],
            "reason": self.reason, "from": self.payer, "to": self.payee, "points": self.points,
            "money": money(self.points, chip_value), "trail": list(self.trail),
        }


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand record, replayed: who dealt and played, how it ended, what moved."""

    index: int
    number: int | None  # None for a void deal, which is not a hand
    dealer: str
    seating: Seating
    carry: int  # nagari before this hand, passed to it as nagari_carry
    outcome: dict  # the contract's outcome
    winners: tuple[str, ...]
    entries: tuple[Entry, ...]
    balances: dict[str, int]  # running balances after this deal
    result: dict = field(repr=False, default_factory=dict)  # the contract's result

    @property
    def counted(self) -> bool:
        return self.number is not None

    @property
    def net(self) -> dict[str, int]:
        net = dict.fromkeys(self.balances, 0)
        for e in self.entries:
            net[e.payer] -= e.points
            net[e.payee] += e.points
        return net

    def to_json(self, chip_value: float) -> dict[str, Any]:
        out = {
            "index": self.index, "number": self.number, "counted": self.counted, "dealer": self.dealer,
            "players": list(self.seating.players), "carry": self.carry, "outcome": self.outcome,
            "winner": self.winners[0] if self.winners else None,
            "net": self.net, "net_money": {p: money(v, chip_value) for p, v in self.net.items()},
            "balances": dict(self.balances),
            "scores": {p: {"points": s["points"], "lines": [ln["id"] for ln in s["lines"]]}
                       for p, s in self.result.get("scores", {}).items()},
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

    def to_json(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer, "nagari_carry": self.nagari_carry,
            "players": list(self.players) if self.players else None, "choosers": list(self.choosers),
            "pending_compensation": [
                {"index": p.index, "sitter": p.claim.sitter, "points": p.claim.points} for p in self.pending],
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

    def settle_up(self) -> list[dict[str, Any]]:
        """Who pays whom to settle, in points and money: fewest transfers."""
        chip = self.config.chip_value
        return [{"from": t.payer, "to": t.payee, "points": t.points, "money": money(t.points, chip)}
                for t in settle_up(self.balances)]

    def setup(self, choices: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The setup of the next hand (for a live log): players, dealer, rules, carry, chip value."""
        if self.finished:
            raise EngineError("series_finished", f"The series had its {self.config.length} hands.", "hands")
        record = {"choices": dict(choices)} if choices is not None else {}
        seating = _seating(self.config, self.next, record, "next")
        return _setup(self.config, seating.players, self.next)

    # Editing: a new series, replayed from the records.
    def append(self, record: dict) -> "Series":
        return play(self.config, (*self.records, record))

    def replace(self, index: int, record: dict) -> "Series":
        records = list(self.records)
        records[index] = record
        return play(self.config, records)

    def delete(self, index: int) -> "Series":
        records = list(self.records)
        del records[index]
        return play(self.config, records)

    def to_json(self) -> dict[str, Any]:
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


# -- replaying the records --------------------------------------------------------------

def play(config: SeriesConfig, records: Sequence[dict]) -> Series:
    """Replay ``records`` in order; a refused record raises, naming its index."""
    table = config.players
    balances = dict.fromkeys(table, 0)
    nxt = _first_deal(config)
    deals, ledger, played = [], [], 0
    for i, record in enumerate(records):
        if config.length is not None and played >= config.length:
            raise _in_record(EngineError(
                "series_finished", f"The series had its {config.length} hands: no more.", ""), i)
        try:
            deal, nxt, counted = _deal(config, nxt, record, i, played + 1)
        except EngineError as err:
            raise _in_record(err, i) from None
        played += counted
        for e in deal.entries:
            balances[e.payer] -= e.points
            balances[e.payee] += e.points
        deal = dataclasses.replace(deal, balances=dict(balances))
        deals.append(deal)
        ledger.extend(deal.entries)
    return Series(config, tuple(records), tuple(deals), tuple(ledger), balances, played, nxt)


def _first_deal(config: SeriesConfig) -> NextDeal:
    return NextDeal(config.first_dealer, 0, None, _choosers(config, config.first_dealer, None))


def _choosers(config: SeriesConfig, dealer: str, fixed: tuple[str, ...] | None) -> tuple[str, ...]:
    if not config.gwangpalli or fixed:
        return ()
    return play_order(config.players, dealer)[1:]


def _in_record(err: EngineError, index: int) -> EngineError:
    """The errors of one record, with its index in the path and the message."""
    prefix = f"hands[{index}]"
    return EngineError.many([
        {**e, "path": f"{prefix}.{e['path']}" if e["path"] else prefix,
         "message": f"Hand record {index + 1}: {e['message']}", "index": index}
        for e in err.errors
    ])


def _deal(config: SeriesConfig, nxt: NextDeal, record: Any, index: int, number: int
          ) -> tuple[Deal, NextDeal, int]:
    """One record → its deal, the next deal, and 1 if it counts as a hand."""
    if not isinstance(record, dict) or set(record) - RECORD_FIELDS or ("summary" in record) == ("log" in record):
        raise EngineError("bad_hand_record", "A hand record is {\"summary\": {...}} or {\"log\": {\"events\": [...]}}, "
                          "with choices and shown at a table of four or more.", "")
    rules = config.rules
    seating = _seating(config, nxt, record, "")
    result = _hand_result(record, _setup(config, seating.players, nxt), rules)
    claims = gwangpalli.claims(record.get("shown"), seating, len(config.players), rules, "shown") \
        if config.gwangpalli else ()
    outcome = result["outcome"]
    kind = outcome["type"]
    void = kind == "void_deal"  # under void_deal_chongtong the result is the dealer's chongtong
    winners = _winners(outcome, rules, nxt.dealer)

    if void:  # redealt by the same dealer: nothing paid, nothing carried, not a hand
        deal = Deal(index, None, nxt.dealer, seating, nxt.nagari_carry, outcome, (), (), {}, result)
        return deal, nxt, 0

    entries = [
        Entry(index, number, HAND_PAYMENT if p["kind"] == "stop" else FIXED, p["from"], p["to"], p["points"],
              p["kind"], tuple(p["trail"]))
        for p in result["payments"] if p["points"]
    ]
    pending = nxt.pending
    if config.gwangpalli:
        comp, pending = _compensation(config, nxt, seating, claims, kind, winners, index, number)
        entries += comp
    nagari = kind == "nagari"
    dealer = nxt.dealer if nagari else next_dealer(seating.players, nxt.dealer, winners)
    carry = nxt.nagari_carry + 1 if nagari else 0
    fixed = seating.players if nagari and config.gwangpalli else None
    new_next = NextDeal(dealer, carry, fixed, _choosers(config, dealer, fixed), pending)
    deal = Deal(index, number, nxt.dealer, seating, nxt.nagari_carry, outcome, winners, tuple(entries), {}, result)
    return deal, new_next, 1


def _hand_result(record: dict, setup: dict, rules: Rules) -> dict:
    """The contract's result of the record's hand: all the series reads from a hand."""
    if "log" in record:
        return _result_from_log(record["log"], setup)
    result = score_summary(_summary_from_quick_entry(record["summary"], setup, rules))
    if not result["ok"]:
        raise EngineError.many([{**e, "path": _join("summary", e["path"])} for e in result["errors"]])
    return result


def _winners(outcome: dict, rules: Rules, dealer: str) -> tuple[str, ...]:
    return tuple(outcome.get("winners") or ([outcome["winner"]] if outcome.get("winner") else []))


def _seating(config: SeriesConfig, nxt: NextDeal, record: dict, path: str) -> Seating:
    """Who plays this hand: everyone at two or three; by choice, or as after a nagari, at more."""
    here = (lambda key: _join(path, key))
    if not config.gwangpalli:
        for key in ("choices", "shown"):
            if record.get(key):
                raise EngineError("no_gwangpalli", "With two or three at the table everyone plays.", here(key))
        return Seating(config.players)
    if nxt.players:
        for key in ("choices", "shown"):
            if record.get(key):
                raise EngineError("choices_after_nagari",
                                  f"After a nagari {', '.join(nxt.players)} play again, without choosing.",
                                  here(key))
        return Seating(nxt.players)
    return gwangpalli.choose(config.players, nxt.dealer, record.get("choices"), here("choices"))


def _setup(config: SeriesConfig, players: Sequence[str], nxt: NextDeal) -> dict[str, Any]:
    return {
        "players": list(players), "dealer": nxt.dealer, "rules": config.rules_doc,
        "nagari_carry": nxt.nagari_carry, "chip_value": config.chip_value,
    }


def _summary_from_quick_entry(summary: Any, setup: dict, rules: Rules) -> dict:
    """The record's summary with the series' fields filled in; given ones must agree."""
    if not isinstance(summary, dict):
        raise EngineError("bad_summary", "A hand summary is a JSON object.", "summary")
    for key in SUPPLIED:
        if key not in summary:
            continue
        given, path = summary[key], f"summary.{key}"
        if key == "players":
            if not isinstance(given, list) or sorted(map(str, given)) != sorted(setup["players"]):
                raise EngineError("hand_players_mismatch",
                                  f"This hand is played by {', '.join(setup['players'])}, not {given!r}.", path)
        elif key == "rules":
            try:
                same = _rules(given)[0] == rules
            except EngineError:
                same = False
            if not same:
                raise EngineError("hand_field_mismatch", "A hand plays the series' rules.", path)
        elif given != setup[key] or isinstance(given, bool):
            raise EngineError("hand_field_mismatch",
                              f"The series gives this hand {key} = {setup[key]!r}, not {given!r}.", path)
    return {**summary, **setup}


def _result_from_log(log: Any, setup: dict) -> dict:
    """A live log, replayed by ``engine.hand`` through its document interface.

    The hand answers the contract's result of its own summary: the series reads
    that result only, as it does for a quick-entry summary.
    """
    if not isinstance(log, dict) or not isinstance(log.get("events"), list) or set(log) - {"events", "note"}:
        raise EngineError("bad_hand_record", "A live hand is {\"log\": {\"events\": [...]}}.", "log")
    try:
        from .hand import replay_hand_document
    except ModuleNotFoundError as err:
        if err.name != f"{__package__}.hand":
            raise
        raise EngineError("hand_log_unavailable", "This engine cannot replay live hand logs.", "log") from None
    answer = replay_hand_document({"setup": setup, "events": log["events"]})
    if not answer["ok"]:
        raise EngineError.many([{**e, "path": _join("log", e["path"])} for e in answer["errors"]])
    result = answer.get("result")
    if result is None:
        raise EngineError("hand_not_finished", "This hand has not ended: finish it or enter a summary.", "log")
    if not result["ok"]:
        raise EngineError.many([{**e, "path": _join("log", e["path"])} for e in result["errors"]])
    return result


def _compensation(config: SeriesConfig, nxt: NextDeal, seating: Seating, claims: tuple[Claim, ...],
                  kind: str, winners: tuple[str, ...], index: int, number: int
                  ) -> tuple[list[Entry], tuple[Pending, ...]]:
    """Gwangpalli compensation of this hand, and what is still owed after it."""
    rules = config.rules
    if not rules.sitter_paid_at_end:
        payers = [p for p in seating.players if p != nxt.dealer]
        return [Entry(index, number, GWANGPALLI, payer, c.sitter, c.points, GWANGPALLI, tuple(c.trail()))
                for c in claims for payer in payers if c.points], nxt.pending
    owed = (*nxt.pending, *(Pending(index, c) for c in claims))
    losers = [p for p in seating.players if p not in winners]
    if kind == "nagari" or not losers:
        return [], owed
    entries = []
    for p in owed:
        factor = gwangpalli.nagari_factor(nxt.nagari_carry, rules) if p.index != index else 1
        points = p.claim.points * factor
        trail = tuple(p.claim.trail(factor, at_end=True))
        entries += [Entry(index, number, GWANGPALLI, loser, p.claim.sitter, points, GWANGPALLI, trail)
                    for loser in losers if points]
    return entries, ()


def _join(*parts: str) -> str:
    return ".".join(p for p in parts if p)


# -- the document -----------------------------------------------------------------------

def series_from_document(doc: Any) -> Series:
    """A series document (settings and ``hands``) → the series, or a coded error."""
    config = config_from(doc)
    hands = doc.get("hands", [])
    if not isinstance(hands, list):
        raise EngineError("bad_series", "hands lists the hand records in the order played.", "hands")
    return play(config, hands)


def replay_series_document(doc: Any) -> dict[str, Any]:
    """A series document → its JSON (ledger, balances, settle-up …); never raises on bad input."""
    try:
        return series_from_document(doc).to_json()
    except EngineError as err:
        return {"ok": False, "errors": err.errors}
