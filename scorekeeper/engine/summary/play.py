"""A summary's play: the gos, how the hand ended, dok-bak, the showdown, fixed payments, extras."""

from __future__ import annotations

from .. import checks
from ..checks import is_month, is_whole
from ..model import Outcome, OutcomeType
from ..rules import Rules
from .checker import Checker, Players, known_player, per_player
from .facts import FIXED_KINDS, PPUK_CHAIN_KINDS, Dokbak, DokbakReason, Fixed, Showdown


def check_gos(c: Checker, doc: dict, players: Players) -> dict[str, int]:
    out = {}
    for p, n in per_player(c, doc, "gos", players).items():
        if is_whole(n, 0, 20):
            out[p] = n
        else:
            c.add("bad_value", "gos is a whole number from 0 to 20.", f"gos.{p}")
    return out


def check_last_go_scores(c: Checker, doc: dict, players: Players, gos: dict[str, int]) -> dict[str, int]:
    """The score toward the target at each player's last go (a live hand knows it, rules.md §13 reading 1)."""
    out = {}
    for p, n in per_player(c, doc, "score_at_last_go", players).items():
        if not is_whole(n, 0, 500):
            c.add("bad_value", "score_at_last_go is a whole number of points.", f"score_at_last_go.{p}")
        elif not gos.get(p):
            c.add("bad_value", f"{p} said no go, so has no score at a last go.", f"score_at_last_go.{p}")
        else:
            out[p] = n
    return out


def check_reverse_go(c: Checker, doc: dict, players: Players, gos: dict[str, int], rules: Rules) -> tuple[str, ...]:
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
        if known_player(c, p, players, f"reverse_go[{i}]") is None:
            continue
        if not gos.get(p):
            c.add("bad_value", f"{p} said no go, so no reverse go.", f"reverse_go[{i}]")
        else:
            out.append(p)
    return tuple(out)


_OUTCOME_TYPES = {t.value: t for t in OutcomeType}


def check_outcome(c: Checker, doc: dict, players: Players, rules: Rules) -> Outcome | None:
    spec = doc.get("outcome")
    if not isinstance(spec, dict):
        c.add("unknown_outcome", "outcome must be an object with a type.", "outcome")
        return None
    type_ = spec.get("type")
    kind = _OUTCOME_TYPES.get(type_) if isinstance(type_, str) else None
    if kind is None:
        c.add(
            "unknown_outcome", f"outcome.type must be one of {', '.join(t.value for t in OutcomeType)}.", "outcome.type"
        )
        return None
    winners = _winners_of(c, spec, kind, players)
    if winners is None:
        return None
    if not winners:
        return Outcome(kind)
    month = spec.get("month")
    _check_instant_win(c, kind, month, rules)
    return Outcome(kind, tuple(winners), month if month is not None and is_month(month) else None)


def _winners_of(c: Checker, spec: dict, kind: OutcomeType, players: Players) -> list[str] | None:
    """The outcome's winners, checked against its type (none in a nagari or a void deal, one or more
    else, several only in chongtong); None after a problem."""
    winners = spec.get("winners")
    if winners is None:
        winners = [spec["winner"]] if spec.get("winner") is not None else []
    if not isinstance(winners, list):
        c.add("bad_value", "outcome.winners must list players.", "outcome.winners")
        return None
    if kind in (OutcomeType.NAGARI, OutcomeType.VOID_DEAL):
        if winners:
            c.add("winner_in_nagari", f"A {kind.value} has no winner.", "outcome.winner")
        return []
    if not winners:
        c.add("missing_winner", f"A {kind.value} names its winner.", "outcome.winner")
        return None
    for w in winners:
        if known_player(c, w, players, "outcome.winner") is None:
            return None
    if (len(winners) > 1 and kind is not OutcomeType.CHONGTONG) or len(set(winners)) != len(winners):
        c.add("bad_value", "Only chongtong may have several winners, each once.", "outcome.winners")
        return None
    return winners


def _check_instant_win(c: Checker, kind: OutcomeType, month: object, rules: Rules) -> None:
    """Chongtong and three ppuk: played at this table, and chongtong's month (when named) a month."""
    if kind is OutcomeType.CHONGTONG:
        if month is not None and not is_month(month):
            c.add("bad_month", "outcome.month is a month from 1 to 12.", "outcome.month")
        if not rules.chongtong_played:
            c.add("rule_off", "The table's rules pay nothing for chongtong.", "outcome.type")
    if kind is OutcomeType.THREE_PPUK and not rules.three_ppuk:
        c.add("rule_off", "The table's rules do not play three ppuk (삼뻑) as a win.", "outcome.type")


def check_dokbak(
    c: Checker, doc: dict, players: Players, outcome: Outcome | None, gos: dict[str, int], rules: Rules
) -> Dokbak | None:
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
    player = known_player(c, spec.get("player"), players, f"{path}.player")
    if player is None or outcome is None:
        return None
    _check_dokbak_payer(c, player, reason, len(players), outcome, gos, rules)
    last_card = spec.get("last_card", False)
    if not isinstance(last_card, bool):
        c.add("bad_value", "dokbak.last_card is true or false.", f"{path}.last_card")
    return Dokbak(player, reason, last_card is True)


def _check_dokbak_payer(
    c: Checker, player: str, reason: DokbakReason, n: int, outcome: Outcome, gos: dict[str, int], rules: Rules
) -> None:
    """The first thing that forbids ``player`` to pay dok-bak for ``reason``, if any."""
    path = "dokbak"
    if n != 3 or outcome.type is not OutcomeType.STOP:
        c.add("dokbak_needs_three", "Dok-bak is paid only in a three-player hand won by a stop.", path)
    elif player == outcome.winner:
        c.add("dokbak_is_winner", f"{player} won the hand and cannot pay dok-bak.", f"{path}.player")
    elif reason is DokbakReason.GO_BAK and not gos.get(player):
        c.add("go_bak_without_go", f"{player} said no go, so cannot be go-bak.", f"{path}.player")
    elif reason is DokbakReason.GO_BAK and rules.go_bak_three_players == "double_own":
        c.add("rule_off", "The table's rules double the go-bak loser's own amount instead.", f"{path}.reason")
    elif reason is DokbakReason.OE_MYEON and not rules.oe_myeon:
        c.add("rule_off", "The table's rules do not play oe-myeon.", f"{path}.reason")


def check_showdown(c: Checker, doc: dict, players: Players, outcome: Outcome | None) -> Showdown | None:
    spec = doc.get("showdown")
    if spec is None:
        return None
    if not isinstance(spec, dict) or len(players) != 3:
        c.add("bad_value", "showdown is {offered_by, refused_by}, in a three-player hand.", "showdown")
        return None
    offered = known_player(c, spec.get("offered_by"), players, "showdown.offered_by")
    refused = known_player(c, spec.get("refused_by"), players, "showdown.refused_by")
    if offered is None or refused is None:
        return None
    if offered == refused:
        c.add("bad_value", "The player who offers a showdown cannot refuse it.", "showdown.refused_by")
        return None
    given = doc.get("dokbak")
    if (
        outcome
        and outcome.type is OutcomeType.STOP
        and outcome.winner != refused
        and isinstance(given, dict)
        and given.get("player") not in (None, refused)
    ):
        c.add("bad_value", "The showdown refuser is the dok-bak payer.", "dokbak.player")
    return Showdown(offered, refused)


# The fixed kinds of later options, named in a refusal's list only where the table plays them: elsewhere
# the message stays as it always was.
_NAMED_WHEN_PLAYED = ("consecutive_ppuk", "three_consecutive_ppuk")


def check_fixed(c: Checker, doc: dict, players: Players, rules: Rules, outcome: Outcome | None) -> tuple[Fixed, ...]:
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
            kinds = tuple(k for k in FIXED_KINDS if k not in _NAMED_WHEN_PLAYED or getattr(rules, k))
            c.add("unknown_fixed", f"fixed kind is one of {', '.join(kinds)}.", f"{path}.kind")
            continue
        player = known_player(c, item.get("player"), players, f"{path}.player")
        if not getattr(rules, item["kind"]):
            c.add("rule_off", f"The table's rules pay nothing for {item['kind']}.", f"{path}.kind")
        elif player is not None:
            out.append(Fixed(item["kind"], player))
    _check_ppuk_chain(c, out, rules, outcome)
    if out and outcome and outcome.type is OutcomeType.VOID_DEAL:
        c.add("payment_in_void_deal", "A void deal is redealt: nothing is paid.", "fixed")
    return tuple(out)


def _check_ppuk_chain(c: Checker, out: list[Fixed], rules: Rules, outcome: Outcome | None) -> None:
    """The links of one player's ppuk chain (첫뻑, 연뻑, 삼연뻑) as the table pays them (``ppuk_chain``):
    under "replace" the longest link alone; under "each" every link, so a later one comes with each
    earlier one the table pays. A third ppuk in a row is a third ppuk: where three ppuk win, it won."""
    for paid in out:
        if paid.kind not in PPUK_CHAIN_KINDS[1:]:
            continue
        _check_link(c, paid, out, rules)
        won = outcome is None or (outcome.type is OutcomeType.THREE_PPUK and outcome.winner == paid.player)
        if paid.kind == "three_consecutive_ppuk" and rules.three_ppuk and not won:
            c.add(
                "bad_value",
                f"{paid.player}'s third ppuk in a row is a third ppuk of the hand: {paid.player} won it there "
                "(three_ppuk).",
                "outcome",
            )


def _check_link(c: Checker, paid: Fixed, out: list[Fixed], rules: Rules) -> None:
    """A later link of the chain against the links before it, as ``ppuk_chain`` pays them."""
    before = PPUK_CHAIN_KINDS[: PPUK_CHAIN_KINDS.index(paid.kind)]
    if rules.ppuk_chain == "replace":
        given = [k for k in before if Fixed(k, paid.player) in out]
        if paid.kind == "consecutive_ppuk" and given:  # worded as it always was
            c.add(
                "bad_value",
                f"{paid.player}'s consecutive ppuk is paid instead of the first-turn ppuk: give only one.",
                "fixed",
            )
        elif given:
            c.add(
                "bad_value",
                f"{paid.player}'s ppuk chain is paid for its longest link alone (ppuk_chain: replace): "
                f"give only {paid.kind}.",
                "fixed",
            )
    elif missing := [k for k in before if getattr(rules, k) and Fixed(k, paid.player) not in out]:
        c.add(
            "bad_value",
            f"{paid.player}'s {paid.kind} follows the links before it, each paid as it happened "
            f"(ppuk_chain: each): give {' and '.join(missing)} too.",
            "fixed",
        )


def _check_mission(c: Checker, mission: object, players: Players, rules: Rules, out: dict) -> None:
    """The mission's multiplier (and who completed it, when named) into ``out``, or the problems."""
    if isinstance(mission, dict):  # {"multiplier", "player"}: the player who completed it (pagat)
        if set(mission) != {"multiplier", "player"} or not is_whole(mission["multiplier"], 2, 9):
            c.add(
                "bad_value",
                "mission is a multiplier from 2 to 9, or {multiplier, player}: who completed it.",
                "mission",
            )
            return  # refused above: nothing more to check of it
        player = known_player(c, mission["player"], players, "mission.player")
        if player is not None:
            out["mission_by"] = player
        mission = mission["multiplier"]
    if mission is None or mission == 1:
        return
    if not is_whole(mission, 2, 9):
        c.add("bad_value", "mission is a multiplier from 2 to 9.", "mission")
    elif not rules.missions:
        c.add("rule_off", "The table's rules play no missions.", "mission")
    else:
        out["mission"] = mission


def check_extras(c: Checker, doc: dict, players: Players, rules: Rules) -> dict:
    out: dict = {}
    carry = doc.get("nagari_carry", 0)
    if not is_whole(carry, 0, checks.MAX_NAGARI_CARRY):
        c.add("bad_value", "nagari_carry is the number of nagari before this hand, 0 to 30.", "nagari_carry")
    else:
        out["nagari_carry"] = carry
    _check_mission(c, doc.get("mission", 1), players, rules, out)
    weol = doc.get("weol_yak") or ()
    if not weol:
        out["weol_yak"] = ()
    elif not isinstance(weol, list):
        c.add("bad_value", "weol_yak lists players.", "weol_yak")
    elif weol and not rules.weol_yak:
        c.add("rule_off", "The table's rules play no weol-yak.", "weol_yak")
    else:
        out["weol_yak"] = tuple(p for i, p in enumerate(weol) if known_player(c, p, players, f"weol_yak[{i}]"))
    chip = doc.get("chip_value", 100)
    if checks.is_chip_value(chip):
        out["chip_value"] = chip
    else:
        c.add("bad_value", checks.CHIP_VALUE_HELP, "chip_value")
    if doc.get("dealer") is not None:
        out["dealer"] = known_player(c, doc["dealer"], players, "dealer")
    if doc.get("last_go") is not None:
        out["last_go"] = known_player(c, doc["last_go"], players, "last_go")
    return out
