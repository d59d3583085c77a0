"""판 상태 The state of a live hand: every value immutable, derived by replaying its log.

``hand.py`` applies events; this module holds what they produce: the set-up of the
hand (``HandSetup``), each player's piles and declarations (``PlayerState``) and the
hand as a whole (``HandState``), which converts to the engine contract's summary
(DESIGN.md) once the hand has ended, so the payments are the rules engine's own.

Applying an event must cost next to nothing (the app replays a hand's log on every
tap), so the two values an event changes are ``Record``s rather than dataclasses:
``but(**changes)`` copies one dict where ``dataclasses.replace`` rebuilds the object
field by field, and a player's cards are a bit mask (``scoring.BIT``) whose score is
computed once per pile and remembered.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .cards import ANIMAL, BONUS, BRIGHT, CARDS, JUNK, RIBBON
from .errors import EngineError
from .rules import DEFAULT_PRESET, Rules, rules_from
from .scoring import BIT, Score, best_score_of_mask, codes_of

# RULES.md §2: 2 players hold 10 cards each, 3 players 7; one card is played a turn.
TURNS_EACH = {2: 10, 3: 7}
MAX_NAME = 40
SETUP_FIELDS = frozenset({"players", "dealer", "rules", "nagari_carry", "chip_value"})

# First-turn feats (player, feat) → the fixed payment they earn, when the rules pay it.
FEAT_PAYMENTS = {
    "ppuk": "first_turn_ppuk",
    "ttadak": "first_turn_ttadak",
    "chok": "first_turn_chok",
    "four": "first_turn_four",
    "boar": "boar_pot",
}


class Record:
    """An immutable record of named fields (``FIELDS``) whose changed copies are cheap.

    Equality, hashing and ``repr`` read ``FIELDS`` only; other entries of the instance dict are
    caches of values derived from the fields (dropped by ``but`` where they could go stale).
    """

    FIELDS: ClassVar[tuple[str, ...]] = ()
    DEFAULTS: ClassVar[dict[str, Any]] = {}  # of the fields that may be left out
    CACHES: ClassVar[tuple[str, ...]] = ()  # derived entries: dropped when any field changes

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        values = dict(zip(self.FIELDS, args, strict=False))  # the rest may come by name
        values.update(kwargs)
        d = {name: values[name] if name in values else self.DEFAULTS[name] for name in self.FIELDS}
        object.__setattr__(self, "__dict__", d)

    def but(self, **changes: Any):
        """A copy with ``changes``: the only way to 'change' a record."""
        d = self.__dict__.copy()
        d.update(changes)
        for name in self.CACHES:
            d.pop(name, None)
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", d)
        return new

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: use but({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _values(self) -> tuple:
        d = self.__dict__
        return tuple(d[name] for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self is other or self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        d = self.__dict__
        return f"{type(self).__name__}({', '.join(f'{n}={d[n]!r}' for n in self.FIELDS)})"


def _is_count(value: Any, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Who plays, who deals, under which rules, with what carried over."""

    players: tuple[str, ...]  # seating order, going to the right
    dealer: str
    rules: Rules
    preset: str = DEFAULT_PRESET
    options: tuple[tuple[str, Any], ...] = ()  # the overrides of the preset, sorted
    nagari_carry: int = 0
    chip_value: float = 100
    # Derived once here, read on every event: turn order, each name's place in it, the turns.
    order: tuple[str, ...] = field(init=False, compare=False, repr=False)
    seat: dict[str, int] = field(init=False, compare=False, repr=False)
    opponents_of: dict[str, tuple[str, ...]] = field(init=False, compare=False, repr=False)
    after: dict[str, str] = field(init=False, compare=False, repr=False)  # who plays next (to the right)
    total_turns: int = field(init=False, compare=False, repr=False)
    target: int = field(init=False, compare=False, repr=False)  # to go or stop (RULES.md §4)

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
    def create(cls, players, dealer=None, preset: str = DEFAULT_PRESET, options: dict | None = None,
               nagari_carry: int = 0, chip_value: float = 100) -> HandSetup:
        """Check and build a set-up; the dealer defaults to the first player."""
        if not (isinstance(players, (list, tuple)) and 2 <= len(players) <= 3
                and all(isinstance(p, str) and p.strip() and len(p) <= MAX_NAME for p in players)
                and len(set(players)) == len(players)):
            raise EngineError("bad_players", "A hand needs 2 or 3 distinct, named players.", "setup.players")
        dealer = players[0] if dealer is None else dealer
        if dealer not in players:
            raise EngineError("unknown_player", f"The dealer {dealer!r} is not a player of this hand.",
                              "setup.dealer")
        if not _is_count(nagari_carry, 0, 30):
            raise EngineError("bad_value", "nagari_carry is a whole number from 0 to 30.", "setup.nagari_carry")
        if isinstance(chip_value, bool) or not isinstance(chip_value, (int, float)) or not 0 <= chip_value <= 1e9:
            raise EngineError("bad_value", "chip_value is the money per point, a number from 0.",
                              "setup.chip_value")
        rules = rules_from(preset, options)
        return cls(tuple(players), dealer, rules, preset, tuple(sorted((options or {}).items())),
                   nagari_carry, chip_value)

    @classmethod
    def from_json(cls, doc: Any) -> HandSetup:
        """The ``setup`` object of a hand document; an unknown field is refused, never dropped."""
        if not isinstance(doc, dict):
            raise EngineError("bad_value", "setup is an object: players, dealer, rules, nagari_carry, chip_value.",
                              "setup")
        for key in doc:
            if key not in SETUP_FIELDS:
                hint = " (a mission or weol-yak is an event of the hand)" if key in ("mission", "weol_yak") else ""
                raise EngineError("unknown_field", f"A hand set-up has no field {key!r}{hint}.", f"setup.{key}")
        spec = doc.get("rules") or {}
        if isinstance(spec, str):
            spec = {"preset": spec}
        if not isinstance(spec, dict):
            raise EngineError("bad_value", "setup.rules is {preset, options}.", "setup.rules")
        return cls.create(doc.get("players"), doc.get("dealer"), spec.get("preset", DEFAULT_PRESET),
                          spec.get("options"), doc.get("nagari_carry", 0), doc.get("chip_value", 100))

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



class PlayerState(Record):
    """One player's captures and declarations so far.

    The captures are ``mask`` (the deck cards, one bit each) and ``bonus`` (bonus cards, which
    may repeat, sorted); ``captures`` lists them all in display order.
    """

    FIELDS = ("name", "mask", "bonus", "gos", "score_at_last_go", "shakes", "bombs", "ppuks", "ja_ppuks")
    DEFAULTS = {"mask": 0, "bonus": (), "gos": 0, "score_at_last_go": None, "shakes": (), "bombs": (),
                "ppuks": (), "ja_ppuks": 0}
    CACHES = ("_captures", "_score")
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
class Showdown:
    """쇼당: an offer of nagari at the start of the offerer's turn (RULES.md §7)."""

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


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the hand ended; the types are those of the engine contract."""

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

    def to_json(self) -> dict:
        out = {"type": self.type, "winners": list(self.winners)}
        if self.month is not None:
            out["month"] = self.month
        if self.reason:
            out["reason"] = self.reason
        return out


class HandState(Record):
    """A hand after some events. Never changed: ``hand.apply`` answers a new one."""

    FIELDS = ("setup", "players", "turn", "turn_captures", "played", "must_decide", "showdown", "oe_myeon",
              "feats", "go_order", "mission", "weol_yak", "outcome", "seq")
    DEFAULTS = {"turn": 0, "turn_captures": (), "played": False, "must_decide": None, "showdown": None,
                "oe_myeon": None, "feats": (), "go_order": (), "mission": 1, "weol_yak": (), "outcome": None,
                "seq": 0}
    # players: in turn order; turn: index into the hand's turns (the current player is
    # order[turn % n]); turn_captures: what the current player captured this turn; played:
    # anything beyond the deal happened (chongtong is too late); feats: first-turn (player,
    # feat), in order; go_order: who said each go; mission: the multiplier drawn for the hand
    # (RULES.md §11.9); weol_yak: players who took all four of a month on their first turn;
    # seq: events applied.

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
        """The last player's last turn: the final cards are bound to match (RULES.md §6.1)."""
        return self.turn == self.setup.total_turns - 1

    def captured(self) -> dict[str, str]:
        """Every captured deck card → who holds it."""
        return {code: p.name for p in self.players for code in p.captures}

    def score(self, name: str) -> Score:
        return self.player(name).score(self.setup.rules)

    def needs(self, name: str) -> int:
        """The score toward the target that lets ``name`` go or stop at the end of a turn."""
        p = self.player(name)
        return self.setup.target if not p.gos else p.score_at_last_go + 1

    def eligible(self, name: str) -> bool:
        """RULES.md §4: the target the first time, then strictly above the score at the last go."""
        setup = self.setup
        p = self.players[setup.seat[name]]
        needed = setup.target if not p.gos else p.score_at_last_go + 1
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
    def refused_showdown(self) -> Showdown | None:
        """A refused showdown still in force: within the round of the offer."""
        sd = self.showdown
        if sd and sd.refused_by and self.turn < sd.turn + len(self.players):
            return sd
        return None

    # -- payments ----------------------------------------------------------------------
    def fixed(self) -> list[dict]:
        """The fixed payments the first-turn feats earn under the table's rules."""
        out: list[dict] = []
        for name, feat in self.feats:
            kind = self._feat_payment(name, feat)
            if kind and getattr(self.rules, kind) and {"kind": kind, "player": name} not in out:
                out.append({"kind": kind, "player": name})
        return out

    def _feat_payment(self, name: str, feat: str) -> str | None:
        """A ttadak is four of a month too (pagat): paid as a ttadak where the rules say so, else as four."""
        ttadak_paid = bool(self.rules.first_turn_ttadak)
        if feat == "ttadak" and not ttadak_paid:
            return FEAT_PAYMENTS["four"]
        if feat == "four" and ttadak_paid and (name, "ttadak") in self.feats:
            return None
        return FEAT_PAYMENTS[feat]

    def summary(self) -> dict:
        """The engine contract's hand summary (DESIGN.md) of the hand so far."""
        if self.outcome is None:
            raise EngineError("hand_not_finished", "The hand has not ended: it has no summary yet.", "")
        players = self.players
        out: dict = {
            "rules": {"preset": self.setup.preset, "options": dict(self.setup.options)},
            "players": list(self.setup.players),
            "dealer": self.setup.dealer,
            "nagari_carry": self.setup.nagari_carry,
            "captures": {p.name: list(p.captures) for p in players},
            "gos": {p.name: p.gos for p in players if p.gos},
            "score_at_last_go": {p.name: p.score_at_last_go for p in players if p.gos},
            "shakes": {p.name: list(p.shakes) for p in players if p.shakes},
            "bombs": {p.name: list(p.bombs) for p in players if p.bombs},
            "outcome": self.outcome.to_summary(),
            "dokbak": None,
            "fixed": self.fixed(),
            "chip_value": self.setup.chip_value,
        }
        if self.mission > 1:
            out["mission"] = self.mission
        if self.weol_yak:
            out["weol_yak"] = list(self.weol_yak)
        if self.rules.reverse_go and (reverse := self.reverse_go()):
            out["reverse_go"] = list(reverse)
        out.update(self._stop_extras())
        return out

    def reverse_go(self) -> tuple[str, ...]:
        """역고: players who said a go after an opponent had said one (in this hand's go order)."""
        out: list[str] = []
        for i, name in enumerate(self.go_order):
            if name not in out and any(other != name for other in self.go_order[:i]):
                out.append(name)
        return tuple(out)

    def _stop_extras(self) -> dict:
        """last_go, showdown and oe-myeon: they only matter to a stop."""
        winner = self.outcome.winner
        if self.outcome.type != "stop":
            return {}
        extras: dict = {}
        loser_gos = [name for name in self.go_order if name != winner]
        if loser_gos:
            extras["last_go"] = loser_gos[-1]
        sd = self.refused_showdown
        if sd:
            extras["showdown"] = {"offered_by": sd.offered_by, "refused_by": sd.refused_by}
        om = self.oe_myeon
        # A showdown refusal outranks oe-myeon (RULES.md §5.1) unless the refuser won.
        if om and om.turn == self.turn and om.player != winner and not (sd and sd.refused_by != winner):
            extras["dokbak"] = {"player": om.player, "reason": "oe_myeon", "last_card": om.last_card}
        return extras

    def result(self) -> dict | None:
        """The contract's result (scores, payments, net) once the hand has ended."""
        if self.outcome is None:
            return None
        from .contract import score_summary  # the contract imports nothing of the live hand

        return score_summary(self.summary())

    def to_json(self) -> dict:
        """The live view: whose turn, who must decide, each player's piles and score."""
        return {
            "setup": self.setup.to_json(),
            "seq": self.seq,
            "turn": self._turn_json(),
            "must_decide": self.must_decide,
            "must_answer": self.must_answer,
            "showdown": self._showdown_json(),
            "target": self.setup.target,
            "players": [self._player_json(p) for p in self.players],
            "fixed": self.fixed(),
            "over": self.over,
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def _turn_json(self) -> dict | None:
        if self.over:
            return None
        return {
            "player": self.current,
            "number": self.round,
            "of": self.setup.turns_each,
            "first": self.round == 1,
            "last": self.round == self.setup.turns_each,
            "index": self.turn,
        }

    def _showdown_json(self) -> dict | None:
        sd = self.showdown
        if sd is None or (sd.refused_by and not self.refused_showdown):
            return None
        return {"offered_by": sd.offered_by, "accepted_by": list(sd.accepted_by), "refused_by": sd.refused_by}

    def _player_json(self, p: PlayerState) -> dict:
        return {
            "name": p.name,
            "dealer": p.name == self.setup.dealer,
            "captures": p.grouped(),
            "score": self.score(p.name).to_json(),
            "gos": p.gos,
            "score_at_last_go": p.score_at_last_go,
            "needs": self.needs(p.name),
            "shakes": list(p.shakes),
            "bombs": list(p.bombs),
            "ppuk": len(p.ppuks),
        }
