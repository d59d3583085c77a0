"""피 뺏기 Junk surrendered during play (rules.md §7).

Each opponent gives the taker one junk (two for ja-ppuk). Left to the engine, a giver
parts with the cheapest: an ordinary junk first, then a double or bonus junk; for two
junk, two ordinary ones or one card worth at least two; a player with no junk gives
nothing. The table may instead name the cards, which must be junk the giver holds;
naming is also how an owner gives the cup ``9a`` (or a flexible bridge ``5a``) as its
double junk: the engine never picks a card its owner may still count as an animal.

>>> rules = Rules()
>>> cheapest_junk(("1j1", "11jd", "b3"), 1, rules), cheapest_junk(("1j1", "11jd", "b3"), 2, rules)
(('1j1',), ('11jd',))
"""

from __future__ import annotations

from ..cards import BONUS, BRIDGE, CARDS, CUP, JUNK, RAIN_RIBBON, sort_key
from ..errors import EngineError
from ..piles import B_RAIN_RIBBON, BIT, DOUBLE_JUNK_CARDS, SINGLE_JUNK
from ..rules import Rules

CODE_OF_BIT = {bit: code for code, bit in BIT.items()}


def junk_value(code: str, rules: Rules) -> int:
    """What a card is worth as junk when the engine picks it; 0 for cards that are not junk."""
    card = CARDS[code]
    if card.kind in (JUNK, BONUS):
        return card.junk
    return 1 if code == RAIN_RIBBON and not rules.rain_ribbon_counts else 0  # then 12r scores as junk


def named_value(code: str, rules: Rules) -> int:
    """What a card is worth as junk when its owner names it: the flexible cards too."""
    if code == CUP and rules.cup_flexible:
        return rules.cup_junk_value
    if code == BRIDGE and rules.bridge_flexible:
        return 2
    return junk_value(code, rules)


def surrenderable(captures: tuple[str, ...], rules: Rules) -> list[str]:
    """The junk the engine could take from a player, cheapest first."""
    held = [code for code in captures if junk_value(code, rules) > 0]
    return sorted(held, key=lambda code: (junk_value(code, rules), sort_key(code)))


def cheapest_junk(captures: tuple[str, ...], amount: int, rules: Rules) -> tuple[str, ...]:
    """The cards the engine takes from a giver for ``amount`` (1 or 2) junk."""
    held = surrenderable(captures, rules)
    if amount == 1 or not held:
        return tuple(held[:1])
    ordinary = [code for code in held if junk_value(code, rules) == 1]
    if len(ordinary) >= 2:
        return tuple(ordinary[:2])
    valuable = [code for code in held if junk_value(code, rules) >= 2]
    # One valuable card settles a two-junk debt; a lone ordinary junk is all they have.
    return (valuable[0],) if valuable else tuple(ordinary)


def cheapest_junk_of(mask: int, bonus: tuple[str, ...], amount: int, rules: Rules) -> tuple[str, ...]:
    """``cheapest_junk`` of a pile given as a deck mask and its bonus cards: the same choice in a few
    mask operations (deck bits are in display order, so the lowest bit is the first card)."""
    ordinary = mask & SINGLE_JUNK
    if not rules.rain_ribbon_counts:
        ordinary |= mask & B_RAIN_RIBBON  # then 12r scores as one junk
    first = ordinary & -ordinary
    if amount == 2 and first and ordinary ^ first:  # two ordinary junk
        rest = ordinary ^ first
        return (CODE_OF_BIT[first], CODE_OF_BIT[rest & -rest])
    if amount == 1 and first:
        return (CODE_OF_BIT[first],)
    doubles = mask & DOUBLE_JUNK_CARDS
    valuable = (
        CODE_OF_BIT[doubles & -doubles] if doubles else ("b2" if "b2" in bonus else "b3" if "b3" in bonus else None)
    )
    if valuable:  # one card worth two or more settles either debt when ordinary junk is short
        return (valuable,)
    return (CODE_OF_BIT[first],) if first else ()


def check_named(
    giver: str, captures: tuple[str, ...], named: object, amount: int, rules: Rules, path: str
) -> tuple[str, ...]:
    """Cards the table names for ``giver`` to surrender: junk they hold, enough and no more."""
    if not isinstance(named, list) or not all(isinstance(c, str) for c in named):
        raise EngineError("bad_event", 'give lists card codes per giver: {"B": ["1j1"]}.', path)
    pile = list(captures)
    for i, code in enumerate(named):
        if code not in CARDS:
            raise EngineError("unknown_card", f"{code!r} is not a card code.", f"{path}[{i}]")
        if code not in pile or named_value(code, rules) == 0:
            raise EngineError("junk_not_held", f"{giver} holds no junk card {code} to give.", f"{path}[{i}]")
        pile.remove(code)  # a repeated bonus card must be held as many times
    expected = cheapest_junk(captures, amount, rules)
    worth = sum(named_value(code, rules) for code in named)
    if worth < sum(junk_value(code, rules) for code in expected) or len(named) > max(len(expected), amount):
        raise EngineError(
            "bad_event",
            f"{giver} gives {amount} junk: {'one card' if amount == 1 else 'two ordinary or one worth two'}"
            f" (for example {', '.join(expected) or 'nothing'}).",
            path,
        )
    return tuple(named)
