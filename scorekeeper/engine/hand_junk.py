"""피 뺏기 Junk surrendered during play (RULES.md §6.1).

Each opponent gives the taker one junk (two for ja-ppuk). Left to the engine, a giver
parts with the cheapest: an ordinary junk first, then a double or bonus junk; for two
junk, two ordinary ones or one card worth at least two; a player with no junk gives
nothing. The table may instead name the cards, which must be junk the giver holds.

>>> cheapest_junk(("1j1", "11jd", "b3"), 1), cheapest_junk(("1j1", "11jd", "b3"), 2)
(('1j1',), ('11jd',))
"""
from __future__ import annotations

from .cards import BONUS, CARDS, JUNK, sort_key
from .errors import EngineError


def junk_value(code: str) -> int:
    """What a card is worth when surrendered as junk; 0 for cards that are not junk."""
    card = CARDS[code]
    return card.junk if card.kind in (JUNK, BONUS) else 0


def surrenderable(captures: tuple[str, ...]) -> list[str]:
    """The junk a player could give, cheapest first."""
    held = [code for code in captures if junk_value(code) > 0]
    return sorted(held, key=lambda code: (junk_value(code), sort_key(code)))


def cheapest_junk(captures: tuple[str, ...], amount: int) -> tuple[str, ...]:
    """The cards the engine takes from a giver for ``amount`` (1 or 2) junk."""
    held = surrenderable(captures)
    if amount == 1 or not held:
        return tuple(held[:1])
    ordinary = [code for code in held if junk_value(code) == 1]
    if len(ordinary) >= 2:
        return tuple(ordinary[:2])
    valuable = [code for code in held if junk_value(code) >= 2]
    # One valuable card settles a two-junk debt; a lone ordinary junk is all they have.
    return (valuable[0],) if valuable else tuple(ordinary)


def check_named(giver: str, captures: tuple[str, ...], named, amount: int, path: str) -> tuple[str, ...]:
    """Cards the table names for ``giver`` to surrender: junk they hold, enough and no more."""
    if not isinstance(named, list) or not all(isinstance(c, str) for c in named):
        raise EngineError("bad_event", "give lists card codes per giver: {\"B\": [\"1j1\"]}.", path)
    pile = list(captures)
    for i, code in enumerate(named):
        if code not in CARDS:
            raise EngineError("unknown_card", f"{code!r} is not a card code.", f"{path}[{i}]")
        if code not in pile or junk_value(code) == 0:
            raise EngineError("junk_not_held", f"{giver} holds no junk card {code} to give.", f"{path}[{i}]")
        pile.remove(code)  # a repeated bonus card must be held as many times
    expected = cheapest_junk(captures, amount)
    if sum(map(junk_value, named)) < sum(map(junk_value, expected)) or len(named) > max(len(expected), amount):
        raise EngineError(
            "bad_event",
            f"{giver} gives {amount} junk: {'one card' if amount == 1 else 'two ordinary or one worth two'}"
            f" (for example {', '.join(expected) or 'nothing'}).",
            path,
        )
    return tuple(named)
