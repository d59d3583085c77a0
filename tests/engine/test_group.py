"""The group's statistics, balances and debts (engine/group/): tables of cases and properties."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.group import ledger, stats, titles
from scorekeeper.engine.group.facts import EveningFacts, evening_facts
from scorekeeper.engine.group.figures import figures
from scorekeeper.engine.group.ledger import Owed
from scorekeeper.engine.model import Transfer
from scorekeeper.engine.series import config_from, play

GO_PIBAK = [
    {
        "type": "capture",
        "player": "A",
        "cards": ["1g", "3g", "8g", "1j1", "1j2", "2j1", "2j2", "3j1", "3j2", "4j1", "4j2", "5j1", "5j2"],
    },
    {"type": "end_turn", "player": "A"},
    {"type": "go", "player": "A"},
    {"type": "capture", "player": "B", "cards": ["6j1", "6j2", "7j1", "7j2", "8j1"]},
    {"type": "end_turn", "player": "B"},
    {"type": "capture", "player": "C", "cards": ["9j1"]},
    {"type": "end_turn", "player": "C"},
    {"type": "capture", "player": "A", "cards": ["11g"]},
    {"type": "end_turn", "player": "A"},
    {"type": "stop", "player": "A"},
]
BRIGHTS_B = {"captures": {"B": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "B"}}
GO_B = {
    "captures": {"B": ["1g", "3g", "8g", "11g"]},
    "gos": {"B": 1},
    "shakes": {"B": [5]},
    "outcome": {"type": "stop", "winner": "B"},
}
NAGARI = {"outcome": {"type": "nagari"}}


class Ev(NamedTuple):
    """An evening of a group, as the ledger and the figures read one."""

    id: str
    date: str
    facts: EveningFacts


def evening(records, players=("A", "B", "C"), dealer="A", chip=100) -> EveningFacts:
    return evening_facts(
        play(
            config_from({"players": list(players), "first_dealer": dealer, "chip_value": chip, "length": None}), records
        )
    )


def hands_of(evs):
    """Every hand of ``evs``, marked with its evening's id."""
    return [replace(h, evening=ev.id) for ev in evs for h in ev.facts.hands]


def stats_of(*evenings):
    evs = [Ev(f"e{i}", "2026-11-01", f) for i, f in enumerate(evenings)]
    return stats.player_stats(hands_of(evs), {e.id: e.facts.best for e in evs})


def balances_only(players, balances) -> EveningFacts:
    return EveningFacts(tuple(players), balances, 100, 0, {}, {}, {})


def test_a_live_hand_counts_as_much_as_a_quick_entry():
    """The live log's go, gwang-bak and pi-bak are read as a quick-entry summary's would be."""
    s = stats_of(evening([{"log": {"events": GO_PIBAK}}]))
    a = s["A"]
    assert (a.hands, a.wins, a.stops, a.gos, a.go_hands, a.go_wins) == (1, 1, 1, 1, 1, 1)
    assert (s["B"].gwang_bak, s["B"].pi_bak) == (1, 0)
    assert (s["C"].gwang_bak, s["C"].pi_bak) == (1, 1)
    assert a.points_won == 36 and s["C"].points_lost == 24
    assert a.biggest is not None and a.biggest.points == 36
    assert {t.payer for t in a.biggest.trail} == {"B", "C"}
    assert any(step["id"] == "pi_bak" for t in a.biggest.trail for step in t.trail)


@pytest.mark.parametrize(
    ("records", "player", "expected"),
    [
        ([{"summary": BRIGHTS_B}], "B", {"hands": 1, "wins": 1, "win_rate": 1.0, "stops": 1, "gos": 0}),
        ([{"summary": BRIGHTS_B}], "A", {"hands": 1, "wins": 0, "win_rate": 0.0, "gwang_bak": 1, "pi_bak": 0}),
        ([{"summary": GO_B}], "B", {"gos": 1, "go_hands": 1, "go_wins": 1, "shakes": 1, "bombs": 0}),
        ([{"summary": NAGARI}, {"summary": BRIGHTS_B}], "C", {"hands": 2, "nagari": 1, "wins": 0}),
        ([{"summary": BRIGHTS_B}, {"summary": BRIGHTS_B}], "B", {"hands": 2, "wins": 2, "win_rate": 1.0}),
    ],
    ids=["winner", "gwang-bak-suffered", "go-and-shake", "nagari", "two-wins"],
)
def test_counters(records, player, expected):
    got = stats_of(evening(records))[player]
    assert {k: getattr(got, k) for k in expected} == expected


def test_statistics_read_back_from_their_json_are_the_same():
    """What the store keeps of an evening (its facts without the hands) reads back as it was."""
    facts = evening([{"log": {"events": GO_PIBAK}}, {"summary": GO_B}, {"summary": NAGARI}])
    assert EveningFacts.from_json(facts.to_json()) == facts.kept()
    assert EveningFacts.from_json(facts.to_json() | {"format": 0}) is None  # kept in an older format
    assert EveningFacts.from_json(facts.to_json() | {"best": {"A": {}}}) == facts.kept()  # kept with best hands


def test_head_to_head_is_antisymmetric_and_adds_up():
    ev = evening([{"log": {"events": GO_PIBAK}}, {"summary": BRIGHTS_B}])
    h = stats.head_to_head(hands_of([Ev("x", "2026-11-01", ev)]))
    for p, row in h.items():
        for q, v in row.items():
            assert h[q][p] == -v
    assert {p: sum(row.values()) for p, row in h.items()} == {p: v for p, v in ev.balances.items()}


def test_titles_with_reasons_and_no_title_for_a_tie():
    s = stats_of(evening([{"log": {"events": GO_PIBAK}}]))
    got = {t.id: t for t in titles.titles(s)}
    assert got["pi_bak_king"].player == "C" and got["pi_bak_king"].reason.value == 1
    assert "gwang_bak_king" not in got  # B and C both suffered one: a tie earns it nobody
    assert got["most_wins"].player == "A"
    assert got["big_hand"].reason.to_json() == {"value": 36, "hands": 1, "evening": "e0", "hand": 1}
    assert "go_rate_first" not in got  # one go said is not enough for a rate


def test_a_go_rate_title_needs_two_go_hands_and_a_rate_above_zero():
    def go_stats(go_hands, go_wins):
        return stats.PlayerStats(hands=go_hands, go_hands=go_hands, go_wins=go_wins)

    got = titles.titles({"A": go_stats(2, 1), "B": go_stats(5, 1), "C": go_stats(1, 1)})
    (rate,) = [t for t in got if t.id == "go_rate_first"]
    assert rate.player == "A" and rate.reason.to_json() == {"value": 0.5, "hands": 2, "go_hands": 2, "go_wins": 1}
    assert not [t for t in titles.titles({"A": go_stats(2, 0), "B": go_stats(3, 0)}) if t.id == "go_rate_first"]


def test_months_and_running_balances():
    one, two = evening([{"summary": BRIGHTS_B}]), evening([{"summary": BRIGHTS_B}], chip=50)
    evs = [Ev("x", "2026-10-31", one), Ev("y", "2026-11-01", two)]
    assert sorted(figures(["A", "B", "C"], evs, [], 100).months) == ["2026-10", "2026-11"]
    rows = ledger.running_balances(["A", "B", "C"], evs)
    assert [row.balances["B"] for row in rows] == [one.balances["B"], 2 * one.balances["B"]]
    b = one.balances["B"]
    assert rows[1].balances_money["B"] == b * 100 + b * 50  # each evening at its own chip value


def test_an_evenings_settle_up_is_its_own_result_at_its_own_chip_value():
    one, two = evening([{"summary": BRIGHTS_B}]), evening([{"summary": BRIGHTS_B}], chip=50)
    rows = ledger.running_balances(["A", "B", "C"], [Ev("x", "2026-10-31", one), Ev("y", "2026-11-01", two)])
    for row, facts, chip in ((rows[0], one, 100), (rows[1], two, 50)):
        assert {(t.payer, t.payee) for t in row.settle_up} == {("A", "B"), ("C", "B")}
        assert sum(t.points for t in row.settle_up) == facts.balances["B"]
        assert all(t.money == t.points * chip for t in row.settle_up)


@pytest.mark.parametrize(
    ("payer", "payee", "points", "beyond", "code"),
    [
        ("A", "A", 1, False, "payment_to_self"),
        ("A", "B", -1, False, "bad_payment"),
        ("A", "B", 0, False, "bad_payment"),
        ("A", "B", 1.5, False, "bad_payment"),
        ("A", "B", True, False, "bad_payment"),
        ("A", "Z", 1, False, "payment_stranger"),
        (3, "B", 1, False, "payment_stranger"),
        ("A", "B", 11, False, "payment_beyond_owed"),
        ("B", "A", 1, False, "payment_beyond_owed"),  # B owes nothing
    ],
)
def test_refused_payments(payer, payee, points, beyond, code):
    with pytest.raises(EngineError) as err:
        ledger.check_payment(["A", "B", "C"], {"A": -10, "B": 10, "C": 0}, [], payer, payee, points, beyond)
    assert err.value.code == code


def test_payments_taken():
    balances = {"A": -10, "B": 10, "C": 0}
    assert ledger.check_payment(["A", "B", "C"], balances, [], "A", "B", 10) == Transfer("A", "B", 10)
    ledger.check_payment(["A", "B", "C"], balances, [], "A", "B", 99, beyond=True)
    with pytest.raises(EngineError):  # once paid, nothing more is owed
        ledger.check_payment(["A", "B", "C"], balances, [Transfer("A", "B", 10)], "A", "B", 1)


def test_a_payment_never_changes_what_was_won():
    balances = {"A": -10, "B": 10}
    assert ledger.owed(balances, [Transfer("A", "B", 4)], 100) == (Owed("A", "B", 6, 600),)
    assert balances == {"A": -10, "B": 10}
    assert ledger.owed(balances, [Transfer("A", "B", 10)], 100) == ()


NAMES = st.lists(st.sampled_from("ABCDEFGHIJ"), min_size=2, max_size=10, unique=True)


@st.composite
def evenings_and_payments(draw):
    players = draw(NAMES)
    evenings = []
    for i in range(draw(st.integers(0, 5))):
        values = draw(st.lists(st.integers(-500, 500), min_size=len(players) - 1, max_size=len(players) - 1))
        bal = dict(zip(players, [*values, -sum(values)], strict=True))
        evenings.append(Ev(str(i), "2026-11-01", balances_only(players, bal)))
    pays = draw(
        st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players), st.integers(1, 300)), max_size=6)
    )
    return players, evenings, [Transfer(a, b, v) for a, b, v in pays if a != b]


@settings(max_examples=200, deadline=None)
@given(evenings_and_payments())
def test_balances_sum_to_zero_and_owed_settles_them_less_payments(case):
    players, evenings, payments = case
    balances = ledger.balances_of(players, evenings)
    assert sum(balances.values()) == 0
    rows = ledger.running_balances(players, evenings)
    assert all(sum(row.balances.values()) == 0 for row in rows)
    transfers = ledger.owed(balances, payments, 100)
    assert len(transfers) <= len(players) - 1
    left = ledger.unsettled(balances, payments)
    for t in transfers:
        assert t.points > 0 and t.payer != t.payee
        left[t.payer] += t.points
        left[t.payee] -= t.points
    assert set(left.values()) <= {0}


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                BRIGHTS_B,
                GO_B,
                NAGARI,
                {"captures": {"C": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "C"}},
            ]
        ),
        max_size=8,
    )
)
def test_stats_add_up_with_the_series(summaries):
    facts = evening([{"summary": s} for s in summaries])
    s = stats_of(facts)
    assert all(r.net == facts.balances[p] for p, r in s.items())
    assert sum(r.wins for r in s.values()) == sum(1 for x in summaries if x is not NAGARI)
    assert all(r.points_won - r.points_lost == r.net for r in s.values())


def test_a_gwangpalli_evening_counts_who_played():
    """Four at the table: each hand counts for the three who played; a sitter's pay is in the net."""
    import json
    from pathlib import Path

    from scorekeeper.engine.series import series_from_document

    doc = json.loads(
        (Path(__file__).resolve().parents[2] / "examples" / "replay" / "series-4p-gwangpalli.json").read_text()
    )
    series = series_from_document(doc)
    facts = evening_facts(series)
    s = stats_of(facts)
    assert sum(r.hands for r in s.values()) == 3 * len(facts.hands)
    assert {p: r.net for p, r in s.items()} == {p: v for p, v in series.balances.items() if p in s}
    assert sum(facts.balances.values()) == 0


def test_the_same_hand_live_or_quick_entry_gives_the_same_statistics():
    from scorekeeper.engine.live.hand import HandSetup, replay

    series = play(config_from({"players": ["A", "B", "C"], "first_dealer": "A", "length": None}), [])
    summary = replay(HandSetup.from_json(series.setup()), GO_PIBAK).summary()
    quick = {k: v for k, v in summary.items() if k not in ("players", "dealer", "rules", "nagari_carry", "chip_value")}
    assert stats_of(evening([{"log": {"events": GO_PIBAK}}])) == stats_of(evening([{"summary": quick}]))


SUMMARIES = [
    BRIGHTS_B,
    GO_B,
    NAGARI,
    {"captures": {"C": ["1g", "3g", "8g"]}, "outcome": {"type": "stop", "winner": "C"}},
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from(SUMMARIES), max_size=5), max_size=4))
def test_evenings_summed_up_are_their_hands_counted_together(evenings):
    """A group's statistics are each evening's summed (``merge_stats``): the same as counting
    every hand of every evening at once, biggest hand and head to head included."""
    evs = [Ev(f"e{i}", "2026-11-01", evening([{"summary": s} for s in records])) for i, records in enumerate(evenings)]
    at_once = stats.player_stats(hands_of(evs), {e.id: e.facts.best for e in evs})
    summed = stats.merge_stats((e.id, e.facts.stats) for e in evs)
    assert summed == at_once
    assert stats.merge_head_to_head(e.facts.head_to_head for e in evs) == stats.head_to_head(hands_of(evs))
