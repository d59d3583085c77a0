"""What the forms of every page share: choices, fields and filters, and ``attach_errors`` that puts
the engine's coded refusals on the fields they name. A table's forms are here too
(``tableforms``: the home, tables and groups pages all show some); a blueprint's own forms stay
with it (``hands.forms``). WTForms validates, the engine checks the rest."""

from __future__ import annotations

from wtforms import SelectMultipleField
from wtforms.fields.choices import SelectChoice  # WTForms 3.3 deprecates (value, label) tuples
from wtforms.validators import ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from .cardview import BONUS_CARDS, DECK, MONTHS


def opts(pairs) -> list:
    """Choices for a select: (value, label) pairs as WTForms wants them."""
    return [SelectChoice(v, label) for v, label in pairs]


MONTH_CHOICES = opts((m, f"{m} {ko} {en}") for m, (ko, en) in MONTHS.items())
CARD_CHOICES = opts([(c.code, c.code) for c in DECK] + [(c, c) for c in BONUS_CARDS])


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
            field.errors = [*list(field.errors), e["message"]]
        else:
            rest.append(e)
    return rest
