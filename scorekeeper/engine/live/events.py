"""사건 The events of a live hand: one small handler each, and the shape each takes.

Every handler takes a ``HandState`` and the event (a plain dict, already checked for
shape by ``hand.apply``) and answers a new state, or raises ``EngineError``. The table
of events, with their fields, is in ``hand.py``'s docstring; the steps several handlers
share are in ``hand_steps``.
"""

from __future__ import annotations

from dataclasses import replace

from ..cards import month_cards
from .state import HandState, LiveOutcome, LiveShowdown, OeMyeon
from .steps import (
    JUNK_REASONS,
    SOURCES,
    VOID_ON_LAST_TURN,
    add_feat,
    advance,
    at_the_deal,
    check_new_cards,
    month_captured,
    note_turn_captures,
    ready_to_decide,
    refuse,
    take_junk,
)
from .summary import PPUK_CHAIN

# The event vocabulary the app reads here (JUNK_REASONS, SOURCES) and the handlers.
__all__ = [
    "JUNK_REASONS",
    "SOURCES",
    "on_bomb",
    "on_capture",
    "on_chongtong",
    "on_end_turn",
    "on_four_on_table",
    "on_go",
    "on_mission",
    "on_nagari",
    "on_oe_myeon",
    "on_ppuk",
    "on_shake",
    "on_showdown_accept",
    "on_showdown_offer",
    "on_showdown_refuse",
    "on_stop",
    "on_take_junk",
    "on_weol_yak",
]

# -- the handlers --------------------------------------------------------------------------


def on_capture(s: HandState, ev: dict) -> HandState:
    name, cards = ev["player"], tuple(ev["cards"])
    check_new_cards(s, cards, "cards")
    players = s.replace_player(s.player(name).with_cards(added=cards))
    if name != s.current or s.round > 1:  # the common case, in one copy
        return s.but(players=players, turn_captures=s.turn_captures + cards if name == s.current else s.turn_captures)
    return note_turn_captures(s.but(players=players), name, cards)


def on_take_junk(s: HandState, ev: dict) -> HandState:
    name, reason = ev["player"], ev["reason"]
    if reason in VOID_ON_LAST_TURN and s.on_last_turn and s.current == name:
        refuse("last_turn", f"On the last player's last turn a {reason} takes no junk.", "reason")
    if reason == "boss_joker" and not s.rules.boss_junk_jokers:
        refuse("rule_off", "The table plays no boss-junk joker.", "reason")
    if reason == "ja_ppuk":
        s = claim_own_stack(s, name)
    s = take_junk(s, name, JUNK_REASONS[reason], ev.get("give"))
    if reason in ("ttadak", "chok") and s.on_first_turn(name):
        s = add_feat(s, name, reason)
    return s


def claim_own_stack(s: HandState, name: str) -> HandState:
    """Ja-ppuk captures one's own stack (rules.md §13 reading 5).

    Refused when the log shows the stack is another's: the capturer has no stack of their own
    left in the log while another player has made one. A log with no stack at all says nothing
    (stacks are not always tapped in), so the claim stands.
    """
    p = s.player(name)
    own_left = len(p.ppuks) - p.ja_ppuks
    others = [q.name for q in s.players if q.name != name and q.ppuks]
    if own_left <= 0 and others:
        refuse(
            "not_own_stack",
            f"The log shows no stack of {name}'s own left on the table (the stacks are "
            f"{', '.join(others)}'s): capturing another's stack is a ppuk, one junk.",
            "reason",
        )
    return s.but(players=s.replace_player(p.but(ja_ppuks=p.ja_ppuks + 1)))


def on_ppuk(s: HandState, ev: dict) -> HandState:
    name, month = ev["player"], ev.get("month")
    if month is not None:
        if any(month in p.ppuks for p in s.players):
            refuse("card_twice", f"Month {month} was already stacked in this hand.", "month")
        if len(month_captured(s, month)) > 1:
            refuse(
                "card_twice",
                f"Three cards of month {month} cannot be on the table: "
                f"{', '.join(month_captured(s, month))} are captured.",
                "month",
            )
    p = s.player(name)
    p = p.but(ppuks=(*p.ppuks, month))
    s = s.but(players=s.replace_player(p), feats=_ppuk_chain(s, name))
    if len(p.ppuks) == 3 and s.rules.three_ppuk:
        s = s.but(outcome=LiveOutcome("three_ppuk", (name,)))
    return s


def _ppuk_chain(s: HandState, name: str) -> tuple[tuple[str, str], ...]:
    """The feats with this ppuk's link of the chain added, when it makes one: on the player's own turn
    number n, after the links of every turn before it (whether and how the table pays them is
    ``summary.fixed``'s)."""
    if s.current != name or not 1 <= s.round <= len(PPUK_CHAIN):
        return s.feats
    link = PPUK_CHAIN[s.round - 1]
    if (name, link) in s.feats or not all((name, before) in s.feats for before in PPUK_CHAIN[: s.round - 1]):
        return s.feats
    return (*s.feats, (name, link))


def check_month_in_hand(s: HandState, name: str, month: int, what: str) -> None:
    """Three cards of ``month`` in one hand: nobody else showed them, at most one is captured."""
    for p in s.players:
        if month in p.bombs or (month in p.shakes and p.name != name):
            refuse("card_twice", f"{p.name} already showed three cards of month {month}.", "month")
        if month in p.shakes and what == "shake":
            refuse("shake_twice", f"{name} already shook month {month}.", "month")
    taken = month_captured(s, month)
    if len(taken) > (0 if what == "bomb" else 1):
        refuse("card_twice", f"{name} cannot hold three cards of month {month}: {', '.join(taken)} captured.", "month")


def on_shake(s: HandState, ev: dict) -> HandState:
    name, month = ev["player"], ev["month"]
    check_month_in_hand(s, name, month, "shake")
    p = s.player(name)
    return s.but(players=s.replace_player(p.but(shakes=(*p.shakes, month))))


def on_bomb(s: HandState, ev: dict) -> HandState:
    """The bomber captures the four cards of the month (and, by option, a junk from each)."""
    name, month = ev["player"], ev["month"]
    if month in s.player(name).shakes and not s.rules.bomb_after_shake:
        refuse("bomb_after_shake", f"{name} shook month {month}: the table's rules allow no bomb of it.", "month")
    check_month_in_hand(s, name, month, "bomb")
    if ev.get("give") and not s.rules.bomb_takes_junk:
        refuse("rule_off", "Under the table's rules a bomb takes no junk.", "give")
    cards = tuple(c.code for c in month_cards(month))
    p = s.player(name).with_cards(added=cards)
    s = s.but(players=s.replace_player(p.but(bombs=(*p.bombs, month))))
    s = note_turn_captures(s, name, cards)
    if s.rules.bomb_takes_junk:
        s = take_junk(s, name, 1, ev.get("give"))
    return s


def on_end_turn(s: HandState, ev: dict) -> HandState:
    """Go or stop is checked when a turn ends (rules.md §4); otherwise play moves on."""
    if ev.get("player") not in (None, s.current):
        refuse("not_your_turn", f"It is {s.current}'s turn, not {ev['player']}'s.", "player")
    name = s.current
    if name is None:  # the hand is over; apply refuses events after its end before this
        refuse("hand_over", "The hand has ended: no more events (undo the last one to change it).")
    if s.eligible(name):
        return s.but(must_decide=name)
    return advance(s)


def on_go(s: HandState, ev: dict) -> HandState:
    name = ev["player"]
    ready_to_decide(s, name)
    p = s.player(name)
    p = p.but(gos=p.gos + 1, score_at_last_go=s.score(name).toward_target)
    s = s.but(players=s.replace_player(p), go_order=(*s.go_order, name))
    return advance(s)


def on_stop(s: HandState, ev: dict) -> HandState:
    name = ev["player"]
    ready_to_decide(s, name)
    return s.but(must_decide=None, outcome=LiveOutcome("stop", (name,)))


def on_showdown_offer(s: HandState, ev: dict) -> HandState:
    name = ev["player"]
    if len(s.players) != 3:
        refuse("showdown_needs_three", "A showdown (쇼당) is offered only at a three-player hand.")
    if name != s.current:
        refuse("not_your_turn", f"{name} may offer a showdown only at the start of their own turn.", "player")
    if s.turn_captures:
        refuse("not_your_turn", f"{name} already played this turn: a showdown is offered at its start.", "player")
    return s.but(showdown=LiveShowdown(name, s.turn))


def check_answer(s: HandState, name: str) -> LiveShowdown:
    """The showdown ``name`` may answer now, or a refusal."""
    if s.showdown is None or s.must_answer is None:
        refuse("no_showdown", "No showdown is waiting for an answer.")
    if name != s.must_answer:
        refuse("must_answer", f"{s.must_answer} answers the showdown first.", "player")
    return s.showdown


def on_showdown_accept(s: HandState, ev: dict) -> HandState:
    name = ev["player"]
    shown = check_answer(s, name)
    sd = replace(shown, accepted_by=(*shown.accepted_by, name))
    if len(sd.accepted_by) == 2:
        return s.but(showdown=sd, outcome=LiveOutcome("nagari", reason="showdown"))
    return s.but(showdown=sd)


def on_showdown_refuse(s: HandState, ev: dict) -> HandState:
    """One refusal is enough: if the right refuses, the left accepts without being asked."""
    name = ev["player"]
    return s.but(showdown=replace(check_answer(s, name), refused_by=name))


def on_oe_myeon(s: HandState, ev: dict) -> HandState:
    name = ev["player"]
    if len(s.players) != 3:
        refuse("dokbak_needs_three", "Oe-myeon (외면) dok-bak exists only at a three-player hand.")
    if not s.rules.oe_myeon:
        refuse("rule_off", "The table's rules do not play oe-myeon.")
    if name == s.current:
        refuse("dokbak_is_winner", f"{name} is on turn: oe-myeon names the loser who left the card.", "player")
    return s.but(oe_myeon=OeMyeon(name, ev.get("last_card", False), s.turn))


def chongtong_holders(s: HandState, ev: dict) -> dict[str, int]:
    """{player: month} from either ``player`` + ``month`` or ``players``."""
    if "players" in ev:
        if "player" in ev or "month" in ev:
            refuse("bad_event", "chongtong takes player and month, or players, not both.")
        holders = ev["players"]
        if not holders:
            refuse("bad_event", "chongtong names at least one player.", "players")
        for name in holders:
            if name not in s.order:
                refuse("unknown_player", f"{name!r} is not a player of this hand.", f"players.{name}")
        return dict(holders)
    if "player" not in ev or "month" not in ev:
        refuse("bad_event", "chongtong needs player and month (or players: {name: month}).")
    return {ev["player"]: ev["month"]}


def on_chongtong(s: HandState, ev: dict) -> HandState:
    at_the_deal(s, "Chongtong (총통)")
    if not s.rules.chongtong_played:
        refuse("rule_off", "The table's rules pay nothing for chongtong.")
    holders = chongtong_holders(s, ev)
    months = list(holders.values())
    if len(set(months)) != len(months):
        refuse("card_twice", "Two players cannot both hold all four cards of one month.", "players")
    for month in months:
        if month_captured(s, month):
            refuse("card_twice", f"Month {month}: {', '.join(month_captured(s, month))} already captured.", "month")
    winners = tuple(n for n in s.order if n in holders)
    return s.but(outcome=LiveOutcome("chongtong", winners, months[0] if len(months) == 1 else None))


def on_four_on_table(s: HandState, ev: dict) -> HandState:
    """Four of a month on the table: a void deal, or the dealer's win by option."""
    at_the_deal(s, "Four of a month on the table")
    month = ev["month"]
    if month_captured(s, month):
        refuse("card_twice", f"Month {month}: {', '.join(month_captured(s, month))} already captured.", "month")
    # rules.md §13 reading 8: reported as the dealer's chongtong.
    if s.rules.void_deal_chongtong and s.rules.chongtong_played:
        return s.but(outcome=LiveOutcome("chongtong", (s.setup.dealer,), month))
    return s.but(outcome=LiveOutcome("void_deal", (), month))


def on_nagari(s: HandState, ev: dict) -> HandState:
    """The table says the cards ran out with no stop (when turns were not tapped in)."""
    went_go = any(p.gos for p in s.players)
    return s.but(outcome=LiveOutcome("nagari", reason="go_not_raised" if went_go else "declared"))


def on_weol_yak(s: HandState, ev: dict) -> HandState:
    """월약: a fact of the hand, recorded as the summary's ``weol_yak`` (rules.md §13 reading 9)."""
    name = ev["player"]
    if not s.rules.weol_yak:
        refuse("rule_off", "The table's rules play no weol-yak (월약).")
    if name in s.weol_yak:
        refuse("bad_event", f"{name}'s weol-yak is already recorded.", "player")
    if (name, "four") not in s.feats:
        refuse("not_weol_yak", f"{name} did not take all four cards of a month on their first turn.", "player")
    return s.but(weol_yak=(*s.weol_yak, name))


def on_mission(s: HandState, ev: dict) -> HandState:
    """미션: the multiplier drawn for the hand, recorded as the summary's ``mission``."""
    if not s.rules.missions:
        refuse("rule_off", "The table's rules play no missions (미션).")
    if s.mission > 1:
        refuse("bad_event", f"This hand's mission (×{s.mission}) is already recorded: undo it to change it.")
    return s.but(mission=ev["multiplier"], mission_by=ev.get("player"))
