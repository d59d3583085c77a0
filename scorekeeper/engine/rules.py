"""규칙 House rules: one frozen object of named options, and the presets as data.

Every point where the source texts or real tables differ is an option here
(rules.md §14). A preset is the default ``Rules()`` with a few fields replaced;
``rules_from(preset, overrides)`` builds the rules a table plays.

>>> rules_from("korean-common").go_bonus
'plus_one_each'
>>> rules_from("pagat", {"five_brights": 20}).five_brights
20
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .errors import EngineError

# An option of the house rules as JSON gives it: a flag, a number or one of its choices.
OptionValue = bool | int | str

# Choices of the options that are not numbers or flags.
GO_BONUS = ("plus_two_kept", "plus_one_each", "none_from_three")
GO_DOUBLING = ("double_per_go", "go_minus_one")
CUP_COUNTING = ("payment", "score")
MEONG_DDA = ("every_loser", "no_animal_only", "off")
GO_BAK_THREE = ("dok_bak", "double_own", "dok_bak_doubled", "times_players", "times_players_each")
PPUK_CHAIN = ("replace", "each")
PAYMENT_CAP_PER = ("share", "player")
CHOICE_LABELS = {
    "plus_two_kept": "+1, +2, 3고부터 +2 유지 · +1, +2, +2 kept from 3 go",
    "plus_one_each": "고마다 +1 · +1 for every go",
    "none_from_three": "3고부터 가산 없음 · no bonus from 3 go",
    "double_per_go": "3고 ×2, 4고 ×4, 5고 ×8 · ×2 per go from 3",
    "go_minus_one": "3고 ×2, 4고 ×3, 5고 ×4 · ×(gos − 1)",
    "payment": "돈이 더 되게 (판정 5.5) · for the larger total payment (reading 5.5)",
    "score": "점수가 높게 · for the winner's higher score",
    "every_loser": "진 사람 모두 2배 · every loser ×2",
    "no_animal_only": "멍박: 열끗 없는 사람만 · meong-bak: losers with no animal",
    "off": "없음 · off",
    "dok_bak": "독박: 고한 사람이 다 냄 · dok-bak: the go-sayer pays both",
    "double_own": "고한 사람 자기 몫 2배 · the go-sayer's own amount ×2",
    "dok_bak_doubled": "독박 2배: 고한 사람이 다 내고 2배 · the go-sayer pays both, doubled",
    "times_players": "고한 사람 혼자 자기 몫 × 인원 · the go-sayer alone pays own amount × players",
    "times_players_each": "고한 사람은 자기 몫 × 인원, 다른 사람은 자기 몫 · the go-sayer pays own amount × players, "
    "the other loser their own",
    "replace": "뒤 뻑이 앞 뻑 대신 · each link replaces the one before: the longest is paid alone",
    "each": "뻑마다 따로 (한게임) · each link paid as it happens (Hangame: 7 + 14 + 21)",
    "share": "몫마다: 독박은 두 몫을 각각 상한까지 · per share: a dok-bak payer pays each share capped",
    "player": "사람마다: 한 사람이 내는 전부를 상한까지 · per player: all one player pays for the hand, capped",
}


def option(
    default: OptionValue,
    ko: str,
    en: str,
    group: str,
    *,
    choices: tuple[str, ...] | None = None,
    lo: float | None = None,
    hi: float | None = None,
) -> Any:
    """A rules field with its bilingual label, its group on the rules sheet and its bounds."""
    meta = {"ko": ko, "en": en, "group": group, "choices": choices, "lo": lo, "hi": hi}
    return field(default=default, metadata=meta)


# Without slots: the fields are the object's ``__dict__``, so ``_replaced`` builds a table's rules
# with options by copying the preset's dict, where some fifty slots took a write each.
@dataclass(frozen=True)
class Rules:
    """The house rules of a table. Defaults are the ``pagat`` preset."""

    # -- scoring (rules.md §3) --
    target_two_players: int = option(7, "2인 났을 때 점수", "Target score, two players", "scoring", lo=1, hi=50)
    target_three_players: int = option(3, "3인 났을 때 점수", "Target score, three players", "scoring", lo=1, hi=50)
    four_brights_with_rain: int = option(4, "비 포함 사광", "Four brights including rain (12g)", "scoring", lo=0, hi=50)
    five_brights: int = option(15, "오광", "Five brights", "scoring", lo=0, hi=100)
    godori: int = option(5, "고도리", "Godori (three birds)", "scoring", lo=0, hi=50)
    four_birds: bool = option(
        False, "육도리·비도리 (제비 포함)", "Four-bird rule: swallow 12a is a bird (6 / 4)", "scoring"
    )
    rain_ribbon_counts: bool = option(
        True, "비띠도 띠로 셈 (아니면 피 한 장)", "Rain ribbon 12r counts as a ribbon (else as one junk)", "scoring"
    )
    cup_flexible: bool = option(True, "국진 열끗/쌍피 선택", "Sake cup 9a counts as animal or junk", "scoring")
    cup_junk_value: int = option(2, "국진을 피로 셀 때 값", "Sake cup as junk is worth", "scoring", lo=1, hi=2)
    cup_counting: str = option(
        "payment", "이긴 사람의 국진 셈", "How the winner's cup 9a is counted", "scoring", choices=CUP_COUNTING
    )
    bridge_flexible: bool = option(False, "난초 열끗 쌍피 선택", "Bridge 5a counts as animal or double junk", "scoring")
    vip: bool = option(
        False, "VIP (국진·똥쌍피·비쌍피) +3", "VIP: cup as junk + 11jd + 12jd, +3 (not toward target)", "scoring"
    )
    palssari: bool = option(False, "팔싸리 +8", "Palssari: all of months 4 and 7, +8 (not toward target)", "scoring")
    # -- bonus cards (rules.md §1) --
    bonus_two_junk: int = option(1, "쌍피 보너스 장수", "Two-junk jokers (b2) in the deck", "bonus", lo=0, hi=4)
    bonus_three_junk: int = option(1, "쓰리피 보너스 장수", "Three-junk jokers (b3) in the deck", "bonus", lo=0, hi=4)
    boss_junk_jokers: int = option(
        0, "보스피 조커", "Boss-junk jokers (bb): each opponent gives a junk", "bonus", lo=0, hi=4
    )
    double_jokers: int = option(0, "더블 조커", "Double jokers (bd): owner wins double", "bonus", lo=0, hi=4)
    bright_protection_jokers: int = option(
        0, "광 보호 조커", "Bright-protection jokers (bp): no gwang-bak", "bonus", lo=0, hi=4
    )
    # -- go (rules.md §4, §5) --
    go_bonus: str = option("plus_two_kept", "고 가산점", "Go bonus", "go", choices=GO_BONUS)
    go_doubling: str = option("double_per_go", "3고부터 배수", "Doubling from the third go", "go", choices=GO_DOUBLING)
    reverse_go: int = option(
        0,
        "역고 배수 (0은 없음)",
        "Reverse go (yeok-go): a winner who said go after an opponent's go gets this factor "
        "instead of the go doubling (0: off)",
        "go",
        lo=0,
        hi=16,
    )
    point_multiplier: int = option(1, "점수 곱하기", "Point multiplier (score + go bonus)", "go", lo=1, hi=100)
    # -- doubles (rules.md §5) --
    shake_rain_paulownia_x4: bool = option(False, "똥·비 흔들기 4배", "Shake of month 11 or 12 counts ×4", "doubles")
    bomb_doubles: bool = option(False, "폭탄도 흔들기처럼 2배", "Bomb doubles like a shake", "doubles")
    bomb_takes_junk: bool = option(False, "폭탄 피 한 장", "Bomb takes one junk from each opponent", "doubles")
    shake_bomb_once: bool = option(
        False, "흔들기·폭탄은 몇 번이든 한 번만 2배", "Shakes and bombs double once in all, however many", "doubles"
    )
    bomb_after_shake: bool = option(False, "흔든 달 폭탄 허용", "Bomb allowed for a month already shaken", "doubles")
    pi_bak_two_players: int = option(
        5, "피박 기준 (2인)", "Pi-bak below this junk, two players", "doubles", lo=0, hi=30
    )
    pi_bak_three_players: int = option(
        5, "피박 기준 (3인)", "Pi-bak below this junk, three players", "doubles", lo=0, hi=30
    )
    pi_bak_exempt_no_junk: bool = option(
        False, "피 없으면 피박 면제", "A loser with no junk is exempt from pi-bak", "doubles"
    )
    meong_dda: str = option("every_loser", "멍따", "Meong-dda (winner with 7+ animals)", "doubles", choices=MEONG_DDA)
    meong_dda_per_animal: bool = option(
        False, "멍따: 7장 넘는 열끗마다 또 2배", "Meong-dda doubles again for each animal beyond 7", "doubles"
    )
    meong_bak_five: bool = option(
        False,
        "멍박: 열끗 5장 이상으로 나면 열끗 없는 사람 2배",
        "Meong-bak: winner with 5+ animals, a loser with none ×2 (stacks with meong-dda)",
        "doubles",
    )
    tti_bak: bool = option(False, "띠박", "Tti-bak (loser without ribbons)", "doubles")
    go_bak_two_players: bool = option(False, "고박 (2인) 2배", "Go-bak with two players: ×2", "doubles")
    go_bak_three_players: str = option(
        "dok_bak", "고박 (3인)", "Go-bak with three players", "doubles", choices=GO_BAK_THREE
    )
    oe_myeon: bool = option(True, "외면 독박", "Oe-myeon dok-bak", "doubles")
    nagari_carry_stacks: bool = option(
        True, "나가리 누적 (2, 4, 8배)", "Consecutive nagari stack (×2, ×4, ×8)", "doubles"
    )
    missions: bool = option(False, "미션 배수", "Mission multiplier (2× to 9×)", "doubles")
    weol_yak: bool = option(False, "월약 4배", "Weol-yak: all four of a month on the first turn ×4", "doubles")
    empty_pile_pays_nothing: bool = option(
        False, "먹은 패 없으면 면제", "A loser with no captured cards pays nothing", "doubles"
    )
    payment_cap: int = option(
        0,
        "상한가: 스톱 돈 한 몫의 최대 점수, 모든 배수 뒤 (0은 없음)",
        "Payment cap: the most a share of the stop payment comes to, after every double (0: none)",
        "doubles",
        lo=0,
        hi=100000,
    )
    payment_cap_per: str = option(
        "share",
        "상한가를 몫마다 / 사람마다",
        "Payment cap per share (a dok-bak payer pays each share capped) or per player (all one player pays)",
        "doubles",
        choices=PAYMENT_CAP_PER,
    )
    # -- fixed payments (rules.md §8), points from each opponent; 0 is off --
    chongtong: int = option(5, "총통", "Chongtong (four of a month in hand)", "fixed", lo=0, hi=1000)
    three_ppuk: int = option(5, "삼뻑", "Three ppuk in a hand", "fixed", lo=0, hi=1000)
    chongtong_zero_still_wins: bool = option(
        False, "총통이 0점이어도 총통으로 판이 끝남", "A chongtong worth 0 still ends the hand (0 is not off)", "fixed"
    )
    first_turn_ppuk: int = option(3, "첫뻑", "First-turn ppuk", "fixed", lo=0, hi=1000)
    consecutive_ppuk: int = option(
        0,
        "연뻑",
        "Consecutive ppuk: a ppuk on each of the first two turns",
        "fixed",
        lo=0,
        hi=1000,
    )
    three_consecutive_ppuk: int = option(
        0,
        "삼연뻑",
        "Three consecutive ppuk: a ppuk on each of the first three turns",
        "fixed",
        lo=0,
        hi=1000,
    )
    ppuk_chain: str = option(
        "replace",
        "연뻑·삼연뻑: 앞 뻑 대신 / 뻑마다 따로",
        "The ppuk chain: each link paid instead of the one before, or each as it happens",
        "fixed",
        choices=PPUK_CHAIN,
    )
    first_turn_ttadak: int = option(0, "첫 따닥", "First-turn ttadak", "fixed", lo=0, hi=1000)
    first_turn_chok: int = option(0, "첫 쪽", "First-turn chok", "fixed", lo=0, hi=1000)
    first_turn_four: int = option(
        0, "첫 턴 한 달 네 장", "First-turn capture of all four of a month", "fixed", lo=0, hi=1000
    )
    boar_pot: int = option(0, "첫 턴 멧돼지", "First-turn capture of the boar 7a", "fixed", lo=0, hi=1000)
    void_deal_chongtong: bool = option(
        False, "바닥 총통은 선 승리", "Four of a month on the table: the dealer wins", "fixed"
    )
    # -- gwangpalli (rules.md §10) --
    sitter_pay_per_card: int = option(2, "광팔기 장당", "Gwangpalli: points per card shown", "gwangpalli", lo=0, hi=100)
    sitter_paid_at_end: bool = option(False, "광값은 진 사람이 끝에", "Gwangpalli: losers pay at the end", "gwangpalli")

    def target(self, players: int) -> int:
        """The score a player needs to go or stop."""
        return self.target_two_players if players == 2 else self.target_three_players

    @property
    def chongtong_played(self) -> bool:
        """Whether a chongtong ends the hand: 0 points means off unless the table says it still wins."""
        return self.chongtong > 0 or self.chongtong_zero_still_wins

    def pi_bak_threshold(self, players: int) -> int:
        return self.pi_bak_two_players if players == 2 else self.pi_bak_three_players

    def bonus_count(self, code: str) -> int:
        """How many copies of bonus card ``code`` the table plays with."""
        return {
            "b2": self.bonus_two_junk,
            "b3": self.bonus_three_junk,
            "bb": self.boss_junk_jokers,
            "bd": self.double_jokers,
            "bp": self.bright_protection_jokers,
        }[code]

    def to_dict(self) -> dict[str, OptionValue]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


OPTIONS: dict[str, dataclasses.Field] = {f.name: f for f in dataclasses.fields(Rules)}

PRESETS: dict[str, Rules] = {
    "pagat": Rules(),
    "ogb-matgo": Rules(
        cup_flexible=True,
        bridge_flexible=True,
        bonus_two_junk=0,
        bonus_three_junk=0,
        bomb_takes_junk=True,
        pi_bak_two_players=6,
        pi_bak_three_players=6,
        go_bak_two_players=True,
        chongtong=50,
        three_ppuk=50,
        first_turn_ppuk=0,
    ),
    "encyclopedia": Rules(
        rain_ribbon_counts=False,
        bridge_flexible=True,
        bonus_two_junk=0,
        bonus_three_junk=0,
        go_doubling="go_minus_one",
        bomb_takes_junk=True,
        bomb_after_shake=True,
        pi_bak_two_players=6,
        pi_bak_three_players=6,
        meong_dda="off",
        go_bak_two_players=True,
        go_bak_three_players="double_own",
        three_ppuk=0,
        first_turn_ppuk=0,
    ),
    "korean-common": Rules(
        go_bonus="plus_one_each",
        bomb_doubles=True,
        bomb_takes_junk=True,
        pi_bak_two_players=8,
        pi_bak_three_players=6,
        pi_bak_exempt_no_junk=True,
        go_bak_two_players=True,
        chongtong=10,
        three_ppuk=10,
    ),
}
# Each preset's name, Korean and English: the rules sheet, the new-table form, ``scorekeeper rules``
# and the rules reference all read these.
PRESET_WORDS: dict[str, tuple[str, str]] = {
    "pagat": ("Pagat 기본", "Pagat (default)"),
    "ogb-matgo": ("OGB 맞고 (2인)", "OGB Matgo (two players)"),
    "encyclopedia": ("백과사전식", "Encyclopedia"),
    "korean-common": ("한국 일반", "Korean common"),
}
PRESET_LABELS = {name: f"{en} · {ko}" for name, (ko, en) in PRESET_WORDS.items()}
DEFAULT_PRESET = "pagat"


def find_preset(name: str) -> Rules:
    """The preset called ``name``; a coded error when there is none."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise EngineError(
            "unknown_preset",
            f"Unknown preset {name!r}; choose one of {', '.join(PRESETS)}.",
            "rules.preset",
        ) from None


def check_option(name: str, value: object) -> OptionValue:
    """Return ``value`` if it suits option ``name``, else raise a coded error."""
    spec = OPTIONS.get(name)
    if spec is None:
        raise EngineError("unknown_option", f"Unknown house-rule option {name!r}.", _option_path(name))
    meta, default = spec.metadata, spec.default
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise EngineError("bad_option", f"Option {name} takes true or false.", _option_path(name))
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise EngineError("bad_option", f"Option {name} takes a whole number.", _option_path(name))
        if not meta["lo"] <= value <= meta["hi"]:
            raise EngineError(
                "bad_option", f"Option {name} takes a number from {meta['lo']} to {meta['hi']}.", _option_path(name)
            )
    elif not isinstance(value, str) or value not in meta["choices"]:
        raise EngineError("bad_option", f"Option {name} takes one of {', '.join(meta['choices'])}.", _option_path(name))
    return value


def _option_path(name: str) -> str:
    """Where a refused option is: worded only for a refusal (a batch checks an option or more a line)."""
    return f"rules.options.{name}"


def rules_from(preset: str = DEFAULT_PRESET, overrides: Mapping[str, object] | None = None) -> Rules:
    """The preset with ``overrides`` applied, each checked."""
    if not overrides and isinstance(preset, str) and preset in PRESETS:
        return PRESETS[preset]  # the common case: a preset as it is
    if not isinstance(preset, str):
        find_preset(repr(preset))  # raises the coded error
    if not isinstance(overrides, dict | None):
        raise EngineError("bad_option", "Rules options must be an object of name: value.", "rules.options")
    # The type is part of the cache key: 1 == True, but only true is a flag's value. Built by
    # ``map`` and ``zip`` (no loop in Python): a batch of summaries with options of their own
    # builds one key a line (BENCHMARKS.md, issue 32).
    values = (overrides or {}).values()
    items = tuple(sorted(zip(map(str, overrides or ()), map(type, values), values)))
    if _KEYABLE.issuperset(map(type, values)):
        return _rules_from(preset, items)
    return _rules_from.__wrapped__(preset, items)  # any other value (unhashable, say): refused, never cached


# The types of the options' values that ``rules_from`` remembers: JSON's strings, numbers and flags.
_KEYABLE = frozenset({str, int, float, bool})


@lru_cache(maxsize=256)
def _rules_from(preset: str, items: tuple) -> Rules:
    base = find_preset(preset)
    changes = {name: check_option(name, value) for name, _, value in items}
    return _replaced(base, changes) if changes else base


def _replaced(base: Rules, changes: dict[str, OptionValue]) -> Rules:
    """``dataclasses.replace(base, **changes)`` for checked options, without the generated
    ``__init__`` (frozen: a guarded ``__setattr__`` for each of some fifty fields): the fields are
    the object's ``__dict__``, copied with the changes in one step. A batch of summaries each with
    options of its own builds one of these a line (benchmarks/engine.py): ~1 µs, where the
    ``__init__`` takes ~12 µs and a write to each slot took ~4.5 µs (BENCHMARKS.md, issue 32)."""
    new = object.__new__(Rules)
    object.__setattr__(new, "__dict__", {**base.__dict__, **changes})
    return new


def changed_options(rules: Rules, preset: str = DEFAULT_PRESET) -> dict[str, OptionValue]:
    """The options where ``rules`` differ from ``preset``."""
    base = find_preset(preset)
    return {n: getattr(rules, n) for n in OPTIONS if getattr(rules, n) != getattr(base, n)}
