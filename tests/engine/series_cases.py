"""Compact hand records for the series tests.

With the pagat preset, ``WIN3`` (hong-dan, 3 points) makes each loser of a
three-player hand pay 3 and ``WIN2`` (hong-dan + cheong-dan + 6 ribbons, 8 points)
makes the loser of a two-player hand pay 8: no double applies to either.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.engine.series import Series, config_from, play

WIN3 = ["1r", "2r", "3r"]
WIN2 = ["1r", "2r", "3r", "6r", "9r", "10r"]


def stop(winner: str, cards: list[str] | None = None, **extra: Any) -> dict:
    """A hand won by a stop; ``extra`` goes into the summary, or the record for choices/shown."""
    record: dict = {
        "summary": {"captures": {winner: list(cards or WIN3)}, "outcome": {"type": "stop", "winner": winner}}
    }
    return _extra(record, extra)


def nagari(**extra: Any) -> dict:
    return _extra({"summary": {"outcome": {"type": "nagari"}}}, extra)


def void(**extra: Any) -> dict:
    return _extra({"summary": {"outcome": {"type": "void_deal"}}}, extra)


def chongtong(winner: str, **extra: Any) -> dict:
    return _extra({"summary": {"outcome": {"type": "chongtong", "winner": winner, "month": 1}}}, extra)


def _extra(record: dict, extra: dict) -> dict:
    for key, value in extra.items():
        if key in ("choices", "shown"):
            record[key] = value
        else:
            record["summary"][key] = value
    return record


def series(players: str | list[str], hands: list[dict], **settings: Any) -> Series:
    """A series of ``players`` ("ABC" for three one-letter players) with ``hands``."""
    doc = {"players": list(players), **settings}
    return play(config_from(doc), hands)


def dealers(s: Series) -> list[str]:
    return [d.dealer for d in s.deals]


def carries(s: Series) -> list[int]:
    return [d.carry for d in s.deals]
