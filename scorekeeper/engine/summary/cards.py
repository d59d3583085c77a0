"""A summary's cards: each player's captures and unlisted junk, the shakes and bombs shown."""

from __future__ import annotations

from collections import Counter

from ..cards import BONUS_CARDS, CARDS, DECK, JUNK, month_cards
from ..checks import is_month, is_whole
from ..piles import BIT
from ..rules import Rules
from .checker import Checker, Players, per_player


def check_captures(
    c: Checker, doc: dict, players: Players, rules: Rules, masks: dict[str, int]
) -> dict[str, tuple[str, ...]]:
    """Each player's captures, checked; ``masks`` gets the deck mask of those without bonus cards."""
    out: dict[str, tuple[str, ...]] = {}
    taken = 0  # the deck cards of the players so far, as a mask
    bonus_seen: Counter | None = None
    for p, cards in per_player(c, doc, "captures", players).items():
        if not isinstance(cards, list):
            c.add("bad_value", "captures must list card codes.", f"captures.{p}")
            continue
        mask = plain_mask(cards)
        if mask is not None and not mask & taken:  # the common case, checked in one go
            taken |= mask
            masks[p] = mask
            out[p] = tuple(cards)
            continue
        # The slow path names each problem, and who already holds a card taken twice.
        seen = {code: q for q, held in out.items() for code in held if code in BIT}
        kept = []
        bonus_seen = bonus_seen if bonus_seen is not None else Counter()
        for i, code in enumerate(cards):
            path = f"captures.{p}[{i}]"
            if not isinstance(code, str) or code not in CARDS:
                c.add("unknown_card", f"{code!r} is not a card code (e.g. 1g, 9a, 11jd, b2).", path)
            elif code in BONUS_CARDS:
                bonus_seen[code] += 1
                allowed = rules.bonus_count(code)
                if bonus_seen[code] > allowed:
                    c.add(
                        "bonus_not_in_rules",
                        f"{code} ({CARDS[code].label}): the table plays with {allowed} of it.",
                        path,
                    )
                else:
                    kept.append(code)
            elif code in seen:
                c.add("card_twice", f"{code} is captured twice ({seen[code]} and {p}).", path)
            else:
                seen[code] = p
                taken |= BIT[code]
                kept.append(code)
        out[p] = tuple(kept)
    return out


_BIT_OF = BIT.__getitem__  # bound once, not on every player's captures


def plain_mask(cards: list) -> int | None:
    """The mask of ``cards`` when they are distinct deck cards (no bonus card), else None.

    Adding the cards' bits gives as many set bits as cards exactly when none repeats (a repeat
    carries)."""
    try:
        mask = sum(map(_BIT_OF, cards))
    except (KeyError, TypeError):  # an unknown or bonus code, or an unhashable item: the slow path names it
        return None
    return mask if mask.bit_count() == len(cards) else None


def check_junk(
    c: Checker, doc: dict, players: Players, captures: dict[str, tuple[str, ...]], rules: Rules
) -> dict[str, int]:
    out = {}
    for p, n in per_player(c, doc, "junk", players).items():
        if not is_whole(n, 0, 200):
            c.add("bad_value", "junk is a whole number of junk (a double junk counts 2).", f"junk.{p}")
        else:
            out[p] = n
    if not out:
        return out
    room = _junk_room(captures, rules)
    if sum(out.values()) > room:
        c.add(
            "too_many_cards",
            f"The unlisted junk adds up to {sum(out.values())}, but the junk not listed is worth only {room}.",
            "junk",
        )
    return out


def _junk_room(captures: dict[str, tuple[str, ...]], rules: Rules) -> int:
    """The junk the listed captures leave for the unlisted counts: the deck's junk, and the cards
    the table's rules let count as junk, not listed."""
    listed = {code for cards in captures.values() for code in cards}
    room = sum(card.junk for card in DECK if card.kind == JUNK and card.code not in listed)
    room += not rules.rain_ribbon_counts and "12r" not in listed  # then the rain ribbon is junk
    room += rules.cup_junk_value if rules.cup_flexible and "9a" not in listed else 0
    room += 2 if rules.bridge_flexible and "5a" not in listed else 0
    room += sum(BONUS_CARDS[b].junk * rules.bonus_count(b) for b in ("b2", "b3"))
    room -= sum(BONUS_CARDS[code].junk for cards in captures.values() for code in cards if code in ("b2", "b3"))
    return room


def month_lists(c: Checker, doc: dict, key: str, players: Players) -> dict[str, tuple[int, ...]]:
    out = {}
    for p, months in per_player(c, doc, key, players).items():
        if not isinstance(months, list) or not all(is_month(m) for m in months):
            c.add("bad_month", f"{key} lists months from 1 to 12.", f"{key}.{p}")
        elif len(set(months)) != len(months):
            c.add("shake_twice", f"{p} names the same month twice in {key}.", f"{key}.{p}")
        else:
            out[p] = tuple(months)
    return out


def check_months(
    c: Checker,
    shakes: dict[str, tuple[int, ...]],
    bombs: dict[str, tuple[int, ...]],
    captures: dict[str, tuple[str, ...]],
    rules: Rules,
) -> None:
    """Shakes and bombs: each month held by one player; a bomb's month captured whole."""
    if not shakes and not bombs:
        return
    owner: dict[int, str] = {}
    for key, table in (("shakes", shakes), ("bombs", bombs)):
        for p, months in table.items():
            for m in months:
                if owner.setdefault(m, p) != p:
                    c.add("shake_twice", f"Month {m} is shown by both {owner[m]} and {p}.", f"{key}.{p}")
    if bombs:
        _check_bombs(c, shakes, bombs, captures, rules)


def _check_bombs(
    c: Checker,
    shakes: dict[str, tuple[int, ...]],
    bombs: dict[str, tuple[int, ...]],
    captures: dict[str, tuple[str, ...]],
    rules: Rules,
) -> None:
    """Each bomb's month captured whole by its bomber, and not a month the table forbids after a shake."""
    # A flexible cup or bridge may since have left the bomber's pile as double junk (rules.md §13 reading 5),
    # and so may the rain ribbon where it counts as one junk.
    flexible = {
        code
        for code, on in (
            ("9a", rules.cup_flexible),
            ("5a", rules.bridge_flexible),
            ("12r", not rules.rain_ribbon_counts),
        )
        if on
    }
    for p, months in bombs.items():
        for m in months:
            needed = [card.code for card in month_cards(m) if card.kind != JUNK and card.code not in flexible]
            missing = [code for code in needed if code not in captures.get(p, ())]
            if missing:
                c.add(
                    "bomb_cards_missing",
                    f"{p} bombed month {m} but did not capture {', '.join(missing)}.",
                    f"bombs.{p}",
                )
            if m in shakes.get(p, ()) and not rules.bomb_after_shake:
                c.add(
                    "bomb_after_shake",
                    f"{p} shook month {m}: the table's rules allow no bomb of a shaken month.",
                    f"bombs.{p}",
                )
