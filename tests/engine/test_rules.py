"""규칙: the presets of rules.md §14, cell by cell, and checking of option overrides."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.rules import OPTIONS, PRESETS, Rules, changed_options, find_preset, rules_from

# rules.md §14, one row per option: (option, pagat, ogb-matgo, encyclopedia, korean-common)
TABLE = [
    ("target_two_players", 7, 7, 7, 7),
    ("target_three_players", 3, 3, 3, 3),
    ("four_brights_with_rain", 4, 4, 4, 4),
    ("five_brights", 15, 15, 15, 15),
    ("godori", 5, 5, 5, 5),
    ("rain_ribbon_counts", True, True, False, True),
    ("bridge_flexible", False, True, True, False),
    ("go_bonus", "plus_two_kept", "plus_two_kept", "plus_two_kept", "plus_one_each"),
    ("go_doubling", "double_per_go", "double_per_go", "go_minus_one", "double_per_go"),
    ("point_multiplier", 1, 1, 1, 1),
    ("bomb_doubles", False, False, False, True),
    ("bomb_takes_junk", False, True, True, True),
    ("pi_bak_two_players", 5, 6, 6, 8),
    ("pi_bak_three_players", 5, 6, 6, 6),
    ("pi_bak_exempt_no_junk", False, False, False, True),
    ("meong_dda", "every_loser", "every_loser", "off", "every_loser"),
    ("go_bak_two_players", False, True, True, True),
    ("go_bak_three_players", "dok_bak", "dok_bak", "double_own", "dok_bak"),
    ("nagari_carry_stacks", True, True, True, True),
    ("chongtong", 5, 50, 5, 10),
    ("three_ppuk", 5, 50, 0, 10),
    ("first_turn_ppuk", 3, 0, 0, 3),
]
NAMES = ("pagat", "ogb-matgo", "encyclopedia", "korean-common")


@pytest.mark.parametrize("preset", NAMES)
@pytest.mark.parametrize("row", TABLE, ids=[row[0] for row in TABLE])
def test_preset_matches_rules_table(preset, row):
    assert getattr(find_preset(preset), row[0]) == row[1 + NAMES.index(preset)]


def test_pagat_is_the_default():
    assert rules_from() == Rules() == PRESETS["pagat"]


def test_every_option_has_bilingual_label_and_group():
    for name, spec in OPTIONS.items():
        assert spec.metadata["ko"] and spec.metadata["en"] and spec.metadata["group"], name


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().five_brights = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    "preset, options, code",
    [
        pytest.param("hwatu", {}, "unknown_preset", id="unknown-preset"),
        pytest.param(None, {}, "unknown_preset", id="null-preset"),
        pytest.param(["pagat"], {}, "unknown_preset", id="list-preset-no-overrides"),
        pytest.param({"name": "pagat"}, None, "unknown_preset", id="object-preset-no-overrides"),
        pytest.param("pagat", {"five_bright": 20}, "unknown_option", id="misspelt-option"),
        pytest.param("pagat", {"five_brights": "20"}, "bad_option", id="number-as-string"),
        pytest.param("pagat", {"five_brights": True}, "bad_option", id="bool-for-number"),
        pytest.param("pagat", {"five_brights": 10_000}, "bad_option", id="out-of-range"),
        pytest.param("pagat", {"tti_bak": 1}, "bad_option", id="number-for-flag"),
        pytest.param("pagat", {"go_bonus": "plus_three"}, "bad_option", id="unknown-choice"),
        pytest.param("pagat", {"go_bonus": ["x"]}, "bad_option", id="list-value"),
        pytest.param("pagat", ["five_brights"], "bad_option", id="options-not-an-object"),
    ],
)
def test_bad_rules_are_refused_with_a_code(preset, options, code):
    with pytest.raises(EngineError) as err:
        rules_from(preset, options)
    assert err.value.code == code


def test_overrides_apply_and_are_reported_as_changes():
    rules = rules_from("korean-common", {"five_brights": 20, "tti_bak": True})
    assert rules.five_brights == 20 and rules.go_bonus == "plus_one_each"
    assert changed_options(rules, "korean-common") == {"five_brights": 20, "tti_bak": True}


def test_target_and_pi_bak_threshold_by_player_count():
    r = find_preset("korean-common")
    assert (r.target(2), r.target(3)) == (7, 3)
    assert (r.pi_bak_threshold(2), r.pi_bak_threshold(3)) == (8, 6)


def _valid_values(spec: dataclasses.Field) -> st.SearchStrategy:
    """Every value an option takes: a flag, a whole number within its bounds, or one of its choices."""
    meta = spec.metadata
    if isinstance(spec.default, bool):
        return st.booleans()
    if isinstance(spec.default, int):
        return st.integers(meta["lo"], meta["hi"])
    return st.sampled_from(meta["choices"])


@given(
    preset=st.sampled_from(NAMES),
    options=st.dictionaries(st.sampled_from(sorted(OPTIONS)), st.none(), max_size=8).flatmap(
        lambda names: st.fixed_dictionaries({name: _valid_values(OPTIONS[name]) for name in names})
    ),
)
@settings(max_examples=300, deadline=None)
def test_overrides_build_what_dataclasses_replace_builds(preset, options):
    """``rules_from`` builds its rules without the dataclass's ``__init__``: every field as
    ``dataclasses.replace`` would set it, equal and hashed alike."""
    rules = rules_from(preset, options)
    expected = dataclasses.replace(find_preset(preset), **options)
    assert rules == expected and hash(rules) == hash(expected)
    assert all(getattr(rules, name) == getattr(expected, name) for name in OPTIONS)
    assert changed_options(rules, preset) == changed_options(expected, preset)


def test_a_number_for_a_flag_is_refused_after_the_flag_was_remembered():
    """1 == True, but the remembered rules are keyed by the value's type too."""
    assert rules_from("pagat", {"tti_bak": True}).tti_bak is True
    with pytest.raises(EngineError) as err:
        rules_from("pagat", {"tti_bak": 1})
    assert err.value.code == "bad_option"
