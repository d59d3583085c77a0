"""Reference payment cases computed by hand from docs/rules.md (not by running the engine).

Each case in ``reference_cases.json`` holds a hand summary in the engine contract's shape
(the README's contract) and what the rules say it must answer: the net of every player, and optionally
the payments (from -> to, points, money), the winner's score, or a refusal code. The "why"
of each case gives the rule and the arithmetic. Never adjust an expectation to match the
engine: re-derive it from docs/rules.md.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

CASES = json.loads((Path(__file__).with_name("reference_cases.json")).read_text(encoding="utf-8"))


def _score(summary: dict) -> dict:
    from scorekeeper.engine.summary.contract import score_summary

    return score_summary(copy.deepcopy(summary))


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES])
def test_reference_case(case):
    summary, expect = case["summary"], case["expect"]
    result = _score(summary)
    why = f"{case['id']}: {case['why']}"

    if "error" in expect:
        assert result.get("ok") is False, f"{why}\nexpected refusal {expect['error']}, got {result}"
        codes = [e.get("code") for e in result.get("errors", [])]
        assert expect["error"] in codes, f"{why}\nexpected error {expect['error']}, got {codes}"
        return

    assert result.get("ok") is True, f"{why}\nunexpected refusal: {result.get('errors')}"
    players = summary["players"]

    if "net" in expect:
        net = result["net"]
        got = {p: net.get(p, 0) for p in players}
        assert got == expect["net"], f"{why}\nnet: expected {expect['net']}, got {got}"
        extra = {p: v for p, v in net.items() if p not in players and v}
        assert not extra, f"{why}\nnet for players not in the hand: {extra}"
        assert sum(net.values()) == 0, f"{why}\nnet does not sum to zero: {net}"

    if "payments" in expect:
        paid: dict[tuple[str, str], int] = {}
        for p in result["payments"]:
            paid[(p["from"], p["to"])] = paid.get((p["from"], p["to"]), 0) + p["points"]
        want = {(p["from"], p["to"]): p["points"] for p in expect["payments"]}
        got = {k: v for k, v in paid.items() if v}
        assert got == want, f"{why}\npayments: expected {want}, got {got}"
        chip = summary.get("chip_value", 100)
        for p in result["payments"]:
            if "money" in p:
                assert p["money"] == p["points"] * chip, f"{why}\nmoney of {p}"
        for p in expect["payments"]:
            if "money" in p:
                money = sum(
                    q.get("money", 0) for q in result["payments"] if (q["from"], q["to"]) == (p["from"], p["to"])
                )
                assert money == p["money"], f"{why}\nmoney {p['from']}->{p['to']}: expected {p['money']}, got {money}"

    for player, points in expect.get("scores", {}).items():
        got = result["scores"][player]["points"]
        assert got == points, f"{why}\nscore of {player}: expected {points}, got {got}"


def test_cases_are_well_formed():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(CASES) >= 60
    presets = {c["summary"].get("rules", {}).get("preset", "pagat") for c in CASES}
    assert {"pagat", "ogb-matgo", "encyclopedia", "korean-common"} <= presets
    for c in CASES:
        assert c["why"] and c["expect"], c["id"]
