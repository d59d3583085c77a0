"""The engine contract (DESIGN.md): one JSON hand summary in, one JSON result out.

``score_summary`` never raises on bad input: a refused summary answers
``{"ok": false, "errors": [{"code", "message", "path"}]}`` listing every problem
found. ``parse_summary`` is the checking half, ``result_json`` the answering half.

>>> r = score_summary({"players": ["A", "B"], "captures": {"A": ["1g", "3g", "8g", "2a", "4a", "8a"]},
...                    "outcome": {"type": "stop", "winner": "A"}})
>>> r["net"]
{'A': 16, 'B': -16}
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

from . import checks
from .cards import BONUS_CARDS, CARDS, DECK, JUNK, month_cards
from .checks import MAX_NAME, is_month, is_whole
from .errors import EngineError
from .facts import FIXED_KINDS, Dokbak, DokbakReason, Fixed, HandFacts, Outcome, OutcomeType, Showdown
from .payout import Settlement, money, settle
from .rules import Rules, rules_from
from .scoring import BIT

try:  # a dependency; the engine still works on the standard library alone
    import orjson as _orjson
except ImportError:  # pragma: no cover
    _orjson = None  # type: ignore[assignment]

FIELDS = frozenset({
    "rules", "players", "dealer", "nagari_carry", "captures", "junk", "gos", "last_go", "shakes", "bombs",
    "outcome", "dokbak", "showdown", "fixed", "mission", "weol_yak", "chip_value", "score_at_last_go",
    "reverse_go",
})


class _Checker:
    """Collects every problem of a summary, so the user sees them all at once."""

    def __init__(self) -> None:
        self.errors: list[dict] = []

    def add(self, code: str, message: str, path: str) -> None:
        self.errors.append({"code": code, "message": message, "path": path})



def _rules(doc: dict) -> Rules:
    return rules_from(*checks.rules_spec(doc.get("rules"), "rules must be an object: {preset, options}.", "rules"))


def _players(doc: dict) -> tuple[str, ...]:
    players: Any = doc.get("players")
    if not checks.are_names(players, 2, 3):
        raise EngineError("bad_players", f"players must list 2 or 3 distinct names of 1–{MAX_NAME} characters.",
                          "players")
    return tuple(players)


def _per_player(c: _Checker, doc: dict, key: str, players: tuple[str, ...]) -> dict:
    value = doc.get(key)
    if not value:  # absent or empty: the common case, answered at once
        return {}
    if not isinstance(value, dict):
        c.add("bad_value", f"{key} must be an object keyed by player.", key)
        return {}
    for p in value:
        if p not in players:
            c.add("unknown_player", f"{p!r} in {key} is not a player of this hand.", f"{key}.{p}")
    return {p: v for p, v in value.items() if p in players}


def _player(c: _Checker, value: Any, players: tuple[str, ...], path: str) -> str | None:
    if value not in players:
        c.add("unknown_player", f"{value!r} is not a player of this hand.", path)
        return None
    return value


def _captures(c: _Checker, doc: dict, players, rules: Rules,
              masks: dict[str, int]) -> dict[str, tuple[str, ...]]:
    """Each player's captures, checked; ``masks`` gets the deck mask of those without bonus cards."""
    out: dict[str, tuple[str, ...]] = {}
    taken = 0  # the deck cards of the players so far, as a mask
    bonus_seen: Counter | None = None
    for p, cards in _per_player(c, doc, "captures", players).items():
        if not isinstance(cards, list):
            c.add("bad_value", "captures must list card codes.", f"captures.{p}")
            continue
        mask = _plain_mask(cards)
        if mask is not None and not mask & taken:  # the common case, checked in one go
            taken |= mask
            masks[p] = mask
            out[p] = tuple(cards)
            continue
        # The slow path names each problem, and who already holds a card taken twice.
        seen = {code: q for q, held in out.items() for code in held if code in BIT}
        kept = []
        bonus_seen = bonus_seen if bonus_seen is not None else Counter()
        for i, code in enumerate(cards):
            path = f"captures.{p}[{i}]"
            if not isinstance(code, str) or code not in CARDS:
                c.add("unknown_card", f"{code!r} is not a card code (e.g. 1g, 9a, 11jd, b2).", path)
            elif code in BONUS_CARDS:
                bonus_seen[code] += 1
                allowed = rules.bonus_count(code)
                if bonus_seen[code] > allowed:
                    c.add("bonus_not_in_rules",
                          f"{code} ({CARDS[code].label}): the table plays with {allowed} of it.", path)
                else:
                    kept.append(code)
            elif code in seen:
                c.add("card_twice", f"{code} is captured twice ({seen[code]} and {p}).", path)
            else:
                seen[code] = p
                taken |= BIT[code]
                kept.append(code)
        out[p] = tuple(kept)
    return out


def _plain_mask(cards: list) -> int | None:
    """The mask of ``cards`` when they are distinct deck cards (no bonus card), else None.

    Adding the cards' bits gives as many set bits as cards exactly when none repeats (a repeat
    carries)."""
    try:
        mask = sum(map(BIT.__getitem__, cards))
    except (KeyError, TypeError):  # an unknown or bonus code, or an unhashable item: the slow path names it
        return None
    return mask if mask.bit_count() == len(cards) else None


def _junk(c: _Checker, doc: dict, players, captures, rules: Rules) -> dict[str, int]:
    out = {}
    for p, n in _per_player(c, doc, "junk", players).items():
        if not is_whole(n, 0, 200):
            c.add("bad_value", "junk is a whole number of junk (a double junk counts 2).", f"junk.{p}")
        else:
            out[p] = n
    if not out:
        return out
    listed = {code for cards in captures.values() for code in cards}
    room = sum(card.junk for card in DECK if card.kind == JUNK and card.code not in listed)
    room += not rules.rain_ribbon_counts and "12r" not in listed  # then the rain ribbon is junk
    room += rules.cup_junk_value if rules.cup_flexible and "9a" not in listed else 0
    room += 2 if rules.bridge_flexible and "5a" not in listed else 0
    room += sum(BONUS_CARDS[b].junk * rules.bonus_count(b) for b in ("b2", "b3"))
    room -= sum(BONUS_CARDS[code].junk for cards in captures.values() for code in cards if code in ("b2", "b3"))
    if sum(out.values()) > room:
        c.add("too_many_cards",
              f"The unlisted junk adds up to {sum(out.values())}, but the junk not listed is worth only {room}.",
              "junk")
    return out


def _gos(c: _Checker, doc: dict, players) -> dict[str, int]:
    out = {}
    for p, n in _per_player(c, doc, "gos", players).items():
        if is_whole(n, 0, 20):
            out[p] = n
        else:
            c.add("bad_value", "gos is a whole number from 0 to 20.", f"gos.{p}")
    return out


def _last_go_scores(c: _Checker, doc: dict, players, gos: dict[str, int]) -> dict[str, int]:
    """The score toward the target at each player's last go (a live hand knows it, RULES.md §11.1)."""
    out = {}
    for p, n in _per_player(c, doc, "score_at_last_go", players).items():
        if not is_whole(n, 0, 500):
            c.add("bad_value", "score_at_last_go is a whole number of points.", f"score_at_last_go.{p}")
        elif not gos.get(p):
            c.add("bad_value", f"{p} said no go, so has no score at a last go.", f"score_at_last_go.{p}")
        else:
            out[p] = n
    return out


def _reverse_go(c: _Checker, doc: dict, players, gos: dict[str, int], rules: Rules) -> tuple[str, ...]:
    """역고: the players whose go came after an opponent's go (a live hand knows the order)."""
    spec = doc.get("reverse_go") or []
    if not isinstance(spec, list):
        c.add("bad_value", "reverse_go lists players.", "reverse_go")
        return ()
    if spec and not rules.reverse_go:
        c.add("rule_off", "The table's rules play no reverse go (역고).", "reverse_go")
        return ()
    out = []
    for i, p in enumerate(spec):
        if _player(c, p, players, f"reverse_go[{i}]") is None:
            continue
        if not gos.get(p):
            c.add("bad_value", f"{p} said no go, so no reverse go.", f"reverse_go[{i}]")
        else:
            out.append(p)
    return tuple(out)


def _months(c: _Checker, doc: dict, key: str, players) -> dict[str, tuple[int, ...]]:
    out = {}
    for p, months in _per_player(c, doc, key, players).items():
        if not isinstance(months, list) or not all(is_month(m) for m in months):
            c.add("bad_month", f"{key} lists months from 1 to 12.", f"{key}.{p}")
        elif len(set(months)) != len(months):
            c.add("shake_twice", f"{p} names the same month twice in {key}.", f"{key}.{p}")
        else:
            out[p] = tuple(months)
    return out


def _check_months(c: _Checker, shakes, bombs, captures, rules: Rules) -> None:
    """Shakes and bombs: each month held by one player; a bomb's month captured whole."""
    if not shakes and not bombs:
        return
    owner: dict[int, str] = {}
    for key, table in (("shakes", shakes), ("bombs", bombs)):
        for p, months in table.items():
            for m in months:
                if owner.setdefault(m, p) != p:
                    c.add("shake_twice", f"Month {m} is shown by both {owner[m]} and {p}.", f"{key}.{p}")
    if not bombs:
        return
    # A flexible cup or bridge may since have left the bomber's pile as double junk (RULES.md §11.5).
    flexible = {code for code, on in (("9a", rules.cup_flexible), ("5a", rules.bridge_flexible)) if on}
    for p, months in bombs.items():
        for m in months:
            needed = [card.code for card in month_cards(m) if card.kind != JUNK and card.code not in flexible]
            missing = [code for code in needed if code not in captures.get(p, ())]
            if missing:
                c.add("bomb_cards_missing",
                      f"{p} bombed month {m} but did not capture {', '.join(missing)}.", f"bombs.{p}")
            if m in shakes.get(p, ()) and not rules.bomb_after_shake:
                c.add("bomb_after_shake",
                      f"{p} shook month {m}: the table's rules allow no bomb of a shaken month.", f"bombs.{p}")


_OUTCOME_TYPES = {t.value: t for t in OutcomeType}


def _outcome(c: _Checker, doc: dict, players, rules: Rules) -> Outcome | None:
    spec = doc.get("outcome")
    if not isinstance(spec, dict):
        c.add("unknown_outcome", "outcome must be an object with a type.", "outcome")
        return None
    type_: Any = spec.get("type")
    kind = _OUTCOME_TYPES.get(type_) if isinstance(type_, str) else None
    if kind is None:
        c.add("unknown_outcome", f"outcome.type must be one of {', '.join(t.value for t in OutcomeType)}.",
              "outcome.type")
        return None
    winners = spec.get("winners")
    if winners is None:
        winners = [spec["winner"]] if spec.get("winner") is not None else []
    if not isinstance(winners, list):
        c.add("bad_value", "outcome.winners must list players.", "outcome.winners")
        return None
    if kind in (OutcomeType.NAGARI, OutcomeType.VOID_DEAL):
        if winners:
            c.add("winner_in_nagari", f"A {kind.value} has no winner.", "outcome.winner")
        return Outcome(kind)
    if not winners:
        c.add("missing_winner", f"A {kind.value} names its winner.", "outcome.winner")
        return None
    if any(_player(c, w, players, "outcome.winner") is None for w in winners):
        return None
    if len(winners) > 1 and kind is not OutcomeType.CHONGTONG or len(set(winners)) != len(winners):
        c.add("bad_value", "Only chongtong may have several winners, each once.", "outcome.winners")
        return None
    month = spec.get("month")
    if kind is OutcomeType.CHONGTONG:
        if month is not None and not is_month(month):
            c.add("bad_month", "outcome.month is a month from 1 to 12.", "outcome.month")
        if not rules.chongtong_played:
            c.add("rule_off", "The table's rules pay nothing for chongtong.", "outcome.type")
    if kind is OutcomeType.THREE_PPUK and not rules.three_ppuk:
        c.add("rule_off", "The table's rules do not play three ppuk (삼뻑) as a win.", "outcome.type")
    return Outcome(kind, tuple(winners), month if is_month(month) else None)


def _dokbak(c: _Checker, doc: dict, players, outcome: Outcome | None, gos, rules: Rules) -> Dokbak | None:
    spec = doc.get("dokbak")
    if spec is None:
        return None
    path = "dokbak"
    if not isinstance(spec, dict):
        c.add("bad_value", "dokbak is null or {player, reason}.", path)
        return None
    try:
        reason = DokbakReason(spec.get("reason"))
    except ValueError:
        c.add("bad_value", "dokbak.reason is oe_myeon, showdown or go_bak.", f"{path}.reason")
        return None
    player = _player(c, spec.get("player"), players, f"{path}.player")
    if player is None or outcome is None:
        return None
    if len(players) != 3 or outcome.type is not OutcomeType.STOP:
        c.add("dokbak_needs_three", "Dok-bak is paid only in a three-player hand won by a stop.", path)
    elif player == outcome.winner:
        c.add("dokbak_is_winner", f"{player} won the hand and cannot pay dok-bak.", f"{path}.player")
    elif reason is DokbakReason.GO_BAK and not gos.get(player):
        c.add("go_bak_without_go", f"{player} said no go, so cannot be go-bak.", f"{path}.player")
    elif reason is DokbakReason.GO_BAK and rules.go_bak_three_players == "double_own":
        c.add("rule_off", "The table's rules double the go-bak loser's own amount instead.", f"{path}.reason")
    elif reason is DokbakReason.OE_MYEON and not rules.oe_myeon:
        c.add("rule_off", "The table's rules do not play oe-myeon.", f"{path}.reason")
    last_card = spec.get("last_card", False)
    if not isinstance(last_card, bool):
        c.add("bad_value", "dokbak.last_card is true or false.", f"{path}.last_card")
    return Dokbak(player, reason, last_card is True)


def _showdown(c: _Checker, doc: dict, players, outcome: Outcome | None) -> Showdown | None:
    spec = doc.get("showdown")
    if spec is None:
        return None
    if not isinstance(spec, dict) or len(players) != 3:
        c.add("bad_value", "showdown is {offered_by, refused_by}, in a three-player hand.", "showdown")
        return None
    offered = _player(c, spec.get("offered_by"), players, "showdown.offered_by")
    refused = _player(c, spec.get("refused_by"), players, "showdown.refused_by")
    if offered is None or refused is None:
        return None
    if offered == refused:
        c.add("bad_value", "The player who offers a showdown cannot refuse it.", "showdown.refused_by")
        return None
    given = doc.get("dokbak")
    if outcome and outcome.type is OutcomeType.STOP and outcome.winner != refused and \
            isinstance(given, dict) and given.get("player") not in (None, refused):
        c.add("bad_value", "The showdown refuser is the dok-bak payer.", "dokbak.player")
    return Showdown(offered, refused)


def _fixed(c: _Checker, doc: dict, players, rules: Rules, outcome: Outcome | None) -> tuple[Fixed, ...]:
    spec = doc.get("fixed")
    if not spec:
        return ()
    if not isinstance(spec, list):
        c.add("bad_value", "fixed lists {kind, player} payments.", "fixed")
        return ()
    out = []
    for i, item in enumerate(spec):
        path = f"fixed[{i}]"
        if not isinstance(item, dict) or item.get("kind") not in FIXED_KINDS:
            c.add("unknown_fixed", f"fixed kind is one of {', '.join(FIXED_KINDS)}.", f"{path}.kind")
            continue
        player = _player(c, item.get("player"), players, f"{path}.player")
        if not getattr(rules, item["kind"]):
            c.add("rule_off", f"The table's rules pay nothing for {item['kind']}.", f"{path}.kind")
        elif player is not None:
            out.append(Fixed(item["kind"], player))
    if out and outcome and outcome.type is OutcomeType.VOID_DEAL:
        c.add("payment_in_void_deal", "A void deal is redealt: nothing is paid.", "fixed")
    return tuple(out)


def _extras(c: _Checker, doc: dict, players, rules: Rules) -> dict:
    out: dict = {}
    carry = doc.get("nagari_carry", 0)
    if not is_whole(carry, 0, 30):
        c.add("bad_value", "nagari_carry is the number of nagari before this hand, 0 to 30.", "nagari_carry")
    else:
        out["nagari_carry"] = carry
    mission = doc.get("mission", 1)
    if mission is None or mission == 1:
        pass
    elif not is_whole(mission, 2, 9):
        c.add("bad_value", "mission is a multiplier from 2 to 9.", "mission")
    elif not rules.missions:
        c.add("rule_off", "The table's rules play no missions.", "mission")
    else:
        out["mission"] = mission
    weol = doc.get("weol_yak") or ()
    if not weol:
        out["weol_yak"] = ()
    elif not isinstance(weol, list):
        c.add("bad_value", "weol_yak lists players.", "weol_yak")
    elif weol and not rules.weol_yak:
        c.add("rule_off", "The table's rules play no weol-yak.", "weol_yak")
    else:
        out["weol_yak"] = tuple(p for i, p in enumerate(weol) if _player(c, p, players, f"weol_yak[{i}]"))
    chip = doc.get("chip_value", 100)
    if checks.is_chip_value(chip):
        out["chip_value"] = chip
    else:
        c.add("bad_value", checks.CHIP_VALUE_HELP, "chip_value")
    if doc.get("dealer") is not None:
        out["dealer"] = _player(c, doc["dealer"], players, "dealer")
    if doc.get("last_go") is not None:
        out["last_go"] = _player(c, doc["last_go"], players, "last_go")
    return out


def parse_summary(doc: Any) -> tuple[Rules, HandFacts]:
    """Check a summary; answer the rules and the facts, or raise every problem found."""
    if not isinstance(doc, dict):
        raise EngineError("bad_summary", "A hand summary is a JSON object.", "")
    c = _Checker()
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
    masks: dict[str, int] = {}
    captures = _captures(c, doc, players, rules, masks)
    # A section that is absent or empty (most of them, in most summaries) is not looked into:
    # each check answers what is given here for it, and finds nothing to refuse.
    get = doc.get
    junk = _junk(c, doc, players, captures, rules) if get("junk") else {}
    gos = _gos(c, doc, players) if get("gos") else {}
    last_go_scores = _last_go_scores(c, doc, players, gos) if get("score_at_last_go") else {}
    shakes = _months(c, doc, "shakes", players) if get("shakes") else {}
    bombs = _months(c, doc, "bombs", players) if get("bombs") else {}
    _check_months(c, shakes, bombs, captures, rules)
    outcome = _outcome(c, doc, players, rules)
    facts_kw = dict(
        dokbak=_dokbak(c, doc, players, outcome, gos, rules) if get("dokbak") is not None else None,
        showdown=_showdown(c, doc, players, outcome) if get("showdown") is not None else None,
        fixed=_fixed(c, doc, players, rules, outcome) if get("fixed") else (),
        score_at_last_go=last_go_scores,
        reverse_go=_reverse_go(c, doc, players, gos, rules) if get("reverse_go") else (),
        masks=masks,
        **_extras(c, doc, players, rules),
    )
    if outcome is not None and outcome.type is OutcomeType.VOID_DEAL and rules.void_deal_chongtong \
            and rules.chongtong_played:
        # RULES.md §11.8: the dealer's chongtong, reported as such, never a void deal that pays.
        if not facts_kw.get("dealer"):
            c.add("missing_winner", "Under the table's rules a void deal is the dealer's win: name the dealer.",
                  "dealer")
        else:
            outcome = Outcome(OutcomeType.CHONGTONG, (facts_kw["dealer"],), outcome.month)
    if c.errors:
        raise EngineError.many(c.errors)
    assert outcome is not None  # _outcome answers None only with an error
    return rules, HandFacts(players, outcome, captures, junk, gos, shakes, bombs, **facts_kw)


def result_json(s: Settlement, facts: HandFacts) -> dict:
    """The contract's result for a settlement."""
    out = facts.outcome
    outcome: dict = {"type": out.type.value}
    if out.winners:
        outcome["winner"] = out.winner
        if len(out.winners) > 1:
            outcome["winners"] = list(out.winners)
    if out.month:
        outcome["month"] = out.month
    net = s.net
    return {
        "ok": True,
        "outcome": outcome,
        "target": s.target,
        "scores": {p: score.to_json() for p, score in s.scores.items()},
        "payments": [
            {"from": p.payer, "to": p.payee, "points": p.points, "money": money(p.points, facts.chip_value),
             "kind": p.kind, "trail": [step.to_json() for step in p.trail]}
            for p in s.payments
        ],
        "net": net,
        "net_money": {p: money(v, facts.chip_value) for p, v in net.items()},
        "notes": list(s.notes),
    }


def score_summary(doc: Any) -> dict:
    """A summary → the result, or the coded errors; never raises on bad input."""
    try:
        rules, facts = parse_summary(doc)
        result = result_json(settle(facts, rules), facts)
    except EngineError as err:
        return {"ok": False, "errors": err.errors}
    unknown = () if FIELDS.issuperset(doc) else sorted(set(doc) - FIELDS)
    if unknown:
        result["warnings"] = [
            {"code": "unknown_field", "message": f"Ignored unknown field {k!r}.", "path": k} for k in unknown]
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


def score_text(text: str) -> dict:
    """One JSON text → the result; invalid JSON is a coded error too."""
    try:
        doc = loads(text)
    except ValueError as err:
        return {"ok": False, "errors": [{"code": "invalid_json", "message": f"Not valid JSON: {err}", "path": ""}]}
    return score_summary(doc)
