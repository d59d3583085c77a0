"""The rules sheet: every option of a table's rules, grouped, with its value and whether it differs
from the preset's."""

from __future__ import annotations

from typing import Any

from ...engine.facade import OPTIONS, RulesDoc, rules_from

OPTION_GROUPS = ["scoring", "bonus", "go", "doubles", "fixed", "gwangpalli"]


def rules_sheet(config_rules: RulesDoc) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every option of the table's rules, grouped, with its value and whether it differs."""
    preset = config_rules.get("preset", "pagat")
    rules = rules_from(preset, config_rules.get("options") or {})
    base = rules_from(preset)
    groups: dict[str, list[dict]] = {grp: [] for grp in OPTION_GROUPS}
    for name, spec in OPTIONS.items():
        groups.setdefault(spec.metadata["group"], []).append(
            {
                "name": name,
                "ko": spec.metadata["ko"],
                "en": spec.metadata["en"],
                "value": getattr(rules, name),
                "changed": getattr(rules, name) != getattr(base, name),
            }
        )
    return [(grp, rows) for grp, rows in groups.items() if rows]
