"""A hand record's result: a quick-entry summary or a live log, scored by the contract.

The series reads only the result of each hand (outcome, payments) as a ``model.HandResult``: a
quick-entry summary's as ``contract.score_summary`` answers it, a live hand's as the hand hands it
over. The series fills in what it knows (players, dealer, rules, nagari carry, chip value), and a
record that gives them must agree.
"""

from __future__ import annotations

from typing import Literal

from ..errors import EngineError
from ..live.hand import HandSetup, replay
from ..live.summary import hand_result as live_hand_result
from ..model import HandResult, SetupJSON
from ..rules import Rules
from ..summary.contract import score_summary
from .config import rules_of

Supplied = Literal["players", "dealer", "rules", "nagari_carry", "chip_value"]
SUPPLIED: tuple[Supplied, ...] = ("players", "dealer", "rules", "nagari_carry", "chip_value")  # filled in by the series


def hand_result(record: dict, setup: SetupJSON, rules: Rules) -> HandResult:
    """The contract's result of the record's hand, read into its types: all the series reads from a hand."""
    if "log" in record:
        return _result_from_log(record["log"], setup)
    result = score_summary(_summary_from_quick_entry(record["summary"], setup, rules))
    if not result["ok"]:
        raise EngineError.many([{**e, "path": join("summary", e["path"])} for e in result["errors"]])
    return HandResult.from_json(result)


def _summary_from_quick_entry(summary: object, setup: SetupJSON, rules: Rules) -> dict:
    """The record's summary with the series' fields filled in; given ones must agree."""
    if not isinstance(summary, dict):
        raise EngineError("bad_summary", "A hand summary is a JSON object.", "summary")
    for key in SUPPLIED:
        if key not in summary:
            continue
        given, path = summary[key], f"summary.{key}"
        if key == "players":
            if not isinstance(given, list) or sorted(map(str, given)) != sorted(setup["players"]):
                raise EngineError(
                    "hand_players_mismatch",
                    f"This hand is played by {', '.join(setup['players'])}, not {given!r}.",
                    path,
                )
        elif key == "rules":
            try:
                same = rules_of(given)[0] == rules
            except EngineError:
                same = False
            if not same:
                raise EngineError("hand_field_mismatch", "A hand plays the series' rules.", path)
        elif given != setup[key] or isinstance(given, bool):
            raise EngineError(
                "hand_field_mismatch", f"The series gives this hand {key} = {setup[key]!r}, not {given!r}.", path
            )
    return {**summary, **setup}


def _result_from_log(log: object, setup: SetupJSON) -> HandResult:
    """A live log, replayed by ``engine.live.hand``: the finished hand hands its result over typed,
    as the payout settled it (``live.summary.hand_result``); refusals are the log's."""
    if not isinstance(log, dict) or not isinstance(log.get("events"), list) or set(log) - {"events", "note"}:
        raise EngineError("bad_hand_record", 'A live hand is {"log": {"events": [...]}}.', "log")
    try:
        state = replay(HandSetup.from_json(setup), log["events"])
        if state.outcome is None:
            raise EngineError("hand_not_finished", "This hand has not ended: finish it or enter a summary.")
        return live_hand_result(state)
    except EngineError as err:
        raise EngineError.many([{**e, "path": join("log", e["path"])} for e in err.errors]) from None


def join(*parts: str) -> str:
    return ".".join(p for p in parts if p)
