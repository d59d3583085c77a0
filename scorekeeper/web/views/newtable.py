"""The new-table form → a series configuration, checked by the engine; and a table's rules sheet
(every option grouped, with its value and whether it differs from the preset's). The tables', the
groups' and the API's blueprints all start tables from a preset, so it is shared here."""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict

from ...engine.facade import (
    DECK,
    OPTIONS,
    PRESETS,
    EngineError,
    OptionValue,
    RulesDoc,
    changed_options,
    config_from,
    rules_from,
)
from ..catalogue import terms
from ..catalogue.i18n import current_lang
from ..catalogue.i18n import gettext as _
from .forms import opts
from .tableforms import TableForm


def preset_defaults(preset: str) -> dict:
    """The form's data for a preset: every option at the preset's value."""
    rules = PRESETS.get(preset) or PRESETS["pagat"]
    return {f"opt_{name}": getattr(rules, name) for name in OPTIONS}


def preset_table() -> dict[str, dict]:
    """All presets' values, for the sheet's script to restore defaults."""
    return {name: {o: getattr(rules, o) for o in OPTIONS} for name, rules in PRESETS.items()}


def _number(value: Decimal):
    return int(value) if value == value.to_integral_value() else float(value)


def config_from_form(form: TableForm) -> dict:
    """The series configuration the form describes; ``EngineError`` when the engine refuses it."""
    players = [n for n in form.players.data if n]
    preset = form.preset.data
    values = {name: form[f"opt_{name}"].data for name in OPTIONS}
    rules = rules_from(preset, values)
    doc = {
        "name": form.title.data or "",
        "players": players,
        "rules": {"preset": preset, "options": changed_options(rules, preset)},
        "chip_value": _number(form.chip_value.data),
        "currency": form.currency.data,
        "length": form.length.data,
    }
    if form.dealer.data == "draw":
        seats = [i for i, n in enumerate(form.players.data) if n]
        cards = {form.players.data[i]: form.draw_cards.data[i] for i in seats if form.draw_cards.data[i]}
        redraw = {form.players.data[i]: form.redraw_cards.data[i] for i in seats if form.redraw_cards.data[i]}
        doc["draw"] = {"time": form.draw_time.data, "cards": cards, "redraws": [redraw] if redraw else []}
    else:
        seat = int(form.dealer.data)
        name = form.players.data[seat] if seat < len(form.players.data) else None
        if not name:
            raise EngineError("dealer_not_at_table", "The first dealer's seat has no player.", "first_dealer")
        doc["first_dealer"] = name
    config_from(doc)
    return doc


ERROR_FIELDS = {
    "players": "players",
    "first_dealer": "dealer",
    "draw": "draw_time",
    "rules": "preset",
    "chip_value": "chip_value",
    "currency": "currency",
    "length": "length",
}


def sheet_rows(form: TableForm) -> list[tuple[str, list[tuple]]]:
    """The form's option fields grouped as the rules sheet shows them, changes marked."""
    base = PRESETS.get(form.preset.data) or PRESETS["pagat"]
    groups: dict[str, list[tuple]] = {}
    for name, spec in OPTIONS.items():
        field = form[f"opt_{name}"]
        groups.setdefault(spec.metadata["group"], []).append(
            (name, field, spec.metadata, field.data != getattr(base, name))
        )
    return list(groups.items())


OPTION_GROUPS = ["scoring", "bonus", "go", "doubles", "fixed", "gwangpalli"]


class SheetRow(TypedDict):
    """One option on a table's rules sheet: its labels, its value, and whether the preset differs."""

    name: str
    ko: str
    en: str
    value: OptionValue
    changed: bool


def rules_sheet(config_rules: RulesDoc) -> list[tuple[str, list[SheetRow]]]:
    """Every option of a table's rules, grouped, with its value and whether it differs from the preset's."""
    preset = config_rules.get("preset", "pagat")
    rules = rules_from(preset, config_rules.get("options") or {})
    base = rules_from(preset)
    groups: dict[str, list[SheetRow]] = {grp: [] for grp in OPTION_GROUPS}
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


def form_with_rules(rules: RulesDoc | dict, asked: str | None = None) -> TableForm:
    """The new table's sheet filled with ``rules`` (``{preset, options}``), or with the preset
    ``asked`` at its own values."""
    preset = asked or rules.get("preset", "pagat")
    preset = preset if preset in PRESETS else "pagat"
    chosen = rules_from(preset, (rules.get("options") or {}) if preset == rules.get("preset") else {})
    form = TableForm(formdata=None)
    form.preset.data = preset
    for name in OPTIONS:
        form[f"opt_{name}"].data = getattr(chosen, name)
    return form


def rules_of_form(form: TableForm) -> RulesDoc | None:
    """The rules a posted sheet chose: its preset and the options it changed; None when the preset
    or an option's field is refused (each field is validated, so the sheet shows its errors). An
    option the engine refuses raises its ``EngineError``."""
    preset = form.preset.data if form.preset.data in PRESETS else None
    fields_ok = all(form[f"opt_{n}"].validate(form) for n in OPTIONS)
    if not (preset and fields_ok):
        return None
    chosen = rules_from(preset, {n: form[f"opt_{n}"].data for n in OPTIONS})
    return {"preset": preset, "options": changed_options(chosen, preset)}


def default_preset() -> str:
    """A Korean-language phone starts from the rules Korean tables play; others from pagat."""
    return "korean-common" if current_lang() == "ko" else "pagat"


def localize(form: TableForm) -> TableForm:
    """The selects' words in the phone's language: presets, choices, currencies, cards drawn."""
    form.preset.choices = opts((k, terms.preset_label(k)) for k in PRESETS)
    form.currency.choices = opts(
        [("₩", _("currency_won")), ("$", "$"), ("€", "€"), ("¥", "¥"), ("pt", _("currency_points"))]
    )
    cards = opts([("", "–")] + [(c.code, f"{c.month}. {terms.card_name(c.code)}") for c in DECK])
    for sub in list(form.draw_cards) + list(form.redraw_cards):
        sub.choices = cards
    for name, spec in OPTIONS.items():
        if spec.metadata["choices"]:
            form[f"opt_{name}"].choices = opts((c, terms.option_value(name, c)) for c in spec.metadata["choices"])
    return form


def form_for_get(args) -> TableForm:
    """The form on GET: ``?preset=`` fills every option from the preset; other fields kept."""
    preset = args.get("preset", default_preset())
    preset = preset if preset in PRESETS else default_preset()
    form = TableForm(formdata=args if args else None, data={"preset": preset} | preset_defaults(preset))
    for name, value in preset_defaults(preset).items():
        form[name].data = value
    form.preset.data = preset
    return form
