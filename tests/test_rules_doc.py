"""Issue 9: the project's rules reference stays true to the engine.

The card list and the option tables of ``scorekeeper/docs/rules.md`` are generated from the
engine's data; the committed file must be exactly what the generator writes, and an option the
engine gains must show up as a failure until the reference describes it.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from scorekeeper import rules_reference
from scorekeeper.cli import main
from scorekeeper.engine.cards import BONUS_CARDS, DECK
from scorekeeper.engine.rules import CHOICE_LABELS, PRESETS, Rules, option

TEXT = rules_reference.DOC.read_text(encoding="utf-8")


def test_the_committed_reference_is_what_the_generator_writes():
    assert rules_reference.rewrite(TEXT) == TEXT, "run `scorekeeper rules-doc` and commit scorekeeper/docs/rules.md"
    assert rules_reference.problems(TEXT) == []


def test_every_option_every_card_and_every_choice_is_in_the_reference():
    assert [f.name for f in dataclasses.fields(Rules) if f"`{f.name}`" not in TEXT] == []
    assert [c.code for c in (*DECK, *BONUS_CARDS.values()) if f"`{c.code}`" not in TEXT] == []
    assert [label for label in CHOICE_LABELS.values() if label not in TEXT] == []
    assert [name for name in PRESETS if f"`{name}`" not in TEXT] == []


def test_an_option_the_reference_lacks_is_reported():
    @dataclasses.dataclass(frozen=True)
    class MoreRules(Rules):
        wild_swallow: bool = option(False, "제비 조커", "The swallow is wild", "scoring")

    fields = dataclasses.fields(MoreRules)
    found = rules_reference.problems(
        TEXT, fields=fields, sections={"options": lambda: rules_reference.render_options(fields)}
    )
    assert "option 'wild_swallow' is not in the reference" in found
    assert "section 'options' is stale: run `scorekeeper rules-doc`" in found
    # Regenerating adds its row (with the value each preset gives it, the default): the table is fixed.
    fixed = rules_reference.rewrite(TEXT, {"options": lambda: rules_reference.render_options(fields)})
    assert "| `wild_swallow` | 제비 조커 · The swallow is wild | yes / no | no | no | no | no | no |" in fixed


def test_a_preset_value_that_differs_from_the_default_is_bold():
    rows = {line.split(" | ")[0]: line for line in TEXT.splitlines() if line.startswith("| `")}
    assert rows["| `go_bonus`"].endswith(
        "| `plus_two_kept` | `plus_two_kept` | `plus_two_kept` | **`plus_one_each`** |"
    )
    assert "| 5 | 5 | **6** | **6** | **8** |" in rows["| `pi_bak_two_players`"]


@pytest.mark.parametrize("section", sorted(rules_reference.SECTIONS))
def test_check_fails_on_a_stale_or_missing_section(tmp_path, capsys, section):
    stale = tmp_path / "rules.md"
    block = re.compile(
        re.escape(rules_reference.begin_marker(section)) + r"\n.*?" + re.escape(rules_reference.end_marker(section)),
        re.DOTALL,
    )
    stale.write_text(
        block.sub(lambda m: f"{rules_reference.begin_marker(section)}\n{rules_reference.end_marker(section)}", TEXT),
        encoding="utf-8",
    )
    assert main(["rules-doc", "--check", "--path", str(stale)]) == 1
    assert f"section {section!r} is stale" in capsys.readouterr().err
    assert main(["rules-doc", "--path", str(stale)]) == 0  # the generator mends it
    assert stale.read_text(encoding="utf-8") == TEXT
    stale.write_text(block.sub("", TEXT), encoding="utf-8")
    assert main(["rules-doc", "--path", str(stale)]) == 1  # markers removed: only a person can put them back
    assert f"section {section!r}: its markers are missing" in capsys.readouterr().err


def test_the_check_passes_on_the_committed_reference():
    assert main(["rules-doc", "--check"]) == 0


def _heading_ids(text: str) -> set[str]:
    """GitHub's ids of the headings (the app's page builds the same: ``slugify_unicode``)."""
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def test_in_page_links_point_at_headings():
    assert [a for a in re.findall(r"\]\(#([^)]+)\)", TEXT) if a not in _heading_ids(TEXT)] == []


def test_the_readme_links_to_the_reference_not_outside_the_repository():
    readme = (rules_reference.DOC.parents[2] / "README.md").read_text(encoding="utf-8")
    assert "../shared/" not in readme
    links = re.findall(r"\]\(scorekeeper/docs/rules\.md(?:#([^)]+))?\)", readme)
    assert links and [a for a in links if a and a not in _heading_ids(TEXT)] == []
