"""One evening (a series) as the facts the group's statistics read: its balances, one small dict
per hand, each winner's best hand, its statistics and head to head."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import EngineError
from ..live.hand import HandSetup, replay
from .stats import head_to_head, player_stats

FACTS_FORMAT = 1  # bumped when what ``evening_facts`` answers changes: facts kept before are computed again


def evening_facts(series: Any) -> dict[str, Any]:
    """An evening (``engine.series.Series``) as the facts the group's statistics read."""
    config = series.config
    hands = []
    for deal in series.deals:
        if not deal.counted:
            continue  # a void deal is not a hand
        record = series.records[deal.index]
        summary = _summary_of(record, deal, config)
        gos = {p: int(n) for p, n in (summary.get("gos") or {}).items() if n}
        shakes = {p: len(m) for p, m in (summary.get("shakes") or {}).items() if m}
        bombs = {p: len(m) for p, m in (summary.get("bombs") or {}).items() if m}
        hands.append(
            {
                "n": deal.number,
                "players": list(deal.seating.players),
                "outcome": deal.outcome.get("type"),
                "winners": list(deal.winners),
                "net": {p: v for p, v in deal.net.items() if v},
                "payments": [
                    {
                        "from": e.payer,
                        "to": e.payee,
                        "points": e.points,
                        "kind": e.kind,
                        "steps": sorted({s.get("id") for s in e.trail if isinstance(s, dict)} - {None}),
                    }
                    for e in deal.entries
                ],
                "gos": gos,
                "shakes": shakes,
                "bombs": bombs,
            }
        )
    best = _best_hands(series)
    return {
        "format": FACTS_FORMAT,
        "players": list(config.players),
        "balances": dict(series.balances),
        "chip_value": config.chip_value,
        "played": series.played,
        "hands": hands,
        "best": best,
        "stats": player_stats(hands, {"": best}),
        "head_to_head": head_to_head(hands),
    }


def evening_summary(facts: Mapping[str, Any]) -> dict[str, Any]:
    """An evening's facts without its hands: what a group keeps of each evening, since its
    statistics and head to head are summed up already (``merge_stats``)."""
    return {k: v for k, v in facts.items() if k != "hands"}


def _best_hands(series: Any) -> dict[str, dict[str, Any]]:
    """Each winner's biggest hand of the evening with the trails of what each loser paid:
    kept apart from the hands, so that the statistics of many evenings read no trail but these."""
    best: dict[str, dict[str, Any]] = {}
    for deal in series.deals:
        if not deal.counted:
            continue
        net = deal.net
        for p in deal.winners:
            if net.get(p, 0) > 0 and (p not in best or net[p] > best[p]["points"]):
                best[p] = {
                    "points": net[p],
                    "hand": deal.number,
                    "trail": [
                        {"from": e.payer, "points": e.points, "trail": list(e.trail)}
                        for e in deal.entries
                        if e.payee == p
                    ],
                }
    return best


def _summary_of(record: dict, deal: Any, config: Any) -> dict:
    """The contract summary of a hand record: given (quick entry) or the live log's own."""
    if "summary" in record:
        return record["summary"] if isinstance(record["summary"], dict) else {}
    setup = {
        "players": list(deal.seating.players),
        "dealer": deal.dealer,
        "rules": config.rules_doc,
        "nagari_carry": deal.carry,
        "chip_value": config.chip_value,
    }

    try:
        return replay(HandSetup.from_json(setup), record["log"]["events"]).summary()
    except EngineError:  # the series replayed it, so this does not happen; counted without its gos then
        return {}
