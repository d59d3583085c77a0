"""모임 A group's evenings: each evening's hands as plain facts, statistics, balances, who still owes.

Pure functions over JSON-ready data, so that the web layer can keep each evening's facts
(``evening_facts``) with the table's version and never replay every hand on every view:

- ``evening_facts(series)``: one evening (a series) → its balances and one small dict per hand
  (who played, won, said go, shook, bombed; what each paid whom, with the doubles of the trail).
  A quick-entry hand counts as much as a live one: both are read from their contract summary.
- ``player_stats(hands)``: per player, over any selection of those hands (an evening, a month,
  all time), with the biggest hand won and its trail; ``head_to_head``; ``titles`` with reasons.
- ``running_balances(evenings)``: the ledger of evenings with the balances after each.
- ``owed(balances, payments)``: the fewest transfers settling the balances less what was paid.
  A recorded payment never changes what was won and lost; it only settles.

>>> [t.to_json(100) for t in owed({"A": 30, "B": -10, "C": -20}, [{"from": "C", "to": "A", "points": 5}])]
[{'from': 'C', 'to': 'A', 'points': 15, 'money': 1500}, {'from': 'B', 'to': 'A', 'points': 10, 'money': 1000}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import EngineError
from .live.hand import HandSetup, replay
from .payout import money
from .series.settle import settle_up

# The doubles a loser may suffer, as trail step ids: each counts one payment the player made with it.
SUFFERED = {
    "pi_bak": ("pi_bak",),
    "gwang_bak": ("gwang_bak",),
    "meong_tta": ("meong_dda", "meong_bak", "meong_bak_five"),
    "go_bak": ("go_bak",),
    "dok_bak": ("dok_bak",),  # paid another loser's share too
}
# The largest payment: every integer up to it is exact in a JSON reader's double (a phone's
# JavaScript), and it fits a signed 64-bit column with room to spare (issue 29: 10**30 and 2**63
# reached the database and answered 500).
MAX_PAYMENT_POINTS = 2**53 - 1
FACTS_FORMAT = 1  # bumped when what ``evening_facts`` answers changes: facts kept before are computed again
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


# -- one evening -------------------------------------------------------------------------------


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


# -- statistics --------------------------------------------------------------------------------


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


def by_month(evenings: Sequence[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The hands of each month (``"YYYY-MM"`` of each evening's ``date``), each marked with its evening."""
    out: dict[str, list[dict[str, Any]]] = {}
    for ev in evenings:
        out.setdefault(str(ev["date"])[:7], []).extend(all_hands([ev]))
    return out


def all_hands(evenings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every hand of ``evenings`` (each ``{"id", "facts"}``), marked with its evening's id."""
    return [{**h, "evening": ev["id"]} for ev in evenings for h in ev["facts"]["hands"]]


# -- balances and debts ------------------------------------------------------------------------


def running_balances(
    players: Sequence[str], evenings: Sequence[Mapping[str, Any]], chip_value: float
) -> list[dict[str, Any]]:
    """Each evening with its own result and the group's balances after it (points and money).

    Money of an evening is at its own chip value; the running money adds those up.
    """
    points = dict.fromkeys(players, 0)
    cash: dict[str, float] = dict.fromkeys(players, 0)
    out = []
    for ev in evenings:
        facts = ev["facts"]
        chip = facts.get("chip_value", chip_value)
        for p, v in facts["balances"].items():
            points[p] = points.get(p, 0) + v
            cash[p] = cash.get(p, 0) + money(v, chip)
        out.append(
            {
                "id": ev["id"],
                "date": ev["date"],
                "result": dict(facts["balances"]),
                "result_money": {p: money(v, chip) for p, v in facts["balances"].items()},
                "balances": dict(points),
                "balances_money": {p: _tidy(v) for p, v in cash.items()},
            }
        )
    return out


def _tidy(value: float) -> float:
    return int(value) if float(value).is_integer() else round(value, 2)


def balances_of(players: Sequence[str], evenings: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """The sum of the evenings' balances: what each player won (+) or lost (−) in all."""
    out = dict.fromkeys(players, 0)
    for ev in evenings:
        for p, v in ev["facts"]["balances"].items():
            out[p] = out.get(p, 0) + v
    return out


@dataclass(frozen=True, slots=True)
class Owed:
    payer: str
    payee: str
    points: int

    def to_json(self, chip_value: float) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "points": self.points, "money": money(self.points, chip_value)}


def unsettled(balances: Mapping[str, int], payments: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """The balances less what was handed over: a payer's debt shrinks, the payee's due too."""
    left = dict(balances)
    for pay in payments:
        left[pay["from"]] = left.get(pay["from"], 0) + int(pay["points"])
        left[pay["to"]] = left.get(pay["to"], 0) - int(pay["points"])
    return left


def owed(balances: Mapping[str, int], payments: Iterable[Mapping[str, Any]]) -> list[Owed]:
    """The fewest transfers (at most n − 1) that settle ``balances`` less ``payments``."""
    return [Owed(t.payer, t.payee, t.points) for t in settle_up(unsettled(balances, payments))]


def check_payment(
    players: Sequence[str],
    balances: Mapping[str, int],
    payments: Iterable[Mapping[str, Any]],
    payer: Any,
    payee: Any,
    points: Any,
    beyond: bool = False,
) -> None:
    """Refuse a payment that cannot be (``EngineError``, coded): to oneself, from or to a stranger,
    not a whole number of points above zero, or more than is owed unless ``beyond`` says so."""
    if not isinstance(points, int) or isinstance(points, bool):
        raise EngineError("bad_payment", "points is a whole number of points above zero.", "points")
    if not 0 < points <= MAX_PAYMENT_POINTS:
        raise EngineError(
            "bad_payment", f"points is a whole number of points from 1 to {MAX_PAYMENT_POINTS}.", "points"
        )
    for who, path in ((payer, "from"), (payee, "to")):
        if not isinstance(who, str) or who not in players:
            raise EngineError("payment_stranger", f"{who!r} is not one of the group's players.", path)
    if payer == payee:
        raise EngineError("payment_to_self", "A payment goes from one player to another.", "to")
    left = unsettled(balances, payments)
    room = min(-left.get(payer, 0), left.get(payee, 0))
    if points > room and not beyond:
        raise EngineError(
            "payment_beyond_owed",
            f"{payer} owes {payee} at most {max(room, 0)} points now: say beyond_owed to record more.",
            "points",
        )
