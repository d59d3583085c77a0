"""A player's statistics over any selection of hands (an evening, a month, all time), and head to head."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# The doubles a loser may suffer, as trail step ids: each counts one payment the player made with it.
SUFFERED = {
    "pi_bak": ("pi_bak",),
    "gwang_bak": ("gwang_bak",),
    "meong_tta": ("meong_dda", "meong_bak", "meong_bak_five"),
    "go_bak": ("go_bak",),
    "dok_bak": ("dok_bak",),  # paid another loser's share too
}
COUNTERS = (
    "hands",
    "wins",
    "stops",
    "points_won",
    "points_lost",
    "net",
    "gos",
    "go_hands",
    "go_wins",
    "shakes",
    "bombs",
    "nagari",
    *SUFFERED,
)


@dataclass
class Biggest:
    points: int
    evening: str
    hand: int


def _count_hand(r: dict[str, Any], p: str, hand: Mapping[str, Any], biggest: dict[str, Biggest]) -> None:
    """Count one hand ``p`` played into their row ``r`` (and their biggest win into ``biggest``)."""
    winners = hand.get("winners") or []
    r["hands"] += 1
    net = hand["net"].get(p, 0)
    r["net"] += net
    if net > 0:
        r["points_won"] += net
    else:
        r["points_lost"] -= net
    if p in winners:
        r["wins"] += 1
        r["stops"] += hand["outcome"] == "stop"
        if net > 0 and (p not in biggest or net > biggest[p].points):
            biggest[p] = Biggest(net, hand.get("evening", ""), hand["n"])
    if hand["outcome"] == "nagari":
        r["nagari"] += 1
    gos = hand["gos"].get(p, 0)
    if gos:
        r["gos"] += gos
        r["go_hands"] += 1
        r["go_wins"] += p in winners
    r["shakes"] += hand["shakes"].get(p, 0)
    r["bombs"] += hand["bombs"].get(p, 0)


def player_stats(
    hands: Iterable[Mapping[str, Any]], best: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, dict[str, Any]]:
    """Per player over ``hands`` (each an ``evening_facts`` hand, with ``"evening"`` added).

    ``best`` (evening id → that evening's ``"best"``) gives the biggest hand its trail.
    """
    out: dict[str, dict[str, Any]] = {}
    biggest: dict[str, Biggest] = {}

    def row(p: str) -> dict[str, Any]:
        if p not in out:
            out[p] = dict.fromkeys(COUNTERS, 0)
        return out[p]

    for hand in hands:
        for p in hand["players"]:
            _count_hand(row(p), p, hand, biggest)
        for p, net in hand["net"].items():  # a sitter paid for shown cards (광팔기): not a hand played
            if p not in hand["players"]:
                r = row(p)
                r["net"] += net
                r["points_won" if net > 0 else "points_lost"] += abs(net)
        for pay in hand["payments"]:
            steps = set(pay["steps"])
            r = row(pay["from"])
            for name, ids in SUFFERED.items():
                if steps.intersection(ids):
                    r[name] += 1
    for p, r in out.items():
        r["win_rate"] = round(r["wins"] / r["hands"], 4) if r["hands"] else 0.0
        r["go_rate"] = round(r["go_wins"] / r["go_hands"], 4) if r["go_hands"] else 0.0
        b = biggest.get(p)
        kept = ((best or {}).get(b.evening) or {}).get(p) if b else None
        trail = kept["trail"] if kept and kept["hand"] == b.hand else []  # type: ignore[union-attr]
        r["biggest"] = {"points": b.points, "evening": b.evening, "hand": b.hand, "trail": trail} if b else None
    return out


def merge_stats(parts: Iterable[tuple[str, Mapping[str, Mapping[str, Any]]]]) -> dict[str, dict[str, Any]]:
    """The statistics of several evenings (``(evening id, that evening's stats)``) as one:
    what ``player_stats`` answers for all their hands together, without reading a hand."""
    out: dict[str, dict[str, Any]] = {}
    for evening, stats in parts:
        for p, r in stats.items():
            into = out.setdefault(p, empty_stats())
            for k in COUNTERS:
                into[k] += r[k]
            b = r.get("biggest")
            if b and (into["biggest"] is None or b["points"] > into["biggest"]["points"]):
                into["biggest"] = {**b, "evening": evening}
    for r in out.values():
        r["win_rate"] = round(r["wins"] / r["hands"], 4) if r["hands"] else 0.0
        r["go_rate"] = round(r["go_wins"] / r["go_hands"], 4) if r["go_hands"] else 0.0
    return out


def merge_head_to_head(parts: Iterable[Mapping[str, Mapping[str, int]]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for h2h in parts:
        for p, row in h2h.items():
            into = out.setdefault(p, {})
            for q, v in row.items():
                into[q] = into.get(q, 0) + v
    return out


def empty_stats() -> dict[str, Any]:
    """The statistics of a player who has played no hand yet."""
    return dict.fromkeys(COUNTERS, 0) | {"win_rate": 0.0, "go_rate": 0.0, "biggest": None}


def head_to_head(hands: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """``out[p][q]``: what ``p`` took from ``q`` less what ``p`` paid ``q`` (so ``out[q][p] == -out[p][q]``)."""
    out: dict[str, dict[str, int]] = {}
    for hand in hands:
        for pay in hand["payments"]:
            a, b, v = pay["to"], pay["from"], pay["points"]
            out.setdefault(a, {}).setdefault(b, 0)
            out.setdefault(b, {}).setdefault(a, 0)
            out[a][b] += v
            out[b][a] -= v
    return out


def by_month(evenings: Sequence[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The hands of each month (``"YYYY-MM"`` of each evening's ``date``), each marked with its evening."""
    out: dict[str, list[dict[str, Any]]] = {}
    for ev in evenings:
        out.setdefault(str(ev["date"])[:7], []).extend(all_hands([ev]))
    return out


def all_hands(evenings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every hand of ``evenings`` (each ``{"id", "facts"}``), marked with its evening's id."""
    return [{**h, "evening": ev["id"]} for ev in evenings for h in ev["facts"]["hands"]]
