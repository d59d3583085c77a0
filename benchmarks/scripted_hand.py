"""The scripted three-player hand of issue 12, shared by ``benchmarks/taps.py`` and the e2e journey.

Mina deals, then Jun, then Hana. 17 turns, 42 cards captured, one shake (Mina, month 10),
one ttadak (Jun), one sseul (Jun), Jun's go at turn 14 (three brights) and his stop at turn 17
(four brights). Nobody else reaches the target, so the engine asks only Jun, only then.
"""

from __future__ import annotations

PLAYERS = ["Mina", "Jun", "Hana"]
PRESET = "korean-common"

# One entry a turn, in order: the player on turn and what happens, as (kind, value) steps.
# kinds: "cards" (captured, one tap each), "shake"/"bomb" (month), "junk" (take_junk reason),
# "go", "stop". A turn without "go"/"stop" ends with End turn.
TURNS: list[tuple[str, list[tuple[str, object]]]] = [
    ("Mina", [("shake", 10), ("cards", ["10a", "10j1", "2a", "2j1"])]),
    ("Jun", [("cards", ["1g", "1j1"])]),
    ("Hana", [("cards", ["6a", "6j1", "3r", "3j2"])]),
    ("Mina", [("cards", ["4r", "4j1"])]),
    ("Jun", [("cards", ["3g", "3j1"]), ("junk", "ttadak")]),
    ("Hana", [("cards", ["7a", "7j1", "5r", "5j1"])]),
    ("Mina", [("cards", ["9r", "9j1"])]),
    ("Jun", [("cards", ["11j1", "11j2", "4a", "4j2"])]),
    ("Hana", [("cards", ["12r", "12jd"])]),
    ("Mina", []),
    ("Jun", [("cards", ["2r", "2j2"])]),
    ("Hana", [("cards", ["5a", "5j2", "7j2", "7r"])]),
    ("Mina", [("cards", ["6r", "6j2"])]),
    ("Jun", [("cards", ["8g", "8j1"]), ("junk", "sseul"), ("go", None)]),
    ("Hana", [("cards", ["9a", "9j2"])]),
    ("Mina", [("cards", ["1r", "1j2"])]),
    ("Jun", [("cards", ["11g", "11jd"]), ("stop", None)]),
]


def events() -> list[dict]:
    """The hand as the engine's event log (what any screen must end up storing)."""
    out: list[dict] = []
    for player, steps in TURNS:
        decided = False
        for kind, value in steps:
            if kind == "cards":
                out.append({"type": "capture", "player": player, "cards": list(value)})
            elif kind in ("shake", "bomb"):
                out.append({"type": kind, "player": player, "month": value})
            elif kind == "junk":
                out.append({"type": "take_junk", "player": player, "reason": value})
            elif kind in ("go", "stop"):
                out += [{"type": "end_turn", "player": player}, {"type": kind, "player": player}]
                decided = True
        if not decided:
            out.append({"type": "end_turn", "player": player})
    return out


def essentials() -> dict[str, int]:
    """What the hand is made of: cards captured, turns ended with End turn, event taps."""
    cards = sum(len(v) for _, steps in TURNS for k, v in steps if k == "cards")
    decisions = sum(1 for _, steps in TURNS for k, _v in steps if k in ("go", "stop"))
    months = sum(1 for _, steps in TURNS for k, _v in steps if k in ("shake", "bomb"))
    events_ = sum(1 for _, steps in TURNS for k, _v in steps if k != "cards")
    turns = len(TURNS) - decisions  # a go or stop ends its turn itself
    # start the hand + each event + the month of each shake/bomb
    return {"cards": cards, "turns": turns, "event_taps": 1 + events_ + months}
