"""Benchmark: hand summaries scored per second through ``scorekeeper score`` on JSON Lines.

Side by side with the floor of the contract: a process that merely parses each line
and serialises it again. Both run as fresh processes on the same file, best of
``--repeat`` runs. Usage::

    python benchmarks/engine.py            # 10,000 summaries
    python benchmarks/engine.py --lines 1000 --repeat 1   # a quick run
    python benchmarks/engine.py --short    # 300 summaries, once: checks it works (CI)
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from scorekeeper.engine.cards import DECK
from scorekeeper.engine.rules import PRESETS
from scorekeeper.engine.scoring import best_score

FLOOR = (
    "import sys, json\n"
    "out = sys.stdout\n"
    "for line in open(sys.argv[1], encoding='utf-8'):\n"
    "    if line.strip():\n"
    "        out.write(json.dumps(json.loads(line), ensure_ascii=False, separators=(',', ':')) + '\\n')\n"
)


def random_summary(rng: random.Random) -> dict:
    """A plausible finished hand: cards are captured in turn until someone can stop."""
    preset = rng.choice(list(PRESETS))
    rules = PRESETS[preset]
    players = ["A", "B", "C"] if rng.random() < 0.6 else ["A", "B"]
    target = rules.target(len(players))
    deck = [c.code for c in DECK]
    rng.shuffle(deck)
    captures: dict[str, list[str]] = {p: [] for p in players}
    winner, extra = None, rng.choice([0, 0, 2, 6])  # cards taken after reaching the target: gos
    for i, code in enumerate(deck[:40]):
        player = players[(i // 2) % len(players)]
        captures[player].append(code)
        if winner is None and best_score(captures[player], rules).toward_target >= target:
            winner = player
        if winner is not None and extra <= 0:
            break
        extra -= winner is not None
    doc = {
        "rules": {"preset": preset},
        "players": players,
        "captures": captures,
        "nagari_carry": rng.choice([0, 0, 0, 1]),
        "chip_value": 100,
    }
    if winner is None:
        doc["outcome"] = {"type": "nagari"}
        return doc
    score = best_score(captures[winner], rules).toward_target
    doc["outcome"] = {"type": "stop", "winner": winner}
    doc["gos"] = {winner: rng.randint(0, min(score - target, 4))}
    if rng.random() < 0.2:
        doc["shakes"] = {winner: [rng.randint(1, 12)]}
    return doc


# House-rule options switched at random in the varied mix, with the values a table might choose.
OPTION_CHOICES: dict[str, list] = {
    "five_brights": [15, 20],
    "godori": [5, 10],
    "four_birds": [True],
    "rain_ribbon_counts": [False],
    "cup_flexible": [True, False],
    "bridge_flexible": [True],
    "vip": [True],
    "palssari": [True],
    "go_bonus": ["plus_one_each"],
    "reverse_go": [0, 4],
    "point_multiplier": [1, 2],
    "shake_rain_paulownia_x4": [True],
    "bomb_doubles": [True, False],
    "shake_bomb_once": [True],
    "meong_dda": ["every_loser"],
    "meong_dda_per_animal": [True],
    "meong_bak_five": [True],
    "tti_bak": [True],
    "go_bak_two_players": [True, False],
    "go_bak_three_players": ["dok_bak", "times_players"],
    "oe_myeon": [True, False],
    "nagari_carry_stacks": [True, False],
    "empty_pile_pays_nothing": [True],
    "pi_bak_exempt_no_junk": [True, False],
    "first_turn_ppuk": [3, 7],
    "chongtong": [10, 20],
}


def varied_summary(rng: random.Random) -> dict:
    """A finished hand of every kind the contract takes: two or three players, every preset with
    options switched, gos by winner and losers, shakes and bombs, dok-bak (oe-myeon, showdown),
    showdowns, fixed payments (first-turn ppuk), nagari and chongtong. ``random_summary`` is the
    older, plainer mix (kept: its figures in BENCHMARKS.md were measured on it)."""
    doc = random_summary(rng)
    names = list(OPTION_CHOICES)
    doc["rules"]["options"] = {name: rng.choice(OPTION_CHOICES[name]) for name in rng.sample(names, rng.randint(0, 6))}
    players, outcome = doc["players"], doc["outcome"]
    if rng.random() < 0.05:
        doc["outcome"] = {"type": "chongtong", "winner": rng.choice(players), "month": rng.randint(1, 12)}
        return doc
    if outcome["type"] != "stop":
        return doc
    winner = outcome["winner"]
    losers = [p for p in players if p != winner]
    taken = {c for cards in doc["captures"].values() for c in cards}
    months = [m for m in range(1, 13) if not any(c.startswith(str(m)) and c[len(str(m))].isalpha() for c in taken)]
    rng.shuffle(months)
    if rng.random() < 0.3 and months:
        doc.setdefault("shakes", {}).setdefault(rng.choice(players), []).append(months.pop())
    if rng.random() < 0.2 and months:
        doc["bombs"] = {rng.choice(players): [months.pop()]}
    if rng.random() < 0.25:
        doc["gos"][rng.choice(losers)] = 1  # a loser who said go: go-bak
    if rng.random() < 0.15:
        doc["fixed"] = [{"kind": "first_turn_ppuk", "player": rng.choice(players)}]
    if len(players) == 3 and rng.random() < 0.2:
        doc["dokbak"] = {"player": rng.choice(losers), "reason": "oe_myeon"}
    elif len(players) == 3 and rng.random() < 0.1:
        offered, refused = rng.sample(losers, 2) if rng.random() < 0.5 else (winner, rng.choice(losers))
        doc["showdown"] = {"offered_by": offered, "refused_by": refused}
    return doc


def summaries(lines: int, mix: str, seed: int) -> list[dict]:
    """``lines`` summaries of the mix; in the varied mix only those the engine takes (a refusal is
    cheaper than a score, and would flatter the figure)."""
    rng = random.Random(seed)
    if mix == "plain":
        return [random_summary(rng) for _ in range(lines)]
    from scorekeeper.engine.summary.contract import score_summary

    out: list[dict] = []
    while len(out) < lines:
        doc = varied_summary(rng)
        if score_summary(doc)["ok"]:
            out.append(doc)
    return out


def run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one fresh process: on a machine shared with other work the
    CPU time is the steadier figure (waiting for a core adds to the wall time only)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(argv: list[str], repeat: int) -> tuple[float, float]:
    """The best wall time and the best CPU time of ``repeat`` runs."""
    runs = [run(argv) for _ in range(repeat)]
    return min(w for w, _ in runs), min(c for _, c in runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--mix",
        choices=["varied", "plain"],
        default="varied",
        help="varied: both player counts, every preset with options, gos, shakes, bombs, dok-bak, "
        "showdown, fixed payments (default); plain: the older mix of stops and nagari",
    )
    ap.add_argument("--short", action="store_true", help="300 summaries, once: checks the benchmark works (CI)")
    args = ap.parse_args()
    if args.short:
        args.lines, args.repeat = 300, 1
    # The command as installed: pip writes the package's bytecode at install time. Where the
    # environment says PYTHONDONTWRITEBYTECODE (this project's sandboxes do), every process would
    # otherwise compile the engine from source (~25 ms of CPU), which the floor, using only the
    # precompiled standard library, never pays.
    compileall.compile_dir(os.path.join(os.path.dirname(__file__), "..", "scorekeeper"), quiet=1)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for doc in summaries(args.lines, args.mix, 20261122):
            f.write(json.dumps(doc) + "\n")
        path = f.name
    try:
        parallel, parallel_cpu = best([sys.executable, "-m", "scorekeeper.cli", "score", path], args.repeat)
        single, single_cpu = best([sys.executable, "-m", "scorekeeper.cli", "score", "--jobs", "1", path], args.repeat)
        floor, floor_cpu = best([sys.executable, "-c", FLOOR, path], args.repeat)
    finally:
        os.unlink(path)
    print(
        f"date: {date.today()}  machine: {platform.machine()} {os.cpu_count()} cores, "
        f"{platform.python_implementation()} {platform.python_version()}, load {os.getloadavg()[0]:.1f}"
    )
    print(f"summaries: {args.lines}, {args.mix} mix   (wall time; CPU time in brackets)")
    print(f"parse+serialise floor:            {floor:.3f} s  ({args.lines / floor:,.0f} lines/s)  [{floor_cpu:.3f} s]")
    print(
        f"scorekeeper score --jobs 1:       {single:.3f} s  ({args.lines / single:,.0f} summaries/s)"
        f"  {single / floor:.2f}x the floor  [{single_cpu:.3f} s = {single_cpu / floor_cpu:.2f}x]  goal: at most 4x"
    )
    print(
        f"scorekeeper score (one per core): {parallel:.3f} s  ({args.lines / parallel:,.0f} summaries/s)"
        f"  {parallel / floor:.2f}x the floor (goal: at most 5x)  [CPU of all processes {parallel_cpu:.3f} s]"
    )


if __name__ == "__main__":
    main()
