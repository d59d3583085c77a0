"""The live page's hints (``engine.live.hints``): the what-if of the leader's stop says what the
contract would answer for that stop, and the last event's feat and junk are those the log shows."""

from __future__ import annotations

from hypothesis import given

from scorekeeper.engine.live.hand import replay
from scorekeeper.engine.live.hints import Bak, Given, if_stopped_now, last_event, pi_bak_why
from scorekeeper.engine.live.state import LiveOutcome
from scorekeeper.engine.summary.contract import score_summary

from .hand_cases import END, E, cap, junk, three, two
from .test_hand_properties import SETTINGS, logs


def _contract_what_if(state) -> tuple:
    """The leader's stop scored by the contract, read as the page shows it: (leader, baks, counted_as, escapes)."""
    scores = {p.name: state.score(p.name) for p in state.players}
    leader = max(scores, key=lambda name: scores[name].toward_target)
    if state.over or scores[leader].toward_target <= 0:
        return None, {}, {}, {}
    summary = state.but(outcome=LiveOutcome("stop", (leader,)), must_decide=None).summary()
    summary.pop("score_at_last_go", None)
    result = score_summary(summary)
    if not result["ok"]:
        return None, {}, {}, {}
    baks: dict = {}
    for pay in result["payments"]:
        found = [
            Bak(s["id"], s.get("junk"))
            for s in pay["trail"]
            if s["id"] in ("pi_bak", "gwang_bak", "meong_dda", "go_bak")
        ]
        if found:
            baks[pay["from"]] = baks.get(pay["from"], ()) + tuple(found)
    escapes = {}
    if scores[leader].has("junk"):
        escapes = {
            n: s["counts"]["junk"]
            for n, s in result["scores"].items()
            if n != leader and not any(b.id == "pi_bak" for b in baks.get(n, ()))
        }
    return leader, baks, {n: s["counted_as"] for n, s in result["scores"].items()}, escapes


@SETTINGS
@given(logs())
def test_the_what_if_is_the_contracts_answer_for_the_leaders_stop(log):
    _setup, _events, states, _ = log
    for state in states:
        hint = if_stopped_now(state)
        assert (hint.leader, dict(hint.baks), dict(hint.counted_as), dict(hint.escapes)) == _contract_what_if(state)
        assert list(hint.baks) == list(_contract_what_if(state)[1])  # payment order


def test_nobody_leads_before_anyone_scores():
    setup = three()
    hint = if_stopped_now(replay(setup, []))
    assert hint.leader is None and not hint.baks and hint.junk_needed == setup.rules.pi_bak_threshold(3)


A_WINS = cap("A", "1g 3g 8g 11g 12g 1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1 5j2")  # five brights and ten junk


def test_the_leader_with_junk_says_who_escapes_pi_bak_and_how_the_cup_counted():
    hint = if_stopped_now(replay(two(), [A_WINS, cap("B", "6j1 6j2 7j1 9a")]))
    assert hint.leader == "A"
    assert hint.baks == {"B": (Bak("gwang_bak"),)}  # no bright: gwang-bak
    assert hint.escapes == {"B": 5} and hint.counted_as["B"] == {"9a": "junk"}  # the cup made it five junk


def test_a_stop_the_contract_refuses_warns_of_nothing():
    hint = if_stopped_now(replay(two(), [cap("A", "1j1 1j2 2j1 2j2 3j1 3j2 4j1 4j2 5j1 5j2")]))
    assert hint.leader is None  # one point: below the target, the contract refuses the stop


def test_a_first_turn_ppuk_is_said_with_its_payment():
    setup = three()
    events = [E("ppuk", player="A", month=1)]
    assert last_event(replay(setup, events), events).feat == ("first_turn_ppuk", setup.rules.first_turn_ppuk)
    later = [*events, END, cap("B", "2j1")]
    assert last_event(replay(setup, later), later) == last_event(replay(setup, []), [])


def test_the_junk_a_sseul_moved_names_each_giver_and_what_they_could_give():
    setup = three()
    events = [cap("A", "1g"), END, cap("B", "2j1 2a"), END, cap("C", "3j1 12jd"), END, junk("A", "sseul")]
    given_ = last_event(replay(setup, events), events).given
    assert given_ == (Given("B", ("2j1",), ("2j1",)), Given("C", ("3j1",), ("3j1", "12jd")))


def test_pi_bak_why_reads_a_finished_hands_payments():
    result = score_summary(
        {
            "players": ["A", "B"],
            "captures": {"A": A_WINS["cards"], "B": ["11j1"]},
            "outcome": {"type": "stop", "winner": "A"},
        }
    )
    why = pi_bak_why(result, 6)
    assert why["B"].pi_bak == 1 and why["B"].escaped is None and why["B"].threshold == 6
    assert pi_bak_why(None, 6) == {}
