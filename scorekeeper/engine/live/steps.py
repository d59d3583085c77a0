"""The steps the live hand's event handlers share: checks of new cards, junk taken, turns.

``hand_events`` has one handler per event type; what several of them do is here.
"""

from __future__ import annotations

from typing import NoReturn

from ..cards import BONUS_CARDS, CARDS, month_cards
from ..errors import EngineError
from ..piles import BIT, mask_of
from .junk import cheapest_junk_of, check_named
from .state import HandState, LiveOutcome

MONTH_MASKS = {m: mask_of(c.code for c in month_cards(m)) for m in range(1, 13)}

# Junk each opponent gives, by reason (rules.md §7); a bomb takes its own (``on_bomb``).
JUNK_REASONS = {"sseul": 1, "ttadak": 1, "chok": 1, "ppuk": 1, "ja_ppuk": 2, "boss_joker": 1}
# The last player's last turn is bound to clear the table: these three take nothing then.
VOID_ON_LAST_TURN = frozenset({"sseul", "ttadak", "chok"})
SOURCES = frozenset({"hand", "stock", "stack"})
BOAR = "7a"


def refuse(code: str, message: str, path: str = "") -> NoReturn:
    raise EngineError(code, message, path)


# -- shared steps ------------------------------------------------------------------------


def check_new_cards(s: HandState, cards: tuple[str, ...], path: str) -> None:
    """Cards about to be captured: known, in the table's deck, and not already taken."""
    held, named = s.held, 0
    for i, code in enumerate(cards):
        bit = BIT.get(code)
        if bit is None:  # not a deck card: a bonus card, or no card at all
            check_new_bonus(s, code, cards[:i], f"{path}[{i}]")
        elif bit & held:
            holder = next(p.name for p in s.players if p.mask & bit)
            refuse("card_twice", f"{code} is already captured by {holder}.", f"{path}[{i}]")
        elif bit & named:
            refuse("card_twice", f"{code} is named twice.", f"{path}[{i}]")
        else:
            named |= bit


def check_new_bonus(s: HandState, code: str, before: tuple[str, ...], here: str) -> None:
    if code not in BONUS_CARDS:
        refuse("unknown_card", f"{code!r} is not a card code (e.g. 1g, 9a, 11jd, b2).", here)
    allowed = s.rules.bonus_count(code)
    if not allowed:
        refuse("bonus_not_in_rules", f"{code} ({CARDS[code].label}) is not in this table's deck.", here)
    taken = sum(p.bonus.count(code) for p in s.players) + before.count(code) + 1
    if taken > allowed:
        refuse("too_many_cards", f"The table plays with {allowed} {code}: all are already taken.", here)


def month_captured(s: HandState, month: int) -> list[str]:
    held = s.held
    return [c.code for c in month_cards(month) if BIT[c.code] & held]


def add_feat(s: HandState, name: str, feat: str) -> HandState:
    if (name, feat) in s.feats:
        return s
    return s.but(feats=(*s.feats, (name, feat)))


def note_turn_captures(s: HandState, name: str, cards: tuple[str, ...]) -> HandState:
    """Remember what the player on turn took, for the first-turn feats (boar, four of a month)."""
    if name != s.current:
        return s
    s = s.but(turn_captures=s.turn_captures + cards)
    if not s.on_first_turn(name):
        return s
    if BOAR in cards:
        s = add_feat(s, name, "boar")
    taken = mask_of(s.turn_captures)
    if any(taken & MONTH_MASKS[m] == MONTH_MASKS[m] for m in {CARDS[c].month for c in cards} - {0}):
        s = add_feat(s, name, "four")
    return s


def take_junk(s: HandState, taker: str, amount: int, named: object, path: str = "give") -> HandState:
    """Each opponent gives ``amount`` junk: the cards named, or the cheapest they hold."""
    named = named or {}
    if not isinstance(named, dict):
        refuse("bad_event", "give is an object: giver → list of card codes.", path)
    for giver in named:
        if giver not in s.order:
            refuse("unknown_player", f"{giver!r} is not a player of this hand.", f"{path}.{giver}")
        if giver == taker:
            refuse("bad_event", f"{taker} takes the junk and cannot also give it.", f"{path}.{giver}")
    seat, rules = s.setup.seat, s.rules
    players = list(s.players)
    taken: list[str] = []
    for giver in s.opponents(taker):
        p = players[seat[giver]]
        if giver in named:
            cards = check_named(giver, p.captures, named[giver], amount, rules, f"{path}.{giver}")
        else:
            cards = cheapest_junk_of(p.mask, p.bonus, amount, rules)
        if cards:
            players[seat[giver]] = p.with_cards(removed=cards)
            taken += cards
    if not taken:
        return s
    players[seat[taker]] = players[seat[taker]].with_cards(added=tuple(taken))
    return s.but(players=tuple(players))


def advance(s: HandState) -> HandState:
    """Play passes to the right; after the last turn the cards have run out: nagari."""
    turn = s.turn + 1
    sd = s.showdown
    if sd and sd.refused_by and turn >= sd.turn + len(s.players):
        sd = None  # nobody won within the round of the refusal: it expires (rules.md §9)
    s = s.but(turn=turn, turn_captures=(), must_decide=None, oe_myeon=None, showdown=sd)
    if turn >= s.setup.total_turns:
        went_go = any(p.gos for p in s.players)
        s = s.but(outcome=LiveOutcome("nagari", reason="go_not_raised" if went_go else "cards_ran_out"))
    return s


def ready_to_decide(s: HandState, name: str) -> None:
    """Go or stop: the player asked at the end of their turn, or whose turn ends eligible now."""
    if s.must_decide == name:
        return
    if s.current != name:
        refuse(
            "not_eligible", f"It is {s.current}'s turn: {name} may go or stop only at the end of their own.", "player"
        )
    if not s.eligible(name):
        p, points = s.player(name), s.score(name).toward_target
        refuse(
            "not_eligible",
            f"{name} has {points} toward the target and needs {s.needs(name)} to go or stop"
            + (f" (more than {p.score_at_last_go} at the last go)." if p.gos else "."),
            "player",
        )


def at_the_deal(s: HandState, what: str) -> None:
    if s.played:
        refuse("not_at_deal", f"{what} is declared at the deal, before anyone plays.")
