"""정산: go bonus, doubles and their trail, dok-bak, fixed payments — tables of cases.

Whole-hand payment figures computed by hand for every preset are in
``reference_cases.json``; this module checks the parts and the explanations.
"""

import pytest

from scorekeeper.engine.payout import go_bonus, go_doubling
from scorekeeper.engine.rules import Rules, rules_from
from scorekeeper.engine.summary.contract import score_summary

KOREAN = rules_from("korean-common")
ENCYC = rules_from("encyclopedia")
JUNK_12 = ["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2", "6j1", "6j2"]  # 12 junk: 3 points
ANIMALS_7 = ["2a", "4a", "5a", "6a", "7a", "10a", "12a"]  # 7 animals, no godori: 3 points


@pytest.mark.parametrize(
    "gos, rules, bonus, factor",
    [
        pytest.param(0, Rules(), 0, 1, id="no-go"),
        pytest.param(1, Rules(), 1, 1, id="one-go"),
        pytest.param(2, Rules(), 2, 1, id="two-go"),
        pytest.param(3, Rules(), 2, 2, id="three-go-plus-two-kept"),
        pytest.param(4, Rules(), 2, 4, id="four-go-x4"),
        pytest.param(5, Rules(), 2, 8, id="five-go-x8"),
        pytest.param(3, KOREAN, 3, 2, id="korean-three-go-plus-three"),
        pytest.param(5, KOREAN, 5, 8, id="korean-five-go"),
        pytest.param(3, Rules(go_bonus="none_from_three"), 0, 2, id="pagat-text-no-bonus-from-three"),
        pytest.param(2, Rules(go_bonus="none_from_three"), 2, 1, id="pagat-text-two-go-still-plus-two"),
        pytest.param(3, ENCYC, 2, 2, id="encyclopedia-three-go-x2"),
        pytest.param(4, ENCYC, 2, 3, id="encyclopedia-four-go-x3"),
        pytest.param(5, ENCYC, 2, 4, id="encyclopedia-five-go-x4"),
    ],
)
def test_go_bonus_and_doubling(gos, rules, bonus, factor):
    assert (go_bonus(gos, rules), go_doubling(gos, rules)) == (bonus, factor)


def hand(**kw):
    doc = {"players": ["A", "B", "C"], "outcome": {"type": "stop", "winner": "A"}}
    doc.update(kw)
    return doc


def ok(doc) -> dict:
    result = score_summary(doc)
    assert result["ok"], result
    return result


def trail_of(result, payer):
    payment = next(p for p in result["payments"] if p["from"] == payer and p["kind"] == "stop")
    return [(s["id"], s.get("value", s.get("factor"))) for s in payment["trail"] if s["id"] != "dok_bak"]


def test_pagat_worked_example_reachable_form():
    """rules.md §5: 12 junk + 7 animals, three goes, a loser with 4 junk: (6 + 2) × 8 = 64."""
    result = ok(
        hand(
            captures={
                "A": JUNK_12 + ANIMALS_7,
                "B": ["7j1", "7j2", "8j1", "8j2"],
                "C": ["1g", "9j1", "9j2", "10j1", "10j2", "11j1", "11j2"],
            },
            gos={"A": 3},
        )
    )
    assert trail_of(result, "B") == [("base", 6), ("go_bonus", 2), ("go_doubling", 2), ("pi_bak", 2), ("meong_dda", 2)]
    assert result["payments"][0]["points"] == 64
    assert result["net"] == {"A": 64 + 32, "B": -64, "C": -32}


def test_every_double_in_one_trail():
    """Shake, bomb, gwang-bak, pi-bak, meong-dda, tti-bak, nagari, mission: each a step, multiplied."""
    rules = {"preset": "korean-common", "options": {"tti_bak": True, "missions": True}}
    a = ["1g", "3g", "8g", *JUNK_12, *ANIMALS_7, "1r", "2r", "3r"]
    result = ok(
        hand(
            rules=rules,
            captures={"A": a, "B": ["7j1"], "C": ["11g", "4r", "9j1", "9j2", "10j1", "10j2", "11j1", "11j2", "12jd"]},
            shakes={"A": [9]},
            bombs={"A": [1]},
            nagari_carry=1,
            mission=3,
        )
    )
    b = dict((k, v) for k, v in trail_of(result, "B"))
    assert b == {
        "base": 12,
        "shake": 2,
        "bomb": 2,
        "gwang_bak": 2,
        "pi_bak": 2,
        "meong_dda": 2,
        "tti_bak": 2,
        "nagari_carry": 2,
        "mission": 3,
    }
    assert result["payments"][0]["points"] == 12 * 2**7 * 3
    c = dict(trail_of(result, "C"))
    assert "gwang_bak" not in c and "pi_bak" not in c and "tti_bak" not in c  # C holds a bright, 8 junk, a ribbon


@pytest.mark.parametrize(
    "options, carry, factor",
    [
        pytest.param({}, 1, 2, id="one-nagari-x2"),
        pytest.param({}, 2, 4, id="two-nagari-stack-x4"),
        pytest.param({}, 3, 8, id="three-nagari-stack-x8"),
        pytest.param({"nagari_carry_stacks": False}, 3, 2, id="no-stacking-x2"),
    ],
)
def test_nagari_carry(options, carry, factor):
    result = ok(
        hand(
            rules={"options": options},
            captures={"A": ["1g", "3g", "8g"], "B": ["11g"], "C": ["12g"]},
            nagari_carry=carry,
        )
    )
    assert result["payments"][0]["points"] == 3 * factor


@pytest.mark.parametrize(
    "month, options, factor",
    [
        pytest.param(5, {}, 2, id="shake-x2"),
        pytest.param(11, {}, 2, id="paulownia-shake-x2-by-default"),
        pytest.param(11, {"shake_rain_paulownia_x4": True}, 4, id="paulownia-shake-x4-option"),
        pytest.param(12, {"shake_rain_paulownia_x4": True}, 4, id="rain-shake-x4-option"),
    ],
)
def test_shake_factor(month, options, factor):
    result = ok(
        hand(
            rules={"options": options},
            captures={"A": ["1g", "3g", "8g"], "B": ["11g"], "C": ["12g"]},
            shakes={"A": [month]},
        )
    )
    assert [p["points"] for p in result["payments"]] == [3 * factor] * 2


@pytest.mark.parametrize(
    "mode, loser_animals, step",
    [
        pytest.param("every_loser", ["11g"], "meong_dda", id="meong-dda-every-loser"),
        pytest.param("no_animal_only", ["11g"], "meong_bak", id="meong-bak-loser-without-animals"),
        pytest.param("no_animal_only", ["8a"], None, id="meong-bak-spares-a-loser-with-an-animal"),
        pytest.param("off", ["11g"], None, id="meong-dda-off"),
    ],
)
def test_meong_dda_modes(mode, loser_animals, step):
    result = ok(
        hand(
            players=["A", "B"],
            rules={"options": {"meong_dda": mode}},
            captures={"A": [*ANIMALS_7, "9a", "1g", "3g", "8g"], "B": loser_animals},
        )
    )
    ids = [s for s, _ in trail_of(result, "B")]
    assert (step in ids) if step else not ({"meong_dda", "meong_bak"} & set(ids))


def test_winner_chooses_cup_for_the_larger_payment_loser_for_the_smaller():
    """A: 9 junk + cup. Cup as junk → 11 junk (2 pts) with pi-bak on B; as animal → no junk score."""
    a = ["1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "9a", "1g", "3g", "8g"]
    result = ok(
        hand(
            players=["A", "B"],
            rules={"options": {"target_two_players": 3}},
            captures={"A": a, "B": ["11g", "6j1", "6j2", "7j1"]},
        )
    )
    assert result["scores"]["A"]["counted_as"] == {"9a": "junk"}
    assert result["payments"][0]["points"] == (3 + 2) * 2  # pi-bak: B has 3 junk


def test_loser_counts_cup_as_junk_to_escape_pi_bak():
    a = [*JUNK_12, "1g", "3g", "8g", "2a", "4a", "8a"]
    b = ["11g", "9a", "7j1", "7j2", "8j1"]  # 3 junk; with the cup as double junk 5: no pi-bak in pagat
    result = ok(hand(players=["A", "B"], captures={"A": a, "B": b}))
    assert result["scores"]["B"]["counted_as"] == {"9a": "junk"}
    assert "pi_bak" not in dict(trail_of(result, "B"))


@pytest.mark.parametrize(
    "extra, code",
    [
        pytest.param({"gos": {"B": 1}}, "go_bak", id="go-bak"),
        pytest.param({"dokbak": {"player": "B", "reason": "oe_myeon"}}, "oe_myeon", id="oe-myeon"),
        pytest.param({"dokbak": {"player": "B", "reason": "showdown"}}, "showdown", id="showdown"),
        pytest.param({"showdown": {"offered_by": "C", "refused_by": "B"}}, "showdown", id="showdown-derived"),
    ],
)
def test_dok_bak_one_loser_pays_both_shares(extra, code):
    caps = {"A": ["1g", "3g", "8g", "2a", "4a", "8a"], "B": ["11g"], "C": ["12g"]}
    result = ok(hand(captures=caps, gos={"A": 1, **extra.pop("gos", {})}, **extra))
    assert result["net"] == {"A": 18, "B": -18, "C": 0}
    [payment] = result["payments"]
    share = payment["trail"][-1]
    assert (share["id"], share["player"], share["reason"], share["value"]) == ("dok_bak", "C", code, 9)
    assert [n["player"] for n in result["notes"] if n["id"] == "dok_bak"] == ["C"]


def test_showdown_refuser_wins_lifts_offerers_go_bak():
    caps = {"A": ["1g", "3g", "8g"], "B": ["11g"], "C": ["12g"]}
    result = ok(hand(captures=caps, gos={"B": 1}, showdown={"offered_by": "B", "refused_by": "A"}))
    assert result["net"] == {"A": 6, "B": -3, "C": -3}
    assert any(n["id"] == "showdown_go_bak_lifted" for n in result["notes"])


@pytest.mark.parametrize(
    "dokbak, winner_cards, gos, applies",
    [
        pytest.param({"player": "B", "reason": "oe_myeon"}, JUNK_12, 0, False, id="junk-only-no-go-exempt"),
        pytest.param(
            {"player": "B", "reason": "oe_myeon"}, [*JUNK_12, "12r", "9j2"], 1, True, id="junk-only-with-go-applies"
        ),
        pytest.param(
            {"player": "B", "reason": "oe_myeon", "last_card": True},
            ["1g", "3g", "8g"],
            0,
            False,
            id="last-card-exempt",
        ),
        pytest.param({"player": "B", "reason": "oe_myeon"}, ["1g", "3g", "8g"], 0, True, id="brights-applies"),
    ],
)
def test_oe_myeon_exceptions(dokbak, winner_cards, gos, applies):
    caps = {
        "A": winner_cards,
        "B": ["11g", "7j1", "7j2", "8j1", "8j2", "9j1"],
        "C": ["12g", "10j1", "10j2", "11j1", "11j2", "12jd"],
    }
    result = ok(hand(captures=caps, gos={"A": gos}, dokbak=dokbak))
    assert (result["net"]["C"] == 0) is applies


def test_go_bak_both_losers_last_go_decides():
    caps = {"A": ["1g", "3g", "8g", "2a", "4a", "8a"], "B": ["11g"], "C": ["12g"]}
    result = ok(hand(captures=caps, gos={"A": 1, "B": 1, "C": 1}, last_go="C"))
    assert result["net"]["B"] == 0 and result["net"]["C"] < 0
    refused = score_summary(hand(captures=caps, gos={"A": 1, "B": 1, "C": 1}))
    assert refused["errors"][0]["code"] == "go_bak_ambiguous"


def test_empty_pile_pays_nothing_option():
    caps = {"A": ["1g", "3g", "8g"], "B": [], "C": ["12g"]}
    result = ok(hand(rules={"options": {"empty_pile_pays_nothing": True}}, captures=caps))
    assert result["net"] == {"A": 3, "B": 0, "C": -3}
    assert {"id": "empty_pile", "player": "B"}.items() <= result["notes"][0].items()


@pytest.mark.parametrize(
    "outcome, preset, net",
    [
        pytest.param(
            {"type": "chongtong", "winner": "A", "month": 3}, "pagat", {"A": 10, "B": -5, "C": -5}, id="chongtong-pagat"
        ),
        pytest.param(
            {"type": "chongtong", "winners": ["A", "B"]}, "pagat", {"A": 5, "B": 5, "C": -10}, id="two-chongtong"
        ),
        pytest.param(
            {"type": "chongtong", "winners": ["A", "B", "C"]},
            "pagat",
            {"A": 0, "B": 0, "C": 0},
            id="three-chongtong-cancel",
        ),
        pytest.param(
            {"type": "three_ppuk", "winner": "B"},
            "korean-common",
            {"A": -10, "B": 20, "C": -10},
            id="three-ppuk-korean",
        ),
        pytest.param({"type": "nagari"}, "pagat", {"A": 0, "B": 0, "C": 0}, id="nagari-no-payment"),
        pytest.param({"type": "void_deal"}, "pagat", {"A": 0, "B": 0, "C": 0}, id="void-deal-no-payment"),
    ],
)
def test_instant_wins_are_fixed(outcome, preset, net):
    result = ok(hand(outcome=outcome, rules={"preset": preset}, nagari_carry=2))
    assert result["net"] == net


def test_void_deal_as_dealer_chongtong_option():
    result = ok(hand(outcome={"type": "void_deal"}, dealer="B", rules={"options": {"void_deal_chongtong": True}}))
    assert result["net"] == {"A": -5, "B": 10, "C": -5}


def test_first_turn_ppuk_is_paid_beside_the_stop_and_not_doubled():
    caps = {"A": ["1g", "3g", "8g"], "B": ["11g"], "C": ["12g"]}
    result = ok(hand(captures=caps, fixed=[{"kind": "first_turn_ppuk", "player": "B"}], nagari_carry=1))
    fixed = [p for p in result["payments"] if p["kind"] == "first_turn_ppuk"]
    assert [(p["from"], p["to"], p["points"]) for p in fixed] == [("A", "B", 3), ("C", "B", 3)]
    assert result["net"] == {"A": 12 - 3, "B": -6 + 6, "C": -6 - 3}


def test_money_follows_chip_value():
    caps = {"A": ["1g", "3g", "8g"], "B": ["11g"], "C": ["12g"]}
    result = ok(hand(captures=caps, chip_value=250))
    assert [p["money"] for p in result["payments"]] == [750, 750]
    assert result["net_money"] == {"A": 1500, "B": -750, "C": -750}
    result = ok(hand(captures=caps, chip_value=0.5))
    assert result["net_money"]["A"] == 3


def test_point_multiplier_before_doubles():
    result = ok(
        hand(
            players=["A", "B"],
            rules={"preset": "ogb-matgo", "options": {"point_multiplier": 10}},
            captures={"A": ["1g", "3g", "8g", "2a", "4a", "8a"], "B": ["11g"]},
            gos={"A": 1},
        )
    )
    assert result["payments"][0]["points"] == (8 + 1) * 10


def test_double_and_bright_protection_jokers():
    rules = {"options": {"double_jokers": 1, "bright_protection_jokers": 1}}
    result = ok(
        hand(players=["A", "B"], rules=rules, captures={"A": ["1g", "3g", "8g", "2a", "4a", "8a", "bd"], "B": ["bp"]})
    )
    assert dict(trail_of(result, "B")) == {"base": 8, "double_joker": 2}


def test_weol_yak_option():
    result = ok(
        hand(
            players=["A", "B"],
            rules={"options": {"weol_yak": True}},
            captures={"A": ["1g", "3g", "8g", "2a", "4a", "8a"], "B": ["11g"]},
            weol_yak=["A"],
        )
    )
    assert result["payments"][0]["points"] == 8 * 4
