"""The checker of a hand summary: it collects every problem, so the user sees them all at once.

``summary_cards`` and ``summary_play`` check the summary's sections with it;
``contract.parse_summary`` runs them in order.
"""

from __future__ import annotations


class Checker:
    """Collects every problem of a summary, so the user sees them all at once."""

    def __init__(self) -> None:
        self.errors: list[dict] = []

    def add(self, code: str, message: str, path: str) -> None:
        self.errors.append({"code": code, "message": message, "path": path})


# The players of a summary, in their order at the table.
Players = tuple[str, ...]


def per_player(c: Checker, doc: dict, key: str, players: tuple[str, ...]) -> dict:
    value = doc.get(key)
    if not value:  # absent or empty: the common case, answered at once
        return {}
    if not isinstance(value, dict):
        c.add("bad_value", f"{key} must be an object keyed by player.", key)
        return {}
    for p in value:
        if p not in players:
            break
    else:  # the common case: every key a player, the section read as it is (the checks only read it)
        return value
    for p in value:
        if p not in players:
            c.add("unknown_player", f"{p!r} in {key} is not a player of this hand.", f"{key}.{p}")
    return {p: v for p, v in value.items() if p in players}


def known_player(c: Checker, value: object, players: tuple[str, ...], path: str) -> str | None:
    if not isinstance(value, str) or value not in players:
        c.add("unknown_player", f"{value!r} is not a player of this hand.", path)
        return None
    return value
