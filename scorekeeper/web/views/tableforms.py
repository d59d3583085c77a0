"""The forms of a table: a new table with its house-rule sheet, joining by code, importing an
export, ending the series early, new share links. Here, not in the tables' blueprint: the home
page shows the join and import forms, a group's pages the new-table and new-links ones."""

from __future__ import annotations

import dataclasses

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DecimalField,
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError

from ...engine.facade import CHOICE_LABELS, DAY, MAX_NAME, MAX_PLAYERS, NIGHT, OPTIONS, PRESET_LABELS, PRESETS
from ...tables.names import check_names, normal_name
from ...tables.refusals import CodedRefusal
from .forms import CARD_CHOICES, finite, opts, strip

CURRENCIES = opts([("₩", "₩ 원"), ("$", "$"), ("€", "€"), ("¥", "¥"), ("pt", "점 points")])


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
    players = FieldList(
        StringField(validators=[Optional(), Length(max=MAX_NAME)], filters=[normal_name]),
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    preset = SelectField(choices=opts((k, PRESET_LABELS[k]) for k in PRESETS), default="pagat")
    chip_value = DecimalField(default=100, places=None, validators=[InputRequired(), finite, NumberRange(0, 1_000_000)])
    currency = SelectField(choices=CURRENCIES, default="₩")
    length = IntegerField(default=12, validators=[InputRequired(), NumberRange(1, 100)])
    dealer = SelectField(
        default="0", choices=opts([("draw", "draw")] + [(str(i), str(i + 1)) for i in range(MAX_PLAYERS)])
    )
    draw_time = RadioField(choices=opts([(NIGHT, NIGHT), (DAY, DAY)]), default=NIGHT)
    draw_cards = FieldList(
        SelectField(choices=opts([("", "–")]) + CARD_CHOICES[:48], default=""),
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )
    redraw_cards = FieldList(
        SelectField(choices=opts([("", "–")]) + CARD_CHOICES[:48], default=""),
        min_entries=MAX_PLAYERS,
        max_entries=MAX_PLAYERS,
    )

    def validate_players(self, field):
        names = [n for n in field.data if n]
        if len(names) < 2:
            raise ValidationError("players_needed")
        try:
            check_names(names)
        except CodedRefusal as err:
            raise ValidationError("players_distinct" if err.code == "duplicate_player" else "player_name_bad") from None


for _name, _spec in OPTIONS.items():
    setattr(TableForm, f"opt_{_name}", _option_field(_name, _spec))


class JoinForm(FlaskForm):
    code = StringField(validators=[DataRequired(), Length(max=400)], filters=[strip])


class SeatForm(FlaskForm):
    """ "I am 지영": the phone's seat (empty: no seat, one phone for everyone)."""

    seat = StringField(validators=[Length(max=400)])
    back = HiddenField()  # the hand page the phone was on, if any


class ImportForm(FlaskForm):
    """A table's export.json, to go on as a new table."""

    file = FileField(validators=[FileRequired()])


class EndForm(FlaskForm):
    """End the series early: ticked to confirm, with the hands the phone saw (a stale end is refused)."""

    confirm = BooleanField(validators=[DataRequired()])
    count = HiddenField()


class KeysForm(FlaskForm):
    """New secrets for the table (the old links then open nothing): which, ticked to confirm."""

    which = RadioField(
        choices=opts([("edit", "edit"), ("view", "view"), ("both", "both")]),
        default="edit",
        validators=[InputRequired()],
    )
    confirm = BooleanField(validators=[DataRequired()])
