"""정산 Payments: a finished hand → who pays whom, each with its trail of reasons.

rules.md §5–§9. A loser's amount is ``(base + go bonus) × point multiplier`` times
every double that applies; each double is one record in ``doubles.DOUBLES`` (id,
Korean and English label, the option it depends on, category) whose small unit
answers the steps it adds. ``settle`` picks the cup/bridge counting for each player
(§5 item 5), applies dok-bak (§5.1) and adds the fixed payments (§6.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from .cards import JUNK
from .doubles import DOUBLES, Loss
from .errors import EngineError
from .model import Note, OutcomeType, Payment, Settlement, Step
from .rules import Rules
from .scoring import Score, all_scores, best_of, best_score, ways_of_mask
from .summary.facts import Dokbak, DokbakReason, HandFacts
from .trail import Steps, money

__all__ = [
    "amount",
    "go_bonus",
    "go_doubling",
    "money",
    "settle",
    "stop_needs",
]


# -- the go bonus and the go doubling (rules.md §5 item 2) ----------------------------


def go_bonus(gos: int, rules: Rules) -> int:
    """Points added for the winner's gos."""
    if gos <= 0:
        return 0
    if rules.go_bonus == "plus_one_each":
        return gos
    if gos >= 3 and rules.go_bonus == "none_from_three":
        return 0
    return min(gos, 2)


def go_doubling(gos: int, rules: Rules) -> int:
    """The factor for the third go and beyond: ×2 per go, or ×(g − 1)."""
    if gos < 3:
        return 1
    return gos - 1 if rules.go_doubling == "go_minus_one" else 2 ** (gos - 2)


def amount(x: Loss, units: Iterable[Callable[[Loss], Steps]]) -> tuple[int, tuple[Step, ...]]:
    """What one loser owes the winner, with the trail that explains it; ``units``: the doubles the hand
    needs (those whose ``Double.needed`` holds)."""
    facts, rules, winner, won, _, _, _ = x  # one unpacking: quicker than field lookups
    points = won.points
    gos = facts.gos.get(winner, 0) if facts.gos else 0
    bonus = go_bonus(gos, rules) if gos else 0
    trail = [Step("base", points, None, ())]
    if bonus:
        trail.append(Step("go_bonus", value=bonus, detail=(("gos", gos),)))
    if rules.point_multiplier > 1:
        trail.append(Step("point_multiplier", factor=rules.point_multiplier))
    if rules.reverse_go and winner in facts.reverse_go:
        trail.append(Step("reverse_go", factor=rules.reverse_go, detail=(("gos", gos),)))  # instead of below
    elif gos >= 3 and (doubling := go_doubling(gos, rules)) > 1:
        trail.append(Step("go_doubling", factor=doubling, detail=(("gos", gos),)))
    factor = 1
    if len(trail) > 1:
        for step in trail:  # the go steps: a value (base, bonus) or a factor
            if step.factor:
                factor *= step.factor
    for unit in units:  # the doubles: each step a factor
        for step in unit(x):
            trail.append(step)
            factor *= step.factor
    return (points + bonus) * factor, tuple(trail)


# -- a stop ------------------------------------------------------------------------


class _Choice(NamedTuple):
    """The winner's counting and each loser's answer to it (the dicts are filled in by ``_choices``)."""

    won: Score
    lost: dict[str, Score]
    owed: dict[str, tuple[int, tuple[Step, ...]]]


def _ways(facts: HandFacts, rules: Rules, player: str) -> list[Score]:
    mask = facts.masks.get(player)
    if mask is not None:  # the contract already has the pile as a mask
        return ways_of_mask(mask, rules, facts.junk.get(player, 0))
    return all_scores(facts.captures.get(player, ()), rules, facts.junk.get(player, 0))


def _go_bak_lifted(facts: HandFacts, winner: str) -> frozenset[str]:
    """A player who offered a showdown is no longer go-bak if the refuser wins (§5.1)."""
    sd = facts.showdown
    return frozenset({sd.offered_by}) if sd and sd.refused_by == winner else frozenset()


def stop_needs(facts: HandFacts, rules: Rules, winner: str) -> tuple[int, int | None]:
    """The score toward the target a stop needs (rules.md §4), and the score at the last go when
    that is what sets it (where known: above it); ``_why_needed`` words it for a refusal."""
    target, gos = rules.target(len(facts.players)), facts.gos.get(winner, 0)
    last = facts.score_at_last_go.get(winner)
    if last is not None and last + 1 > target + gos:
        return last + 1, last
    return target + gos, None


def _why_needed(facts: HandFacts, rules: Rules, winner: str, last: int | None) -> str:
    if last is not None:
        return f"more than {last} at the last go"
    return f"target {rules.target(len(facts.players))} + {facts.gos.get(winner, 0)} go"


def _choices(facts: HandFacts, rules: Rules, winner: str) -> list[_Choice]:
    """Each of the winner's countings that allows the stop, with each loser counting to pay least."""
    needed, last = stop_needs(facts, rules, winner)
    # Every assignment considered must itself allow the stop (rules.md §13 reading 1), not merely some other one.
    eligible = [s for s in _ways(facts, rules, winner) if s.toward_target >= needed]
    if not eligible:
        top = best_score(facts.captures.get(winner, ()), rules, facts.junk.get(winner, 0))
        raise EngineError(
            "stop_below_target",
            f"{winner} cannot stop with {top.toward_target} points: the stop needs {needed} "
            f"({_why_needed(facts, rules, winner, last)}).",
            "outcome.winner",
        )
    lifted = _go_bak_lifted(facts, winner)
    units = [d.unit for d in DOUBLES if d.needed(facts, rules, winner)]
    loser_ways = {p: _ways(facts, rules, p) for p in facts.opponents(winner)}
    out = []
    for won in eligible:
        choice = _Choice(won, {}, {})
        for loser, ways in loser_ways.items():
            if len(ways) == 1:  # the common case: nothing for the loser to choose
                lost = ways[0]
                owed = amount(Loss(facts, rules, winner, won, loser, lost, lifted), units)
            else:
                options = [(amount(Loss(facts, rules, winner, won, loser, lost, lifted), units), lost) for lost in ways]
                (owed, lost) = min(options, key=lambda o: (o[0][0], -o[1].points))
            choice.lost[loser], choice.owed[loser] = lost, owed
        out.append(choice)
    return out


GO_BAK_PAYS_ALONE = ("dok_bak", "dok_bak_doubled", "times_players")  # the go-sayer pays, the other not
# The rules that single out one go-bak loser (the last to say go): the above, and "times_players_each",
# where the go-sayer pays own amount × players and the other loser still pays their own.
GO_BAK_ONE_LOSER = (*GO_BAK_PAYS_ALONE, "times_players_each")


def _dokbak(facts: HandFacts, rules: Rules, winner: str, won: Score) -> tuple[Dokbak | None, list[Note]]:
    """Which loser pays for both, by the precedence of §5.1, and why another does not."""
    if len(facts.players) != 3:
        return None, []
    given = facts.dokbak.reason if facts.dokbak else None
    if given is DokbakReason.SHOWDOWN:
        return facts.dokbak, []
    if (sd := facts.showdown) and sd.refused_by != winner:
        return Dokbak(sd.refused_by, DokbakReason.SHOWDOWN), []
    lifted = _go_bak_lifted(facts, winner)
    notes = [Note("showdown_go_bak_lifted", p) for p in lifted if facts.gos.get(p, 0) > 0]
    if rules.go_bak_three_players in GO_BAK_ONE_LOSER and (go_bak := _go_bak_payer(facts, winner, lifted)):
        return go_bak, notes
    if given is DokbakReason.OE_MYEON and (oe_myeon := facts.dokbak) is not None:
        return _oe_myeon(facts, winner, won, oe_myeon, notes)
    return None, notes


def _go_bak_payer(facts: HandFacts, winner: str, lifted: frozenset[str]) -> Dokbak | None:
    """The go-bak loser where the table's rule singles one out: as given, the one who said go, or the
    last of two to say it."""
    if facts.dokbak and facts.dokbak.reason is DokbakReason.GO_BAK:
        return facts.dokbak
    went = [p for p in facts.opponents(winner) if facts.gos.get(p, 0) > 0 and p not in lifted]
    if len(went) == 1:
        return Dokbak(went[0], DokbakReason.GO_BAK)
    if len(went) == 2:
        return Dokbak(facts.last_go if facts.last_go in went else _more_gos(facts, went), DokbakReason.GO_BAK)
    return None


def _oe_myeon(
    facts: HandFacts, winner: str, won: Score, oe_myeon: Dokbak, notes: list[Note]
) -> tuple[Dokbak | None, list[Note]]:
    """Oe-myeon's dok-bak, unless one of its exceptions holds (§5.1): the loser's last card, or a
    winner who scored junk only without a go."""
    if oe_myeon.last_card:
        return None, [*notes, Note("oe_myeon_last_card", oe_myeon.player)]
    if facts.gos.get(winner, 0) == 0 and all(line.category == JUNK for line in won.lines):
        return None, [*notes, Note("oe_myeon_junk_only", oe_myeon.player)]
    return oe_myeon, notes


def _more_gos(facts: HandFacts, went: list[str]) -> str:
    """Both losers said go and the summary does not say whose came last."""
    a, b = went
    if facts.gos[a] == facts.gos[b]:
        raise EngineError(
            "go_bak_ambiguous",
            f"Both {a} and {b} said go: give last_go, or dokbak with reason go_bak.",
            "last_go",
        )
    return a if facts.gos[a] > facts.gos[b] else b


def _stop(facts: HandFacts, rules: Rules) -> tuple[dict[str, Score], list[Payment], list[Note]]:
    """The stop's payments for the winner's counting that brings in the most once everything is applied
    (rules.md §13 reading 11): dok-bak, go-bak's ×players, an empty pile and the cap included; or, with
    ``cup_counting`` "score", the highest score, a tie to the most brought in. A tie on both keeps the
    first counting (the cup as an animal)."""
    winner = facts.outcome.winner
    assert winner is not None  # a stop names its winner (the contract checks)
    by_score = rules.cup_counting == "score"
    best: tuple[tuple[int, int], _Choice, list[Payment], list[Note]] | None = None
    for choice in _choices(facts, rules, winner):
        payments, notes = _paid(facts, rules, winner, choice)
        total = sum(p.points for p in payments)
        rank = (choice.won.points, total) if by_score else (total, choice.won.points)
        if best is None or rank > best[0]:
            best = (rank, choice, payments, notes)
    assert best is not None  # there is an eligible way (``_choices`` raises otherwise)
    _, choice, payments, notes = best
    return {winner: choice.won, **choice.lost}, payments, notes


def _paid(facts: HandFacts, rules: Rules, winner: str, choice: _Choice) -> tuple[list[Payment], list[Note]]:
    """What each loser finally pays for one counting of the winner's cards, and the notes that say why."""
    notes: list[Note] = []
    owed = dict(choice.owed)
    if rules.empty_pile_pays_nothing:
        for loser, lost in choice.lost.items():
            if lost.pile.empty:
                owed[loser] = (0, owed[loser][1])
                notes.append(Note("empty_pile", loser))
    dokbak, why = _dokbak(facts, rules, winner, choice.won)
    notes.extend(why)
    if facts.mission > 1 and facts.mission_by not in (None, winner):
        notes.append(Note("mission_other", facts.mission_by))
    if rules.payment_cap and rules.payment_cap_per == "share":
        return _capped_stop(facts, rules, winner, owed, dokbak, notes), notes
    payments = _uncapped_stop(facts, rules, winner, owed, dokbak, notes)
    if rules.payment_cap:  # per player: what each pays in all for the hand, after dok-bak and go-bak
        payments = [_capped_payment(p, rules.payment_cap) for p in payments]
    return payments, notes


def _capped_payment(payment: Payment, cap: int) -> Payment:
    points, trail = capped((payment.points, payment.trail), cap)
    return payment._replace(points=points, trail=trail)


def _uncapped_stop(
    facts: HandFacts,
    rules: Rules,
    winner: str,
    owed: dict[str, tuple[int, tuple[Step, ...]]],
    dokbak: Dokbak | None,
    notes: list[Note],
) -> list[Payment]:
    payments = []
    if dokbak and _times_players_each(rules, dokbak):
        payments = _times_players_each_pay(facts, winner, owed, dokbak.player, 0)
    elif dokbak and owed[dokbak.player][0] > 0:
        other = next(p for p in owed if p != dokbak.player)
        own, trail = owed[dokbak.player]
        covered, other_trail = owed[other]
        go_bak_rule = rules.go_bak_three_players if dokbak.reason is DokbakReason.GO_BAK else "dok_bak"
        if go_bak_rule == "times_players":  # own amount × the number of players, the other pays nothing
            n = len(facts.players)
            payments.append(
                Payment(
                    dokbak.player, winner, own * n, "stop", (*trail, Step("go_bak", factor=n, detail=(("players", n),)))
                )
            )
        else:
            share = Step(
                "dok_bak",
                value=covered,
                detail=(
                    ("player", other),
                    ("reason", dokbak.reason.value),
                    ("trail", [s.to_json() for s in other_trail]),
                ),
            )
            total, steps = own + covered, (*trail, share)
            if go_bak_rule == "dok_bak_doubled":  # the whole, doubled
                total, steps = total * 2, (*steps, Step("go_bak", factor=2))
            payments.append(Payment(dokbak.player, winner, total, "stop", steps))
        notes.append(Note("dok_bak", other))
    else:
        for loser, (points, trail) in owed.items():
            if points > 0:
                payments.append(Payment(loser, winner, points, "stop", trail))
    return payments


def _times_players_each(rules: Rules, dokbak: Dokbak) -> bool:
    return dokbak.reason is DokbakReason.GO_BAK and rules.go_bak_three_players == "times_players_each"


def _times_players_each_pay(
    facts: HandFacts, winner: str, owed: dict[str, tuple[int, tuple[Step, ...]]], go_bak: str, cap: int
) -> list[Payment]:
    """고박, both losers paying: the go-sayer their own amount × the players, the other loser their own
    (michaeldslim's reading); each capped where the table plays a cap."""
    n = len(facts.players)
    payments = []
    for loser, (points, trail) in owed.items():
        if loser == go_bak:
            points, trail = points * n, (*trail, Step("go_bak", factor=n, detail=(("players", n),)))
        points, trail = capped((points, trail), cap)
        if points > 0:
            payments.append(Payment(loser, winner, points, "stop", trail))
    return payments


def capped(owed: tuple[int, tuple[Step, ...]], cap: int) -> tuple[int, tuple[Step, ...]]:
    """One loser's amount held to the table's cap (상한가), the cap a step of its trail."""
    points, trail = owed
    if not cap or points <= cap:
        return owed
    return cap, (*trail, Step("payment_cap", value=cap, detail=(("before", points),)))


def _capped_stop(
    facts: HandFacts,
    rules: Rules,
    winner: str,
    owed: dict[str, tuple[int, tuple[Step, ...]]],
    dokbak: Dokbak | None,
    notes: list[Note],
) -> list[Payment]:
    """The stop's payments under a cap: each loser's amount is capped after every double, go-bak's
    included; a dok-bak payer pays each share it takes over, each share capped (fixed payments are
    never capped: they are not paid here). Kept apart so that a table without a cap is untouched."""
    cap = rules.payment_cap
    if dokbak and _times_players_each(rules, dokbak):
        return _times_players_each_pay(facts, winner, owed, dokbak.player, cap)
    if dokbak and owed[dokbak.player][0] > 0:
        other = next(p for p in owed if p != dokbak.player)
        (own, trail), (covered, other_trail) = owed[dokbak.player], owed[other]
        go_bak_rule = rules.go_bak_three_players if dokbak.reason is DokbakReason.GO_BAK else "dok_bak"
        if go_bak_rule == "times_players":
            n = len(facts.players)
            points, steps = capped((own * n, (*trail, Step("go_bak", factor=n, detail=(("players", n),)))), cap)
            notes.append(Note("dok_bak", other))
            return [Payment(dokbak.player, winner, points, "stop", steps)]
        if go_bak_rule == "dok_bak_doubled":  # each share doubled, then capped
            double = (Step("go_bak", factor=2),)
            own, trail = own * 2, trail + double
            covered, other_trail = covered * 2, other_trail + double
        own, trail = capped((own, trail), cap)
        covered, other_trail = capped((covered, other_trail), cap)
        share = Step(
            "dok_bak",
            value=covered,
            detail=(("player", other), ("reason", dokbak.reason.value), ("trail", [s.to_json() for s in other_trail])),
        )
        notes.append(Note("dok_bak", other))
        return [Payment(dokbak.player, winner, own + covered, "stop", (*trail, share))]
    payments = []
    for loser, amount_owed in owed.items():
        if amount_owed[0] > 0:
            points, trail = capped(amount_owed, cap)
            payments.append(Payment(loser, winner, points, "stop", trail))
    return payments


# -- fixed payments and instant wins (rules.md §8) ---------------------------------


def fixed_from_each(
    facts: HandFacts, player: str, kind: str, points: int, payers: tuple[str, ...] | None = None
) -> list[Payment]:
    """Each opponent (or each of ``payers``) pays ``player`` a fixed amount, never multiplied."""
    payers = facts.opponents(player) if payers is None else payers
    return [Payment(p, player, points, kind, (Step(kind, value=points),)) for p in payers if points]


def _instant(facts: HandFacts, rules: Rules) -> tuple[list[Payment], list[Note]]:
    out = facts.outcome
    if out.type is OutcomeType.CHONGTONG:
        holders = out.winners
        others = tuple(p for p in facts.players if p not in holders)
        if not others:
            return [], [Note("chongtong_cancel")]
        return [pay for w in holders for pay in fixed_from_each(facts, w, "chongtong", rules.chongtong, others)], []
    if out.type is OutcomeType.THREE_PPUK:
        return fixed_from_each(facts, out.winners[0], "three_ppuk", rules.three_ppuk), []
    return [], []


def settle(facts: HandFacts, rules: Rules) -> Settlement:
    """Scores and payments of a finished hand (or of the hand so far, for nagari)."""
    if facts.outcome.type is OutcomeType.STOP:
        scores, payments, notes = _stop(facts, rules)
    else:
        scores = {}
        payments, notes = _instant(facts, rules)
    for p in facts.players:
        if p not in scores:
            scores[p] = best_of(_ways(facts, rules, p))
    for f in facts.fixed:
        payments += fixed_from_each(facts, f.player, f.kind, getattr(rules, f.kind))
    ordered = {p: scores[p] for p in facts.players}
    return Settlement(ordered, tuple(payments), tuple(notes), rules.target(len(facts.players)))
