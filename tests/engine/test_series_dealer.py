"""선 The draw for the first dealer and the turn order (rules.md §10)."""

from __future__ import annotations

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.series import series_from_document
from scorekeeper.engine.series.dealer import draw_for_dealer, draw_rank, next_dealer, play_order

ABC = ["A", "B", "C"]


@pytest.mark.parametrize(
    "time, cards, dealer",
    [
        pytest.param("night", {"A": "3g", "B": "1j1", "C": "5a"}, "B", id="night-earliest-month"),
        pytest.param("night", {"A": "1g", "B": "1j1", "C": "1r"}, "B", id="night-tie-junk-lowest"),
        pytest.param("night", {"A": "2a", "B": "2r", "C": "5j1"}, "B", id="night-tie-ribbon-below-animal"),
        pytest.param("night", {"A": "8g", "B": "8a", "C": "9a"}, "B", id="night-tie-animal-below-bright"),
        pytest.param("day", {"A": "12jd", "B": "11g", "C": "3g"}, "A", id="day-latest-month"),
        pytest.param("day", {"A": "12jd", "B": "12g", "C": "12a"}, "B", id="day-tie-bright-highest"),
        pytest.param("day", {"A": "12r", "B": "12a", "C": "1g"}, "B", id="day-tie-animal-above-ribbon"),
        pytest.param("day", {"A": "10r", "B": "10j2", "C": "2a"}, "A", id="day-tie-ribbon-above-junk"),
    ],
)
def test_draw(time, cards, dealer):
    assert draw_for_dealer(ABC, time, [cards]).dealer == dealer


def test_draw_with_seven_players():
    cards = {"A": "4a", "B": "7r", "C": "2r", "D": "2j1", "E": "9a", "F": "12g", "G": "6a"}
    players = list(cards)
    assert draw_for_dealer(players, "night", [cards]).dealer == "D"
    assert draw_for_dealer(players, "day", [cards]).dealer == "F"


@pytest.mark.parametrize(
    "time, first, redraws, dealer",
    [
        pytest.param(
            "night",
            {"A": "1j1", "B": "1j2", "C": "4a"},
            [{"A": "5a", "B": "3g"}],
            "B",
            id="two-junk-of-a-month-draw-again",
        ),
        pytest.param(
            "day",
            {"A": "11j1", "B": "11jd", "C": "11j2"},
            [{"A": "2r", "B": "2a", "C": "2j1"}],
            "B",
            id="double-junk-is-still-junk",
        ),
        pytest.param(
            "night",
            {"A": "1j1", "B": "1j2", "C": "4a"},
            [{"A": "5j1", "B": "5j2"}, {"A": "6a", "B": "7a"}],
            "A",
            id="tied-twice",
        ),
    ],
)
def test_draw_again_after_a_tie(time, first, redraws, dealer):
    draw = draw_for_dealer(ABC, time, [first, *redraws])
    assert draw.dealer == dealer
    assert draw.to_json()["redraws"] == redraws


@pytest.mark.parametrize(
    "time, rounds, code, path",
    [
        pytest.param("noon", [{"A": "1g", "B": "2a", "C": "3g"}], "bad_draw", "draw.time", id="bad-time"),
        pytest.param("night", [{"A": "1g", "B": "2a"}], "bad_draw", "draw.cards", id="a-player-missing"),
        pytest.param(
            "night", [{"A": "1g", "B": "2a", "C": "3g", "D": "4a"}], "bad_draw", "draw.cards", id="someone-else-drew"
        ),
        pytest.param("night", [["1g", "2a", "3g"]], "bad_draw", "draw.cards", id="not-an-object"),
        pytest.param("night", [{"A": "1g", "B": "2x", "C": "3g"}], "unknown_card", "draw.cards.B", id="unknown-card"),
        pytest.param("night", [{"A": "1g", "B": "b2", "C": "3g"}], "bad_draw", "draw.cards.B", id="a-joker"),
        pytest.param("night", [{"A": "1g", "B": "1g", "C": "3g"}], "card_twice", "draw.cards.B", id="same-card"),
        pytest.param("night", [{"A": "1j1", "B": "1j2", "C": "3g"}], "draw_tie", "draw.redraws", id="tie-unresolved"),
        pytest.param(
            "night",
            [{"A": "1j1", "B": "1j2", "C": "3g"}, {"A": "2a", "C": "3g"}],
            "bad_draw",
            "draw.redraws[0]",
            id="redraw-by-the-wrong-players",
        ),
        pytest.param(
            "night",
            [{"A": "1g", "B": "2a", "C": "3g"}, {"A": "2a"}],
            "bad_draw",
            "draw.redraws[0]",
            id="redraw-after-a-winner",
        ),
    ],
)
def test_draw_refused(time, rounds, code, path):
    with pytest.raises(EngineError) as err:
        draw_for_dealer(ABC, time, rounds)
    assert err.value.code == code
    assert err.value.errors[0]["path"] == path


def test_night_and_day_rank_are_reversed():
    assert draw_rank("1j1", "night") > draw_rank("1r", "night") > draw_rank("12g", "night")
    assert draw_rank("12g", "day") > draw_rank("12a", "day") > draw_rank("1j1", "day")


def test_draw_in_a_series_document_sets_the_first_dealer():
    doc = {"players": ABC, "draw": {"time": "night", "cards": {"A": "3g", "B": "1j1", "C": "1r"}}, "hands": []}
    s = series_from_document(doc)
    assert s.next.dealer == "B"
    assert s.to_json()["draw"] == {
        "time": "night",
        "cards": {"A": "3g", "B": "1j1", "C": "1r"},
        "redraws": [],
        "dealer": "B",
    }
    doc["first_dealer"] = "B"  # the same dealer, said twice: accepted
    assert series_from_document(doc).next.dealer == "B"


@pytest.mark.parametrize(
    "players, dealer, order",
    [
        pytest.param("AB", "B", "BA", id="two"),
        pytest.param("ABC", "A", "ABC", id="three-first"),
        pytest.param("ABC", "C", "CAB", id="three-last"),
        pytest.param("ABCDEFG", "E", "EFGABCD", id="seven"),
    ],
)
def test_play_order_goes_to_the_right(players, dealer, order):
    assert play_order(list(players), dealer) == tuple(order)


@pytest.mark.parametrize(
    "winners, dealer, expected",
    [
        pytest.param((), "B", "B", id="no-winner-same-dealer"),
        pytest.param(("C",), "B", "C", id="the-winner"),
        pytest.param(("A", "C"), "B", "C", id="two-winners-first-after-the-dealer"),
        pytest.param(("A", "B", "C"), "B", "B", id="three-chongtong-dealer-keeps"),
    ],
)
def test_next_dealer(winners, dealer, expected):
    assert next_dealer(ABC, dealer, winners) == expected
