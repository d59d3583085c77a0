"""The forms: WTForms with validators; the engine checks the rest and its refusals
are attached to the fields they name (``attach_errors``)."""
from __future__ import annotations

import dataclasses

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField, DecimalField, FieldList, Form, FormField, HiddenField, IntegerField, RadioField,
    SelectField, SelectMultipleField, StringField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

try:  # WTForms 3.3 deprecates (value, label) tuples
    from wtforms.fields.choices import SelectChoice
except ImportError:  # pragma: no cover - older WTForms
    def SelectChoice(value, label=None):  # noqa: N802 - stands in for the class
        return (value, value if label is None else label)


def opts(pairs) -> list:
    """Choices for a select: (value, label) pairs as WTForms wants them."""
    return [SelectChoice(v, label) for v, label in pairs]

from ..engine.cards import BONUS_CARDS, CARDS, DECK, MONTHS
from ..engine.dealer import DAY, NIGHT
from ..engine.facts import FIXED_KINDS
from ..engine.hand import EVENTS
from ..engine.hand_events import JUNK_REASONS
from ..engine.rules import CHOICE_LABELS, OPTIONS, PRESET_LABELS, PRESETS
from ..engine.series import MAX_NAME, MAX_PLAYERS
from .errors import CodedRefusal
from .names import check_names, normal_name

CURRENCIES = opts([("₩", "₩ 원"), ("$", "$"), ("€", "€"), ("¥", "¥"), ("pt", "점 points")])
MONTH_CHOICES = opts((m, f"{m} {ko} {en}") for m, (ko, en) in MONTHS.items())
CARD_CHOICES = opts([(c.code, c.code) for c in DECK] + [(c, c) for c in BONUS_CARDS])
OUTCOMES = ["stop", "nagari", "chongtong", "three_ppuk", "void_deal"]


class MultiCheckboxField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def strip(value):
    return value.strip() if isinstance(value, str) else value


def finite(_form, field):
    """NaN and Infinity parse as decimals but are no amount (and NaN breaks NumberRange)."""
    if field.data is not None and not field.data.is_finite():
        field.data = None
        raise ValidationError("number_not_finite")


def _option_field(name: str, spec: dataclasses.Field):
    meta, default = spec.metadata, spec.default
    label = f"{meta['ko']} · {meta['en']}"
    if isinstance(default, bool):
        return BooleanField(label, default=default)
    if isinstance(default, int):
        return IntegerField(label, default=default, validators=[InputRequired(), NumberRange(meta["lo"], meta["hi"])])
    return SelectField(label, default=default, choices=opts((c, CHOICE_LABELS[c]) for c in meta["choices"]))


class TableForm(FlaskForm):
    """A new table: players, preset, the house-rule sheet, stakes, length, first dealer."""

    title = StringField(validators=[Optional(), Length(max=60)], filters=[strip])
    players = FieldList(StringField(validators=[Optional(), Length(max=MAX_NAME)], filters=[normal_name]),
                        min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    preset = SelectField(choices=opts((k, PRESET_LABELS[k]) for k in PRESETS), default="pagat")
    chip_value = DecimalField(default=100, places=None,
                              validators=[InputRequired(), finite, NumberRange(0, 1_000_000)])
    currency = SelectField(choices=CURRENCIES, default="₩")
    length = IntegerField(default=12, validators=[InputRequired(), NumberRange(1, 100)])
    dealer = SelectField(default="0", choices=opts([("draw", "draw")] + [(str(i), str(i + 1)) for i in range(MAX_PLAYERS)]))
    draw_time = RadioField(choices=opts([(NIGHT, NIGHT), (DAY, DAY)]), default=NIGHT)
    draw_cards = FieldList(SelectField(choices=opts([("", "–")]) + CARD_CHOICES[:48], default=""),
                           min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    redraw_cards = FieldList(SelectField(choices=opts([("", "–")]) + CARD_CHOICES[:48], default=""),
                             min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)

    def validate_players(self, field):
        names = [n for n in field.data if n]
        if len(names) < 2:
            raise ValidationError("players_needed")
        try:
            check_names(names)
        except CodedRefusal as err:
            raise ValidationError("players_distinct" if err.code == "duplicate_player" else "player_name_bad") from None

    def option_fields(self):
        return [(name, self[f"opt_{name}"]) for name in OPTIONS]


for _name, _spec in OPTIONS.items():
    setattr(TableForm, f"opt_{_name}", _option_field(_name, _spec))


class PlayerEntry(Form):
    """One player's part of a quick entry."""

    cards = MultiCheckboxField(choices=CARD_CHOICES)
    junk = IntegerField(default=0, validators=[Optional(), NumberRange(0, 60)])
    gos = IntegerField(default=0, validators=[Optional(), NumberRange(0, 20)])
    shakes = MultiCheckboxField(choices=MONTH_CHOICES, coerce=int)
    bombs = MultiCheckboxField(choices=MONTH_CHOICES, coerce=int)
    fixed = MultiCheckboxField(choices=opts((k, k) for k in FIXED_KINDS))


class SitterEntry(Form):
    """What a player sitting out shows (gwangpalli)."""

    cards = MultiCheckboxField(choices=CARD_CHOICES)
    shake = BooleanField()


class QuickForm(FlaskForm):
    """A whole hand after it ended."""

    outcome = SelectField(choices=opts((o, o) for o in OUTCOMES), default="stop")
    winner = SelectField(choices=[], validate_choice=False, default="")
    month = SelectField(choices=opts([("", "–")] + [(str(m), str(m)) for m in MONTHS]), default="")
    entries = FieldList(FormField(PlayerEntry), min_entries=2, max_entries=3)
    dokbak_player = SelectField(choices=[], validate_choice=False, default="")
    dokbak_reason = SelectField(choices=opts([("oe_myeon", "oe_myeon"), ("showdown", "showdown"), ("go_bak", "go_bak")]),
                                default="oe_myeon")
    last_go = SelectField(choices=[], validate_choice=False, default="")
    mission = IntegerField(default=1, validators=[Optional(), NumberRange(1, 9)])
    sitters = FieldList(FormField(SitterEntry), min_entries=0, max_entries=5)
    count = HiddenField()  # hands the phone saw: a stale save is a conflict
    version = HiddenField()  # editing a past hand: the version it was made against (stale: a conflict)


class SeatingForm(FlaskForm):
    """Gwangpalli: who plays, and what the sitters show (a live hand's start)."""

    sitters = FieldList(FormField(SitterEntry), min_entries=0, max_entries=5)
    count = HiddenField()


class StartForm(FlaskForm):
    """Start a live hand (two or three at the table)."""

    count = HiddenField()


class EventForm(FlaskForm):
    """One event of the live hand, as the buttons post it."""

    type = SelectField(choices=opts((t, t) for t in EVENTS), validators=[DataRequired()])
    player = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    cards = SelectMultipleField(choices=CARD_CHOICES, validate_choice=True)
    month = SelectField(choices=opts([("", "–")] + [(str(m), str(m)) for m in MONTHS]), default="")
    reason = SelectField(choices=opts([("", "–")] + [(r, r) for r in JUNK_REASONS]), default="")
    last_card = BooleanField()
    multiplier = IntegerField(validators=[Optional(), NumberRange(2, 9)])  # a mission's, 2× to 9×
    seq = IntegerField(validators=[InputRequired(), NumberRange(0, 100_000)])


class SeqForm(FlaskForm):
    """Undo: the phone says how long the log was when it asked."""

    seq = IntegerField(validators=[InputRequired(), NumberRange(0, 100_000)])


class JoinForm(FlaskForm):
    code = StringField(validators=[DataRequired(), Length(max=400)], filters=[strip])


class ImportForm(FlaskForm):
    """A table's export.json, to go on as a new table."""

    file = FileField(validators=[FileRequired()])


class DeleteForm(FlaskForm):
    confirm = BooleanField(validators=[DataRequired()])
    version = HiddenField()  # the hand's version when the phone showed it (stale: nothing is deleted)


class EndForm(FlaskForm):
    """End the series early: ticked to confirm, with the hands the phone saw (a stale end is refused)."""

    confirm = BooleanField(validators=[DataRequired()])
    count = HiddenField()


def attach_errors(form, errors: list[dict], paths: dict[str, str] | None = None) -> list[dict]:
    """Put the engine's coded errors on the fields their paths name; answer the rest."""
    rest = []
    for e in errors:
        target = None
        for prefix, field_name in (paths or {}).items():
            if e.get("path", "").startswith(prefix):
                target = field_name
                break
        field = form[target] if target and target in form else None
        if field is not None:
            field.errors = list(field.errors) + [e["message"]]
        else:
            rest.append(e)
    return rest


__all__ = [n for n in dir() if n[0].isupper() or n in ("attach_errors",)]
