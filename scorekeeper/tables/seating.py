"""Who plays the next hand: everyone at two or three, by choice at four to seven."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.errors import EngineError
from ..engine.series import gwangpalli
from ..engine.series.gwangpalli import Seating
from .service import TableState


@dataclass
class NextSeating:
    seating: Seating | None  # None while the choices are missing or refused
    choices: dict[str, str] | None  # as made, for the hand record
    errors: list[dict]
    asked: bool  # the table must choose (four or more, not after a nagari)

    @property
    def players(self) -> tuple[str, ...]:
        return self.seating.players if self.seating else ()

    @property
    def sitters(self) -> tuple[str, ...]:
        return self.seating.forced if self.seating else ()


def choices_from(args: Mapping[str, str], state: TableState) -> dict[str, str]:
    """``c0=play&c3=sit`` (seats at the table) → {player: choice}."""
    out = {}
    for i, name in enumerate(state.config.players):
        value = args.get(f"c{i}")
        if value in (gwangpalli.PLAY, gwangpalli.SIT):
            out[name] = value
    return out


def next_seating(state: TableState, args: Mapping[str, str]) -> NextSeating:
    nxt, cfg = state.series.next, state.config
    if not cfg.gwangpalli:
        return NextSeating(Seating(cfg.players), None, [], False)
    if nxt.players:
        return NextSeating(Seating(nxt.players), None, [], False)
    choices = choices_from(args, state)
    if not choices and "chosen" not in args:
        return NextSeating(None, None, [], True)
    try:
        return NextSeating(gwangpalli.choose(cfg.players, nxt.dealer, choices), choices, [], True)
    except EngineError as err:
        return NextSeating(None, choices, err.errors, True)


def seat_args(state: TableState, choices: dict[str, str] | None) -> dict[str, Any]:
    """The query arguments that carry ``choices`` to the next step."""
    if not choices:
        return {}
    seats = {name: i for i, name in enumerate(state.config.players)}
    return {f"c{seats[p]}": v for p, v in choices.items()} | {"chosen": "1"}
