"""판 상태 The state of a live hand: every value frozen, derived by replaying its log.

``hand.py`` applies events; this module holds what they produce: the set-up of the
hand (``HandSetup``), each player's piles and declarations (``PlayerState``) and the
hand as a whole (``HandState``), which converts to the engine contract's summary
(DESIGN.md) once the hand has ended, so the payments are the rules engine's own.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .cards import ANIMAL, BONUS, BRIGHT, CARDS, JUNK, RIBBON, sort_key
from .errors import EngineError
from .rules import DEFAULT_PRESET, Rules, rules_from
from .scoring import Score, best_score

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


@lru_cache(maxsize=4096)
def score_of(captures: tuple[str, ...], rules: Rules) -> Score:
    """The live score of a pile; cached because replays ask for the same piles often."""
    return best_score(captures, rules)


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

    @classmethod
    def create(cls, players, dealer=None, preset: str = DEFAULT_PRESET, options: dict | None = None,
               nagari_carry: int = 0, chip_value: float = 100) -> "HandSetup":
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
    def from_json(cls, doc: Any) -> "HandSetup":
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
    def order(self) -> tuple[str, ...]:
        """Turn order: the dealer first, then to the right."""
        i = self.players.index(self.dealer)
        return self.players[i:] + self.players[:i]

    @property
    def turns_each(self) -> int:
        return TURNS_EACH[len(self.players)]

    @property
    def total_turns(self) -> int:
        return self.turns_each * len(self.players)

    @property
    def target(self) -> int:
        return self.rules.target(len(self.players))


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's captures and declarations so far."""

    name: str
    captures: tuple[str, ...] = ()  # sorted by month and kind; a bonus card may repeat
    gos: int = 0
    score_at_last_go: int | None = None
    shakes: tuple[int, ...] = ()
    bombs: tuple[int, ...] = ()
    ppuks: tuple[int | None, ...] = ()  # the month of each stack made, None when not said
    ja_ppuks: int = 0  # own stacks captured back (자뻑): each claims one of ``ppuks``

    def with_cards(self, added: tuple[str, ...] = (), removed: tuple[str, ...] = ()) -> "PlayerState":
        pile = list(self.captures)
        for code in removed:
            pile.remove(code)  # one copy: bonus cards may repeat
        return replace(self, captures=tuple(sorted(pile + list(added), key=sort_key)))

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


@dataclass(frozen=True, slots=True)
class HandState:
    """A hand after some events. Never changed: ``hand.apply`` answers a new one."""

    setup: HandSetup
    players: tuple[PlayerState, ...]  # in turn order
    turn: int = 0  # index into the hand's turns: the current player is order[turn % n]
    turn_captures: tuple[str, ...] = ()  # what the current player captured this turn
    played: bool = False  # anything beyond the deal happened: chongtong is too late
    must_decide: str | None = None
    showdown: Showdown | None = None
    oe_myeon: OeMyeon | None = None
    feats: tuple[tuple[str, str], ...] = ()  # first-turn (player, feat), in order
    go_order: tuple[str, ...] = ()  # who said each go, in order
    mission: int = 1  # the mission multiplier drawn for the hand (RULES.md §11.9)
    weol_yak: tuple[str, ...] = ()  # players who took all four of a month on their first turn
    outcome: Outcome | None = None
    seq: int = 0  # events applied

    @classmethod
    def start(cls, setup: HandSetup) -> "HandState":
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
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> PlayerState:
        return self.players[self.order.index(name)]

    def replace_player(self, new: PlayerState) -> tuple[PlayerState, ...]:
        return tuple(new if p.name == new.name else p for p in self.players)

    def opponents(self, name: str) -> tuple[str, ...]:
        return tuple(n for n in self.order if n != name)

    @property
    def current(self) -> str | None:
        """Whose turn it is; None once the hand is over."""
        return None if self.over else self.order[self.turn % len(self.players)]

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
        return score_of(self.player(name).captures, self.rules)

    def needs(self, name: str) -> int:
        """The score toward the target that lets ``name`` go or stop at the end of a turn."""
        p = self.player(name)
        return self.setup.target if not p.gos else p.score_at_last_go + 1

    def eligible(self, name: str) -> bool:
        """RULES.md §4: the target the first time, then strictly above the score at the last go."""
        return self.score(name).toward_target >= self.needs(name)

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
