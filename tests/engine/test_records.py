"""The records a docs generator reads: scoring combinations and doubles, one record each."""

import dataclasses

import pytest

from scorekeeper.engine.cards import ANIMAL, BONUS, BRIGHT, JUNK, RIBBON
from scorekeeper.engine.combinations import COMBINATION_RECORDS
from scorekeeper.engine.doubles import DOUBLES
from scorekeeper.engine.rules import Rules
from scorekeeper.engine.scoring import LINE_LABELS, pile, score
from scorekeeper.engine.trail import STEP_LABELS

OPTIONS = {f.name for f in dataclasses.fields(Rules)}


@pytest.mark.parametrize("records", [COMBINATION_RECORDS, DOUBLES], ids=["combinations", "doubles"])
def test_each_record_has_a_distinct_id_both_labels_and_a_real_option(records):
    assert len({r.id for r in records}) == len(records)
    for r in records:
        assert r.ko.strip() and r.en.strip() and r.label == f"{r.ko} {r.en}"
        assert r.option is None or r.option in OPTIONS
        assert callable(r.unit)


def test_the_labels_of_score_lines_and_trail_steps_come_from_the_records():
    assert {c.id: c.label for c in COMBINATION_RECORDS} == LINE_LABELS
    assert all(STEP_LABELS[d.id] == d.label for d in DOUBLES)


def test_combination_categories_are_card_kinds():
    assert {c.category for c in COMBINATION_RECORDS} <= {BRIGHT, ANIMAL, RIBBON, JUNK, BONUS}


@pytest.mark.parametrize("record", COMBINATION_RECORDS, ids=lambda c: c.id)
def test_a_combination_answers_its_own_id(record):
    """Each unit, given a pile holding its combination, answers a line with the record's id."""
    examples = {
        "five_brights": "1g 3g 8g 11g 12g",
        "four_brights": "1g 3g 8g 11g",
        "three_brights": "1g 3g 8g",
        "rain_three_brights": "1g 3g 12g",
        "animals": "2a 4a 5a 6a 7a",
        "godori": "2a 4a 8a",
        "yukdori": "2a 4a 8a 12a",
        "bidori": "2a 4a 12a",
        "ribbons": "1r 2r 4r 5r 6r",
        "hong_dan": "1r 2r 3r",
        "cheong_dan": "6r 9r 10r",
        "cho_dan": "4r 5r 7r",
        "junk": "1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1 5j2",
        "vip": "9a 11jd 12jd",
        "palssari": "4a 4r 4j1 4j2 7a 7r 7j1 7j2",
    }
    rules = Rules(four_birds=True, vip=True, palssari=True)
    p = pile(examples[record.id].split(), rules, as_junk=["9a"] if record.id == "vip" else ())
    hit = record.unit(p, rules)
    assert hit is not None and hit[0] == record.id
    assert record.id in [line.id for line in score(p, rules).lines]
