"""The forms of a hand: quick entry after the fact, who sits out, one live event, undo, delete."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from ...engine.facade import EVENTS, FIXED_KINDS, JUNK_REASONS, MAX_NAME, MONTHS
from ..views.forms import CARD_CHOICES, MONTH_CHOICES, MultiCheckboxField, opts

OUTCOMES = ["stop", "nagari", "chongtong", "three_ppuk", "void_deal"]


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
    dokbak_reason = SelectField(choices=opts((r, r) for r in ("oe_myeon", "showdown", "go_bak")), default="oe_myeon")
    last_go = SelectField(choices=[], validate_choice=False, default="")
    mission = IntegerField(default=1, validators=[Optional(), NumberRange(1, 9)])
    mission_player = SelectField(choices=[], validate_choice=False, default="")  # who completed it (the engine checks)
    sitters = FieldList(FormField(SitterEntry), min_entries=0, max_entries=5)
    count = HiddenField()  # hands the phone saw: a stale save is a conflict
    version = HiddenField()  # editing a past hand: the version it was made against (stale: a conflict)


class SeatingForm(FlaskForm):
    """Gwangpalli: who plays, and what the sitters show (a live hand's start)."""

    sitters = FieldList(FormField(SitterEntry), min_entries=0, max_entries=5)
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


class GiveForm(FlaskForm):
    """Which junk a giver handed over in the last event (the log as long as the phone saw it)."""

    giver = StringField(validators=[DataRequired(), Length(max=MAX_NAME)])
    card = SelectField(choices=CARD_CHOICES, validators=[DataRequired()])
    seq = IntegerField(validators=[InputRequired(), NumberRange(0, 100_000)])


class SeqForm(FlaskForm):
    """Undo: the phone says how long the log was when it asked.

    A seated phone's ↶ takes back its own player's last event, seen at ``at``; ``last`` asks for
    the table's last event instead, whoever's, and ``confirm`` says the question naming another
    player's event was answered (``routes.undo``)."""

    seq = IntegerField(validators=[InputRequired(), NumberRange(0, 100_000)])
    at = IntegerField(validators=[Optional(), NumberRange(0, 100_000)])
    last = BooleanField()
    confirm = BooleanField()


class DeleteForm(FlaskForm):
    confirm = BooleanField(validators=[DataRequired()])
    version = HiddenField()  # the hand's version when the phone showed it (stale: nothing is deleted)
