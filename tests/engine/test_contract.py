"""The engine contract: every refusal a summary can express, and the command line."""

import json
import subprocess
import sys

import pytest

from scorekeeper.engine.errors import ERROR_CODES
from scorekeeper.engine.summary.contract import score_summary, score_text

THREE_BRIGHTS = {"A": ["1g", "3g", "8g"], "B": ["11g"], "C": ["12g"]}


def summary(**kw):
    doc = {"players": ["A", "B", "C"], "captures": THREE_BRIGHTS, "outcome": {"type": "stop", "winner": "A"}}
    doc.update(kw)
    return doc


@pytest.mark.parametrize(
    "doc, code, path",
    [
        pytest.param([], "bad_summary", "", id="not-an-object"),
        pytest.param(summary(players=["A"]), "bad_players", "players", id="one-player"),
        pytest.param(summary(players=["A", "B", "C", "D"]), "bad_players", "players", id="four-active-players"),
        pytest.param(summary(players=["A", "A"]), "bad_players", "players", id="same-name-twice"),
        pytest.param(summary(players=["A", ""]), "bad_players", "players", id="empty-name"),
        pytest.param(summary(rules={"preset": "nope"}), "unknown_preset", "rules.preset", id="unknown-preset"),
        pytest.param(
            summary(rules={"options": {"nope": 1}}), "unknown_option", "rules.options.nope", id="unknown-option"
        ),
        pytest.param(summary(rules=[1]), "bad_value", "rules", id="rules-not-an-object"),
        pytest.param(summary(captures={"A": ["13g"]}), "unknown_card", "captures.A[0]", id="unknown-card"),
        pytest.param(summary(captures={"A": [1]}), "unknown_card", "captures.A[0]", id="card-not-a-string"),
        pytest.param(summary(captures={"A": ["1g", "1g"]}), "card_twice", "captures.A[1]", id="card-twice-one-player"),
        pytest.param(
            summary(captures={"A": ["1g"], "B": ["1g"]}), "card_twice", "captures.B[0]", id="card-two-players"
        ),
        pytest.param(summary(captures={"A": "1g"}), "bad_value", "captures.A", id="captures-not-a-list"),
        pytest.param(summary(captures={"Z": []}), "unknown_player", "captures.Z", id="captures-unknown-player"),
        pytest.param(
            summary(rules={"preset": "encyclopedia"}, captures={"A": ["b2"]}),
            "bonus_not_in_rules",
            "captures.A[0]",
            id="bonus-not-in-rules",
        ),
        pytest.param(
            summary(captures={"A": ["b2"], "B": ["b2"]}),
            "bonus_not_in_rules",
            "captures.B[0]",
            id="more-bonus-copies-than-the-table-has",
        ),
        pytest.param(summary(junk={"B": 20, "C": 20}), "too_many_cards", "junk", id="more-junk-than-the-deck"),
        pytest.param(summary(junk={"B": -1}), "bad_value", "junk.B", id="negative-junk"),
        pytest.param(summary(gos={"A": "1"}), "bad_value", "gos.A", id="gos-not-a-number"),
        pytest.param(summary(gos={"A": 1}), "stop_below_target", "outcome.winner", id="stop-below-target-plus-gos"),
        pytest.param(
            summary(captures={"A": ["1g", "3g"]}), "stop_below_target", "outcome.winner", id="stop-below-target"
        ),
        pytest.param(summary(outcome={"type": "win"}), "unknown_outcome", "outcome.type", id="unknown-outcome"),
        pytest.param(summary(outcome=None), "unknown_outcome", "outcome", id="no-outcome"),
        pytest.param(summary(outcome={"type": "stop"}), "missing_winner", "outcome.winner", id="stop-without-winner"),
        pytest.param(
            summary(outcome={"type": "stop", "winner": "Z"}),
            "unknown_player",
            "outcome.winner",
            id="winner-not-a-player",
        ),
        pytest.param(
            summary(outcome={"type": "nagari", "winner": "A"}),
            "winner_in_nagari",
            "outcome.winner",
            id="winner-for-a-nagari",
        ),
        pytest.param(
            summary(outcome={"type": "void_deal", "winner": "A"}),
            "winner_in_nagari",
            "outcome.winner",
            id="winner-for-a-void-deal",
        ),
        pytest.param(
            summary(outcome={"type": "void_deal"}, fixed=[{"kind": "first_turn_ppuk", "player": "B"}]),
            "payment_in_void_deal",
            "fixed",
            id="payment-for-a-void-deal",
        ),
        pytest.param(
            summary(outcome={"type": "three_ppuk", "winner": "A"}, rules={"preset": "encyclopedia"}),
            "rule_off",
            "outcome.type",
            id="three-ppuk-off-in-encyclopedia",
        ),
        pytest.param(
            summary(outcome={"type": "chongtong", "winner": "A", "month": 13}),
            "bad_month",
            "outcome.month",
            id="chongtong-bad-month",
        ),
        pytest.param(
            summary(dokbak={"player": "A", "reason": "oe_myeon"}),
            "dokbak_is_winner",
            "dokbak.player",
            id="dokbak-payer-is-winner",
        ),
        pytest.param(
            summary(dokbak={"player": "Z", "reason": "oe_myeon"}),
            "unknown_player",
            "dokbak.player",
            id="dokbak-payer-not-in-hand",
        ),
        pytest.param(
            summary(
                players=["A", "B"],
                captures={"A": ["1g", "3g", "8g", "2a", "4a", "8a"]},
                dokbak={"player": "B", "reason": "oe_myeon"},
            ),
            "dokbak_needs_three",
            "dokbak",
            id="dokbak-two-players",
        ),
        pytest.param(
            summary(dokbak={"player": "B", "reason": "go_bak"}),
            "go_bak_without_go",
            "dokbak.player",
            id="go-bak-dokbak-without-go",
        ),
        pytest.param(
            summary(dokbak={"player": "B", "reason": "bribe"}), "bad_value", "dokbak.reason", id="dokbak-unknown-reason"
        ),
        pytest.param(
            summary(rules={"options": {"oe_myeon": False}}, dokbak={"player": "B", "reason": "oe_myeon"}),
            "rule_off",
            "dokbak.reason",
            id="oe-myeon-off",
        ),
        pytest.param(summary(bombs={"A": [3]}), "bomb_cards_missing", "bombs.A", id="bomb-cards-missing"),
        pytest.param(
            summary(captures={"A": ["1g", "1r", "3g", "8g"]}, shakes={"A": [1]}, bombs={"A": [1]}),
            "bomb_after_shake",
            "bombs.A",
            id="bomb-of-a-shaken-month",
        ),
        pytest.param(summary(shakes={"A": [13]}), "bad_month", "shakes.A", id="shake-bad-month"),
        pytest.param(summary(shakes={"A": [5, 5]}), "shake_twice", "shakes.A", id="shake-twice"),
        pytest.param(summary(shakes={"A": [5], "B": [5]}), "shake_twice", "shakes.B", id="same-month-two-players"),
        pytest.param(
            summary(fixed=[{"kind": "lucky", "player": "B"}]), "unknown_fixed", "fixed[0].kind", id="unknown-fixed-kind"
        ),
        pytest.param(
            summary(rules={"preset": "ogb-matgo"}, fixed=[{"kind": "first_turn_ppuk", "player": "B"}]),
            "rule_off",
            "fixed[0].kind",
            id="first-turn-ppuk-off",
        ),
        pytest.param(summary(mission=3), "rule_off", "mission", id="mission-off"),
        pytest.param(
            summary(mission=12, rules={"options": {"missions": True}}),
            "bad_value",
            "mission",
            id="mission-out-of-range",
        ),
        pytest.param(summary(nagari_carry=-1), "bad_value", "nagari_carry", id="negative-carry"),
        pytest.param(summary(chip_value="100"), "bad_value", "chip_value", id="chip-value-string"),
        pytest.param(
            summary(showdown={"offered_by": "B", "refused_by": "B"}),
            "bad_value",
            "showdown.refused_by",
            id="showdown-self-refusal",
        ),
    ],
)
def test_refusals_are_coded(doc, code, path):
    result = score_summary(doc)
    assert result["ok"] is False
    assert (code, path) in [(e["code"], e["path"]) for e in result["errors"]]
    assert all(e["code"] in ERROR_CODES and e["message"] for e in result["errors"])


def test_every_problem_is_reported_at_once():
    result = score_summary(summary(captures={"A": ["1g", "zz"], "B": ["1g"]}, gos={"Q": 1}, shakes={"A": [0]}))
    codes = {e["code"] for e in result["errors"]}
    assert {"unknown_card", "card_twice", "unknown_player", "bad_month"} <= codes


def test_unknown_fields_are_warned_not_refused():
    result = score_summary(summary(hand_number=4))
    assert result["ok"] and result["warnings"][0]["path"] == "hand_number"


def test_invalid_json_text():
    assert score_text("{nope")["errors"][0]["code"] == "invalid_json"


def test_result_shape_matches_design():
    result = score_summary(summary(chip_value=100))
    assert set(result) >= {"ok", "scores", "payments", "net"}
    score = result["scores"]["A"]
    assert (score["points"], score["toward_target"]) == (3, 3)
    assert score["lines"][0]["id"] == "three_brights" and score["lines"][0]["points"] == 3
    payment = result["payments"][0]
    assert {"from", "to", "points", "money", "trail"} <= set(payment)
    assert payment["trail"][0] == {"id": "base", "label": "점수 score", "value": 3}


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_cli_scores_one_summary_from_stdin():
    proc = run_cli("score", "-", stdin=json.dumps(summary()))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["net"] == {"A": 6, "B": -3, "C": -3}


def test_cli_refused_single_summary_exits_2():
    proc = run_cli("score", "-", stdin=json.dumps(summary(captures={"A": ["xx"]})))
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["errors"][0]["code"] == "unknown_card"


def test_cli_json_lines_answer_each_line_in_order(tmp_path):
    lines = [summary(), {"players": "x"}, summary(chip_value=10), "not json"]
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n")
    proc = run_cli("score", str(path))
    assert proc.returncode == 0
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["ok"] for r in out] == [True, False, True, False]
    assert out[1]["errors"][0]["code"] == "bad_players" and out[3]["errors"][0]["code"] == "invalid_json"
    assert out[2]["net_money"]["A"] == 60


def test_cli_scores_the_examples():
    from pathlib import Path

    files = sorted(str(p) for p in Path("examples").glob("*.json"))
    assert files, "`scorekeeper score examples/*.json` is the README's first engine command"
    proc = run_cli("score", *files)
    assert proc.returncode == 0
    assert all(json.loads(line)["ok"] for line in proc.stdout.splitlines())


def test_cli_rules_lists_every_option():
    from scorekeeper.engine.rules import OPTIONS

    proc = run_cli("rules", "korean-common")
    assert proc.returncode == 0
    for name in OPTIONS:
        assert name in proc.stdout
    assert "plus_one_each" in proc.stdout
    as_json = json.loads(run_cli("rules", "ogb-matgo", "--json").stdout)
    assert as_json["options"]["pi_bak_two_players"] == 6


def test_cli_rules_unknown_preset():
    proc = run_cli("rules", "nope")
    assert proc.returncode == 2 and "unknown_preset" in proc.stdout


# -- the command line's parser: built for the command named, its help as argparse's own -------------


@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"], ["rules", "--help"], ["serve", "--help"], ["nope"]])
@pytest.mark.parametrize("columns", ["", "40", "100", "0", "x"])
def test_cli_help_and_refusals_are_what_argparse_writes(argv, columns, monkeypatch, capsys):
    """The command line sizes its help without shutil (``cli._Formatter``): the same text as
    argparse's own formatter, whatever $COLUMNS says."""
    import argparse

    from scorekeeper import cli

    monkeypatch.setenv("COLUMNS", columns)

    def written() -> tuple[int, str]:
        with pytest.raises(SystemExit) as stop:
            cli.main(argv)
        out = capsys.readouterr()
        return stop.value.code, out.out + out.err

    ours = written()
    monkeypatch.setattr(cli, "_Formatter", argparse.HelpFormatter)
    assert ours == written()


def test_cli_help_and_an_unknown_command_list_every_command(capsys):
    from scorekeeper import cli

    for argv in (["--help"], ["nope"]):
        with pytest.raises(SystemExit):
            cli.main(argv)
        out = capsys.readouterr()
        assert all(name in out.out + out.err for name in cli.COMMANDS), argv
