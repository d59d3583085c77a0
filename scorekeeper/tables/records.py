"""A hand record — ``{"summary": {...}}`` or ``{"log": {...}}``, with ``choices``/``shown`` — read in one place.

Two doors take hand records: the API's new hand (``POST …/hands``, ``PUT …/hands/<id>``) and a table's
export coming back in (``transfer``). Their shapes are pydantic models (the API's in
``web.api.models``, the export's here) from which the OpenAPI document's schemas are generated;
``read_record`` checks a record against its door's model and answers the refusal that door has always
answered. The wording of a refusal is each door's own contract (its code, message and path), so a
door is the model plus how it words each problem and which it reports first.

The engine's series (``engine.series``) reads the same records again when it replays them, as the
pure engine it is: these checks only refuse, at the door, what the hand rows cannot keep.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine.errors import EngineError
from ..store.models import JSONObject, Log

MAX_SEQ = 100_000  # events in one hand's log, and the highest seq a phone may name
SEATING = ("choices", "shown")


class RecordLog(BaseModel):
    """A live hand's log in an export: its events, each an object the engine replays."""

    model_config = ConfigDict(extra="forbid", strict=True)
    events: Log = Field(max_length=MAX_SEQ)


class HandRecord(BaseModel):
    """One hand of an export, as ``service.record_of`` writes it: a summary or a log, never both."""

    model_config = ConfigDict(extra="forbid", strict=True)
    summary: JSONObject = Field(default_factory=dict, description="A quick-entry hand's summary.")
    log: RecordLog = Field(default_factory=lambda: RecordLog(events=[]), description="A live hand's log.")
    choices: JSONObject = Field(default_factory=dict, description="Who plays and who sits, by player.")
    shown: JSONObject = Field(default_factory=dict, description="Gwangpalli cards shown, by player.")


@dataclass(frozen=True)
class Row:
    """A hand record as a hand row keeps it."""

    kind: str  # "summary" or "log"
    summary: JSONObject | None
    seating: JSONObject | None
    events: Log
    count: int | None = None  # the hands a phone has seen (the API's new hand only)


# A problem is (what, key): "shape" (not an object, or not exactly one of summary and log),
# "unknown" (the key named), or a field whose value its model refuses ("summary", "log", "count", …).
Problem = tuple[str, str]


@dataclass(frozen=True)
class Door:
    """Where hand records come in: their model, the order problems are reported in, and their wording.

    ``words`` maps a problem's "what" to ``(key, at) -> (code, message, path)``, ``at`` being where the
    record sits in the document (``hands[3]``). ``empty_seating_is_none``:
    a falsy ``choices``/``shown`` (null, [], "") reads as none, as an export's always has.
    """

    model: type[BaseModel]
    order: tuple[str, ...]
    words: dict[str, Callable[[str, str], tuple[str, str, str]]]
    empty_seating_is_none: bool = False


def problems(raw: object, model: type[BaseModel]) -> list[Problem]:
    """Everything wrong with ``raw`` as a record of ``model``, each problem once."""
    if not isinstance(raw, dict):
        return [("shape", "")]
    found: list[Problem] = []
    if ("summary" in raw) == ("log" in raw):
        found.append(("shape", ""))
    try:
        model.model_validate(raw)
    except ValidationError as err:
        for error in err.errors():
            loc = error["loc"]
            key = str(loc[0]) if loc else ""
            # An unknown key of the record itself; one inside a field (``log.x``) is that field's problem.
            problem = ("unknown", key) if error["type"] == "extra_forbidden" and len(loc) == 1 else (key, key)
            if problem not in found:
                found.append(problem)
    return found


def read_record(raw: object, door: Door, at: str = "") -> Row:
    """``raw`` as a hand row, or the door's refusal (``EngineError``) for its first problem."""
    if door.empty_seating_is_none and isinstance(raw, dict):
        raw = {k: v for k, v in raw.items() if k not in SEATING or v}
    found = problems(raw, door.model)
    if found:
        what, key = min(found, key=lambda p: (door.order.index(p[0]), p[1]))
        raise EngineError(*door.words[what](key, at))
    assert isinstance(raw, dict), "problems() refuses anything but an object"
    seating = {k: raw[k] for k in SEATING if raw.get(k)}
    if "summary" in raw:
        return Row("summary", raw["summary"], seating or None, [], raw.get("count"))
    return Row("log", None, seating or None, list(raw["log"].get("events", [])), raw.get("count"))
