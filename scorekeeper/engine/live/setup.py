"""판 준비 The set-up of a live hand: who plays, who deals, the rules, what is carried over.

>>> setup = HandSetup.create(["A", "B", "C"], "B")
>>> setup.order, setup.target, setup.total_turns
(('B', 'C', 'A'), 3, 21)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import checks
from ..errors import EngineError
from ..rules import DEFAULT_PRESET, OptionValue, Rules, rules_from

# rules.md §2: 2 players hold 10 cards each, 3 players 7; one card is played a turn.
TURNS_EACH = {2: 10, 3: 7}
SETUP_FIELDS = frozenset({"players", "dealer", "rules", "nagari_carry", "chip_value"})


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Who plays, who deals, under which rules, with what carried over."""

    players: tuple[str, ...]  # seating order, going to the right
    dealer: str
    rules: Rules
    preset: str = DEFAULT_PRESET
    options: tuple[tuple[str, OptionValue], ...] = ()  # the overrides of the preset, sorted
    nagari_carry: int = 0
    chip_value: float = 100
    # Derived once here, read on every event: turn order, each name's place in it, the turns.
    order: tuple[str, ...] = field(init=False, compare=False, repr=False)
    seat: dict[str, int] = field(init=False, compare=False, repr=False)
    opponents_of: dict[str, tuple[str, ...]] = field(init=False, compare=False, repr=False)
    after: dict[str, str] = field(init=False, compare=False, repr=False)  # who plays next (to the right)
    total_turns: int = field(init=False, compare=False, repr=False)
    target: int = field(init=False, compare=False, repr=False)  # to go or stop (rules.md §4)

    def __post_init__(self) -> None:
        i = self.players.index(self.dealer) if self.dealer in self.players else 0
        order = self.players[i:] + self.players[:i]
        derived = {
            "order": order,
            "seat": {name: n for n, name in enumerate(order)},
            "opponents_of": {name: tuple(o for o in order if o != name) for name in order},
            "after": {name: order[(n + 1) % len(order)] for n, name in enumerate(order)},
            "total_turns": TURNS_EACH.get(len(self.players), 0) * len(self.players),
            "target": self.rules.target(len(self.players)),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    @classmethod
    def create(
        cls,
        players: object,
        dealer: str | None = None,
        preset: str = DEFAULT_PRESET,
        options: dict | None = None,
        nagari_carry: int = 0,
        chip_value: float = 100,
    ) -> HandSetup:
        """Check and build a set-up; the dealer defaults to the first player."""
        seated = checks.players(
            players,
            2,
            3,
            "bad_players",
            "A hand needs 2 or 3 distinct, named players.",
            "setup.players",
            sequence=(list, tuple),
        )
        dealer = seated[0] if dealer is None else dealer
        if dealer not in seated:
            raise EngineError("unknown_player", f"The dealer {dealer!r} is not a player of this hand.", "setup.dealer")
        if not checks.is_whole(nagari_carry, 0, checks.MAX_NAGARI_CARRY):
            raise EngineError("bad_value", "nagari_carry is a whole number from 0 to 30.", "setup.nagari_carry")
        checks.chip_value(chip_value, "setup.chip_value")
        rules = rules_from(preset, options)
        return cls(seated, dealer, rules, preset, tuple(sorted((options or {}).items())), nagari_carry, chip_value)

    @classmethod
    def from_json(cls, doc: Any) -> HandSetup:
        """The ``setup`` object of a hand document; an unknown field is refused, never dropped."""
        if not isinstance(doc, dict):
            raise EngineError(
                "bad_value", "setup is an object: players, dealer, rules, nagari_carry, chip_value.", "setup"
            )
        for key in doc:
            if key not in SETUP_FIELDS:
                hint = " (a mission or weol-yak is an event of the hand)" if key in ("mission", "weol_yak") else ""
                raise EngineError("unknown_field", f"A hand set-up has no field {key!r}{hint}.", f"setup.{key}")
        preset, options = checks.rules_spec(doc.get("rules"), "setup.rules is {preset, options}.", "setup.rules")
        return cls.create(
            doc.get("players"),
            doc.get("dealer"),
            preset,
            options,
            doc.get("nagari_carry", 0),
            doc.get("chip_value", 100),
        )

    def to_json(self) -> dict:
        return {
            "players": list(self.players),
            "dealer": self.dealer,
            "rules": {"preset": self.preset, "options": dict(self.options)},
            "nagari_carry": self.nagari_carry,
            "chip_value": self.chip_value,
        }

    @property
    def turns_each(self) -> int:
        return TURNS_EACH[len(self.players)]
