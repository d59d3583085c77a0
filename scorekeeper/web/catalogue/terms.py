"""The engine's ids in the phone's language: trail steps, score lines, notes, options, cards.

The engine labels everything bilingually for its own JSON ("피박 pi-bak"); pages
and exports look the id up in the catalog instead, so Korean mode reads Korean
and English mode reads English with the Korean term where players use it.
A card is named as players say it (송학 광, 비광, 국진, 똥쌍피), never by its code.
"""

from __future__ import annotations

import re

from ...engine.facade import BRIGHT, CARDS, JUNK, OPTIONS, PRESETS, RIBBON, OptionValue
from .i18n import both, current_lang, gettext
from .messages import MESSAGES


def _lookup(prefix: str, id: str | None, fallback: str | None = None) -> str:
    key = f"{prefix}{id}"
    return both(key) if key in MESSAGES else (fallback or str(id))


def step_label(step: dict) -> str:
    """One line of a payment's trail."""
    return _lookup("step_", step.get("id"), step.get("label"))


def line_label(line: dict) -> str:
    """One line of a score (삼광 3, 홍단 3 …)."""
    return _lookup("line_", line.get("id"), line.get("label"))


def note_label(note: dict | str) -> str:
    if not isinstance(note, dict):
        return str(note)
    text = _lookup("note_", note.get("id"), note.get("label"))
    return f"{note['player']}: {text}" if note.get("player") else text


def kind_label(kind: str) -> str:
    """A ledger entry's kind: the hand, a fixed payment, gwangpalli."""
    return _lookup("kind_", kind)


def outcome_label(kind: str) -> str:
    """How a hand ended, in plain words: 스톱, 나가리 / stop, nagari (no gloss: it reads in a sentence)."""
    key = f"out_{kind}"
    return gettext(key) if key in MESSAGES else kind


def reason_label(reason: str) -> str:
    """Why a ledger entry moved: ``stop`` or a fixed payment's id or ``gwangpalli``."""
    if reason == "stop":
        return both("out_stop")
    if reason == "gwangpalli":
        return both("kind_gwangpalli")
    return _lookup("step_", reason)


def preset_label(name: str) -> str:
    return gettext(f"preset_{name}") if f"preset_{name}" in MESSAGES else name


_CODE_IN_LABEL = re.compile(r"(?<![\w.])(?:1[0-2]|[1-9])(?:g|a|r|j[12]|jd)(?!\w)|\b(?:b2|b3|bb|bd|bp)\b")


_JOKER_IN_PARENS = re.compile(r"\s*\((?:b2|b3|bb|bd|bp)\)")
_CODE_AFTER_NAME = re.compile(r"(?<=[A-Za-z]) (?:1[0-2]|[1-9])(?:g|a|r|j[12]|jd)(?=[\s):,]|$)")


def option_label(name: str) -> str:
    """A house-rule option's label in the phone's language (the engine keeps both), cards named."""
    meta = OPTIONS[name].metadata
    label = meta["ko"] if current_lang() == "ko" else meta["en"]
    label = _JOKER_IN_PARENS.sub("", label)  # "Two-junk jokers (b2)": the words already name it
    label = _CODE_AFTER_NAME.sub("", label)  # "Rain ribbon 12r", "the boar 7a": likewise
    return _CODE_IN_LABEL.sub(lambda m: card_name(m.group(0)), label)


def option_value(name: str, value: OptionValue) -> str:
    """An option's value as the sheet shows it: 예/아니오, a number, a choice's label."""
    if value is True:
        return gettext("on")
    if value is False:
        return gettext("off")
    if isinstance(value, str):
        return gettext(f"choice_{value}") if f"choice_{value}" in MESSAGES else value
    return f"{value:,}" if isinstance(value, int) else str(value)


def month_name(month: int) -> str:
    return gettext(f"month_name_{month}")


def months_text(months) -> str:
    """Months as months: "5월", "5, 11월" (Korean); "5", "5 and 11" in a shake's "month 5"."""
    months = [int(m) for m in months]
    if current_lang() == "ko":
        return ", ".join(map(str, months))
    return ", ".join(map(str, months))


def shakes_text(months) -> str:
    return gettext("shake_of", months=months_text(months))


def bombs_text(months) -> str:
    return gettext("bomb_of", months=months_text(months))


def card_name(code: str) -> str:
    """A card as players say it: 송학 광, 매조 홍단, 국진, 똥쌍피, 비광; English "pine bright (crane)"."""
    if f"card_{code}" in MESSAGES:
        return str(gettext(f"card_{code}"))
    card = CARDS.get(code)
    if card is None:
        return code
    flower = month_name(card.month)
    if card.kind == BRIGHT:
        kind = "bright"
    elif card.kind == RIBBON:
        kind = card.ribbon_set or "ribbon"
    elif card.kind == JUNK:
        kind = "double" if card.junk == 2 else "junk"
    else:
        kind = "animal"
    return str(gettext(f"card_kind_{kind}", m=flower))


def cards_text(codes) -> str:
    """Several cards, named, in the order given."""
    return ", ".join(card_name(c) for c in codes)


def step_amount(step: dict) -> str:
    """The number of a trail line as it reads: ×2, +1, 5, "3장", "× 2점" (points a card, not added),
    "64 → 50" (a cap: the amount before it and after)."""
    if "factor" in step:
        return f"×{step['factor']}"
    value = step.get("value")
    if value is None:
        return ""
    if step.get("id") == "gwangpalli_cards":
        return str(gettext("cards_n", n=value))
    if step.get("id") == "per_card":
        return f"× {gettext('points_n', n=value)}"
    if str(step.get("id", "")).endswith("_bonus") and isinstance(value, int):
        return f"{value:+d}"
    if step.get("id") == "payment_cap" and step.get("before") is not None:
        return f"{step['before']} → {value}"  # what the doubles came to, and what the cap holds it to
    return str(value)


def trail_text(steps) -> str:
    """A payment's trail on one line, for the CSV: "점수 5 · 고 보너스 +1 · 광박 ×2"."""
    out = []
    for step in steps:
        text = f"{step_label(step)} {step_amount(step)}".strip()
        if step.get("cards"):
            text += f" ({cards_text(step['cards'])})"
        out.append(text)
    return " · ".join(out)


def jinja_helpers() -> dict[str, object]:
    return {
        "step_label": step_label,
        "line_label": line_label,
        "note_label": note_label,
        "kind_label": kind_label,
        "reason_label": reason_label,
        "card_name": card_name,
        "cards_text": cards_text,
        "shakes_text": shakes_text,
        "bombs_text": bombs_text,
        "option_value": option_value,
        "step_amount": step_amount,
        "option_label": option_label,
        "preset_label_of": preset_label,
        "month_name": month_name,
        "presets": list(PRESETS),
    }
