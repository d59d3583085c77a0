"""족보 Scores: a player's captured cards → score lines (rules.md §3).

Each combination is one record in ``combinations.COMBINATION_RECORDS`` (id, Korean
and English label, the option it depends on, category) with one small function: it
reads a ``Pile`` (``piles``: the captures counted one way) and the rules, and answers
the line it scores or ``None``. ``score`` runs those the rules play (remembering, per rules,
the lines of each mask of brights, animals and ribbons); ``best_score`` tries every way of counting the
flexible cards (the cup ``9a``, and the bridge ``5a`` where the rules allow).

>>> s = score(pile(["1g", "3g", "8g", "2a", "4a", "8a"]), Rules())
>>> s.points, [line.id for line in s.lines]
(8, ['three_brights', 'godori'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import combinations as subsets
from operator import attrgetter
from typing import NamedTuple

from ..caching import Bounded
from .cards import ANIMAL, BRIGHT, JUNK, RIBBON
from .combinations import COMBINATION_RECORDS, GATES, LINE_LABELS, Combination
from .piles import (
    B_BRIDGE,
    B_CUP,
    B_FLEXIBLE,
    COUNTED_AS,
    Pile,
    codes_in,
    counted_as_junk,
    flexible_cards,
    new_tuple,
    pile,
    pile_of_mask,
)
from .rules import OPTIONS, Rules


class Line(NamedTuple):
    """One scoring combination a player holds."""

    id: str
    points: int
    category: str  # bright / animal / ribbon / junk: what gwang-bak, pi-bak … look at
    cards: int = 0  # a mask
    toward_target: bool = True
    bonus: tuple[str, ...] = ()  # bonus cards in the line (junk)

    def to_json(self) -> dict:
        id, points, _, cards, toward_target, bonus = self  # one unpacking: quicker than six lookups
        out = {"id": id, "label": LINE_LABELS[id], "points": points, "cards": [*codes_in(cards), *bonus]}
        if not toward_target:
            out["toward_target"] = False
        return out


class Score(NamedTuple):
    points: int
    toward_target: int
    lines: tuple[Line, ...]
    pile: Pile
    categories: frozenset[str] = frozenset()  # of the lines: what gwang-bak, pi-bak … ask

    def has(self, category: str) -> bool:
        return category in self.categories

    @property
    def counted_as(self) -> dict[str, str]:
        """How each flexible card is counted: {"9a": "junk"}."""
        p = self.pile
        return dict(COUNTED_AS[p.mask & B_FLEXIBLE, p.as_junk & B_FLEXIBLE])

    def to_json(self) -> dict:
        points, toward_target, lines, p, _ = self  # one unpacking each: quicker than field lookups
        brights, animals, ribbons, _, junk_value, mask, _, as_junk = p
        return {
            "points": points,
            "toward_target": toward_target,
            "lines": [line.to_json() for line in lines] if lines else [],
            "counted_as": dict(COUNTED_AS[mask & B_FLEXIBLE, as_junk & B_FLEXIBLE]) if mask & B_FLEXIBLE else {},
            "counts": {
                BRIGHT: brights.bit_count(),
                ANIMAL: animals.bit_count(),
                RIBBON: ribbons.bit_count(),
                JUNK: junk_value,
            },
        }


# (flexible cards held, those counted as junk) → how each held one is counted, as (code, kind) pairs.


def _played(with_vip: bool, with_palssari: bool) -> tuple[Combination, ...]:
    """The combinations the rules play (VIP and palssari only where they are on)."""
    off = {"vip": not with_vip, "palssari": not with_palssari}
    return tuple(c for c in COMBINATION_RECORDS if not off.get(c.id, False))


_Gated = tuple[int, int, tuple[tuple[int, Callable, str, bool], ...]]


@lru_cache(maxsize=8)
def _gated(with_vip: bool, with_palssari: bool, four_birds: bool) -> tuple[_Gated, ...]:
    """The combinations the rules play (yukdori and bidori only under the four-bird rule) as the
    scorer's loop reads them: in runs that share a gate's count (the records list them so),
    each run (count index, its least gate, ((least, unit, category, toward target), …))."""
    runs: list[tuple[int, list]] = []
    for c in _played(with_vip, with_palssari):
        if c.option == "four_birds" and not four_birds:
            continue
        gate = GATES.index(c.gate[0])
        if not runs or runs[-1][0] != gate:
            runs.append((gate, []))
        runs[-1][1].append((c.gate[1], c.unit, c.category, c.toward_target))
    return tuple((gate, min(m[0] for m in members), tuple(members)) for gate, members in runs)


# The combinations of the brights, the animals and the ribbons read only the pile's mask of their
# kind (``Pile`` fields 0–2, the first three of ``GATES``) and the options they read (``reads``):
# that mask (5, 9 or 10 cards, so at most 1,024 of them) decides their lines, which are remembered
# per mask for all rules that agree on those options, instead of asking the units again for every
# pile. The junk and the extras (VIP, palssari) read more of the pile and are asked each time.
_MASKED_GATES = 3
assert Pile._fields[:_MASKED_GATES] == GATES[:_MASKED_GATES]  # a run's gate is its mask's field
_JUNK_VALUE = GATES.index("junk_value")


class _Plan(NamedTuple):
    rules: Rules  # the rules it is for: a plan is used only for them (``score`` checks)
    masked: tuple[tuple[int, dict[int, tuple[Line, ...]], tuple], ...]  # (gate, lines by mask, members)
    rest: tuple[_Gated, ...]


# The plan last scored with: a summary's piles (3.9 scorings in the benchmark's) or a hand's are
# scored in a row under one rules object, which finds its plan once. Where each summary of a batch
# has options of its own, each has a rules object of its own: a table of plans by rules cost more
# to keep than the plan costs to find (BENCHMARKS.md, issue 32).
_last_plan: _Plan | None = None
# The combinations read only the options of the rules' "scoring" group (a test holds them to
# it), so rules that differ elsewhere — a go bonus, a double, a fixed payment — share one plan and
# its lines by mask: a batch of summaries each with its own options still finds them known.
SCORING_OPTIONS = tuple(name for name, spec in OPTIONS.items() if spec.metadata["group"] == "scoring")
_SHARED: Bounded[tuple, _Plan] = Bounded(256)
# The rules' values of SCORING_OPTIONS, read in one call: each rules object of a batch whose
# summaries each have options of their own asks for it once (BENCHMARKS.md, issue 32).
_scoring_values = attrgetter(*SCORING_OPTIONS)


# Each unit's options (``Combination.reads``), by unit.
_READS = {c.unit: c.reads for c in COMBINATION_RECORDS}
# (a run's members, the options its units read with their values) -> the run's lines by mask, shared
# by every plan that agrees on them: a batch whose summaries each have options of their own (141
# plans in the benchmark's 10,000) learns each mask once, not once a plan (the ribbons' lines read
# no option at all). Fewer, smaller tables are also quicker to look in (BENCHMARKS.md, issue 32).
_RUN_LINES: Bounded[tuple, dict[int, tuple[Line, ...]]] = Bounded(256)


def _lines_by_mask(members: tuple, rules: Rules) -> dict[int, tuple[Line, ...]]:
    """The table of a masked run's lines by mask under ``rules``, shared as above."""
    reads = sorted({name for _, unit, _, _ in members for name in _READS[unit]})
    # The type too: 1 == True, but a line's points are written as they are.
    key = (members, tuple((name, type(getattr(rules, name)), getattr(rules, name)) for name in reads))
    known = _RUN_LINES.get(key)
    return known if known is not None else _RUN_LINES.put(key, {})


def _plan(rules: Rules) -> _Plan:
    global _last_plan
    scoring = _scoring_values(rules)
    shared = _SHARED.get(scoring)
    if shared is None:
        runs = _gated(rules.vip, rules.palssari, rules.four_birds)
        shared = _SHARED.put(
            scoring,
            _Plan(
                rules,
                tuple(
                    (gate, _lines_by_mask(members, rules), members) for gate, _, members in runs if gate < _MASKED_GATES
                ),
                tuple(run for run in runs if run[0] >= _MASKED_GATES),
            ),
        )
    plan = _last_plan = new_tuple(_Plan, (rules, shared.masked, shared.rest))
    return plan


def _lines(members: tuple, n: int, p: Pile, rules: Rules) -> tuple[Line, ...]:
    """The lines of one run of combinations (``n``: the pile's count of the run's gate)."""
    lines = []
    for least, unit, category, counts in members:
        if n < least:
            continue
        hit = unit(p, rules)
        if hit and hit[1]:
            lines.append(
                new_tuple(Line, (hit[0], hit[1], category, hit[2], counts, p.bonus if hit[0] == "junk" else ()))
            )
    return tuple(lines)


def score(p: Pile, rules: Rules) -> Score:
    """Every combination ``p`` holds under ``rules``, added up."""
    plan = _last_plan
    if plan is None or plan[0] is not rules:  # (plan.rules: an index is quicker, four times a summary)
        plan = _plan(rules)
    lines: tuple[Line, ...] = ()
    for gate, known, members in plan.masked:
        mask: int = p[gate]  # type: ignore[assignment]  # fields 0-2, masks (asserted above)
        found = known.get(mask)
        if found is None:
            found = known[mask] = _lines(members, mask.bit_count(), p, rules)
        if found:
            lines += found
    for gate, fewest, members in plan.rest:
        n = p.junk_value if gate == _JUNK_VALUE else p.mask.bit_count()
        if n >= fewest:  # else too few for any combination of this run: no need to ask them
            lines += _lines(members, n, p, rules)
    if not lines:  # most losers' piles: nothing scores
        return new_tuple(Score, (0, 0, (), p, NO_CATEGORIES))
    total = toward = 0
    for line in lines:
        total += line.points
        if line.toward_target:
            toward += line.points
    return new_tuple(Score, (total, toward, lines, p, frozenset([line.category for line in lines])))


NO_CATEGORIES: frozenset[str] = frozenset()


def all_scores(codes: Iterable[str], rules: Rules, extra_junk: int = 0) -> list[Score]:
    """The score for each way of counting the flexible cards (one to four ways)."""
    return _ways(pile(codes, rules, extra_junk), rules)


def ways_of_mask(mask: int, rules: Rules, extra_junk: int = 0) -> list[Score]:
    """``all_scores`` of a pile of deck cards given as a mask (no bonus card)."""
    return _ways(pile_of_mask(mask, (), rules, extra_junk), rules)


# The ways of counting the flexible cards held (as junk: their bits), nothing moved first.
_WAYS: dict[tuple[int, ...], tuple[int, ...]] = {
    flex: tuple(sum(s) for n in range(len(flex) + 1) for s in subsets(flex, n))
    for flex in ((B_CUP,), (B_BRIDGE,), (B_CUP, B_BRIDGE))
}


def _ways(base: Pile, rules: Rules) -> list[Score]:
    if not base.mask & B_FLEXIBLE:  # most piles: neither the cup nor the bridge, one way
        return [score(base, rules)]
    flex = flexible_cards(base.mask, rules)
    if not flex:
        return [score(base, rules)]
    return [score(counted_as_junk(base, way, rules), rules) for way in _WAYS[flex]]


def best_score(codes: Iterable[str], rules: Rules, extra_junk: int = 0) -> Score:
    """The way of counting that gives the most toward the target, then the most points."""
    return best_of(all_scores(codes, rules, extra_junk))


def best_of(ways: list[Score]) -> Score:
    """The way of counting with the most toward the target, then the most points."""
    return ways[0] if len(ways) == 1 else max(ways, key=lambda s: (s.toward_target, s.points))


# (mask, bonus, id(rules)) -> (rules, its best score): the piles of the hands being played.
_BEST_OF_MASK: Bounded[tuple[int, tuple[str, ...], int], tuple[Rules, Score]] = Bounded(65536)


def best_score_of_mask(mask: int, bonus: tuple[str, ...], rules: Rules) -> Score:
    """``best_score`` of a pile given as a mask, remembered: a live hand asks for the same piles
    again and again (every replay of its log). Keyed by the rules object's identity, which the
    entry keeps alive, so an id is never reused while its entry stands."""
    key = (mask, bonus, id(rules))
    hit = _BEST_OF_MASK.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    return _BEST_OF_MASK.put(key, (rules, best_of(_ways(pile_of_mask(mask, bonus, rules), rules))))[1]
