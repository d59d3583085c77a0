"""What the live scores warn about: the baks each player would pay if the leader stopped now.

The engine answers, not this module: the hand as it stands is scored as if the leader
(the best score toward the target) had just said stop, and each payment's trail says which
doubles the payer would suffer (피박, 광박, 멍따, 고박) and how the cup 9a was counted.
So the warning follows the table's rules exactly, pi-bak escapes included.
"""

from __future__ import annotations

from typing import Any

from ...engine.errors import EngineError
from ...engine.live.state import HandState
from ...engine.live.state import LiveOutcome as Outcome
from ...engine.summary.contract import score_summary

BAKS = ("pi_bak", "gwang_bak", "meong_dda", "go_bak")


def if_stopped_now(state: HandState) -> dict[str, Any]:
    """{"leader": name or None, "baks": {payer: [{"id", "junk"?}]}, "counted_as": {player: {card: kind}}}."""
    scores = {p.name: state.score(p.name) for p in state.players}
    leader = max(scores, key=lambda name: scores[name].toward_target)
    out: dict[str, Any] = {
        "leader": None,
        "baks": {},
        "counted_as": {},
        "escapes": {},
        "junk_needed": state.rules.pi_bak_threshold(len(state.players)),
    }
    if state.over or scores[leader].toward_target <= 0:
        return out
    try:
        # A what-if, not a stop the engine would take now: right after a go the leader may not
        # stop until the score rises, yet the baks the others face are the ones to warn about.
        summary = state.but(outcome=Outcome("stop", (leader,)), must_decide=None).summary()
        summary.pop("score_at_last_go", None)
        result = score_summary(summary)
    except EngineError:
        return out
    if not result or not result.get("ok", True):
        return out
    out["leader"] = leader
    for pay in result.get("payments", []):
        steps = [
            {"id": s["id"], **({"junk": s["junk"]} if "junk" in s else {})}
            for s in pay.get("trail", [])
            if s.get("id") in BAKS
        ]
        if steps:
            out["baks"].setdefault(pay["from"], []).extend(steps)
    scored = result.get("scores", {})
    out["counted_as"] = {name: s.get("counted_as") or {} for name, s in scored.items()}
    if scores[leader].has("junk"):
        # The leader scores junk, so every loser not paying pi-bak escapes it: say with how many.
        out["escapes"] = {
            name: s["counts"]["junk"]
            for name, s in scored.items()
            if name != leader and not any(b["id"] == "pi_bak" for b in out["baks"].get(name, []))
        }
    return out


def pi_bak_why(result: dict | None, threshold: int) -> dict[str, dict]:
    """For a finished hand's result: each loser's pi-bak, paid or escaped, and how 9a counted.

    {player: {"pi_bak": junk or None, "escaped": junk or None, "cup": "junk" | "animal" | None}}
    """
    if not result or not result.get("payments"):
        return {}
    scores = result.get("scores") or {}
    out: dict[str, dict] = {}
    for pay in result["payments"]:
        if pay.get("kind", "stop") != "stop":
            continue
        winner_junk = any(line.get("id") == "junk" for line in scores.get(pay["to"], {}).get("lines", []))
        paid = next((s for s in pay.get("trail", []) if s.get("id") == "pi_bak"), None)
        junk = (scores.get(pay["from"]) or {}).get("counts", {}).get("junk")
        cup = ((scores.get(pay["from"]) or {}).get("counted_as") or {}).get("9a")
        out[pay["from"]] = {
            "pi_bak": paid.get("junk", junk) if paid else None,
            "escaped": junk if (winner_junk and not paid) else None,
            "cup": cup,
            "threshold": threshold,
        }
    return out
