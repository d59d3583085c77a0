"""규칙 설명 The rules reference's generated parts: the card list and the house-rule options.

``scorekeeper/docs/rules.md`` is written by hand, except the sections between marker
comments, which are rendered here from the engine's own data (``engine/cards.py``,
``engine/rules.py``): a new option or a changed preset cannot leave the reference behind,
because ``problems`` (run by the tests and by ``scorekeeper rules-doc --check``) reports a
stale section or an option the text never names. ``rewrite`` fills the sections in.

Pure: no Flask, no I/O except ``main`` reading and writing the file.

>>> "`five_brights`" in render_options()
True
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from .engine.cards import ANIMAL, BONUS_CARDS, BRIGHT, DECK, JUNK, KINDS, MONTHS, RIBBON
from .engine.rules import CHOICE_LABELS, DEFAULT_PRESET, PRESET_LABELS, PRESETS, Rules

DOC = Path(__file__).resolve().parent / "docs" / "rules.md"

# The groups of the rules sheet (``option(..., group)``), as the reference titles them.
GROUP_TITLES = {
    "scoring": "Scoring (족보)",
    "bonus": "Bonus cards and jokers (보너스 패)",
    "go": "Go (고)",
    "doubles": "Doubles and dok-bak (박, 독박)",
    "fixed": "Fixed payments (총통, 뻑 …)",
    "gwangpalli": "Gwangpalli (광팔기)",
}
KIND_HEADINGS = {BRIGHT: "bright 광", ANIMAL: "animal 열끗", RIBBON: "ribbon 띠", JUNK: "junk 피"}
KIND_PLURALS = {BRIGHT: "brights", ANIMAL: "animals", RIBBON: "ribbons", JUNK: "junk"}


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|")


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


def _allowed(spec: dataclasses.Field) -> str:
    meta = spec.metadata
    if isinstance(spec.default, bool):
        return "yes / no"
    if meta.get("choices"):
        return ", ".join(f"`{c}`" for c in meta["choices"])
    return f"{meta['lo']}–{meta['hi']}"


# -- the cards ---------------------------------------------------------------------------


def render_cards() -> str:
    """The 48 cards month by month, the totals by kind, and the bonus cards."""
    head = ["month", "flower 꽃", *(KIND_HEADINGS[k] for k in KINDS)]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for month, (ko, en) in MONTHS.items():
        cells = [str(month), f"{en} {ko}"]
        for kind in KINDS:
            cards = [c for c in DECK if c.month == month and c.kind == kind]
            cells.append("<br>".join(f"`{c.code}` {c.label}" for c in cards) or "–")
        rows.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    totals = ", ".join(f"{sum(1 for c in DECK if c.kind == k)} {KIND_PLURALS[k]}" for k in KINDS)
    bonus = ["| code | card | junk value |", "|---|---|---|"]
    bonus += [f"| `{c.code}` | {_cell(c.label)} | {c.junk} |" for c in BONUS_CARDS.values()]
    return "\n".join([*rows, "", f"{len(DECK)} cards: {totals}.", "", "Bonus cards (jokers):", "", *bonus])


# -- the presets and the options ----------------------------------------------------------


def render_presets(
    presets: Mapping[str, Rules] | None = None, fields: Sequence[dataclasses.Field] | None = None
) -> str:
    """Each preset with its label and the options where it differs from the default."""
    presets = PRESETS if presets is None else presets
    fields = dataclasses.fields(Rules) if fields is None else fields
    lines = []
    for name, rules in presets.items():
        changed = [
            f"`{f.name}` {_value(getattr(rules, f.name, f.default))}"
            for f in fields
            if getattr(rules, f.name, f.default) != f.default
        ]
        what = "; ".join(changed) if changed else "every option at its default"
        default = ", the default preset" if name == DEFAULT_PRESET else ""
        lines.append(f"- `{name}` — {PRESET_LABELS.get(name, name)}{default}: {what}.")
    return "\n".join(lines)


def render_options(
    fields: Sequence[dataclasses.Field] | None = None, presets: Mapping[str, Rules] | None = None
) -> str:
    """Every option, group by group: labels, allowed values, default and each preset's value
    (bold where it differs from the default), then the meaning of each choice."""
    fields = dataclasses.fields(Rules) if fields is None else fields
    presets = PRESETS if presets is None else presets
    out: list[str] = []
    for group in dict.fromkeys(f.metadata["group"] for f in fields):
        members = [f for f in fields if f.metadata["group"] == group]
        out += _options_table(group, members, presets)
        out += _choices(members)
        out.append("")
    return "\n".join(out).rstrip("\n")


def _options_table(group: str, members: list[dataclasses.Field], presets: Mapping[str, Rules]) -> list[str]:
    """A group's options as a table: one row each, a column per preset."""
    head = ["option", "한국어 · English", "values", "default", *(f"`{p}`" for p in presets)]
    out = [f"### {GROUP_TITLES[group]}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for f in members:
        values = [_preset_value(getattr(rules, f.name, f.default), f.default) for rules in presets.values()]
        cells = [f"`{f.name}`", f"{f.metadata['ko']} · {f.metadata['en']}", _allowed(f), _value(f.default), *values]
        out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return out


def _preset_value(value: object, default: object) -> str:
    """A preset's value of an option, bold where it differs from the default."""
    return f"**{_value(value)}**" if value != default else _value(value)


def _choices(members: list[dataclasses.Field]) -> list[str]:
    """What each choice of the group's options with choices means."""
    out: list[str] = []
    for f in members:
        if f.metadata.get("choices"):
            out += ["", f"`{f.name}`:", ""]
            out += [f"- `{c}` — {CHOICE_LABELS.get(c, c)}" for c in f.metadata["choices"]]
    return out


SECTIONS: dict[str, Callable[[], str]] = {
    "cards": render_cards,
    "presets": render_presets,
    "options": render_options,
}


# -- the markers ---------------------------------------------------------------------------


def begin_marker(name: str) -> str:
    return f"<!-- generated: {name} (scorekeeper rules-doc writes this part; do not edit it by hand) -->"


def end_marker(name: str) -> str:
    return f"<!-- end generated: {name} -->"


def _block(name: str) -> re.Pattern[str]:
    return re.compile(re.escape(begin_marker(name)) + r"\n(.*?)\n?" + re.escape(end_marker(name)), re.DOTALL)


def rewrite(text: str, sections: Mapping[str, Callable[[], str]] | None = None) -> str:
    """``text`` with every generated section rendered afresh (a section without markers stays absent)."""
    for name, render in (SECTIONS if sections is None else sections).items():
        fresh = f"{begin_marker(name)}\n{render()}\n{end_marker(name)}"

        def keep(_match: re.Match[str], fresh: str = fresh) -> str:  # a function: the body's backslashes stay
            return fresh

        text = _block(name).sub(keep, text)
    return text


def problems(
    text: str,
    fields: Iterable[dataclasses.Field] | None = None,
    sections: Mapping[str, Callable[[], str]] | None = None,
) -> list[str]:
    """What makes ``text`` untrue to the engine: a section missing or stale, an option never named."""
    sections = SECTIONS if sections is None else sections
    found = []
    for name in sections:
        if not _block(name).search(text):
            found.append(f"section {name!r}: its markers are missing")
    fresh = rewrite(text, sections)
    for name in sections:
        old, new = _block(name).search(text), _block(name).search(fresh)
        if old and new and old.group(1) != new.group(1):
            found.append(f"section {name!r} is stale: run `scorekeeper rules-doc`")
    for f in dataclasses.fields(Rules) if fields is None else fields:
        if f"`{f.name}`" not in text:
            found.append(f"option {f.name!r} is not in the reference")
    return found


def main(argv: list[str] | None = None) -> int:
    """Rewrite the generated sections of the reference, or with ``--check`` only report."""
    parser = argparse.ArgumentParser(prog="scorekeeper rules-doc", description=main.__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 and say why if the reference is stale"
    )
    parser.add_argument("--path", type=Path, default=DOC, help=f"the reference (default {DOC})")


def run(args: argparse.Namespace) -> int:
    text = args.path.read_text(encoding="utf-8")
    if args.check:
        found = problems(text)
        for line in found:
            print(f"{args.path}: {line}", file=sys.stderr)
        return 1 if found else 0
    fresh = rewrite(text)
    if fresh != text:
        args.path.write_text(fresh, encoding="utf-8")
    left = problems(fresh)  # what only a person can mend: markers removed, an option never described
    for line in left:
        print(f"{args.path}: {line}", file=sys.stderr)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
