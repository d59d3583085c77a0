"""Replaying a series' records in order: each deal, its payments, and the next deal."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..checks import MAX_NAGARI_CARRY
from ..errors import EngineError
from ..model import OutcomeType, SetupJSON
from . import gwangpalli
from .config import SeriesConfig
from .dealer import next_dealer, play_order
from .gwangpalli import Claim, Seating
from .hand_result import hand_result, join
from .model import FIXED, GWANGPALLI, HAND_PAYMENT, Deal, Entry, NextDeal, Pending, Series

RECORD_FIELDS = frozenset({"summary", "log", "choices", "shown", "note"})


def play(config: SeriesConfig, records: Sequence[dict]) -> Series:
    """Replay ``records`` in order; a refused record raises, naming its index."""
    table = config.players
    balances = dict.fromkeys(table, 0)
    nxt = _first_deal(config)
    deals: list[Deal] = []
    ledger: list[Entry] = []
    played = 0
    for i, record in enumerate(records):
        if config.length is not None and played >= config.length:
            raise _in_record(
                EngineError("series_finished", f"The series had its {config.length} hands: no more.", ""), i
            )
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
    return EngineError.many(
        [
            {
                **e,
                "path": f"{prefix}.{e['path']}" if e["path"] else prefix,
                "message": f"Hand record {index + 1}: {e['message']}",
                "index": index,
            }
            for e in err.errors
        ]
    )


def _deal(config: SeriesConfig, nxt: NextDeal, record: object, index: int, number: int) -> tuple[Deal, NextDeal, int]:
    """One record → its deal, the next deal, and 1 if it counts as a hand."""
    if not isinstance(record, dict) or set(record) - RECORD_FIELDS or ("summary" in record) == ("log" in record):
        raise EngineError(
            "bad_hand_record",
            'A hand record is {"summary": {...}} or {"log": {"events": [...]}}, '
            "with choices and shown at a table of four or more.",
            "",
        )
    rules = config.rules
    seating = seating_of(config, nxt, record, "")
    result = hand_result(record, setup_of(config, seating.players, nxt), rules)
    claims = (
        gwangpalli.claims(record.get("shown"), seating, len(config.players), rules, "shown")
        if config.gwangpalli
        else ()
    )
    outcome, kind, winners = result.json["outcome"], result.outcome.type, result.outcome.winners
    if kind is OutcomeType.VOID_DEAL:  # (under void_deal_chongtong the result is the dealer's chongtong)
        # redealt by the same dealer: nothing paid, nothing carried, not a hand
        deal = Deal(index, None, nxt.dealer, seating, nxt.nagari_carry, outcome, (), (), {}, result.json)
        return deal, nxt, 0

    entries = [
        Entry(
            index,
            number,
            HAND_PAYMENT if p.kind == "stop" else FIXED,
            p.payer,
            p.payee,
            p.points,
            p.kind,
            tuple(step.to_json() for step in p.trail),
        )
        for p in result.payments
        if p.points
    ]
    pending = nxt.pending
    if config.gwangpalli:
        comp, pending = _compensation(config, nxt, seating, claims, kind, winners, index, number)
        entries += comp
    nagari = kind is OutcomeType.NAGARI
    dealer = nxt.dealer if nagari else next_dealer(seating.players, nxt.dealer, winners)
    carry = min(nxt.nagari_carry + 1, MAX_NAGARI_CARRY) if nagari else 0  # a run of nagari never locks the table
    fixed = seating.players if nagari and config.gwangpalli else None
    new_next = NextDeal(dealer, carry, fixed, _choosers(config, dealer, fixed), pending)
    deal = Deal(index, number, nxt.dealer, seating, nxt.nagari_carry, outcome, winners, tuple(entries), {}, result.json)
    return deal, new_next, 1


def seating_of(config: SeriesConfig, nxt: NextDeal, record: dict, path: str) -> Seating:
    """Who plays this hand: everyone at two or three; by choice, or as after a nagari, at more."""

    def here(key: str) -> str:
        return join(path, key)

    if not config.gwangpalli:
        for key in ("choices", "shown"):
            if record.get(key):
                raise EngineError("no_gwangpalli", "With two or three at the table everyone plays.", here(key))
        return Seating(config.players)
    if nxt.players:
        for key in ("choices", "shown"):
            if record.get(key):
                raise EngineError(
                    "choices_after_nagari",
                    f"After a nagari {', '.join(nxt.players)} play again, without choosing.",
                    here(key),
                )
        return Seating(nxt.players)
    return gwangpalli.choose(config.players, nxt.dealer, record.get("choices"), here("choices"))


def setup_of(config: SeriesConfig, players: Sequence[str], nxt: NextDeal) -> SetupJSON:
    return {
        "players": list(players),
        "dealer": nxt.dealer,
        "rules": config.rules_doc,
        "nagari_carry": nxt.nagari_carry,
        "chip_value": config.chip_value,
    }


def _compensation(
    config: SeriesConfig,
    nxt: NextDeal,
    seating: Seating,
    claims: tuple[Claim, ...],
    kind: OutcomeType,
    winners: tuple[str, ...],
    index: int,
    number: int,
) -> tuple[list[Entry], tuple[Pending, ...]]:
    """Gwangpalli compensation of this hand, and what is still owed after it."""
    rules = config.rules
    if not rules.sitter_paid_at_end:
        return _paid_now(seating, nxt.dealer, claims, index, number), nxt.pending
    owed = (*nxt.pending, *(Pending(index, c) for c in claims))
    losers = [p for p in seating.players if p not in winners]
    if kind is OutcomeType.NAGARI or not losers:
        return [], owed
    entries: list[Entry] = []
    for p in owed:
        factor = gwangpalli.nagari_factor(nxt.nagari_carry, rules) if p.index != index else 1
        points = p.claim.points * factor
        trail = tuple(p.claim.trail(factor, at_end=True))
        entries += [
            Entry(index, number, GWANGPALLI, loser, p.claim.sitter, points, GWANGPALLI, trail)
            for loser in losers
            if points
        ]
    return entries, ()


def _paid_now(seating: Seating, dealer: str, claims: tuple[Claim, ...], index: int, number: int) -> list[Entry]:
    """Each claim paid to its sitter as the hand ends, by every player but the dealer."""
    payers = [p for p in seating.players if p != dealer]
    return [
        Entry(index, number, GWANGPALLI, payer, c.sitter, c.points, GWANGPALLI, tuple(c.trail()))
        for c in claims
        for payer in payers
        if c.points
    ]
