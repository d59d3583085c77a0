"""The engine contract (the README's contract): one JSON hand summary in, one JSON result out.

``score_summary`` never raises on bad input: a refused summary answers
``{"ok": false, "errors": [{"code", "message", "path"}]}`` listing every problem
found. ``parse_summary`` is the checking half (its sections checked by ``summary_cards``
and ``summary_play``), ``result_json`` the answering half.

>>> r = score_summary({"players": ["A", "B"], "captures": {"A": ["1g", "3g", "8g", "2a", "4a", "8a"]},
...                    "outcome": {"type": "stop", "winner": "A"}})
>>> r["net"]
{'A': 16, 'B': -16}
"""

from __future__ import annotations

import json
from typing import Any

from .. import checks
from ..checks import MAX_NAME
from ..errors import EngineError
from ..model import Outcome, OutcomeType, RefusedJSON, ResultJSON, Settlement
from ..payout import money, settle
from ..rules import Rules, rules_from
from . import cards, play
from .checker import Checker
from .facts import HandFacts

try:  # a dependency; the engine still works on the standard library alone
    import orjson as _orjson
except ImportError:  # pragma: no cover
    _orjson = None  # type: ignore[assignment]

FIELDS = frozenset(
    {
        "rules",
        "players",
        "dealer",
        "nagari_carry",
        "captures",
        "junk",
        "gos",
        "last_go",
        "shakes",
        "bombs",
        "outcome",
        "dokbak",
        "showdown",
        "fixed",
        "mission",
        "weol_yak",
        "chip_value",
        "score_at_last_go",
        "reverse_go",
    }
)


def _rules(doc: dict) -> Rules:
    return rules_from(*checks.rules_spec(doc.get("rules"), "rules must be an object: {preset, options}.", "rules"))


def _players(doc: dict) -> tuple[str, ...]:
    players: Any = doc.get("players")
    if not checks.are_names(players, 2, 3):
        raise EngineError(
            "bad_players", f"players must list 2 or 3 distinct names of 1–{MAX_NAME} characters.", "players"
        )
    return tuple(players)


def _rules_and_players(doc: dict, c: Checker) -> tuple[Rules, tuple[str, ...]]:
    """The two fields every other check needs: both checked, every problem of the two raised at once."""
    try:
        rules: Rules | None = _rules(doc)
    except EngineError as err:
        c.errors.extend(err.errors)
        rules = None
    try:
        players: tuple[str, ...] | None = _players(doc)
    except EngineError as err:
        c.errors.extend(err.errors)
        players = None
    if rules is None or players is None:
        raise EngineError.many(c.errors)
    return rules, players


def _dealer_chongtong(c: Checker, outcome: Outcome | None, dealer: str | None, rules: Rules) -> Outcome | None:
    """``dealer_chongtong`` for a summary: its refusal goes with the summary's other problems."""
    if outcome is None:
        return outcome
    try:
        return dealer_chongtong(outcome, dealer, rules)
    except EngineError as err:
        c.errors.extend(err.errors)
        return outcome


def dealer_chongtong(outcome: Outcome, dealer: str | None, rules: Rules) -> Outcome:
    """rules.md §13 reading 8: under ``void_deal_chongtong`` a void deal is the dealer's chongtong,
    reported as such, never a void deal that pays. A summary and a live hand both read it here."""
    if outcome.type is not OutcomeType.VOID_DEAL:
        return outcome
    if not (rules.void_deal_chongtong and rules.chongtong_played):
        return outcome
    if not dealer:
        raise EngineError(
            "missing_winner", "Under the table's rules a void deal is the dealer's win: name the dealer.", "dealer"
        )
    return Outcome(OutcomeType.CHONGTONG, (dealer,), outcome.month)


def parse_summary(doc: Any) -> tuple[Rules, HandFacts]:
    """Check a summary; answer the rules and the facts, or raise every problem found."""
    if not isinstance(doc, dict):
        raise EngineError("bad_summary", "A hand summary is a JSON object.", "")
    c = Checker()
    rules, players = _rules_and_players(doc, c)
    masks: dict[str, int] = {}
    captures = cards.check_captures(c, doc, players, rules, masks)
    # A section that is absent or empty (most of them, in most summaries) is not looked into:
    # each check answers what is given here for it, and finds nothing to refuse.
    get = doc.get
    junk = cards.check_junk(c, doc, players, captures, rules) if get("junk") else {}
    gos = play.check_gos(c, doc, players) if get("gos") else {}
    last_go_scores = play.check_last_go_scores(c, doc, players, gos) if get("score_at_last_go") else {}
    shakes = cards.month_lists(c, doc, "shakes", players) if get("shakes") else {}
    bombs = cards.month_lists(c, doc, "bombs", players) if get("bombs") else {}
    cards.check_months(c, shakes, bombs, captures, rules)
    outcome = play.check_outcome(c, doc, players, rules)
    dokbak = play.check_dokbak(c, doc, players, outcome, gos, rules) if get("dokbak") is not None else None
    showdown = play.check_showdown(c, doc, players, outcome) if get("showdown") is not None else None
    fixed = play.check_fixed(c, doc, players, rules, outcome) if get("fixed") else ()
    reverse_go = play.check_reverse_go(c, doc, players, gos, rules) if get("reverse_go") else ()
    extras = play.check_extras(c, doc, players, rules)
    dealer = extras.get("dealer")
    outcome = _dealer_chongtong(c, outcome, dealer, rules)
    if c.errors:
        raise EngineError.many(c.errors)
    assert outcome is not None  # _outcome answers None only with an error
    # Every field in ``HandFacts`` order (asserted below): the tuple built without the keyword
    # handling of a named tuple's __new__.
    return rules, HandFacts(
        players,
        outcome,
        captures,
        junk,
        gos,
        shakes,
        bombs,
        dokbak,
        showdown,
        extras.get("last_go"),
        extras.get("nagari_carry", 0),
        fixed,
        extras.get("mission", 1),
        extras.get("weol_yak", ()),
        extras.get("chip_value", 100),
        dealer,
        last_go_scores,
        reverse_go,
        masks,
        extras.get("mission_by"),
    )


assert HandFacts._fields == (
    "players",
    "outcome",
    "captures",
    "junk",
    "gos",
    "shakes",
    "bombs",
    "dokbak",
    "showdown",
    "last_go",
    "nagari_carry",
    "fixed",
    "mission",
    "weol_yak",
    "chip_value",
    "dealer",
    "score_at_last_go",
    "reverse_go",
    "masks",
    "mission_by",
)


def result_json(s: Settlement, facts: HandFacts) -> ResultJSON:
    """The contract's result for a settlement."""
    outcome = facts.outcome.to_json()
    net = s.net
    chip = facts.chip_value
    whole = type(chip) is int  # the common case: money is points × chip value, no rounding
    return {
        "ok": True,
        "outcome": outcome,
        "target": s.target,
        "scores": {p: score.to_json() for p, score in s.scores.items()},
        "payments": [
            {
                "from": payer,
                "to": payee,
                "points": points,
                "money": points * chip if whole else money(points, chip),
                "kind": kind,
                "trail": [step.to_json() for step in trail],
            }
            for payer, payee, points, kind, trail in s.payments
        ],
        "net": net,
        "net_money": {p: v * chip for p, v in net.items()} if whole else {p: money(v, chip) for p, v in net.items()},
        "notes": [n.to_json() for n in s.notes],
    }


def score_summary(doc: Any) -> ResultJSON | RefusedJSON:
    """A summary → the result, or the coded errors; never raises on bad input."""
    try:
        rules, facts = parse_summary(doc)
        result = result_json(settle(facts, rules), facts)
    except EngineError as err:
        return {"ok": False, "errors": err.errors}
    unknown = () if FIELDS.issuperset(doc) else sorted(set(doc) - FIELDS)
    if unknown:
        result["warnings"] = [
            {"code": "unknown_field", "message": f"Ignored unknown field {k!r}.", "path": k} for k in unknown
        ]
    return result


def loads(text: str | bytes) -> Any:
    """Parse JSON with orjson (several times faster); whatever orjson refuses — NaN, integers beyond
    64 bits, lone surrogates, invalid JSON — goes to the standard library, whose reading and error
    messages are the contract's."""
    if _orjson is not None:
        try:
            return _orjson.loads(text)
        except ValueError:
            pass
    return json.loads(text)


def dumps(result: Any) -> str:
    """Compact JSON, non-ASCII as is: orjson, or the standard library for what orjson cannot write."""
    return dumps_bytes(result).decode()


def dumps_bytes(result: Any) -> bytes:
    """``dumps`` as UTF-8 bytes, ready to be written out without a second encoding."""
    if _orjson is not None:
        try:
            return _orjson.dumps(result)
        except TypeError:  # e.g. an integer beyond 64 bits
            pass
    return json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode()


def score_text(text: str) -> ResultJSON | RefusedJSON:
    """One JSON text → the result; invalid JSON is a coded error too."""
    try:
        doc = loads(text)
    except ValueError as err:
        return {"ok": False, "errors": [{"code": "invalid_json", "message": f"Not valid JSON: {err}", "path": ""}]}
    return score_summary(doc)
