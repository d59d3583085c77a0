"""The group's statistics, balances and debts (engine/group/): tables of cases and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.group import facts as group_facts
from scorekeeper.engine.group import ledger as group_ledger
from scorekeeper.engine.group import stats as group_stats
from scorekeeper.engine.group import titles as group_titles
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


def evening(records, players=("A", "B", "C"), dealer="A", chip=100):
    return group_facts.evening_facts(
        play(
            config_from({"players": list(players), "first_dealer": dealer, "chip_value": chip, "length": None}), records
        )
    )


def stats_of(*evenings):
    evs = [{"id": f"e{i}", "date": "2026-11-01", "facts": f} for i, f in enumerate(evenings)]
    return group_stats.player_stats(group_stats.all_hands(evs), {e["id"]: e["facts"]["best"] for e in evs})


def test_a_live_hand_counts_as_much_as_a_quick_entry():
    """The live log's go, gwang-bak and pi-bak are read as a quick-entry summary's would be."""
    s = stats_of(evening([{"log": {"events": GO_PIBAK}}]))
    assert (s["A"]["hands"], s["A"]["wins"], s["A"]["stops"], s["A"]["gos"], s["A"]["go_hands"], s["A"]["go_wins"]) == (
        1,
        1,
        1,
        1,
        1,
        1,
    )
    assert (s["B"]["gwang_bak"], s["B"]["pi_bak"]) == (1, 0)
    assert (s["C"]["gwang_bak"], s["C"]["pi_bak"]) == (1, 1)
    assert s["A"]["points_won"] == 36 and s["C"]["points_lost"] == 24
    assert s["A"]["biggest"]["points"] == 36
    assert {t["from"] for t in s["A"]["biggest"]["trail"]} == {"B", "C"}
    assert any(step["id"] == "pi_bak" for t in s["A"]["biggest"]["trail"] for step in t["trail"])


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
    assert {k: got[k] for k in expected} == expected


def test_head_to_head_is_antisymmetric_and_adds_up():
    ev = evening([{"log": {"events": GO_PIBAK}}, {"summary": BRIGHTS_B}])
    h = group_stats.head_to_head(group_stats.all_hands([{"id": "x", "facts": ev}]))
    for p, row in h.items():
        for q, v in row.items():
            assert h[q][p] == -v
    assert {p: sum(row.values()) for p, row in h.items()} == {p: v for p, v in ev["balances"].items()}


def test_titles_with_reasons_and_no_title_for_a_tie():
    s = stats_of(evening([{"log": {"events": GO_PIBAK}}]))
    got = {t["id"]: t for t in group_titles.titles(s)}
    assert got["pi_bak_king"]["player"] == "C" and got["pi_bak_king"]["reason"]["value"] == 1
    assert "gwang_bak_king" not in got  # B and C both suffered one: a tie earns it nobody
    assert got["most_wins"]["player"] == "A"
    assert got["big_hand"]["reason"] == {"value": 36, "hands": 1, "evening": "e0", "hand": 1}
    assert "go_rate_first" not in got  # one go said is not enough for a rate


def test_months_and_running_balances():
    one, two = evening([{"summary": BRIGHTS_B}]), evening([{"summary": BRIGHTS_B}], chip=50)
    evs = [{"id": "x", "date": "2026-10-31", "facts": one}, {"id": "y", "date": "2026-11-01", "facts": two}]
    assert sorted(group_stats.by_month(evs)) == ["2026-10", "2026-11"]
    ledger = group_ledger.running_balances(["A", "B", "C"], evs, 100)
    assert [row["balances"]["B"] for row in ledger] == [one["balances"]["B"], 2 * one["balances"]["B"]]
    b = one["balances"]["B"]
    assert ledger[1]["balances_money"]["B"] == b * 100 + b * 50  # each evening at its own chip value


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
        group_ledger.check_payment(["A", "B", "C"], {"A": -10, "B": 10, "C": 0}, [], payer, payee, points, beyond)
    assert err.value.code == code


def test_payments_taken():
    group_ledger.check_payment(["A", "B", "C"], {"A": -10, "B": 10, "C": 0}, [], "A", "B", 10)
    group_ledger.check_payment(["A", "B", "C"], {"A": -10, "B": 10, "C": 0}, [], "A", "B", 99, beyond=True)
    with pytest.raises(EngineError):  # once paid, nothing more is owed
        group_ledger.check_payment(
            ["A", "B", "C"], {"A": -10, "B": 10, "C": 0}, [{"from": "A", "to": "B", "points": 10}], "A", "B", 1
        )


def test_a_payment_never_changes_what_was_won():
    balances = {"A": -10, "B": 10}
    assert group_ledger.owed(balances, [{"from": "A", "to": "B", "points": 4}]) == [group_ledger.Owed("A", "B", 6)]
    assert balances == {"A": -10, "B": 10}
    assert group_ledger.owed(balances, [{"from": "A", "to": "B", "points": 10}]) == []


NAMES = st.lists(st.sampled_from("ABCDEFGHIJ"), min_size=2, max_size=10, unique=True)


@st.composite
def evenings_and_payments(draw):
    players = draw(NAMES)
    evenings = []
    for i in range(draw(st.integers(0, 5))):
        values = draw(st.lists(st.integers(-500, 500), min_size=len(players) - 1, max_size=len(players) - 1))
        bal = dict(zip(players, [*values, -sum(values)], strict=True))
        evenings.append({"id": str(i), "date": "2026-11-01", "facts": {"balances": bal, "hands": []}})
    pays = draw(
        st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players), st.integers(1, 300)), max_size=6)
    )
    return players, evenings, [{"from": a, "to": b, "points": v} for a, b, v in pays if a != b]


@settings(max_examples=200, deadline=None)
@given(evenings_and_payments())
def test_balances_sum_to_zero_and_owed_settles_them_less_payments(case):
    players, evenings, payments = case
    balances = group_ledger.balances_of(players, evenings)
    assert sum(balances.values()) == 0
    ledger = group_ledger.running_balances(players, evenings, 100)
    assert all(sum(row["balances"].values()) == 0 for row in ledger)
    transfers = group_ledger.owed(balances, payments)
    assert len(transfers) <= len(players) - 1
    left = group_ledger.unsettled(balances, payments)
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
    assert all(r["net"] == facts["balances"][p] for p, r in s.items())
    assert sum(r["wins"] for r in s.values()) == sum(1 for x in summaries if x is not NAGARI)
    assert all(r["points_won"] - r["points_lost"] == r["net"] for r in s.values())


def test_a_gwangpalli_evening_counts_who_played():
    """Four at the table: each hand counts for the three who played; a sitter's pay is in the net."""
    import json
    from pathlib import Path

    from scorekeeper.engine.series import series_from_document

    doc = json.loads(
        (Path(__file__).resolve().parents[2] / "examples" / "replay" / "series-4p-gwangpalli.json").read_text()
    )
    series = series_from_document(doc)
    facts = group_facts.evening_facts(series)
    s = stats_of(facts)
    assert sum(r["hands"] for r in s.values()) == 3 * len(facts["hands"])
    assert {p: r["net"] for p, r in s.items()} == {p: v for p, v in series.balances.items() if p in s}
    assert sum(facts["balances"].values()) == 0


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
    evs = [
        {"id": f"e{i}", "date": "2026-11-01", "facts": evening([{"summary": s} for s in records])}
        for i, records in enumerate(evenings)
    ]
    at_once = group_stats.player_stats(group_stats.all_hands(evs), {e["id"]: e["facts"]["best"] for e in evs})
    summed = group_stats.merge_stats((e["id"], e["facts"]["stats"]) for e in evs)
    assert summed == at_once
    assert group_stats.merge_head_to_head(e["facts"]["head_to_head"] for e in evs) == group_stats.head_to_head(
        group_stats.all_hands(evs)
    )
