"""족보: every scoring combination and every scoring option, as a table of cases."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import scoring
from scorekeeper.engine.cards import CARDS, DECK, KINDS, month_cards
from scorekeeper.engine.combinations import COMBINATION_RECORDS
from scorekeeper.engine.rules import Rules, rules_from
from scorekeeper.engine.scoring import all_scores, best_score, pile, score

PAGAT = Rules()
TEN_JUNK = "1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1 5j2"


def lines(cards: str, rules: Rules = PAGAT, extra_junk: int = 0) -> dict[str, int]:
    s = best_score(cards.split(), rules, extra_junk)
    return {line.id: line.points for line in s.lines}


@pytest.mark.parametrize(
    "cards, rules, expected",
    [
        pytest.param("1g 3g", PAGAT, {}, id="two-brights-nothing"),
        pytest.param("1g 3g 8g", PAGAT, {"three_brights": 3}, id="three-brights"),
        pytest.param("1g 3g 12g", PAGAT, {"rain_three_brights": 2}, id="three-brights-with-rain"),
        pytest.param("1g 3g 8g 11g", PAGAT, {"four_brights": 4}, id="four-brights"),
        pytest.param("1g 3g 8g 12g", PAGAT, {"four_brights": 4}, id="four-brights-with-rain"),
        pytest.param(
            "1g 3g 8g 12g", Rules(four_brights_with_rain=3), {"four_brights": 3}, id="four-with-rain-option-3"
        ),
        pytest.param(
            "1g 3g 8g 11g", Rules(four_brights_with_rain=3), {"four_brights": 4}, id="four-without-rain-option"
        ),
        pytest.param("1g 3g 8g 11g 12g", PAGAT, {"five_brights": 15}, id="five-brights"),
        pytest.param("1g 3g 8g 11g 12g", Rules(five_brights=30), {"five_brights": 30}, id="five-brights-option"),
        pytest.param("2a 4a 8a", PAGAT, {"godori": 5}, id="godori"),
        pytest.param("2a 4a 8a", Rules(godori=3), {"godori": 3}, id="godori-option-3"),
        pytest.param("2a 4a 12a", PAGAT, {}, id="swallow-is-no-bird-by-default"),
        pytest.param("2a 4a 12a", Rules(four_birds=True), {"bidori": 4}, id="bidori"),
        pytest.param("2a 4a 8a 12a", Rules(four_birds=True), {"yukdori": 6}, id="yukdori"),
        pytest.param("2a 4a 8a", Rules(four_birds=True), {"godori": 5}, id="four-bird-rule-godori-without-swallow"),
        pytest.param("5a 6a 7a 10a", PAGAT, {}, id="four-animals-nothing"),
        pytest.param("5a 6a 7a 10a 12a", PAGAT, {"animals": 1}, id="five-animals"),
        pytest.param("2a 4a 8a 5a 6a 7a", PAGAT, {"animals": 2, "godori": 5}, id="six-animals-with-godori-pagat-7"),
        pytest.param("1r 2r 3r", PAGAT, {"hong_dan": 3}, id="hong-dan"),
        pytest.param("6r 9r 10r", PAGAT, {"cheong_dan": 3}, id="cheong-dan"),
        pytest.param("4r 5r 7r", PAGAT, {"cho_dan": 3}, id="cho-dan"),
        pytest.param("4r 5r 12r", PAGAT, {}, id="rain-ribbon-is-no-cho-dan"),
        pytest.param("1r 2r 4r 5r 12r", PAGAT, {"ribbons": 1}, id="five-ribbons-with-rain"),
        pytest.param("1r 2r 4r 5r 12r", rules_from("encyclopedia"), {}, id="encyclopedia-rain-ribbon-not-counted"),
        pytest.param(
            "1r 2r 3r 6r 9r 10r",
            PAGAT,
            {"ribbons": 2, "hong_dan": 3, "cheong_dan": 3},
            id="six-ribbons-two-sets-encyclopedia-8",
        ),
        pytest.param(
            "12r 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1",
            rules_from("encyclopedia"),
            {"junk": 1},
            id="encyclopedia-rain-ribbon-is-junk",
        ),
        pytest.param("12r 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1", PAGAT, {}, id="pagat-rain-ribbon-is-no-junk"),
        pytest.param(TEN_JUNK, PAGAT, {"junk": 1}, id="ten-junk"),
        pytest.param("1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1", PAGAT, {}, id="nine-junk"),
        pytest.param("1j1 2j1 3j1 4j1 5j1 6j1 7j1 11jd 12jd", PAGAT, {"junk": 2}, id="double-junk-count-two"),
        pytest.param("1j1 2j1 3j1 4j1 5j1 b2 b3", PAGAT, {"junk": 1}, id="bonus-cards-two-and-three"),
        pytest.param(
            "1j1",
            PAGAT,
            {"junk": 3},
            id="unlisted-junk-as-a-number",
        ),
    ],
)
def test_combinations(cards, rules, expected):
    extra = 11 if cards == "1j1" else 0
    assert lines(cards, rules, extra) == expected


@pytest.mark.parametrize(
    "cards, rules, as_junk, expected",
    [
        pytest.param("9a 5a 6a 7a 10a", PAGAT, False, {"animals": 1}, id="cup-as-animal-makes-five"),
        pytest.param("9a 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2", PAGAT, True, {"junk": 1}, id="cup-as-double-junk-makes-ten"),
        pytest.param(
            "9a 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2", Rules(cup_junk_value=1), False, {}, id="cup-as-one-junk-variant"
        ),
        pytest.param(
            "9a 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1",
            Rules(cup_junk_value=1),
            True,
            {"junk": 1},
            id="cup-as-one-junk-makes-ten",
        ),
        pytest.param("9a 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2", Rules(cup_flexible=False), False, {}, id="cup-fixed-animal"),
        pytest.param("5a 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2", PAGAT, False, {}, id="bridge-plain-animal-pagat"),
        pytest.param(
            "5a 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2", rules_from("ogb-matgo"), True, {"junk": 1}, id="bridge-flexible-ogb"
        ),
    ],
)
def test_flexible_cards_counted_to_the_owners_advantage(cards, rules, as_junk, expected):
    s = best_score(cards.split(), rules)
    assert {line.id: line.points for line in s.lines} == expected
    flex = "9a" if "9a" in cards else "5a"
    assert (s.counted_as.get(flex) == "junk") is as_junk


def test_cup_never_counts_twice():
    """The cup is an animal or junk, never both (pagat)."""
    cards = ["9a", "5a", "6a", "7a", "10a", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2"]
    ways = all_scores(cards, PAGAT)
    assert sorted((s.pile.animals.bit_count(), s.pile.junk_value) for s in ways) == [(4, 10), (5, 8)]
    # as animal: 5 animals = 1; as junk: 10 junk = 1. Best is either; never 2.
    assert best_score(cards, PAGAT).points == 1


@pytest.mark.parametrize(
    "cards, rules, points, toward",
    [
        pytest.param("9a 11jd 12jd", Rules(vip=True), 3, 0, id="vip-not-toward-target"),
        pytest.param("9a 11jd 12jd", PAGAT, 0, 0, id="vip-off"),
        pytest.param("4a 4r 4j1 4j2 7a 7r 7j1 7j2", Rules(palssari=True), 8, 0, id="palssari-not-toward-target"),
        pytest.param("4a 4r 4j1 4j2 7a 7r 7j1 7j2", PAGAT, 0, 0, id="palssari-off"),
    ],
)
def test_points_outside_the_target(cards, rules, points, toward):
    s = best_score(cards.split(), rules)
    assert (s.points, s.toward_target) == (points, toward)


def test_vip_needs_the_cup_counted_as_junk():
    s = max(all_scores(["9a", "11jd", "12jd"], Rules(vip=True)), key=lambda s: s.points)
    assert s.counted_as == {"9a": "junk"}


def test_deck_composition():
    kinds = [c.kind for c in DECK]
    assert [kinds.count(k) for k in KINDS] == [5, 9, 10, 24]
    assert all(len(month_cards(m)) == 4 for m in range(1, 13))
    assert sum(c.junk for c in DECK) == 26  # every junk card, two of them double
    assert {c.code for c in DECK if c.bird} == {"2a", "4a", "8a"}
    assert CARDS["11jd"].junk == CARDS["12jd"].junk == CARDS["b2"].junk == 2
    assert CARDS["b3"].junk == 3


def test_pile_counts_bonus_card_copies():
    p = pile(["b2", "b2", "1j1"], Rules(bonus_two_junk=2))
    assert p.junk_value == 5 and p.bonus == ("b2", "b2")


def test_whole_deck_scores_every_set():
    s = score(pile([c.code for c in DECK]), PAGAT)
    assert {line.id for line in s.lines} == {
        "five_brights",
        "animals",
        "godori",
        "ribbons",
        "hong_dan",
        "cheong_dan",
        "cho_dan",
        "junk",
    }


# -- the gates and the remembered lines of ``score`` never change what the units find ----------------


GATE_RULES = [
    Rules(),
    Rules(four_birds=True),
    Rules(rain_ribbon_counts=False),
    Rules(godori=0),
    Rules(vip=True, palssari=True),
    Rules(bridge_flexible=True),
    # Rules that differ in an option a masked run reads (``Combination.reads``), and in one it does not:
    # each must find its own lines, whatever another rules object met first.
    Rules(five_brights=20, four_brights_with_rain=2),
    Rules(godori=10, four_birds=True),
    Rules(godori=10, tti_bak=True),
]


def every_unit(p, rules: Rules) -> list[tuple]:
    """What each combination's unit finds in ``p``, every unit asked (the units check their own options)."""
    return [hit for c in COMBINATION_RECORDS if (hit := c.unit(p, rules)) and hit[1]]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([c.code for c in DECK]), unique=True, max_size=16),
    st.sampled_from(GATE_RULES),
    st.sampled_from([0, 3, 8]),
)
def test_the_gates_and_remembered_lines_never_change_a_line(cards, rules, extra):
    # The rules objects are shared by every example, so the lines remembered for one pile's
    # brights, animals or ribbons are met again in piles that differ in everything else.
    base = pile(cards, rules, extra)
    for way in (0, scoring.B_CUP, scoring.B_BRIDGE, scoring.B_CUP | scoring.B_BRIDGE):
        p = scoring.counted_as_junk(base, way & base.mask, rules)
        assert [(*line[:2], line.cards) for line in score(p, rules).lines] == every_unit(p, rules)


def test_combinations_read_only_the_scoring_options():
    """``scoring.score`` shares what it learnt of a pile between rules that agree on the "scoring"
    options (a batch of summaries each with options of its own): that holds only while no
    combination reads an option of another group. Every combination is asked about piles of every
    kind under a recording stand-in for the rules."""
    import random

    from scorekeeper.engine.cards import DECK
    from scorekeeper.engine.combinations import COMBINATION_RECORDS
    from scorekeeper.engine.piles import pile
    from scorekeeper.engine.rules import PRESETS
    from scorekeeper.engine.scoring import SCORING_OPTIONS

    read: set[str] = set()

    class Recording:
        def __init__(self, rules):
            self._rules = rules

        def __getattr__(self, name):
            read.add(name)
            return getattr(self._rules, name)

    rng = random.Random(7)
    codes = [c.code for c in DECK]
    for _ in range(400):
        rules = rng.choice(list(PRESETS.values()))
        p = pile(rng.sample(codes, rng.randint(0, 24)), rules)
        for record in COMBINATION_RECORDS:
            record.unit(p, Recording(rules))
    assert read and read <= set(SCORING_OPTIONS), read - set(SCORING_OPTIONS)


@pytest.mark.parametrize("record", COMBINATION_RECORDS, ids=lambda c: c.id)
def test_each_combination_reads_only_the_options_it_declares(record):
    """``scoring.score`` shares a run's lines by mask between rules that agree on what its units read
    (``Combination.reads``): each unit is asked about piles of every kind, under every preset and
    with its flags on, through a recording stand-in for the rules."""
    import random

    from scorekeeper.engine.cards import DECK
    from scorekeeper.engine.rules import PRESETS

    read: set[str] = set()

    class Recording:
        def __init__(self, rules):
            self._rules = rules

        def __getattr__(self, name):
            read.add(name)
            return getattr(self._rules, name)

    rng = random.Random(11)
    codes = [c.code for c in DECK]
    every = [*PRESETS.values(), Rules(four_birds=True, vip=True, palssari=True)]
    for _ in range(600):
        rules = rng.choice(every)
        p = pile(rng.sample(codes, rng.randint(0, 30)), rules, as_junk=rng.choice([(), ["9a"]]))
        record.unit(p, Recording(rules))
    assert read <= set(record.reads), read - set(record.reads)
