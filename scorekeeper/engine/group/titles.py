"""Titles a table enjoys, each with the numbers it was given for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Titles a table enjoys: (id, the counter it is for, the least that earns it, higher is better).
TITLES = (
    ("pi_bak_king", "pi_bak", 1),
    ("gwang_bak_king", "gwang_bak", 1),
    ("go_rate_first", "go_rate", 0),
    ("most_wins", "wins", 1),
    ("big_hand", "biggest", 1),
    ("shake_king", "shakes", 1),
)
MIN_GO_HANDS = 2  # a go success rate of one go said is luck, not a title


def titles(stats: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The titles of ``stats`` (one scope: an evening, a month, all time), each with its reason.

    A title goes to the one player ahead alone (a tie earns it nobody); the reason carries the
    numbers it was given for.
    """
    out = []
    for tid, key, least in TITLES:
        scores: dict[str, float] = {}
        for p, r in stats.items():
            if key == "go_rate":
                if r["go_hands"] >= MIN_GO_HANDS:
                    scores[p] = r["go_rate"]
            elif key == "biggest":
                if r["biggest"]:
                    scores[p] = r["biggest"]["points"]
            elif r[key] >= least:
                scores[p] = r[key]
        if not scores:
            continue
        top = max(scores.values())
        leaders = [p for p, v in scores.items() if v == top]
        if len(leaders) != 1 or (key == "go_rate" and top <= 0):
            continue
        p = leaders[0]
        r = stats[p]
        reason: dict[str, Any] = {"value": r["biggest"]["points"] if key == "biggest" else r[key], "hands": r["hands"]}
        if key == "go_rate":
            reason |= {"go_hands": r["go_hands"], "go_wins": r["go_wins"]}
        if key == "biggest":
            reason |= {"evening": r["biggest"]["evening"], "hand": r["biggest"]["hand"]}
        out.append({"id": tid, "player": p, "reason": reason})
    return out
