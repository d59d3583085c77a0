"""Every id the engine answers has its words in the catalogue, in Korean and English, and where the
engine's records carry the words themselves (a score line, a double, a trail step, a preset) the
catalogue says the same: one source per label, so a page and the engine's JSON never drift apart."""

from __future__ import annotations

import pytest

from scorekeeper.engine.combinations import COMBINATION_RECORDS
from scorekeeper.engine.doubles import DOUBLES
from scorekeeper.engine.errors import ERROR_CODES
from scorekeeper.engine.rules import CHOICE_LABELS, OPTIONS, PRESET_WORDS, PRESETS
from scorekeeper.engine.series.gwangpalli import LABELS as GWANGPALLI_LABELS
from scorekeeper.engine.series.model import KIND_LABELS
from scorekeeper.engine.summary.facts import FIXED_KINDS
from scorekeeper.engine.trail import NOTE_LABELS, STEP_LABELS, STEP_WORDS
from scorekeeper.web.catalogue.messages import MESSAGES


def _ids() -> list[str]:
    keys = [f"line_{c.id}" for c in COMBINATION_RECORDS]
    keys += [f"step_{d.id}" for d in DOUBLES]
    keys += [f"step_{s}" for s in STEP_LABELS]  # every trail step: the doubles' and the others
    keys += [f"step_{s}" for s in GWANGPALLI_LABELS]
    keys += [f"step_{k}" for k in (*FIXED_KINDS, "chongtong", "three_ppuk")]  # the fixed payments
    keys += [f"note_{n}" for n in NOTE_LABELS]
    keys += [f"kind_{k}" for k in KIND_LABELS]
    keys += [f"choice_{c}" for c in CHOICE_LABELS]
    keys += [f"preset_{p}" for p in PRESETS]
    return sorted(set(keys))


@pytest.mark.parametrize("key", _ids())
def test_every_engine_id_has_its_words_in_both_languages(key):
    ko, en = MESSAGES.get(key, ("", ""))
    assert ko and en


@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_every_refusal_code_has_its_korean(code):
    """English shows the engine's own sentence (it names the card or the player); Korean reads the catalogue."""
    assert MESSAGES.get(f"refuse_{code}", ("", ""))[0]


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_every_option_carries_both_labels(name):
    meta = OPTIONS[name].metadata
    assert meta["ko"] and meta["en"]
    for choice in meta["choices"] or ():
        assert choice in CHOICE_LABELS


@pytest.mark.parametrize(
    ("key", "words"),
    sorted(
        [(f"line_{c.id}", (c.ko, c.en)) for c in COMBINATION_RECORDS]
        + [(f"step_{d.id}", (d.ko, d.en)) for d in DOUBLES]
        + [(f"step_{s}", w) for s, w in STEP_WORDS.items()]
        + [(f"preset_{p}", w) for p, w in PRESET_WORDS.items()]
    ),
)
def test_the_catalogue_says_what_the_engine_says(key, words):
    assert MESSAGES.get(key) == words
