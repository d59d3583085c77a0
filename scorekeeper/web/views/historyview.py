"""The history as a page shows it: newest first, each entry a line in the phone's language, who
made it, when, and the players whose standing moved (before → after)."""

from __future__ import annotations

from typing import TypedDict

from ...tables.history import Change, EntryJSON, PaymentBrief
from ..catalogue.i18n import gettext as _
from ..catalogue.terms import preset_label

SHOWN = 40  # the newest entries a page lists (the API answers them all)


Values = dict[str, str | int]  # what a line's sentence is filled with


class Line(TypedDict):
    """An entry as ``_history.html`` shows it."""

    at: str
    when: str
    line: str
    by: str
    kind: str
    changes: list[Change]
    voided: bool


def _payment(p: PaymentBrief | None) -> Values:
    if not p:
        return {"a": "", "b": "", "n": 0}
    return {"a": p.get("from", ""), "b": p.get("to", ""), "n": p.get("points", 0)}


def line(e: EntryJSON) -> str:
    """The entry's sentence (the catalogue's ``hist_<kind>``), filled with what changed."""
    kind = e["kind"]
    values: Values = {}
    if kind in ("payment_recorded", "payment_voided"):
        values = _payment(e.get("payment"))
    elif kind in ("hand_added", "hand_edited", "hand_deleted", "hand_finished"):
        values = {"n": e.get("hand", 0)}
    elif kind in ("evening_added", "evening_removed"):
        values = {"date": e.get("date", ""), "players": ", ".join(e.get("players") or [])}
    elif kind == "group_created":
        values = {"players": ", ".join(e.get("players") or [])}
    elif kind == "pay_link_set":
        kind = "pay_link_set" if e.get("pay_link") else "pay_link_removed"
        values = {"p": e.get("player", "")}
    elif kind == "rules_set":
        rules = e.get("rules")
        values = {"preset": preset_label(str(rules.get("preset", "") if rules else ""))}
    elif kind == "keys_rotated":
        values = {"which": _("keys_" + str(e.get("which", "both")))}
    return _(f"hist_{kind}", **values)


def by(e: EntryJSON) -> str:
    who = e.get("by", "")
    return _("hist_by_phone") if who == "phone" else _("hist_by_api") if who == "api" else who


def view(entries: list[EntryJSON]) -> list[Line]:
    """The newest ``SHOWN`` entries, newest first, ready for ``_history.html``."""
    return [
        {
            "at": e["at"],
            "when": e["at"][:16].replace("T", " "),
            "line": line(e),
            "by": by(e),
            "kind": e["kind"],
            "changes": e.get("changes") or [],
            "voided": e["kind"] == "payment_voided",
        }
        for e in reversed(entries[-SHOWN:])
    ]
