"""판 상태 The state of a live hand: every value immutable, derived by replaying its log.

``hand.py`` applies events; this module holds what they produce: each player's piles
and declarations (``PlayerState``) and the hand as a whole (``HandState``), on top of
its set-up (``hand_setup.HandSetup``). Once the hand has ended the state hands its facts
to the payout, and converts to the engine contract's summary (``hand_summary``), so the
payments are the rules engine's own; ``hand_view`` is the live view the phones show.

Applying an event must cost next to nothing (the app replays a hand's log on every
tap), so the two values an event changes are ``Record``s rather than dataclasses, and
a player's cards are a bit mask (``piles.BIT``) whose score is computed once per
pile and remembered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NotRequired, TypedDict

from ..cards import ANIMAL, BONUS, BRIGHT, CARDS, JUNK, RIBBON
from ..model import RefusedJSON, ResultJSON
from ..piles import BIT, codes_of
from ..rules import Rules
from ..scoring import Score, best_score_of_mask
from . import summary as hand_summary
from . import view as hand_view
from .record import Record
from .setup import HandSetup


class PlayerState(Record):
    """One player's captures and declarations so far.

    The captures are ``mask`` (the deck cards, one bit each) and ``bonus`` (bonus cards, which
    may repeat, sorted); ``captures`` lists them all in display order.
    """

    CACHES = ("_captures", "_score")
    # The fields (Record keeps the values in the instance dict; these are the defaults).
    name: str
    mask: int = 0
    bonus: tuple[str, ...] = ()
    gos: int = 0
    score_at_last_go: int | None = None
    shakes: tuple[int, ...] = ()
    bombs: tuple[int, ...] = ()
    ppuks: tuple[int | None, ...] = ()
    ja_ppuks: int = 0
    # ppuks: the month of each stack made, None when not said; ja_ppuks: own stacks captured
    # back (자뻑), each claims one of ``ppuks``.

    @property
    def captures(self) -> tuple[str, ...]:
        """Every card held, by month and kind; a bonus card may repeat."""
        out = self.__dict__.get("_captures")
        if out is None:  # derived once, kept with the record (a cache, not a field)
            out = self.__dict__["_captures"] = (*codes_of(self.mask), *self.bonus)
        return out

    def with_cards(self, added: tuple[str, ...] = (), removed: tuple[str, ...] = ()) -> PlayerState:
        mask, bonus = self.mask, self.bonus
        for code in removed:
            bit = BIT.get(code)
            if bit is None:
                rest = list(bonus)
                rest.remove(code)  # one copy: bonus cards may repeat
                bonus = tuple(rest)
            else:
                mask &= ~bit
        for code in added:
            bit = BIT.get(code)
            if bit is None:
                bonus = tuple(sorted((*bonus, code)))
            else:
                mask |= bit
        return self.but(mask=mask, bonus=bonus)

    def score(self, rules: Rules) -> Score:
        """The live score (the best counting of the cup), remembered with the pile."""
        hit = self.__dict__.get("_score")
        if hit is not None and hit[0] is rules:
            return hit[1]
        best = best_score_of_mask(self.mask, self.bonus, rules)
        self.__dict__["_score"] = (rules, best)  # a cache, not a field: equality ignores it
        return best

    def grouped(self) -> dict[str, list[str]]:
        """Captures by kind, bonus cards with the junk (that is where they score)."""
        out: dict[str, list[str]] = {BRIGHT: [], ANIMAL: [], RIBBON: [], JUNK: []}
        for code in self.captures:
            kind = CARDS[code].kind
            out[JUNK if kind == BONUS else kind].append(code)
        return out


@dataclass(frozen=True, slots=True)
class LiveShowdown:
    """쇼당: an offer of nagari at the start of the offerer's turn (rules.md §9), as it stands.

    The summary's ``facts.Showdown`` is what a refused offer leaves for the payments."""

    offered_by: str
    turn: int  # the turn of the offer: the refusal holds for that round
    accepted_by: tuple[str, ...] = ()
    refused_by: str | None = None


@dataclass(frozen=True, slots=True)
class OeMyeon:
    """외면: a loser left the winning card; it matters if the current turn ends in a stop."""

    player: str
    last_card: bool
    turn: int


class LiveOutcomeJSON(TypedDict):
    """A live hand's outcome in its live view: the contract's, every winner listed, and the reason."""

    type: str
    winners: list[str]
    month: NotRequired[int]
    reason: NotRequired[str]


@dataclass(frozen=True, slots=True)
class LiveOutcome:
    """How the live hand ended; the types are those of the engine contract (``facts.Outcome``),
    with the reason of a nagari."""

    type: str  # stop, nagari, chongtong, three_ppuk, void_deal
    winners: tuple[str, ...] = ()
    month: int | None = None
    reason: str = ""  # for a nagari: cards_ran_out, showdown, declared

    @property
    def winner(self) -> str | None:
        return self.winners[0] if self.winners else None

    def to_summary(self) -> dict:
        out: dict = {"type": self.type}
        if self.type == "void_deal":
            return out  # a void deal has no winner (under void_deal_chongtong it is a chongtong)
        if len(self.winners) == 1:
            out["winner"] = self.winners[0]
        elif self.winners:
            out["winners"] = list(self.winners)
        if self.month is not None and len(self.winners) == 1:
            out["month"] = self.month
        return out

    def to_json(self) -> LiveOutcomeJSON:
        out: LiveOutcomeJSON = {"type": self.type, "winners": list(self.winners)}
        if self.month is not None:
            out["month"] = self.month
        if self.reason:
            out["reason"] = self.reason
        return out


class HandState(Record):
    """A hand after some events. Never changed: ``hand.apply`` answers a new one."""

    setup: HandSetup
    players: tuple[PlayerState, ...]
    turn: int = 0
    turn_captures: tuple[str, ...] = ()
    played: bool = False
    must_decide: str | None = None
    showdown: LiveShowdown | None = None
    oe_myeon: OeMyeon | None = None
    feats: tuple[tuple[str, str], ...] = ()
    go_order: tuple[str, ...] = ()
    mission: int = 1
    weol_yak: tuple[str, ...] = ()
    outcome: LiveOutcome | None = None
    seq: int = 0
    mission_by: str | None = None
    # players: in turn order; turn: index into the hand's turns (the current player is
    # order[turn % n]); turn_captures: what the current player captured this turn; played:
    # anything beyond the deal happened (chongtong is too late); feats: first-turn (player,
    # feat), in order; go_order: who said each go; mission: the multiplier drawn for the hand
    # (rules.md §13 reading 9); weol_yak: players who took all four of a month on their first turn;
    # seq: events applied; mission_by: who completed the mission, when the table named them.

    @classmethod
    def start(cls, setup: HandSetup) -> HandState:
        return cls(setup, tuple(PlayerState(name) for name in setup.order))

    # -- reading -----------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def order(self) -> tuple[str, ...]:
        return self.setup.order

    def player(self, name: str) -> PlayerState:
        return self.players[self.setup.seat[name]]

    def replace_player(self, new: PlayerState) -> tuple[PlayerState, ...]:
        players = list(self.players)
        players[self.setup.seat[new.name]] = new
        return tuple(players)

    @property
    def held(self) -> int:
        """The mask of every deck card captured so far."""
        out = 0
        for p in self.players:
            out |= p.mask
        return out

    def opponents(self, name: str) -> tuple[str, ...]:
        return self.setup.opponents_of[name]

    @property
    def current(self) -> str | None:
        """Whose turn it is; None once the hand is over."""
        if self.outcome is not None:
            return None
        order = self.setup.order
        return order[self.turn % len(order)]

    @property
    def round(self) -> int:
        """The current player's turn number, from 1."""
        return self.turn // len(self.players) + 1

    def on_first_turn(self, name: str) -> bool:
        return self.current == name and self.round == 1

    @property
    def on_last_turn(self) -> bool:
        """The last player's last turn: the final cards are bound to match (rules.md §7)."""
        return self.turn == self.setup.total_turns - 1

    def captured(self) -> dict[str, str]:
        """Every captured deck card → who holds it."""
        return {code: p.name for p in self.players for code in p.captures}

    def score(self, name: str) -> Score:
        return self.player(name).score(self.setup.rules)

    def needs(self, name: str) -> int:
        """The score toward the target that lets ``name`` go or stop at the end of a turn."""
        p = self.player(name)
        return self.setup.target if not p.gos else (p.score_at_last_go or 0) + 1

    def eligible(self, name: str) -> bool:
        """rules.md §4: the target the first time, then strictly above the score at the last go."""
        setup = self.setup
        p = self.players[setup.seat[name]]
        needed = setup.target if not p.gos else (p.score_at_last_go or 0) + 1  # set with every go
        return p.score(setup.rules).toward_target >= needed

    @property
    def must_answer(self) -> str | None:
        """Who must answer a showdown offer now (the offerer's right first)."""
        sd = self.showdown
        if sd is None or sd.refused_by is not None or self.over:
            return None
        i = self.order.index(sd.offered_by)
        n = len(self.players)
        right, left = self.order[(i + 1) % n], self.order[(i + 2) % n]
        return left if right in sd.accepted_by else right

    @property
    def refused_showdown(self) -> LiveShowdown | None:
        """A refused showdown still in force: within the round of the offer."""
        sd = self.showdown
        if sd and sd.refused_by and self.turn < sd.turn + len(self.players):
            return sd
        return None

    def weol_yak_offers(self) -> tuple[str, ...]:
        """월약 the log shows and the table has not recorded yet: a player who took all four cards of a
        month on their first turn, under a rule that pays it — for the screen to offer in one tap."""
        if not self.rules.weol_yak or self.outcome is not None:
            return ()
        return tuple(name for name, feat in self.feats if feat == "four" and name not in self.weol_yak)

    # -- what the hand comes to (hand_summary) and how it shows (hand_view) ----------
    def fixed(self) -> list[dict]:
        """The fixed payments the first-turn feats earn under the table's rules."""
        return hand_summary.fixed(self)

    def summary(self) -> dict:
        """The engine contract's hand summary (the README's contract) of the hand so far."""
        return hand_summary.summary(self)

    def reverse_go(self) -> tuple[str, ...]:
        """역고: players who said a go after an opponent had said one (in this hand's go order)."""
        return hand_summary.reverse_go(self.go_order)

    def result(self) -> ResultJSON | RefusedJSON | None:
        """The contract's result (scores, payments, net) once the hand has ended."""
        return hand_summary.result(self)

    def to_json(self) -> dict:
        """The live view: whose turn, who must decide, each player's piles and score."""
        return hand_view.view(self)
