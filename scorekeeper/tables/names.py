"""Player names as a table keeps them: one spelling per name, nothing hidden in it.

A name is stored in Unicode NFC with blanks trimmed (zero-width characters and the Hangul
filler included, which look like nothing). Refused (``bad_player_name``): a name that is
empty once trimmed or made only of invisible characters, or one holding a control character
or a bidi override/isolate, which turns the text after it around on every screen and in the
CSV. Refused too (``duplicate_player``): two names that read the same, compared after NFKC
and case folding, so "José" typed two ways, "Mina"/"MINA" or full-width "Ｍｉｎａ" are one name.
"""

from __future__ import annotations

import unicodedata
from typing import Any, TypeVar, overload

from .refusals import CodedRefusal

# Characters that show nothing: trimmed from the ends, and a name of only these is empty.
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e\u00ad\u034f\u3164\u115f\u1160\uffa0\u2800")
_T = TypeVar("_T")
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _blank(c: str) -> bool:
    return c.isspace() or c in INVISIBLE


def _shows_nothing(c: str) -> bool:
    return _blank(c) or unicodedata.category(c) in ("Cf", "Mn", "Me", "Cc")


@overload
def normal_name(value: str) -> str: ...
@overload
def normal_name(value: _T) -> _T: ...
def normal_name(value: object) -> object:
    """NFC, trimmed of blanks at both ends; anything but a string as it is (the engine refuses it)."""
    if not isinstance(value, str):
        return value
    name = unicodedata.normalize("NFC", value)
    start, end = 0, len(name)
    while start < end and _blank(name[start]):
        start += 1
    while end > start and _blank(name[end - 1]):
        end -= 1
    return name[start:end]


def problem(name: str) -> str | None:
    """Why a normalised name cannot be a player's (a message), or None."""
    if all(_shows_nothing(c) for c in name):
        return "A player's name is empty or made only of invisible characters."
    if any(c in BIDI or unicodedata.category(c) == "Cc" for c in name):
        return "A player's name may not hold control or bidi-override characters."
    return None


def same_name_key(name: str) -> str:
    """What two names that read the same have in common."""
    return "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if c not in INVISIBLE)


def check_names(names: list[str], path: str = "players", *, look_alikes: bool = False) -> None:
    """Refuse a list of normalised names with a bad name or two that read the same (with
    ``look_alikes``, only two spelt exactly the same: see ``grouptransfer._head``)."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        why = problem(name)
        if why:
            raise CodedRefusal("bad_player_name", why, f"{path}[{i}]")
        key = name if look_alikes else same_name_key(name)
        if key in seen:
            raise CodedRefusal(
                "duplicate_player", f"{name!r} reads the same as player {seen[key] + 1}'s name.", f"{path}[{i}]"
            )
        seen[key] = i


def normalised_settings(doc: Any) -> Any:
    """A table's settings with every player name normalised and checked (where the names are).

    The names also appear as the first dealer and as keys of the draw: those are normalised
    the same way, so that they still name the players.
    """
    if (
        not isinstance(doc, dict)
        or not isinstance(doc.get("players"), list)
        or not all(isinstance(p, str) for p in doc["players"])
    ):
        return doc
    out = dict(doc, players=[normal_name(p) for p in doc["players"]])
    check_names(out["players"])
    if "first_dealer" in out:
        out["first_dealer"] = normal_name(out["first_dealer"])
    draw = out.get("draw")
    if isinstance(draw, dict):
        draw = dict(draw)
        if isinstance(draw.get("cards"), dict):
            draw["cards"] = {normal_name(k): v for k, v in draw["cards"].items()}
        if isinstance(draw.get("redraws"), list):
            draw["redraws"] = [
                {normal_name(k): v for k, v in r.items()} if isinstance(r, dict) else r for r in draw["redraws"]
            ]
        out["draw"] = draw
    return out
