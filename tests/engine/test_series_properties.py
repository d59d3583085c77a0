"""Properties of a series: zero-sum balances, exact settle-up, edits undone, pure replay."""

from __future__ import annotations

import contextlib

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import DECK
from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.series import Series, config_from, play
from scorekeeper.engine.series.gwangpalli import PLAY, SIT, payable

from .series_cases import WIN2, WIN3

NAMES = "ABCDEFG"
SHOWABLE = [c.code for c in DECK if payable(c.code)]


@st.composite
def configs(draw):
    n = draw(st.integers(2, 7))
    options = {
        "nagari_carry_stacks": draw(st.booleans()),
        "sitter_pay_per_card": draw(st.sampled_from([2, 3])),
        "sitter_paid_at_end": draw(st.booleans()),
        "void_deal_chongtong": draw(st.booleans()),
    }
    preset = draw(st.sampled_from(["pagat", "korean-common"]))
    return config_from(
        {
            "players": list(NAMES[:n]),
            "first_dealer": draw(st.sampled_from(NAMES[:n])),
            "rules": {"preset": preset, "options": options},
            "length": draw(st.sampled_from([3, 6, 12, None])),
            "chip_value": draw(st.sampled_from([0, 50, 100, 0.5])),
        }
    )


def _choices(draw, s: Series) -> tuple[dict, list[str]]:
    """Valid choices for the next deal, and who is forced to sit out."""
    choices, playing, forced = {}, 1, []
    order = s.next.choosers
    for n, player in enumerate(order):
        undecided = len(order) - n
        if playing == 3:
            forced.append(player)
        elif playing + undecided == 3:
            playing += 1
        elif draw(st.booleans()):
            choices[player] = PLAY
            playing += 1
        else:
            choices[player] = SIT
    return choices, forced


def _summary(draw, players: list[str], config) -> dict:
    kind = draw(st.sampled_from(["stop", "stop", "stop", "nagari", "void_deal", "chongtong"]))
    if kind in ("nagari", "void_deal"):
        return {"outcome": {"type": kind}}
    winner = draw(st.sampled_from(players))
    if kind == "chongtong":
        return {"outcome": {"type": "chongtong", "winner": winner, "month": draw(st.integers(1, 12))}}
    losers = [p for p in players if p != winner]
    summary = {
        "captures": {winner: list(WIN2 if len(players) == 2 else WIN3)},
        "junk": {p: draw(st.integers(0, 9)) for p in losers},
        "outcome": {"type": "stop", "winner": winner},
    }
    if config.rules.first_turn_ppuk and draw(st.booleans()):
        summary["fixed"] = [{"kind": "first_turn_ppuk", "player": draw(st.sampled_from(players))}]
    return summary


@st.composite
def series_st(draw):
    config = draw(configs())
    s = play(config, [])
    for _ in range(draw(st.integers(0, 14))):
        if s.finished:
            break
        record: dict = {}
        players = list(s.next.players or config.players)
        if s.next.choosers:
            choices, forced = _choices(draw, s)
            record["choices"] = choices
            players = [p for p in config.players if p not in forced and (p == s.next.dealer or choices.get(p) != SIT)]
            cards = draw(st.permutations(SHOWABLE))
            shown = {}
            for sitter in forced:
                k = draw(st.integers(0, 3))
                shown[sitter], cards = {"cards": list(cards[:k]), "shake": draw(st.booleans())}, cards[k:]
            record["shown"] = shown
        record["summary"] = _summary(draw, players, config)
        s = s.append(record)
    return s


@settings(max_examples=60, deadline=None)
@given(series_st())
def test_balances_sum_to_zero_at_every_step(s):
    running = dict.fromkeys(s.config.players, 0)
    for deal in s.deals:
        for e in deal.entries:
            assert e.points > 0 and e.payer != e.payee
            running[e.payer] -= e.points
            running[e.payee] += e.points
        assert deal.balances == running
        assert sum(deal.balances.values()) == 0
    assert s.balances == running


@settings(max_examples=60, deadline=None)
@given(series_st())
def test_settle_up_reproduces_the_balances(s):
    transfers = s.settle_up()
    left = dict(s.balances)
    for t in transfers:
        left[t["from"]] += t["points"]
        left[t["to"]] -= t["points"]
        assert t["money"] == round(t["points"] * s.config.chip_value, 2)
    assert set(left.values()) <= {0}
    assert len(transfers) <= len(s.config.players) - 1


@settings(max_examples=40, deadline=None)
@given(series_st(), st.data())
def test_editing_a_hand_then_restoring_it_gives_the_same_series(s, data):
    if not s.records:
        return
    i = data.draw(st.integers(0, len(s.records) - 1))
    replacement = {"summary": {"outcome": {"type": "void_deal"}}}
    if "choices" in s.records[i]:
        replacement["choices"] = s.records[i]["choices"]
    with contextlib.suppress(EngineError):  # a later record may no longer fit (its dealer or players changed)
        s.replace(i, replacement)
    restored = s.replace(i, s.records[i])
    assert restored.to_json() == s.to_json()


@settings(max_examples=40, deadline=None)
@given(series_st())
def test_replay_is_pure_and_prefixes_agree(s):
    again = play(s.config, list(s.records))
    assert again.to_json() == s.to_json()
    if s.records:
        shorter = s.delete(len(s.records) - 1)
        assert shorter.to_json()["hands"] == s.to_json()["hands"][:-1]


@settings(max_examples=40, deadline=None)
@given(series_st())
def test_hands_are_counted_and_dealt_by_the_rules(s):
    counted = [d for d in s.deals if d.counted]
    assert [d.number for d in counted] == list(range(1, len(counted) + 1))
    assert s.played == len(counted)
    if s.config.length is not None:
        assert s.played <= s.config.length
    for before, after in zip(s.deals, s.deals[1:]):
        kind = before.outcome["type"]
        if not before.counted or kind == "nagari":
            assert after.dealer == before.dealer
        else:
            assert after.dealer == before.winners[0] if len(before.winners) == 1 else after.dealer in before.winners
        if kind == "nagari":
            assert after.carry == before.carry + 1
            if len(s.config.players) > 3:
                assert after.seating.players == before.seating.players
        elif not before.counted:
            assert after.carry == before.carry
        else:
            assert after.carry == 0
