"""광팔기 Four to seven at the table: who plays, and the forced sitters' compensation."""

from __future__ import annotations

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.rules import Rules
from scorekeeper.engine.series.gwangpalli import choose, claim, nagari_factor

from .series_cases import nagari, series, stop, void

BC_PLAY = {"B": "play", "C": "play"}  # at ABCD with A dealing: D is forced to sit out


# -- choosing who plays ---------------------------------------------------------------


@pytest.mark.parametrize(
    "table, dealer, choices, players, forced, voluntary, forced_to_play",
    [
        pytest.param("ABCD", "A", {"B": "play", "C": "play"}, "ABC", "D", "", "", id="4-two-play-last-forced-out"),
        pytest.param(
            "ABCD", "A", {"B": "play", "C": "play", "D": "sit"}, "ABC", "D", "", "", id="4-forced-sit-may-be-said"
        ),
        pytest.param("ABCD", "A", {"B": "sit"}, "ACD", "", "B", "CD", id="4-first-sits-rest-must-play"),
        pytest.param(
            "ABCD", "A", {"B": "sit", "C": "play", "D": "play"}, "ACD", "", "B", "CD", id="4-forced-play-may-be-said"
        ),
        pytest.param("ABCD", "A", {"B": "play", "C": "sit"}, "ABD", "", "C", "D", id="4-second-sits-last-must-play"),
        pytest.param("ABCD", "C", {"D": "play", "A": "play"}, "ACD", "B", "", "", id="4-order-from-dealers-right"),
        # pagat's five-player example: A deals, B drops out, C plays, D drops out: E must play.
        pytest.param("ABCDE", "A", {"B": "sit", "C": "play", "D": "sit"}, "ACE", "", "BD", "E", id="pagat-5-a"),
        pytest.param("ABCDE", "A", {"B": "sit", "C": "play", "D": "play"}, "ACD", "E", "B", "", id="pagat-5-b"),
        pytest.param("ABCDE", "A", {"B": "sit", "C": "sit"}, "ADE", "", "BC", "DE", id="pagat-5-c"),
        pytest.param("ABCDEFG", "A", {"B": "play", "C": "play"}, "ABC", "DEFG", "", "", id="7-two-play-at-once"),
        pytest.param(
            "ABCDEFG",
            "D",
            {"E": "sit", "F": "sit", "G": "play", "A": "sit", "B": "sit"},
            "CDG",
            "",
            "EFAB",
            "C",
            id="7-last-must-play",
        ),
    ],
)
def test_choose(table, dealer, choices, players, forced, voluntary, forced_to_play):
    s = choose(list(table), dealer, choices)
    assert s.players == tuple(players)
    assert s.forced == tuple(forced)
    assert s.voluntary == tuple(voluntary)
    assert s.forced_to_play == tuple(forced_to_play)


@pytest.mark.parametrize(
    "table, choices, code, path",
    [
        pytest.param(
            "ABCD", {"B": "play", "C": "play", "D": "play"}, "choice_order", "choices.D", id="a-third-cannot-play"
        ),
        pytest.param("ABCD", {"B": "sit", "C": "sit"}, "choice_order", "choices.C", id="three-left-must-play"),
        pytest.param(
            "ABCDE",
            {"B": "sit", "C": "play", "D": "sit", "E": "sit"},
            "choice_order",
            "choices.E",
            id="pagat-5-e-must-play",
        ),
        pytest.param("ABCD", {"B": "play"}, "missing_choice", "choices.C", id="a-free-choice-missing"),
        pytest.param("ABCD", {}, "missing_choice", "choices.B", id="no-choices"),
        pytest.param("ABCD", {"A": "play", "B": "play", "C": "play"}, "bad_choice", "choices.A", id="dealer-chooses"),
        pytest.param("ABCD", {"B": "yes"}, "bad_choice", "choices.B", id="not-play-or-sit"),
        pytest.param("ABCD", {"B": "play", "C": "play", "Z": "sit"}, "unknown_player", "choices.Z", id="not-at-table"),
        pytest.param("ABCD", ["B", "C"], "bad_choice", "choices", id="not-an-object"),
    ],
)
def test_choose_refused(table, choices, code, path):
    with pytest.raises(EngineError) as err:
        choose(list(table), "A", choices)
    assert err.value.code == code
    assert err.value.errors[0]["path"] == path


# -- one sitter's claim ---------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, shake, table_size, per_card, points",
    [
        pytest.param(["1g", "3g"], False, 4, 2, 4, id="two-brights-2-a-card"),
        pytest.param(["1g", "3g"], False, 4, 3, 6, id="two-brights-3-a-card"),
        pytest.param(["1g", "3g"], True, 4, 2, 8, id="shake-doubles"),
        pytest.param(["1g", "3g"], True, 5, 3, 12, id="shake-doubles-3-a-card"),
        pytest.param(["11jd", "12jd", "9a", "b2", "b3"], False, 5, 2, 10, id="double-junk-cup-jokers"),
        pytest.param(["12g"], False, 4, 2, 0, id="four-lone-rain-bright-unpaid"),
        pytest.param(["12g", "11jd"], False, 4, 2, 2, id="four-lone-rain-bright-other-cards-paid"),
        pytest.param(["12g", "11jd"], True, 4, 2, 4, id="four-lone-rain-bright-with-shake"),
        pytest.param(["12g", "8g"], False, 4, 2, 4, id="four-rain-with-another-bright-paid"),
        pytest.param(["12g"], False, 5, 2, 2, id="five-rain-bright-paid"),
        pytest.param(["12g", "11jd"], False, 7, 2, 4, id="seven-rain-bright-paid"),
        pytest.param([], True, 4, 2, 0, id="shake-alone-pays-nothing"),
    ],
)
def test_claim(cards, shake, table_size, per_card, points):
    c = claim("D", cards, shake, table_size, Rules(sitter_pay_per_card=per_card))
    assert c.points == points


def test_lone_rain_bright_is_explained_in_the_trail():
    c = claim("D", ["12g", "9a"], False, 4, Rules())
    assert c.cards == ("9a",) and c.unpaid == ("12g",)
    assert [line["id"] for line in c.trail()] == ["gwangpalli_cards", "per_card", "rain_bright_only"]


@pytest.mark.parametrize(
    "carry, stacks, factor",
    [
        pytest.param(0, True, 1, id="no-nagari"),
        pytest.param(1, True, 2, id="one"),
        pytest.param(3, True, 8, id="three-stacked"),
        pytest.param(3, False, 2, id="three-not-stacked"),
    ],
)
def test_nagari_factor(carry, stacks, factor):
    assert nagari_factor(carry, Rules(nagari_carry_stacks=stacks)) == factor


# -- compensation in a series ---------------------------------------------------------


def _gwang(pairs):
    return [(e.payer, e.payee, e.points) for e in pairs if e.kind == "gwangpalli"]


def test_forced_sitter_paid_by_the_two_non_dealers_who_play():
    s = series("ABCD", [stop("B", choices=BC_PLAY, shown={"D": {"cards": ["1g", "3g"]}})])
    assert _gwang(s.ledger) == [("B", "D", 4), ("C", "D", 4)]
    assert s.balances == {"A": -3, "B": 2, "C": -7, "D": 8}
    assert s.deals[0].seating.sitting == {"D": "forced"}
    entry = s.to_json()["ledger"][-1]
    assert entry["kind"] == "gwangpalli" and entry["hand"] == 1
    assert [line["id"] for line in entry["trail"]] == ["gwangpalli_cards", "per_card"]


@pytest.mark.parametrize(
    "per_card, shake, each",
    [
        pytest.param(2, False, 4, id="2-a-card"),
        pytest.param(3, False, 6, id="3-a-card"),
        pytest.param(2, True, 8, id="2-a-card-shake"),
        pytest.param(3, True, 12, id="3-a-card-shake"),
    ],
)
def test_compensation_per_card_and_shake(per_card, shake, each):
    record = stop("A", choices=BC_PLAY, shown={"D": {"cards": ["1g", "3g"], "shake": shake}})
    s = series("ABCD", [record], rules={"options": {"sitter_pay_per_card": per_card}})
    assert _gwang(s.ledger) == [("B", "D", each), ("C", "D", each)]


@pytest.mark.parametrize(
    "table, choices, sitter, paid",
    [
        pytest.param("ABCD", BC_PLAY, "D", 2, id="four-lone-rain-bright-not-paid"),
        pytest.param("ABCDE", BC_PLAY, "D", 4, id="five-rain-bright-paid"),
    ],
)
def test_rain_bright_exception_only_with_four(table, choices, sitter, paid):
    shown = {sitter: {"cards": ["12g", "12jd"]}}
    s = series(table, [stop("A", choices=choices, shown=shown)])
    assert _gwang(s.ledger) == [("B", sitter, paid), ("C", sitter, paid)]


def test_voluntary_sitters_are_paid_nothing():
    shown = {"B": {"cards": ["1g", "3g", "8g"], "shake": True}, "E": {"cards": ["11g"]}}
    s = series("ABCDE", [stop("A", choices={"B": "sit", "C": "play", "D": "play"}, shown=shown)])
    assert s.deals[0].seating.sitting == {"B": "voluntary", "E": "forced"}
    assert _gwang(s.ledger) == [("C", "E", 2), ("D", "E", 2)]


def test_no_cards_shown_no_compensation():
    s = series("ABCD", [stop("A", choices=BC_PLAY)])
    assert _gwang(s.ledger) == []


def test_dealer_never_pays_compensation_wherever_they_sit():
    hands = [
        stop("B", choices=BC_PLAY),  # B wins and deals: C, D, A choose in turn
        stop("B", choices={"C": "play", "D": "play"}, shown={"A": {"cards": ["8g"]}}),
    ]
    s = series("ABCD", hands)
    assert s.deals[1].dealer == "B"
    assert s.deals[1].seating.players == ("B", "C", "D")
    assert _gwang(s.deals[1].entries) == [("C", "A", 2), ("D", "A", 2)]


def test_next_deal_tells_who_chooses():
    s = series("ABCDE", [stop("C", choices=BC_PLAY)])
    assert s.next.to_json()["choosers"] == ["D", "E", "A", "B"]
    assert s.setup({"D": "play", "E": "play"})["players"] == ["C", "D", "E"]


# -- paid at the end by the losers, deferred past a nagari ------------------------------

AT_END = {"options": {"sitter_paid_at_end": True}}


@pytest.mark.parametrize(
    "winner, payers",
    [
        pytest.param("A", ["B", "C"], id="dealer-wins-non-dealers-pay"),
        pytest.param("B", ["A", "C"], id="non-dealer-wins-dealer-and-other-pay"),
    ],
)
def test_paid_at_end_by_the_losers(winner, payers):
    record = stop(winner, choices=BC_PLAY, shown={"D": {"cards": ["1g", "3g"]}})
    s = series("ABCD", [record], rules=AT_END)
    assert _gwang(s.ledger) == [(p, "D", 4) for p in payers]
    assert "paid_by_loser" in [line["id"] for line in s.ledger[-1].trail]


@pytest.mark.parametrize(
    "options, nagaris, each",
    [
        pytest.param({"sitter_paid_at_end": True}, 1, 8, id="one-nagari-doubled"),
        pytest.param({"sitter_paid_at_end": True}, 2, 16, id="two-nagari-stacked"),
        pytest.param({"sitter_paid_at_end": True, "nagari_carry_stacks": False}, 2, 8, id="two-nagari-not-stacked"),
    ],
)
def test_paid_at_end_deferred_past_a_nagari_and_doubled(options, nagaris, each):
    first = nagari(choices=BC_PLAY, shown={"D": {"cards": ["1g", "3g"]}})
    hands = [first] + [nagari()] * (nagaris - 1) + [stop("B")]
    s = series("ABCD", hands, rules={"options": options})
    assert all(_gwang(d.entries) == [] for d in s.deals[:-1])
    assert s.deals[-1].seating.players == ("A", "B", "C")
    assert _gwang(s.deals[-1].entries) == [("A", "D", each), ("C", "D", each)]
    trail = [line for line in s.ledger[-1].trail if line["id"] == "nagari_deferred"]
    assert trail[0]["factor"] == each // 4


def test_pending_compensation_is_reported_until_paid():
    first = nagari(choices=BC_PLAY, shown={"D": {"cards": ["1g"]}})
    s = series("ABCD", [first], rules=AT_END)
    assert s.next.to_json()["pending_compensation"] == [{"index": 0, "sitter": "D", "points": 2}]
    s = s.append(void()).append(stop("C"))
    assert _gwang(s.ledger) == [("A", "D", 4), ("B", "D", 4)]
    assert s.next.pending == ()


def test_paid_at_once_a_nagari_does_not_defer():
    first = nagari(choices=BC_PLAY, shown={"D": {"cards": ["1g", "3g"]}})
    s = series("ABCD", [first, stop("B")])
    assert _gwang(s.deals[0].entries) == [("B", "D", 4), ("C", "D", 4)]
    assert _gwang(s.deals[1].entries) == []


# -- after a nagari the same three play again -----------------------------------------


def test_same_three_after_a_nagari_then_choose_again():
    hands = [nagari(choices={"B": "sit"}), stop("C"), stop("D", choices={"D": "play", "A": "play"})]
    s = series("ABCD", hands)
    assert [d.seating.players for d in s.deals] == [("A", "C", "D"), ("A", "C", "D"), ("A", "C", "D")]
    assert [d.dealer for d in s.deals] == ["A", "A", "C"]
    assert s.deals[2].seating.sitting == {"B": "forced"}


@pytest.mark.parametrize(
    "key, value",
    [
        pytest.param("choices", {"B": "play", "C": "play"}, id="choices"),
        pytest.param("shown", {"D": {"cards": ["1g"]}}, id="shown"),
    ],
)
def test_no_choosing_after_a_nagari(key, value):
    with pytest.raises(EngineError) as err:
        series("ABCD", [nagari(choices=BC_PLAY), stop("B", **{key: value})])
    assert err.value.code == "choices_after_nagari"
    assert err.value.errors[0]["path"] == f"hands[1].{key}"


def test_void_deal_pays_no_compensation_and_is_chosen_again():
    hands = [void(choices=BC_PLAY, shown={"D": {"cards": ["1g", "3g"]}}), stop("A", choices={"B": "sit"})]
    s = series("ABCD", hands)
    assert s.ledger and _gwang(s.ledger) == []
    assert s.deals[1].seating.players == ("A", "C", "D")


# -- refusals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, code, path",
    [
        pytest.param(stop("A"), "missing_choice", "choices", id="no-choices-at-four"),
        pytest.param(
            stop("A", choices={"B": "play", "C": "play", "D": "play"}), "choice_order", "choices.D", id="bad-order"
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"B": {"cards": ["1g"]}}), "bad_shown", "shown.B", id="a-player-shows"
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"Z": {"cards": ["1g"]}}), "unknown_player", "shown.Z", id="not-at-table"
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"D": {"cards": ["1j1"]}}),
            "bad_shown",
            "shown.D.cards[0]",
            id="plain-junk-not-shown",
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"D": {"cards": ["9r"]}}),
            "bad_shown",
            "shown.D.cards[0]",
            id="ribbon-not-shown",
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"D": {"cards": ["1q"]}}),
            "unknown_card",
            "shown.D.cards[0]",
            id="unknown-card",
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"D": {"cards": ["1g", "1g"]}}),
            "card_twice",
            "shown.D.cards[1]",
            id="card-twice",
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"D": {"cards": ["bp"]}}),
            "bonus_not_in_rules",
            "shown.D.cards[0]",
            id="joker-not-in-rules",
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"D": {"cards": ["b2", "b2"]}}),
            "card_twice",
            "shown.D.cards[1]",
            id="more-jokers-than-the-deck",
        ),
        pytest.param(stop("A", choices=BC_PLAY, shown={"D": ["1g"]}), "bad_shown", "shown.D", id="not-an-object"),
        pytest.param(
            stop("A", choices=BC_PLAY, shown={"D": {"cards": ["1g"], "shake": "yes"}}),
            "bad_shown",
            "shown.D",
            id="shake-not-a-flag",
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, captures={"A": ["1r", "2r", "3r"], "D": ["1j1"]}),
            "unknown_player",
            "summary.captures.D",
            id="sitter-captures",
        ),
        pytest.param(
            stop("A", choices=BC_PLAY, players=["A", "B", "D"]),
            "hand_players_mismatch",
            "summary.players",
            id="players-not-who-plays",
        ),
    ],
)
def test_gwangpalli_refused(record, code, path):
    with pytest.raises(EngineError) as err:
        series("ABCD", [record])
    assert err.value.code == code
    assert err.value.errors[0]["path"] == f"hands[0].{path}"


def test_shown_cards_unique_across_sitters():
    shown = {"D": {"cards": ["1g"]}, "E": {"cards": ["1g"]}}
    with pytest.raises(EngineError) as err:
        series("ABCDE", [stop("A", choices=BC_PLAY, shown=shown)])
    assert err.value.code == "card_twice"
