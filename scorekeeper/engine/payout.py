"""정산 Payments: a finished hand → who pays whom, each with its trail of reasons.

RULES.md §5–§7. A loser's amount is ``(base + go bonus) × point multiplier`` times
every double that applies; each double is one record in ``DOUBLES`` (id, Korean and
English label, the option it depends on, category) whose small unit answers the
steps it adds. ``settle`` picks the cup/bridge counting for each player
(§5 item 5), applies dok-bak (§5.1) and adds the fixed payments (§6.4).
"""
from __future__ import annotations

from typing import Callable, Iterable, NamedTuple

from .cards import BRIGHT, JUNK, RIBBON
from .errors import EngineError
from .facts import Dokbak, DokbakReason, HandFacts, OutcomeType
from .rules import Rules
from .scoring import _new, Score, all_scores, best_of, best_score, ways_of_mask

# The steps of a trail that are not a double's (``DOUBLES`` names those): ``STEP_LABELS`` has both.
_OTHER_STEP_LABELS: dict[str, str] = {
    "base": "점수 score",
    "go_bonus": "고 보너스 go bonus",
    "point_multiplier": "점수 곱하기 point multiplier",
    "go_doubling": "3고 이상 배 doubling from the third go",
    "meong_bak": "멍박 meong-bak",  # the meong-dda double where only losers without animals pay it
    "reverse_go": "역고 reverse go",
    "dok_bak": "독박 dok-bak: pays the other loser's share",
    "chongtong": "총통 chongtong",
    "three_ppuk": "삼뻑 three ppuk",
    "first_turn_ppuk": "첫뻑 first-turn ppuk",
    "first_turn_ttadak": "첫 따닥 first-turn ttadak",
    "first_turn_chok": "첫 쪽 first-turn chok",
    "first_turn_four": "첫 턴 한 달 네 장 first-turn four of a month",
    "boar_pot": "첫 턴 멧돼지 first-turn boar",
    "void_deal_chongtong": "바닥 총통 four of a month on the table",
}
NOTE_LABELS: dict[str, str] = {
    "empty_pile": "먹은 패 없음: 면제 no captured cards: pays nothing",
    "dok_bak": "독박: 다른 패자가 대신 냄 dok-bak: the other loser pays this share",
    "oe_myeon_junk_only": "외면 예외: 피로만 나고 고 없음 oe-myeon not applied: the winner scored only junk, no go",
    "oe_myeon_last_card": "외면 예외: 마지막 패 oe-myeon not applied: it was the loser's last card",
    "showdown_go_bak_lifted": "쇼당을 제안해 고박 면제 offered a showdown: no longer go-bak",
    "chongtong_cancel": "총통 셋: 서로 상쇄 three chongtong cancel out",
    "pi_bak_exempt": "피 없음: 피박 면제 no junk at all: exempt from pi-bak",
    "bright_protection": "광 보호 조커: 광박 면제 bright-protection joker: no gwang-bak",
}


class Step(NamedTuple):
    """One line of a payment's trail: an amount added (``value``) or a double (``factor``)."""

    id: str
    value: int | None = None
    factor: int | None = None
    detail: tuple[tuple[str, object], ...] = ()

    def to_json(self) -> dict:
        out: dict = {"id": self.id, "label": STEP_LABELS[self.id]}
        if self.value is not None:
            out["value"] = self.value
        if self.factor is not None:
            out["factor"] = self.factor
        for key, val in self.detail:
            out[key] = val
        return out


class Payment(NamedTuple):
    payer: str
    payee: str
    points: int
    kind: str  # "stop", or the fixed payment's id
    trail: tuple[Step, ...]


class Settlement(NamedTuple):
    scores: dict[str, Score]
    payments: tuple[Payment, ...]
    notes: tuple[dict, ...] = ()
    target: int = 0

    @property
    def net(self) -> dict[str, int]:
        net = dict.fromkeys(self.scores, 0)
        for p in self.payments:
            net[p.payer] -= p.points
            net[p.payee] += p.points
        return net


def money(points: int, chip_value: float) -> int | float:
    """Points in money; whole amounts stay whole."""
    value = points * chip_value
    if type(value) is int:  # the common case: a whole chip value
        return value
    return int(value) if float(value).is_integer() else round(value, 2)


def note(id: str, player: str | None = None) -> dict:
    out = {"id": id, "label": NOTE_LABELS[id]}
    if player is not None:
        out["player"] = player
    return out


# -- the go bonus and the go doubling (RULES.md §5 item 2) ----------------------------

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


# -- the doubles: each unit answers the steps it adds for one loser ---------------------

Steps = tuple  # of Step; units answer NONE when they add nothing
NONE: tuple = ()


class Loss(NamedTuple):
    """One loser's side of a stop: what the doubles look at."""

    facts: HandFacts
    rules: Rules
    winner: str
    won: Score
    loser: str
    lost: Score
    go_bak_lifted: frozenset[str] = frozenset()

    @property
    def three_players(self) -> bool:
        return len(self.facts.players) == 3

    def loser_went_go(self) -> bool:
        return self.facts.gos.get(self.loser, 0) > 0 and self.loser not in self.go_bak_lifted


def shake_factor(month: int, rules: Rules) -> int:
    return 4 if rules.shake_rain_paulownia_x4 and month in (11, 12) else 2


def shakes(x: Loss) -> Steps:
    months = x.facts.shakes.get(x.winner)
    if x.rules.shake_bomb_once:
        return _shake_bomb_once(x, months or ())
    if not months:
        return NONE
    return tuple(Step("shake", factor=shake_factor(m, x.rules), detail=(("month", m),)) for m in months)


def _shake_bomb_once(x: Loss, shaken: tuple[int, ...]) -> Steps:
    """One ×2 for all the winner's shakes and bombs together (a house rule: not cumulative)."""
    bombed = x.facts.bombs.get(x.winner, ()) if x.rules.bomb_doubles else ()
    if not shaken and not bombed:
        return NONE
    return (Step("shake" if shaken else "bomb", factor=2, detail=(("months", sorted({*shaken, *bombed})),)),)


def bombs(x: Loss) -> Steps:
    months = x.facts.bombs.get(x.winner)
    if not months or not x.rules.bomb_doubles or x.rules.shake_bomb_once:
        return NONE
    return tuple(Step("bomb", factor=shake_factor(m, x.rules), detail=(("month", m),)) for m in months)


GWANG_BAK = (Step("gwang_bak", factor=2),)


def gwang_bak(x: Loss) -> Steps:
    if x.won.has(BRIGHT) and not x.lost.pile.brights and "bp" not in x.lost.pile.bonus:
        return GWANG_BAK
    return NONE


def pi_bak(x: Loss) -> Steps:
    value = x.lost.pile.junk_value
    if not x.won.has(JUNK) or value >= x.rules.pi_bak_threshold(len(x.facts.players)):
        return NONE
    if value == 0 and x.rules.pi_bak_exempt_no_junk:
        return NONE
    return (Step("pi_bak", factor=2, detail=(("junk", value),)),)


MEONG_DDA, MEONG_BAK = (Step("meong_dda", factor=2),), (Step("meong_bak", factor=2),)


def meong_dda(x: Loss) -> Steps:
    mode = x.rules.meong_dda
    animals = x.won.pile.animals.bit_count()
    if mode == "off" or animals < 7:
        return NONE
    if mode == "no_animal_only" and x.lost.pile.animals:
        return NONE
    if x.rules.meong_dda_per_animal and animals > 7:  # ×2 at 7, again for each animal beyond
        return (Step(MEONG_DDA[0].id if mode == "every_loser" else "meong_bak", factor=2 ** (animals - 6),
                     detail=(("animals", animals),)),)
    return MEONG_DDA if mode == "every_loser" else MEONG_BAK


MEONG_BAK_FIVE = (Step("meong_bak_five", factor=2),)


def meong_bak_five(x: Loss) -> Steps:
    """The other 멍박: the winner holds 5+ animals and this loser none; stacks with meong-dda."""
    if x.rules.meong_bak_five and x.won.pile.animals.bit_count() >= 5 and not x.lost.pile.animals:
        return MEONG_BAK_FIVE
    return NONE


TTI_BAK = (Step("tti_bak", factor=2),)


def tti_bak(x: Loss) -> Steps:
    return TTI_BAK if x.rules.tti_bak and x.won.has(RIBBON) and not x.lost.pile.ribbons else NONE


def nagari_carry(x: Loss) -> Steps:
    n = x.facts.nagari_carry
    if n <= 0:
        return NONE
    return (Step("nagari_carry", factor=2**n if x.rules.nagari_carry_stacks else 2, detail=(("nagari", n),)),)


GO_BAK = (Step("go_bak", factor=2),)


def go_bak(x: Loss) -> Steps:
    """고박 as a double: two players (option), or three with the encyclopedia rule."""
    if not x.loser_went_go():
        return NONE
    if x.three_players:
        return GO_BAK if x.rules.go_bak_three_players == "double_own" else NONE
    return GO_BAK if x.rules.go_bak_two_players else NONE


def mission(x: Loss) -> Steps:
    return (Step("mission", factor=x.facts.mission),) if x.facts.mission > 1 else NONE


WEOL_YAK = (Step("weol_yak", factor=4),)


def weol_yak(x: Loss) -> Steps:
    return WEOL_YAK if x.winner in x.facts.weol_yak else NONE


def double_joker(x: Loss) -> Steps:
    return (Step("double_joker", factor=2),) * x.won.pile.bonus.count("bd")


def _always(facts: HandFacts, rules: Rules, winner: str) -> bool:
    return True


class Double(NamedTuple):
    """배 One double of a loser's amount: what a docs page, a payment's trail and ``amount`` read of it."""

    id: str  # the trail step it adds (the shake unit adds "bomb" too when shakes and bombs count once)
    ko: str
    en: str
    option: str | None  # the house-rule option (``Rules`` field) it depends on; None: always played
    category: str  # declaration (the winner showed it), pile (the cards held), go, hand (a fact of the hand)
    unit: Callable[[Loss], Steps]  # the steps it adds for one loser (NONE when it does not apply)
    # Whether a hand could need the unit at all, from its facts and rules: a shortcut that runs
    # fewer units (each unit still answers NONE when it does not apply).
    needed: Callable[[HandFacts, Rules, str], bool] = _always

    @property
    def label(self) -> str:
        return f"{self.ko} {self.en}"


DOUBLES: tuple[Double, ...] = (
    Double("shake", "흔들기", "shake", "shake_rain_paulownia_x4", "declaration", shakes,
           lambda f, r, w: bool(f.shakes.get(w)) or r.shake_bomb_once and r.bomb_doubles and bool(f.bombs.get(w))),
    Double("bomb", "폭탄", "bomb", "bomb_doubles", "declaration", bombs,
           lambda f, r, w: r.bomb_doubles and not r.shake_bomb_once and bool(f.bombs.get(w))),
    Double("gwang_bak", "광박", "gwang-bak", None, "pile", gwang_bak),
    Double("pi_bak", "피박", "pi-bak", None, "pile", pi_bak),
    Double("meong_dda", "멍따", "meong-dda", "meong_dda", "pile", meong_dda,
           lambda f, r, w: r.meong_dda != "off"),
    Double("meong_bak_five", "멍박 (열끗 5장 이상)", "meong-bak: 5+ animals, this loser none", "meong_bak_five",
           "pile", meong_bak_five, lambda f, r, w: r.meong_bak_five),
    Double("tti_bak", "띠박", "tti-bak", "tti_bak", "pile", tti_bak, lambda f, r, w: r.tti_bak),
    Double("nagari_carry", "나가리 배", "nagari carry", "nagari_carry_stacks", "hand", nagari_carry,
           lambda f, r, w: f.nagari_carry > 0),
    Double("go_bak", "고박", "go-bak", None, "go", go_bak,
           lambda f, r, w: any(n for p, n in f.gos.items() if p != w)),
    Double("mission", "미션", "mission", "missions", "hand", mission, lambda f, r, w: f.mission > 1),
    Double("weol_yak", "월약", "weol-yak", "weol_yak", "hand", weol_yak, lambda f, r, w: w in f.weol_yak),
    Double("double_joker", "더블 조커", "double joker", "double_jokers", "pile", double_joker,
           lambda f, r, w: r.double_jokers > 0),
)
"""Every double of RULES.md §5, in the order a payment's trail lists them: one record each."""
STEP_LABELS: dict[str, str] = {**_OTHER_STEP_LABELS, **{d.id: d.label for d in DOUBLES}}
_UNITS = tuple(d.unit for d in DOUBLES)


def amount(x: Loss, units: Iterable[Callable[[Loss], Steps]] = _UNITS) -> tuple[int, tuple[Step, ...]]:
    """What one loser owes the winner, with the trail that explains it."""
    gos = x.facts.gos.get(x.winner, 0)
    bonus = go_bonus(gos, x.rules)
    trail = [_new(Step, ("base", x.won.points, None, ()))]
    if bonus:
        trail.append(Step("go_bonus", value=bonus, detail=(("gos", gos),)))
    if x.rules.point_multiplier > 1:
        trail.append(Step("point_multiplier", factor=x.rules.point_multiplier))
    if x.rules.reverse_go and x.winner in x.facts.reverse_go:
        trail.append(Step("reverse_go", factor=x.rules.reverse_go, detail=(("gos", gos),)))  # instead of below
    elif (doubling := go_doubling(gos, x.rules)) > 1:
        trail.append(Step("go_doubling", factor=doubling, detail=(("gos", gos),)))
    factor = 1
    for step in trail:  # the go steps: a value (base, bonus) or a factor
        if step.factor:
            factor *= step.factor
    for unit in units:  # the doubles: each step a factor
        for step in unit(x):
            trail.append(step)
            factor *= step.factor
    return (x.won.points + bonus) * factor, tuple(trail)


# -- a stop ------------------------------------------------------------------------

class _Choice(NamedTuple):
    """The winner's counting and each loser's answer to it (the dicts are filled in by ``_choose``)."""

    won: Score
    lost: dict[str, Score]
    owed: dict[str, tuple[int, tuple[Step, ...]]]

    @property
    def total(self) -> int:
        return sum(points for points, _ in self.owed.values())


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
    """The score toward the target a stop needs (RULES.md §4), and the score at the last go when
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


def _choose(facts: HandFacts, rules: Rules, winner: str) -> _Choice:
    """The winner's counting with the largest total, each loser counting to pay least."""
    needed, last = stop_needs(facts, rules, winner)
    # Every assignment considered must itself allow the stop (RULES.md §11.1), not merely some other one.
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
    best: _Choice | None = None
    for won in eligible:
        choice = _new(_Choice, (won, {}, {}))
        for loser, ways in loser_ways.items():
            if len(ways) == 1:  # the common case: nothing for the loser to choose
                lost = ways[0]
                owed = amount(_new(Loss, (facts, rules, winner, won, loser, lost, lifted)), units)
            else:
                options = [(amount(_new(Loss, (facts, rules, winner, won, loser, lost, lifted)), units), lost)
                           for lost in ways]
                (owed, lost) = min(options, key=lambda o: (o[0][0], -o[1].points))
            choice.lost[loser], choice.owed[loser] = lost, owed
        if best is None or (choice.total, won.points) > (best.total, best.won.points):
            best = choice
    assert best is not None  # there is an eligible way
    return best


GO_BAK_PAYS_ALONE = ("dok_bak", "dok_bak_doubled", "times_players")  # the go-sayer pays, the other not


def _dokbak(facts: HandFacts, rules: Rules, winner: str, won: Score) -> tuple[Dokbak | None, list[dict]]:
    """Which loser pays for both, by the precedence of §5.1, and why another does not."""
    if len(facts.players) != 3:
        return None, []
    given = facts.dokbak.reason if facts.dokbak else None
    if given is DokbakReason.SHOWDOWN:
        return facts.dokbak, []
    if sd := facts.showdown:
        if sd.refused_by != winner:
            return Dokbak(sd.refused_by, DokbakReason.SHOWDOWN), []
    lifted = _go_bak_lifted(facts, winner)
    notes = [note("showdown_go_bak_lifted", p) for p in lifted if facts.gos.get(p, 0) > 0]
    if rules.go_bak_three_players in GO_BAK_PAYS_ALONE:
        went = [p for p in facts.opponents(winner) if facts.gos.get(p, 0) > 0 and p not in lifted]
        if given is DokbakReason.GO_BAK:
            return facts.dokbak, notes
        if len(went) == 1:
            return Dokbak(went[0], DokbakReason.GO_BAK), notes
        if len(went) == 2:
            last = facts.last_go if facts.last_go in went else _more_gos(facts, went)
            return Dokbak(last, DokbakReason.GO_BAK), notes
    if given is DokbakReason.OE_MYEON and (oe_myeon := facts.dokbak) is not None:
        if oe_myeon.last_card:
            return None, notes + [note("oe_myeon_last_card", oe_myeon.player)]
        if facts.gos.get(winner, 0) == 0 and all(line.category == JUNK for line in won.lines):
            return None, notes + [note("oe_myeon_junk_only", oe_myeon.player)]
        return oe_myeon, notes
    return None, notes


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


def _stop(facts: HandFacts, rules: Rules) -> tuple[dict[str, Score], list[Payment], list[dict]]:
    winner = facts.outcome.winner
    assert winner is not None  # a stop names its winner (the contract checks)
    choice = _choose(facts, rules, winner)
    scores: dict[str, Score] = {winner: choice.won, **choice.lost}
    notes: list[dict] = []
    owed = dict(choice.owed)
    if rules.empty_pile_pays_nothing:
        for loser, lost in choice.lost.items():
            if lost.pile.empty:
                owed[loser] = (0, owed[loser][1])
                notes.append(note("empty_pile", loser))
    dokbak, why = _dokbak(facts, rules, winner, choice.won)
    notes.extend(why)
    payments = []
    if dokbak and owed[dokbak.player][0] > 0:
        other = next(p for p in owed if p != dokbak.player)
        own, trail = owed[dokbak.player]
        covered, other_trail = owed[other]
        go_bak_rule = rules.go_bak_three_players if dokbak.reason is DokbakReason.GO_BAK else "dok_bak"
        if go_bak_rule == "times_players":  # own amount × the number of players, the other pays nothing
            n = len(facts.players)
            payments.append(Payment(dokbak.player, winner, own * n, "stop",
                                    trail + (Step("go_bak", factor=n, detail=(("players", n),)),)))
        else:
            share = Step("dok_bak", value=covered, detail=(
                ("player", other), ("reason", dokbak.reason.value), ("trail", [s.to_json() for s in other_trail])))
            total, steps = own + covered, trail + (share,)
            if go_bak_rule == "dok_bak_doubled":  # the whole, doubled
                total, steps = total * 2, steps + (Step("go_bak", factor=2),)
            payments.append(Payment(dokbak.player, winner, total, "stop", steps))
        notes.append(note("dok_bak", other))
    else:
        for loser, (points, trail) in owed.items():
            if points > 0:
                payments.append(_new(Payment, (loser, winner, points, "stop", trail)))
    return scores, payments, notes


# -- fixed payments and instant wins (RULES.md §6.4) ---------------------------------

def fixed_from_each(facts: HandFacts, player: str, kind: str, points: int,
                    payers: tuple[str, ...] | None = None) -> list[Payment]:
    """Each opponent (or each of ``payers``) pays ``player`` a fixed amount, never multiplied."""
    payers = facts.opponents(player) if payers is None else payers
    return [Payment(p, player, points, kind, (Step(kind, value=points),)) for p in payers if points]


def _instant(facts: HandFacts, rules: Rules) -> tuple[list[Payment], list[dict]]:
    out = facts.outcome
    if out.type is OutcomeType.CHONGTONG:
        holders = out.winners
        others = tuple(p for p in facts.players if p not in holders)
        if not others:
            return [], [note("chongtong_cancel")]
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
