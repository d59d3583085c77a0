"""내역 The words of a payment's trail (its steps and notes, in Korean and English), and money.

Every score and payment carries its trail of reasons ; the labels are bilingual.

>>> money(12, 100), money(3, 0.5)
(1200, 1.5)
"""

from __future__ import annotations

from collections.abc import Iterable

# The words of each step of a trail, Korean and English: the doubles' own are added by ``doubles``
# from their records (the one place they are written), so this names the other steps. The
# message catalogue reads these too, so a page and the engine's JSON say the same.
STEP_WORDS: dict[str, tuple[str, str]] = {
    "base": ("점수", "score"),
    "go_bonus": ("고 보너스", "go bonus"),
    "point_multiplier": ("점수 곱하기", "point multiplier"),
    "go_doubling": ("3고 이상 배", "doubling from the third go"),
    "meong_bak": ("멍박", "meong-bak"),  # the meong-dda double where only losers without animals pay it
    "reverse_go": ("역고", "reverse go"),
    "dok_bak": ("독박", "dok-bak: pays the other loser's share"),
    "payment_cap": ("상한가", "payment cap"),
    "chongtong": ("총통", "chongtong"),
    "three_ppuk": ("삼뻑", "three ppuk"),
    "first_turn_ppuk": ("첫뻑", "first-turn ppuk"),
    "consecutive_ppuk": ("연뻑", "consecutive ppuk"),
    "three_consecutive_ppuk": ("삼연뻑", "three consecutive ppuk"),
    "first_turn_ttadak": ("첫 따닥", "first-turn ttadak"),
    "first_turn_chok": ("첫 쪽", "first-turn chok"),
    "first_turn_four": ("첫 턴 한 달 네 장", "first-turn four of a month"),
    "boar_pot": ("첫 턴 멧돼지", "first-turn boar"),
    "void_deal_chongtong": ("바닥 총통", "four of a month on the table"),
}
# The label the engine's JSON carries: both languages on one line ("피박 pi-bak").
STEP_LABELS: dict[str, str] = {id: f"{ko} {en}" for id, (ko, en) in STEP_WORDS.items()}
NOTE_LABELS: dict[str, str] = {
    "empty_pile": "먹은 패 없음: 면제 no captured cards: pays nothing",
    "dok_bak": "독박: 다른 패자가 대신 냄 dok-bak: the other loser pays this share",
    "oe_myeon_junk_only": "외면 예외: 피로만 나고 고 없음 oe-myeon not applied: the winner scored only junk, no go",
    "oe_myeon_last_card": "외면 예외: 마지막 패 oe-myeon not applied: it was the loser's last card",
    "showdown_go_bak_lifted": "쇼당을 제안해 고박 면제 offered a showdown: no longer go-bak",
    "mission_other": "미션은 이긴 사람이 하지 않음: 배수 없음 the mission was another player's: no multiplier",
    "chongtong_cancel": "총통 셋: 서로 상쇄 three chongtong cancel out",
    "pi_bak_exempt": "피 없음: 피박 면제 no junk at all: exempt from pi-bak",
    "bright_protection": "광 보호 조커: 광박 면제 bright-protection joker: no gwang-bak",
}


def money(points: int, chip_value: float) -> int | float:
    """Points in money; whole amounts stay whole."""
    value = points * chip_value
    if type(value) is int:  # the common case: a whole chip value
        return value
    return int(value) if float(value).is_integer() else round(value, 2)


Steps = tuple  # of Step; a double's unit answers NONE when it adds nothing
NONE: tuple = ()


def net_of(names: Iterable[str], transfers: Iterable) -> dict[str, int]:
    """Each name's points after ``transfers`` (anything with payer, payee and points): a hand's
    payments, or a series' ledger entries."""
    net = dict.fromkeys(names, 0)
    for t in transfers:
        net[t.payer] -= t.points
        net[t.payee] += t.points
    return net
