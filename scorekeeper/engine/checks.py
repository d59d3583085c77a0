"""검사 The checks every engine input shares: whole numbers, names, chip value, rules spec.

A summary (``contract``), a live hand's set-up (``hand_setup``) and a series
(``series``) each take players, a chip value and a rules spec; the checks are
written once here. Each caller names its own refusal (code, message, path),
because the contract's answers are part of what clients rely on.

>>> is_whole(3, 1, 12), is_whole(True, 0, 1), is_whole(2.0, 1, 12)
(True, False, False)
>>> are_names(["A", "B"], 2, 3), are_names(["A", "A"], 2, 3), are_names(["A", " "], 2, 3)
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard, cast

from .errors import EngineError
from .rules import DEFAULT_PRESET

MAX_NAME = 40  # characters in a player's name
# The most nagari a hand's carry counts (×2^30 when they stack). A series caps its carry here, so
# a longer run of nagari goes on at ×2^30 instead of locking the table (docs/rules.md, section 10).
MAX_NAGARI_CARRY = 30


def is_whole(value: object, lo: int, hi: int) -> TypeGuard[int]:
    """A whole number from ``lo`` to ``hi`` (JSON true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def is_month(value: object) -> TypeGuard[int]:
    return is_whole(value, 1, 12)


def are_names(
    value: object, least: int, most: int, sequence: type | tuple[type, ...] = list
) -> TypeGuard[Sequence[str]]:
    """``least`` to ``most`` distinct names of 1 to ``MAX_NAME`` characters, not all blank."""
    if not isinstance(value, sequence):
        return False
    names = cast(Sequence[object], value)  # (isinstance with a type given as a variable: mypy cannot narrow)
    if not least <= len(names) <= most:
        return False
    for p in names:  # (a loop, not all() over a generator: this runs once per summary)
        if not (isinstance(p, str) and p.strip() and len(p) <= MAX_NAME):
            return False
    return len(set(names)) == len(names)


def players(
    value: object, least: int, most: int, code: str, message: str, path: str, sequence: type | tuple[type, ...] = list
) -> tuple[str, ...]:
    """The players as a tuple, or the caller's refusal."""
    if not are_names(value, least, most, sequence):
        raise EngineError(code, message, path)
    return tuple(value)


def is_chip_value(value: object) -> TypeGuard[int | float]:
    """Money per point: a number from 0 to a billion (NaN is refused: it compares false)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and 0 <= value <= 1e9


CHIP_VALUE_HELP = "chip_value is the money per point, a number from 0."


def chip_value(value: object, path: str) -> int | float:
    """The chip value, or the refusal every input gives for it (at ``path``)."""
    if is_chip_value(value):
        return value
    raise EngineError("bad_value", CHIP_VALUE_HELP, path)


def rules_spec(spec: object, message: str, path: str, closed: bool = False) -> tuple[Any, Any]:
    """A rules spec → (preset, options) as given, for ``rules.rules_from`` to check.

    The spec is an object ``{preset, options}``, a bare preset name, or absent (the default
    preset). ``closed``: no other key is allowed.
    """
    if closed and spec is not None and not spec and not isinstance(spec, dict):
        # A series' rules are an object or null (the API's document): false, 0, "" or [] were
        # taken as no rules (issue 29, schemathesis).
        raise EngineError("bad_value", message, path)
    spec = spec or {}
    if isinstance(spec, str):  # a bare preset name
        spec = {"preset": spec}
    if not isinstance(spec, dict) or (closed and set(spec) - {"preset", "options"}):
        raise EngineError("bad_value", message, path)
    # A series' rules as the API documents them: options an object when given (issue 29:
    # ``{"options": null}`` was taken where the document rules it out).
    if closed and "options" in spec and not isinstance(spec["options"], dict):
        raise EngineError("bad_value", "rules.options is an object of house-rule options.", f"{path}.options")
    return spec.get("preset", DEFAULT_PRESET), spec.get("options")
