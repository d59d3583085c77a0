"""배 The doubles of a loser's amount (rules.md §5): one record each, with its small unit.

Each unit reads one loser's side of a stop (``Loss``) and answers the steps it adds
to the trail (``NONE`` when it does not apply); ``payout.amount`` multiplies them in.
A unit runs only for a hand its record's ``needed`` admits (the table's rules and the
winner's declarations): that guard is written there once, and the unit checks the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .cards import BRIGHT, JUNK, RIBBON
from .model import Step
from .rules import Rules
from .scoring import Score
from .summary.facts import HandFacts
from .trail import NONE, STEP_LABELS, STEP_WORDS, Steps


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
    months = x.facts.shakes.get(x.winner, ())
    if x.rules.shake_bomb_once:
        return _shake_bomb_once(x, months)
    return tuple(Step("shake", factor=shake_factor(m, x.rules), detail=(("month", m),)) for m in months)


def _shake_bomb_once(x: Loss, shaken: tuple[int, ...]) -> Steps:
    """One ×2 for all the winner's shakes and bombs together (a house rule: not cumulative)."""
    bombed = x.facts.bombs.get(x.winner, ()) if x.rules.bomb_doubles else ()
    return (Step("shake" if shaken else "bomb", factor=2, detail=(("months", sorted({*shaken, *bombed})),)),)


def bombs(x: Loss) -> Steps:
    months = x.facts.bombs[x.winner]
    return tuple(Step("bomb", factor=shake_factor(m, x.rules), detail=(("month", m),)) for m in months)


GWANG_BAK = (Step("gwang_bak", factor=2),)


def gwang_bak(x: Loss) -> Steps:
    if BRIGHT in x.won.categories and not x.lost.pile.brights and "bp" not in x.lost.pile.bonus:
        return GWANG_BAK
    return NONE


def pi_bak(x: Loss) -> Steps:
    if JUNK not in x.won.categories:  # (most stops: the winner scored no junk)
        return NONE
    value = x.lost.pile.junk_value
    if value >= x.rules.pi_bak_threshold(len(x.facts.players)):
        return NONE
    if value == 0 and x.rules.pi_bak_exempt_no_junk:
        return NONE
    return (Step("pi_bak", factor=2, detail=(("junk", value),)),)


MEONG_DDA, MEONG_BAK = (Step("meong_dda", factor=2),), (Step("meong_bak", factor=2),)


def meong_dda(x: Loss) -> Steps:
    mode = x.rules.meong_dda
    animals = x.won.pile.animals.bit_count()
    if animals < 7:
        return NONE
    if mode == "no_animal_only" and x.lost.pile.animals:
        return NONE
    if x.rules.meong_dda_per_animal and animals > 7:  # ×2 at 7, again for each animal beyond
        return (
            Step(
                MEONG_DDA[0].id if mode == "every_loser" else "meong_bak",
                factor=2 ** (animals - 6),
                detail=(("animals", animals),),
            ),
        )
    return MEONG_DDA if mode == "every_loser" else MEONG_BAK


MEONG_BAK_FIVE = (Step("meong_bak_five", factor=2),)


def meong_bak_five(x: Loss) -> Steps:
    """The other 멍박: the winner holds 5+ animals and this loser none; stacks with meong-dda."""
    if x.won.pile.animals.bit_count() >= 5 and not x.lost.pile.animals:
        return MEONG_BAK_FIVE
    return NONE


TTI_BAK = (Step("tti_bak", factor=2),)


def tti_bak(x: Loss) -> Steps:
    return TTI_BAK if x.won.has(RIBBON) and not x.lost.pile.ribbons else NONE


def nagari_carry(x: Loss) -> Steps:
    n = x.facts.nagari_carry
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
    return (Step("mission", factor=x.facts.mission),)


WEOL_YAK = (Step("weol_yak", factor=4),)


def weol_yak(x: Loss) -> Steps:
    return WEOL_YAK


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
    # Whether a hand needs the unit at all, from its facts and rules: the unit runs only where this
    # holds, so this is its guard of the rules and the winner's declarations, written once.
    needed: Callable[[HandFacts, Rules, str], bool] = _always

    @property
    def label(self) -> str:
        return f"{self.ko} {self.en}"


DOUBLES: tuple[Double, ...] = (
    Double(
        "shake",
        "흔들기",
        "shake",
        "shake_rain_paulownia_x4",
        "declaration",
        shakes,
        lambda f, r, w: bool(f.shakes.get(w)) or (r.shake_bomb_once and r.bomb_doubles and bool(f.bombs.get(w))),
    ),
    Double(
        "bomb",
        "폭탄",
        "bomb",
        "bomb_doubles",
        "declaration",
        bombs,
        lambda f, r, w: r.bomb_doubles and not r.shake_bomb_once and bool(f.bombs.get(w)),
    ),
    Double("gwang_bak", "광박", "gwang-bak", None, "pile", gwang_bak),
    Double("pi_bak", "피박", "pi-bak", None, "pile", pi_bak),
    Double("meong_dda", "멍따", "meong-dda", "meong_dda", "pile", meong_dda, lambda f, r, w: r.meong_dda != "off"),
    Double(
        "meong_bak_five",
        "멍박 (열끗 5장 이상)",
        "meong-bak: 5+ animals, this loser none",
        "meong_bak_five",
        "pile",
        meong_bak_five,
        lambda f, r, w: r.meong_bak_five,
    ),
    Double("tti_bak", "띠박", "tti-bak", "tti_bak", "pile", tti_bak, lambda f, r, w: r.tti_bak),
    Double(
        "nagari_carry",
        "나가리 배",
        "nagari carry",
        "nagari_carry_stacks",
        "hand",
        nagari_carry,
        lambda f, r, w: f.nagari_carry > 0,
    ),
    Double("go_bak", "고박", "go-bak", None, "go", go_bak, lambda f, r, w: any(n for p, n in f.gos.items() if p != w)),
    Double(
        "mission",
        "미션",
        "mission",
        "missions",
        "hand",
        mission,
        lambda f, r, w: f.mission > 1 and f.mission_by in (None, w),
    ),  # another's mission: no ×
    Double("weol_yak", "월약", "weol-yak", "weol_yak", "hand", weol_yak, lambda f, r, w: w in f.weol_yak),
    Double(
        "double_joker",
        "더블 조커",
        "double joker",
        "double_jokers",
        "pile",
        double_joker,
        lambda f, r, w: r.double_jokers > 0,
    ),
)
"""Every double of rules.md §5, in the order a payment's trail lists them: one record each."""
STEP_WORDS.update((d.id, (d.ko, d.en)) for d in DOUBLES)  # the trail's words for the doubles' steps
STEP_LABELS.update((d.id, d.label) for d in DOUBLES)
