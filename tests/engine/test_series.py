"""판 The series: dealer rotation, nagari carry, void deals, the ledger, edits, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.engine.checks import MAX_NAGARI_CARRY
from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.replay import replay_document
from scorekeeper.engine.series import config_from, play, replay_series_document, series_from_document

from .series_cases import WIN2, carries, chongtong, dealers, nagari, series, stop, void

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "replay"


# -- the dealer -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands, expected_dealers, next_dealer",
    [
        pytest.param([stop("B"), stop("B"), stop("C")], ["A", "B", "B"], "C", id="winner-deals-next"),
        pytest.param([stop("A"), stop("A")], ["A", "A"], "A", id="dealer-wins-keeps-deal"),
        pytest.param([nagari(), stop("C")], ["A", "A"], "C", id="nagari-same-dealer"),
        pytest.param(
            [stop("B"), nagari(), nagari(), stop("A")], ["A", "B", "B", "B"], "A", id="consecutive-nagari-same-dealer"
        ),
        pytest.param([void(), stop("B")], ["A", "A"], "B", id="void-deal-same-dealer"),
        pytest.param([chongtong("C")], ["A"], "C", id="chongtong-winner-deals"),
        pytest.param(
            [{"summary": {"outcome": {"type": "chongtong", "winners": ["C", "B"]}}}],
            ["A"],
            "B",
            id="two-chongtong-first-in-turn-order-deals",
        ),
    ],
)
def test_dealer_rotation(hands, expected_dealers, next_dealer):
    s = series("ABC", hands, first_dealer="A")
    assert dealers(s) == expected_dealers
    assert s.next.dealer == next_dealer


def test_first_dealer_defaults_to_first_player():
    assert series("ABC", []).next.dealer == "A"


def test_first_dealer_by_draw():
    s = series("ABC", [stop("A")], draw={"time": "day", "cards": {"A": "3g", "B": "12jd", "C": "12r"}})
    assert s.config.first_dealer == "C"
    assert dealers(s) == ["C"]


def test_void_deal_as_dealer_chongtong_counts_and_keeps_the_deal():
    rules = {"options": {"void_deal_chongtong": True}}
    s = series("ABC", [void(), stop("B")], first_dealer="A", rules=rules, length=2)
    assert [d.number for d in s.deals] == [1, 2]
    assert dealers(s) == ["A", "A"]
    assert s.deals[0].net == {"A": 10, "B": -5, "C": -5}
    assert s.finished


# -- the nagari carry -------------------------------------------------------------------


@pytest.mark.parametrize(
    "stacks, hands, expected_carries, last_net_winner",
    [
        pytest.param(True, [nagari(), stop("A")], [0, 1], 12, id="one-nagari-doubles"),
        pytest.param(True, [nagari(), nagari(), stop("A")], [0, 1, 2], 24, id="two-nagari-stack-x4"),
        pytest.param(True, [nagari(), nagari(), nagari(), stop("A")], [0, 1, 2, 3], 48, id="three-nagari-stack-x8"),
        pytest.param(False, [nagari(), nagari(), stop("A")], [0, 1, 2], 12, id="no-stacking-single-x2"),
        pytest.param(True, [nagari(), stop("B"), stop("A")], [0, 1, 0], 6, id="carry-resets-after-a-win"),
        pytest.param(True, [nagari(), void(), stop("A")], [0, 1, 1], 12, id="carry-passes-a-void-deal"),
        pytest.param(True, [void(), stop("A")], [0, 0], 6, id="void-deal-carries-nothing"),
        pytest.param(True, [nagari(), chongtong("A")], [0, 1], 10, id="fixed-payments-not-doubled"),
    ],
)
def test_nagari_carry(stacks, hands, expected_carries, last_net_winner):
    rules = {"options": {"nagari_carry_stacks": stacks}}
    s = series("ABC", hands, rules=rules)
    assert carries(s) == expected_carries
    assert s.deals[-1].net["A"] == last_net_winner
    assert s.next.nagari_carry == 0


@pytest.mark.parametrize("players", ["AB", "ABC"])
@pytest.mark.parametrize("stacks", [True, False])
@pytest.mark.parametrize("run", [30, 31, 45])
def test_a_long_run_of_nagari_never_locks_the_series(players, stacks, run):
    """Issue 23, item 8: the carry is capped at ``MAX_NAGARI_CARRY`` (30, the most a summary
    takes), so the hand after any run of nagari is played at the cap, never refused."""
    rules = {"options": {"nagari_carry_stacks": stacks}}
    win = stop("A", WIN2 if players == "AB" else None)
    s = series(players, [nagari()] * run + [win], rules=rules, length=run + 1)
    assert carries(s) == [min(i, MAX_NAGARI_CARRY) for i in range(run + 1)]
    plain = series(players, [win], rules=rules).deals[-1].net["A"]
    assert s.deals[-1].net["A"] == plain * (2**MAX_NAGARI_CARRY if stacks else 2)
    assert s.next.nagari_carry == 0
    nagari_run = series(players, [nagari()] * run, rules=rules, length=run + 1)
    assert nagari_run.next.nagari_carry == min(run, MAX_NAGARI_CARRY)


def test_carry_is_passed_to_the_hand_and_shown_in_its_trail():
    s = series("ABC", [nagari(), stop("B")])
    trail = s.ledger[0].trail
    assert {k: trail[-1][k] for k in ("id", "factor")} == {"id": "nagari_carry", "factor": 2}


def test_carry_after_a_final_nagari_is_reported_for_the_next_deal():
    s = series("ABC", [stop("B"), nagari()], length=2)
    assert s.finished
    assert s.next.to_json()["nagari_carry"] == 1


# -- counting hands ---------------------------------------------------------------------


def test_void_deals_do_not_count_as_hands():
    s = series("ABC", [stop("A"), void(), void(), nagari(), stop("B")], length=3)
    assert [d.number for d in s.deals] == [1, None, None, 2, 3]
    assert s.played == 3
    assert s.finished


def test_nagari_counts_as_a_hand():
    s = series("ABC", [nagari(), nagari(), nagari()], length=3)
    assert s.finished and s.balances == {"A": 0, "B": 0, "C": 0}


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param(stop("A"), id="a-hand"),
        pytest.param(void(), id="even-a-void-deal"),
    ],
)
def test_no_hand_after_the_last(extra):
    with pytest.raises(EngineError) as err:
        series("ABC", [stop("A"), nagari(), stop("B"), extra], length=3)
    assert err.value.code == "series_finished"
    assert err.value.errors[0]["path"] == "hands[3]"
    assert err.value.errors[0]["index"] == 3


def test_open_ended_series_never_finishes():
    s = series("AB", [stop("A", WIN2)] * 30, length=None)
    assert s.played == 30 and not s.finished


# -- the ledger and balances ------------------------------------------------------------


def test_ledger_records_every_transfer_with_hand_kind_and_trail():
    hands = [
        stop("B"),
        nagari(fixed=[{"kind": "first_turn_ppuk", "player": "C"}]),
        stop("C"),
    ]
    s = series("ABC", hands, chip_value=50, currency="$")
    rows = [(e.hand, e.kind, e.reason, e.payer, e.payee, e.points) for e in s.ledger]
    assert rows == [
        (1, "hand_payment", "stop", "A", "B", 3),
        (1, "hand_payment", "stop", "C", "B", 3),
        (2, "fixed", "first_turn_ppuk", "A", "C", 3),
        (2, "fixed", "first_turn_ppuk", "B", "C", 3),
        (3, "hand_payment", "stop", "A", "C", 6),
        (3, "hand_payment", "stop", "B", "C", 6),
    ]
    out = s.to_json()
    assert out["ledger"][0]["money"] == 150
    assert out["ledger"][0]["trail"][0]["id"] == "base"
    assert out["currency"] == "$"
    assert out["balances"] == {"A": -12, "B": -3, "C": 15}
    assert out["balances_money"] == {"A": -600, "B": -150, "C": 750}


def test_running_balances_after_each_hand():
    s = series("ABC", [stop("B"), void(), stop("C")])
    assert [d.balances for d in s.deals] == [
        {"A": -3, "B": 6, "C": -3},
        {"A": -3, "B": 6, "C": -3},
        {"A": -6, "B": 3, "C": 3},
    ]


def test_money_with_a_fractional_chip_value():
    s = series("AB", [stop("A", WIN2)], chip_value=0.25)
    assert s.to_json()["balances_money"] == {"A": 2, "B": -2}
    s = series("AB", [stop("A", WIN2)], chip_value=0.1)
    assert s.to_json()["settle_up"] == [{"from": "B", "to": "A", "points": 8, "money": 0.8}]


def test_settle_up_in_the_series_output():
    s = series("ABC", [stop("B"), stop("C", ["1g", "3g", "8g"])])
    out = s.to_json()
    assert out["balances"] == {"A": -9, "B": 0, "C": 9}
    assert out["settle_up"] == [{"from": "A", "to": "C", "points": 9, "money": 900}]


# -- editing --------------------------------------------------------------------------


def test_editing_a_past_hand_recomputes_dealer_carry_and_ledger():
    hands = [stop("B"), stop("B"), nagari(), stop("C")]
    before = series("ABC", hands)
    assert dealers(before) == ["A", "B", "B", "B"]
    after = before.replace(1, stop("A"))
    assert dealers(after) == ["A", "B", "A", "A"]
    assert carries(after) == [0, 0, 0, 1]
    assert after.balances == {"A": -3, "B": -3, "C": 6}
    assert before.replace(1, hands[1]).to_json() == before.to_json()


def test_deleting_a_nagari_removes_its_doubling():
    s = series("ABC", [stop("B"), nagari(), stop("C")])
    assert s.deals[-1].net["C"] == 12
    t = s.delete(1)
    assert carries(t) == [0, 0]
    assert t.deals[-1].net["C"] == 6
    assert t.to_json() == series("ABC", [stop("B"), stop("C")]).to_json()


def test_deleting_a_hand_can_make_a_later_one_invalid():
    s = series("ABC", [stop("B"), stop("B", dealer="B")])
    with pytest.raises(EngineError) as err:
        s.delete(0)
    assert err.value.code == "hand_field_mismatch"
    assert err.value.errors[0]["path"] == "hands[0].summary.dealer"


def test_append_is_replay_of_the_longer_list():
    s = series("ABC", [stop("B")])
    assert s.append(stop("C")).to_json() == series("ABC", [stop("B"), stop("C")]).to_json()


# -- what the series supplies ---------------------------------------------------------


def test_summary_may_repeat_what_the_series_supplies():
    record = stop(
        "B",
        players=["C", "B", "A"],
        dealer="B",
        rules={"preset": "pagat", "options": {}},
        nagari_carry=1,
        chip_value=100,
    )
    s = series("ABC", [stop("B"), nagari(), record])
    assert s.deals[-1].net["B"] == 12


@pytest.mark.parametrize(
    "record, code, path",
    [
        pytest.param(stop("B", players=["A", "B"]), "hand_players_mismatch", "summary.players", id="players"),
        pytest.param(stop("B", dealer="B"), "hand_field_mismatch", "summary.dealer", id="dealer"),
        pytest.param(stop("B", rules={"preset": "korean-common"}), "hand_field_mismatch", "summary.rules", id="rules"),
        pytest.param(stop("B", rules={"preset": "nope"}), "hand_field_mismatch", "summary.rules", id="bad-rules"),
        pytest.param(stop("B", nagari_carry=1), "hand_field_mismatch", "summary.nagari_carry", id="carry"),
        pytest.param(stop("B", chip_value=10), "hand_field_mismatch", "summary.chip_value", id="chip-value"),
        pytest.param(stop("B", ["1r", "2r", "zz"]), "unknown_card", "summary.captures.B[2]", id="contract-error"),
        pytest.param(stop("D"), "unknown_player", "summary.captures.D", id="player-not-at-table"),
        pytest.param(stop("B", ["1r", "2r"]), "stop_below_target", "summary.outcome.winner", id="stop-below-target"),
        pytest.param({"summary": []}, "bad_summary", "summary", id="summary-not-an-object"),
        pytest.param({"summary": {}, "log": {"events": []}}, "bad_hand_record", "", id="summary-and-log"),
        pytest.param({}, "bad_hand_record", "", id="neither"),
        pytest.param({"summary": {}, "extra": 1}, "bad_hand_record", "", id="unknown-record-field"),
        pytest.param("B won", "bad_hand_record", "", id="not-an-object"),
        pytest.param({"log": {"events": "x"}}, "bad_hand_record", "log", id="log-without-events"),
        pytest.param(stop("B", choices={"C": "play"}), "no_gwangpalli", "choices", id="choices-at-three"),
    ],
)
def test_invalid_hand_record_names_its_index(record, code, path):
    with pytest.raises(EngineError) as err:
        series("ABC", [stop("A"), record])
    e = err.value.errors[0]
    assert e["code"] == code
    assert e["path"] == ("hands[1]." + path if path else "hands[1]")
    assert e["index"] == 1
    assert e["message"].startswith("Hand record 2: ")


@pytest.mark.parametrize(
    "doc, code, path",
    [
        pytest.param([], "bad_series", "", id="not-an-object"),
        pytest.param({"players": ["A"]}, "bad_series_players", "players", id="one-player"),
        pytest.param({"players": list("ABCDEFGH")}, "bad_series_players", "players", id="eight-players"),
        pytest.param({"players": ["A", "A"]}, "bad_series_players", "players", id="same-name-twice"),
        pytest.param(
            {"players": list("ABCDEFG"), "rules": "encyclopedia"},
            "bad_series_players",
            "players",
            id="seven-without-a-joker",
        ),
        pytest.param({"players": ["A", ""]}, "bad_series_players", "players", id="empty-name"),
        pytest.param(
            {"players": ["A", "B"], "first_dealer": "C"},
            "dealer_not_at_table",
            "first_dealer",
            id="dealer-not-at-table",
        ),
        pytest.param({"players": ["A", "B"], "chip_value": -1}, "bad_value", "chip_value", id="negative-chip"),
        pytest.param({"players": ["A", "B"], "chip_value": True}, "bad_value", "chip_value", id="bool-chip"),
        pytest.param({"players": ["A", "B"], "length": 0}, "bad_value", "length", id="zero-length"),
        pytest.param({"players": ["A", "B"], "length": "12"}, "bad_value", "length", id="length-string"),
        pytest.param({"players": ["A", "B"], "currency": 7}, "bad_value", "currency", id="currency"),
        pytest.param({"players": ["A", "B"], "lenght": 12}, "bad_series", "lenght", id="unknown-field"),
        pytest.param(
            {"players": ["A", "B"], "rules": {"preset": "x"}}, "unknown_preset", "rules.preset", id="unknown-preset"
        ),
        pytest.param(
            {"players": ["A", "B"], "rules": {"options": {"godori": "x"}}},
            "bad_option",
            "rules.options.godori",
            id="bad-option",
        ),
        pytest.param({"players": ["A", "B"], "hands": {}}, "bad_series", "hands", id="hands-not-a-list"),
        pytest.param(
            {"players": ["A", "B"], "draw": {"time": "noon", "cards": {}}}, "bad_draw", "draw.time", id="draw-time"
        ),
        pytest.param(
            {"players": ["A", "B"], "first_dealer": "A", "draw": {"time": "night", "cards": {"A": "3g", "B": "1j1"}}},
            "bad_draw",
            "first_dealer",
            id="dealer-against-draw",
        ),
    ],
)
def test_invalid_series_settings(doc, code, path):
    with pytest.raises(EngineError) as err:
        series_from_document(doc)
    assert err.value.code == code
    assert err.value.errors[0]["path"] == path


def test_rules_may_be_a_preset_name():
    assert series("AB", [], rules="korean-common").config.rules_doc == {"preset": "korean-common", "options": {}}


def test_setup_of_the_next_live_hand():
    s = series("ABC", [nagari()], chip_value=10)
    assert s.setup() == {
        "players": ["A", "B", "C"],
        "dealer": "A",
        "rules": {"preset": "pagat", "options": {}},
        "nagari_carry": 1,
        "chip_value": 10,
    }
    with pytest.raises(EngineError) as err:
        series("AB", [stop("A", WIN2)], length=1).setup()
    assert err.value.code == "series_finished"


# -- documents and replay -------------------------------------------------------------


def test_replay_series_document_never_raises():
    out = replay_series_document({"players": ["A", "B"], "hands": [stop("C")]})
    assert out["ok"] is False
    assert out["errors"][0]["code"] == "unknown_player"
    assert replay_series_document(None)["errors"][0]["code"] == "bad_series"


def test_replay_document_dispatches_a_series():
    doc = {"players": ["A", "B", "C"], "length": 2, "hands": [stop("B"), stop("C")]}
    out = replay_document(doc)
    assert out["ok"] is True
    assert out["finished"] is True
    assert out["next_dealer"] == "C"
    assert [h["dealer"] for h in out["hands"]] == ["A", "B"]
    assert set(out) >= {"ledger", "balances", "balances_money", "settle_up", "hands", "played"}
    assert json.loads(json.dumps(out)) == out


@pytest.mark.parametrize(
    "doc",
    [
        pytest.param({"players": ["A"]}, id="neither-events-nor-hands"),
        pytest.param([1, 2], id="a-list"),
        pytest.param("x", id="a-string"),
    ],
)
def test_replay_document_refuses_other_documents(doc):
    out = replay_document(doc)
    assert out == {
        "ok": False,
        "errors": [{"code": "bad_replay_document", "message": out["errors"][0]["message"], "path": ""}],
    }


# -- the examples ---------------------------------------------------------------------


def _example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def test_example_three_players_twelve_hands():
    doc = _example("series-3p-12-hands.json")
    assert doc["note"]
    out = replay_document(doc)
    assert out["ok"], out.get("errors")
    assert out["played"] == 12 and out["finished"]
    hands = out["hands"]
    nagari_at = [n for n, h in enumerate(hands) if h["outcome"]["type"] == "nagari"]
    assert nagari_at, "the example has a nagari"
    after = hands[nagari_at[0] + 1]
    assert after["carry"] == 1 and after["dealer"] == hands[nagari_at[0]]["dealer"]
    assert any(
        step["id"] == "nagari_carry" for e in out["ledger"] if e["index"] == after["index"] for step in e["trail"]
    )
    assert sum(out["balances"].values()) == 0
    assert len(out["settle_up"]) <= 2


def test_example_four_players_gwangpalli():
    doc = _example("series-4p-gwangpalli.json")
    assert doc["note"]
    out = replay_document(doc)
    assert out["ok"], out.get("errors")
    sitting = [s for h in out["hands"] for s in h.get("sitting", {}).values()]
    assert "forced" in sitting and "voluntary" in sitting
    assert any(e["kind"] == "gwangpalli" for e in out["ledger"])
    assert sum(out["balances"].values()) == 0
    assert len(out["settle_up"]) <= 3


@pytest.mark.parametrize("name", ["series-3p-12-hands.json", "series-4p-gwangpalli.json"])
def test_cli_replays_the_examples(name, capsys):
    from scorekeeper.cli import main

    assert main(["replay", str(EXAMPLES / name)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["settle_up"]


def test_cli_replay_refusal_exits_2(tmp_path, capsys):
    from scorekeeper.cli import main

    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"players": ["A", "B"], "length": 1, "hands": [stop("A", WIN2)] * 2}))
    assert main(["replay", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["errors"][0]["code"] == "series_finished"


def test_play_is_a_pure_function_of_config_and_records():
    config = config_from({"players": ["A", "B", "C"]})
    hands = [stop("B"), nagari(), stop("C")]
    assert play(config, hands).to_json() == play(config, list(hands)).to_json()
    assert hands == [stop("B"), nagari(), stop("C")]  # records are not changed


# -- live hand logs -------------------------------------------------------------------

HONG_DAN_LOG = [
    {"type": "capture", "player": "B", "cards": ["1r", "1j1"]},
    {"type": "capture", "player": "B", "cards": ["2r", "2j1"]},
    {"type": "capture", "player": "B", "cards": ["3r", "3j1"]},
    {"type": "end_turn", "player": "B"},
    {"type": "stop", "player": "B"},
]


def _log(events):
    return {"log": {"events": events}}


def test_a_live_log_counts_like_its_summary():
    from_log = series("ABC", [stop("B"), nagari(), _log(HONG_DAN_LOG), stop("C")])
    quick = stop("B", ["1r", "1j1", "2r", "2j1", "3r", "3j1"])
    from_summary = series("ABC", [stop("B"), nagari(), quick, stop("C")])
    assert from_log.balances == from_summary.balances == {"A": -12, "B": 15, "C": -3}
    assert [e.to_json(100) for e in from_log.ledger] == [e.to_json(100) for e in from_summary.ledger]
    assert carries(from_log) == [0, 0, 1, 0]
    assert dealers(from_log) == ["A", "B", "B", "B"]


def test_a_live_log_gets_its_setup_from_the_series():
    s = series("ABCD", [nagari(choices={"B": "sit"}), _log([{"type": "nagari"}]), stop("D")])
    assert [d.seating.players for d in s.deals] == [("A", "C", "D")] * 3
    assert carries(s) == [0, 1, 2]
    assert s.deals[-1].net["D"] == 24


@pytest.mark.parametrize(
    "events, code, path",
    [
        pytest.param(HONG_DAN_LOG[:-1], "hand_not_finished", "log", id="unfinished"),
        pytest.param(
            [{"type": "capture", "player": "D", "cards": ["1g"]}],
            "unknown_player",
            "log.events[0].player",
            id="refused-event",
        ),
        pytest.param([{"type": "stop", "player": "A"}], "not_eligible", "log.events[0]", id="refused-stop"),
    ],
)
def test_invalid_live_log_names_its_record_and_event(events, code, path):
    with pytest.raises(EngineError) as err:
        series("ABC", [stop("B"), _log(events)])
    e = err.value.errors[0]
    assert e["code"] == code
    assert e["path"].startswith(f"hands[1].{path}")


def test_replay_document_dispatches_a_hand_log():
    out = replay_document({"setup": {"players": ["A", "B", "C"], "dealer": "B"}, "events": HONG_DAN_LOG})
    assert out["ok"] is True
    assert out["result"]["net"] == {"A": -3, "B": 6, "C": -3}


@pytest.mark.parametrize("note", [5, 1.5, True, [], {}], ids=["int", "float", "bool", "list", "object"])
def test_a_series_note_is_text(note):
    """The OpenAPI document says a table's note is a string (or null): anything else is refused, not stored."""
    with pytest.raises(EngineError) as err:
        config_from({"players": ["A", "B"], "note": note})
    assert err.value.errors[0]["code"] == "bad_value" and err.value.errors[0]["path"] == "note"


@pytest.mark.parametrize("note", [None, "", "Saturday at Mina's"])
def test_a_series_note_may_be_text_or_null(note):
    assert config_from({"players": ["A", "B"], "note": note}).players == ("A", "B")
