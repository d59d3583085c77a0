"""The API's request and response shapes, written once: the OpenAPI document's schemas come from these.

Requests: the hand bodies and the event append/undo are *read* through their models
(``read_new_hand``, ``read_append``), each problem answered with the code, message and path the
API has always answered. The engine contract's summary and a table's settings are documented here
and checked by the engine itself (its codes are the contract's). Responses: the views serialise
as they always have (the bytes are the contract); the models say what those bodies are, and the
tests validate every success body against them, as the fuzzing does through the document.
"""

from __future__ import annotations

import copy
import functools
import typing
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError, WithJsonSchema, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, models_json_schema
from pydantic_core import core_schema

from ...engine import facade as engine
from ...tables.groups import MAX_GROUP_PLAYERS
from ...tables.history import KINDS as HISTORY_KINDS
from ...tables.records import MAX_SEQ, Door, HandRecord, Row, read_record
from ...tables.refusals import WEB_ERROR_CODES

REF = "#/components/schemas/{model}"


Object = dict[str, Any]
Month = Annotated[int, Field(ge=1, le=12)]
Seq = Annotated[int, Field(ge=0, le=MAX_SEQ)]
Money = float  # points × chip value: whole amounts stay whole (an integer), others two decimals
Name = Annotated[str, Field(min_length=1, max_length=engine.MAX_NAME)]

# A player's name at a table (``names``): no control or bidi character, something visible in it.
# The engine and ``names`` check it; the pattern documents it (and lets the fuzzing send only such names).
_HIDDEN = "\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069"
PLAYER_NAME_PATTERN = (
    f"^[^{_HIDDEN}]*[^{_HIDDEN}\\s\\u200b-\\u200d\\u2060\\ufeff\\u3164\\u115f\\u1160\\uffa0\\u2800][^{_HIDDEN}]*$"
)
PlayerName = Annotated[
    str, Field(min_length=1, max_length=engine.MAX_NAME, json_schema_extra={"pattern": PLAYER_NAME_PATTERN})
]


class _Shape(BaseModel):
    """A JSON object of the API: its keys are all named (an unknown one is refused, or a drift)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class _Open(BaseModel):
    """A JSON object whose other keys are taken (and ignored, or the engine's to check)."""

    model_config = ConfigDict(extra="allow")


class _Answer(BaseModel):
    """A success answer of the API: every key it may hold is named, so one added unnamed is a drift;
    strict, so one retyped (a number sent as a string) is one too."""

    model_config = ConfigDict(extra="forbid", strict=True)


# -- requests --------------------------------------------------------------------------------------


def _event_schema() -> dict:
    """One event of a live hand, as ``engine.hand`` checks its shape: one form per type."""
    month = {"type": "integer", "minimum": 1, "maximum": 12}
    fields = {
        "player": {"type": "string"},
        "month": month,
        "last_card": {"type": "boolean"},
        "cards": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        "from": {"type": "string", "enum": sorted(engine.SOURCES)},
        "reason": {"type": "string", "enum": list(engine.JUNK_REASONS)},
        "give": {"type": "object"},
        "players": {"type": "object", "additionalProperties": month},
        "multiplier": {"type": "integer", "minimum": 2, "maximum": 9},  # a mission
    }
    meta: dict[str, dict] = {"note": {}, "at": {}, "by": {}, "id": {}, "seq": {}}
    forms = []
    for name, kind in engine.EVENTS.items():
        own = {f: fields[f] for f in kind.required + kind.optional}
        props = {"type": {"type": "string", "enum": [name]}} | meta | own
        forms.append(
            {"type": "object", "required": ["type", *kind.required], "additionalProperties": False, "properties": props}
        )
    return {"oneOf": forms}


class Outcome(_Open):
    """How the hand ended (``type``), and who won."""

    type: Annotated[str, Field(json_schema_extra={"enum": [t.value for t in engine.OutcomeType]})]
    winner: Name = ""
    winners: list[Name] = Field(default_factory=list)
    month: Month = 1


class Mission(_Shape):
    """A mission with the player who completed it: it multiplies only that player's win (pagat)."""

    multiplier: Annotated[int, Field(ge=2, le=9)]
    player: Name


class Summary(_Open):
    """A hand summary (the engine contract): its shape; the rules of the game are the engine's (422).

    null is taken as absent where the engine takes it so.
    """

    rules: Object | None = None
    players: Annotated[list[Name], Field(min_length=2, max_length=3, json_schema_extra={"uniqueItems": True})]
    captures: Object | None = None
    junk: Object | None = None
    gos: Object | None = None
    shakes: Object | None = None
    bombs: Object | None = None
    fixed: Object | None = None
    showdown: Object | None = None
    outcome: Outcome
    dokbak: Object | None = None
    nagari_carry: Annotated[int, Field(ge=0, le=engine.MAX_NAGARI_CARRY)] = 0
    dealer: Name | None = None
    last_go: Name | None = None
    mission: int | Mission | None = Field(
        default=None, description="The mission's multiplier (the winner's), or {multiplier, player}: who completed it."
    )
    weol_yak: Annotated[Any, WithJsonSchema({})] = None
    chip_value: Annotated[float, Field(ge=0)] = 100


class SeriesRules(_Shape):
    preset: Annotated[str, Field(json_schema_extra={"enum": list(engine.PRESETS)})] = ""
    options: Object = Field(default_factory=dict, description="House-rule options by name (`scorekeeper rules`).")


class DrawSpec(_Shape):
    time: Literal["night", "day"] = "night"
    cards: Object = Field(default_factory=dict)
    redraws: list[Object] = Field(default_factory=list)


class SeriesConfig(_Shape):
    """A table's settings, as ``engine.series.config_from`` takes them (null is taken as absent where it is)."""

    name: Annotated[str, Field(max_length=120)] | None = None
    note: str | None = None
    players: Annotated[
        list[PlayerName],
        Field(min_length=engine.MIN_PLAYERS, max_length=engine.MAX_PLAYERS, json_schema_extra={"uniqueItems": True}),
    ]
    rules: SeriesRules | None = None
    chip_value: Annotated[float, Field(ge=0, le=1e9)] = 100
    currency: Annotated[str, Field(max_length=8)] = "₩"
    length: Annotated[int, Field(ge=1, le=engine.MAX_LENGTH)] | None = None
    first_dealer: str | None = Field(None, description="One of the players (default: the draw's, or the first).")
    draw: DrawSpec | None = None


class NewTable(SeriesConfig):
    """A new table's settings; with ``group`` (and the group's edit key in ``X-Group-Key``) it is an
    evening of that group: settings not given come from its last evening, newcomers join it."""

    group: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class NewGroup(_Shape):
    """A new group (모임): its name and players; what its evenings start from (a table's settings)."""

    # Named as a player is: not blank, no control or bidi-override characters (``tables.names``).
    name: Annotated[str, Field(min_length=1, max_length=120, json_schema_extra={"pattern": PLAYER_NAME_PATTERN})]
    players: Annotated[
        list[PlayerName],
        Field(min_length=2, max_length=MAX_GROUP_PLAYERS, json_schema_extra={"uniqueItems": True}),
    ]
    # null is taken as absent (the default), as a table's settings are.
    chip_value: Annotated[float, Field(ge=0, le=1e9)] | None = 100
    currency: Annotated[str, Field(max_length=8)] | None = "₩"
    rules: SeriesRules | None = None
    length: Annotated[int, Field(ge=1, le=engine.MAX_LENGTH)] | None = None


class NewPayment(_Shape):
    """Money handed over: ``from`` paid ``to`` this many points. ``key`` records one transfer once
    (two phones marking it paid); ``beyond_owed`` says a payment larger than owed is meant."""

    payer: PlayerName = Field(alias="from")
    payee: PlayerName = Field(alias="to")
    points: Annotated[int, Field(ge=1, le=engine.MAX_PAYMENT_POINTS)]
    key: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    beyond_owed: bool = False


class PlayerUpdate(_Shape):
    """A player of a group: the link the others send money to (a Toss or KakaoPay https link; null removes it)."""

    pay_link: Annotated[str, Field(min_length=1, max_length=200)] | None


class GroupHead(_Open):
    name: Annotated[str, Field(min_length=1, max_length=120)]
    # The one roster limit of a group, whether created, joined through an evening or imported.
    players: Annotated[list[Object], Field(min_length=2, max_length=MAX_GROUP_PLAYERS)]
    settings: Object = Field(default_factory=dict)


class GroupExport(_Open):
    """A group's export (``group.json``): the group, every evening (a table's export with its
    ``date``) and the payments recorded."""

    group: GroupHead
    evenings: list[Object] = Field(default_factory=list)
    payments: list[Object] = Field(default_factory=list)


class SeriesExport(SeriesConfig):
    """A table's export (``export.json``): its settings and its hands, each as ``records.HandRecord``."""

    # A table created when the API still took a bare preset name was stored, and exports, with one:
    # an export always imports back, so the import takes it (read as ``{"preset": name}``), and says so.
    rules: SeriesRules | Annotated[str, Field(json_schema_extra={"enum": list(engine.PRESETS)})] | None = None  # type: ignore[assignment]
    hands: list[HandRecord] = Field(default_factory=list)


class _NewHandFields(_Shape):
    choices: Object = Field(default_factory=dict, description="Who plays and who sits, by player.")
    shown: Object = Field(default_factory=dict, description="Gwangpalli cards shown, by player.")
    count: Seq = Field(0, description="The hands the client has seen: a stale count is refused (409).")


class EmptyLog(_Shape):
    """A live hand starts empty: its events are appended one by one."""

    events: Annotated[list[Any], Field(max_length=0)] = Field(default_factory=list)


class SummaryHand(_NewHandFields):
    """A quick-entry hand: its summary (read as an object by ``HandBody``; the engine checks the rest)."""

    summary: Summary


class LiveHand(_NewHandFields):
    """A live hand, started empty."""

    log: EmptyLog


class NewHand(RootModel[SummaryHand | LiveHand]):
    """A new hand: a summary (quick entry) or an empty log (live), with seating and the count seen."""


class ReplaceHand(SummaryHand):
    """A quick-entry hand's new summary."""


class HandBody(_NewHandFields):
    """Every field a new hand's body may hold, as it is read (``read_new_hand``): exactly one of
    ``summary`` and ``log`` is the door's own check, so each problem is named as the API always has."""

    summary: Object = Field(default_factory=dict)
    log: EmptyLog = Field(default_factory=EmptyLog)


class Append(_Open):
    """One event appended as number ``seq`` (the log's length as the client saw it).

    A session seated at the table answers go or stop for another player only with ``for_them``
    true (its phone asked first); else 409 ``not_your_answer``."""

    model_config = ConfigDict(extra="allow", strict=True)
    seq: Seq
    event: Annotated[Object, WithJsonSchema(_event_schema())]
    for_them: Annotated[bool, WithJsonSchema({"type": "boolean", "default": False})] = False


class NewKeys(_Shape):
    """Which secret to replace: the old one then opens nothing."""

    rotate: Literal["edit", "view", "both"] = "both"


class Undo(_Open):
    """Remove the last event: ``seq`` is the log's length as the client saw it.

    ``player``: that player's last event instead, wherever it stands in the log (the log without it
    must replay, else ``takeback_breaks_log`` naming the later event that would no longer hold); a
    session seated at the table takes back its own player's by default. ``at``: the index the
    client saw that event at (moved since: 409 ``conflict``). A seated session takes back another
    player's event only with ``confirm`` (else 409 ``confirm_takeback``, naming it)."""

    model_config = ConfigDict(extra="allow", strict=True)
    seq: Seq
    player: PlayerName | None = None
    at: Seq | None = None
    confirm: bool = False


def _hand_is(_key: str, _at: str) -> tuple[str, str, str]:
    return "bad_hand_record", 'A hand is {"summary": {...}} or {"log": {}}.', ""


def _seating_is(key: str, _at: str) -> tuple[str, str, str]:
    return "bad_value", f"{key} is an object keyed by player.", key


# The API's new hand, refused as it always has been: an unknown field first, then the shape.
NEW_HAND_DOOR = Door(
    HandBody,
    ("unknown", "shape", "summary", "log", "count", "choices", "shown"),
    {
        "unknown": lambda key, _at: ("bad_hand_record", f"Unknown field {key!r} in the hand.", key),
        "shape": _hand_is,
        "summary": lambda _key, _at: ("bad_summary", "A hand summary is a JSON object.", "summary"),
        "log": lambda _key, _at: ("bad_hand_record", "A live hand starts empty: append its events one by one.", "log"),
        "count": lambda _key, _at: ("bad_value", "count is the number of hands the client has seen.", "count"),
        "choices": _seating_is,
        "shown": _seating_is,
    },
)


def read_new_hand(body: dict) -> Row:
    """{"summary": …} or {"log": {}}, with "choices", "shown" and "count" (hands seen)."""
    return read_record(body, NEW_HAND_DOOR)


_FLAGS = (("player",), ("at",), ("confirm",), ("for_them",))
_FLAGS_HELP = "player is a player's name, at an event's index (0, 1, …), confirm and for_them true or false."


def _seq_or_event(err: ValidationError) -> engine.EngineError:
    """An append's or undo's problem, as the API has always named it: ``seq`` first, then ``event``."""
    if any(e["loc"][:1] == ("seq",) for e in err.errors()):
        return engine.EngineError("bad_value", "seq is the number of events the client has seen (0, 1, …).", "seq")
    field = next((str(e["loc"][0]) for e in err.errors() if e["loc"][:1] in _FLAGS), None)
    if field is not None:
        return engine.EngineError("bad_value", f"{field}: {_FLAGS_HELP}", field)
    return engine.EngineError("bad_event", 'event is an object {"type": ..., ...}.', "event")


def read_append(body: dict) -> tuple[int, dict[str, Any]]:
    """``(seq, event)`` of an append (``Append``)."""
    try:
        append = Append.model_validate(body)
    except ValidationError as err:
        raise _seq_or_event(err) from None
    return append.seq, body["event"]


def read_undo(body: dict) -> Undo:
    """An undo (``Undo``): ``seq``, and whose event; anything else in the body is not read."""
    try:
        return Undo.model_validate(body)
    except ValidationError as err:
        raise _seq_or_event(err) from None


# -- responses -------------------------------------------------------------------------------------


class ErrorItem(_Open):
    code: Annotated[str, Field(json_schema_extra={"enum": sorted(set(engine.ERROR_CODES) | set(WEB_ERROR_CODES))})]
    message: str
    path: str


class Error(_Open):
    """A refusal: coded errors (a conflict adds what is stored now)."""

    ok: Literal[False]
    errors: list[ErrorItem]


class Step(_Open):
    """One step of a payment's trail (its id and label, a value or factor, details)."""

    id: str
    label: str


class Payment(_Answer):
    payer: str = Field(alias="from")
    payee: str = Field(alias="to")
    points: int
    money: Money
    kind: str
    trail: list[Step]


class Note(_Open):
    id: str
    label: str


class Result(_Answer):
    """The engine contract's result for one hand summary (``POST /score``)."""

    ok: Literal[True]
    outcome: Object
    target: int
    scores: dict[str, Object]
    payments: list[Payment]
    net: dict[str, int]
    net_money: dict[str, Money]
    notes: list[Note]
    warnings: list[ErrorItem] = Field(default_factory=list, description="Unknown fields, ignored (present if any).")


class Created(_Answer):
    """A new table: its id, its links and both secrets (shown once)."""

    ok: Literal[True]
    id: str
    url: str
    edit_link: str
    view_link: str
    edit_key: str
    view_key: str


class Version(_Answer):
    version: int


class Deleted(_Answer):
    ok: Literal[True]


class DealScore(_Answer):
    points: int
    lines: list[str]


class Deal(_Answer):
    """A hand replayed in the series: who dealt and played, how it ended, what moved."""

    index: int
    number: int | None = Field(description="The hand's number; null for a void deal, which is not a hand.")
    counted: bool
    dealer: str
    players: list[str]
    carry: int
    outcome: Object
    winner: str | None
    net: dict[str, int]
    net_money: dict[str, Money]
    balances: dict[str, int]
    scores: dict[str, DealScore]
    # Present only when there are some (never null).
    sitting: dict[str, str] = Field(default_factory=dict)
    notes: list[Object] = Field(default_factory=list)
    warnings: list[Object] = Field(default_factory=list)


class LedgerEntry(_Answer):
    hand: int
    index: int
    kind: str
    label: str
    reason: str
    payer: str = Field(alias="from")
    payee: str = Field(alias="to")
    points: int
    money: Money
    trail: list[Object]


class Transfer(_Answer):
    payer: str = Field(alias="from")
    payee: str = Field(alias="to")
    points: int
    money: Money


class Pending(_Answer):
    index: int
    sitter: str
    points: int


class NextDeal(_Answer):
    dealer: str
    nagari_carry: int
    players: list[str] | None
    choosers: list[str]
    pending_compensation: list[Pending]


class Draw(_Answer):
    time: str
    cards: Object
    redraws: list[Object]
    dealer: str


class LiveState(_Answer):
    """A live hand's state: whose turn, who must decide, each player's piles and score."""

    setup: Object
    seq: int
    turn: Object | None
    must_decide: str | None
    must_answer: str | None
    showdown: Object | None
    target: int
    players: list[Object]
    fixed: list[Object]
    over: bool
    outcome: Object | None


class _HandFields(_Answer):
    ok: Literal[True]
    id: int
    index: int
    kind: Literal["summary", "log"]
    live: bool
    deal: Deal | None
    etag: str = Field(description="The hand's ETag: send it back in If-Match with an edit or delete.")
    # Present only when the hand has them (never null): a quick-entry hand's summary, its seating.
    summary: Object = Field(default_factory=dict, description="A quick-entry hand's summary.")
    choices: Object = Field(default_factory=dict)
    shown: Object = Field(default_factory=dict)


class HandBrief(_HandFields):
    """A hand in the table's answer: its record and deal."""


class Hand(_HandFields):
    """One hand: its record, deal and result; a live hand's log and state."""

    result: Object | None
    # A live hand's log (``Events``), present for a log hand only.
    hand: int = 0
    seq: int = 0
    events: list[Object] = Field(default_factory=list)
    state: LiveState | None = None
    version: int = 0


class Hands(_Answer):
    """Every hand of the table, each as ``GET …/hands/<id>`` answers it."""

    ok: Literal[True]
    hands: list[Hand]


class Events(_Answer):
    """A hand's log: its events, the live state (null once it is over), the table's version."""

    ok: Literal[True]
    hand: int
    seq: int
    events: list[Object]
    state: LiveState | None
    version: int


class TableView(_Answer):
    """A table: its settings, its hands, the ledger, balances and settle-up, and what comes next."""

    ok: Literal[True]
    players: list[str]
    rules: Object
    chip_value: float
    currency: str
    length: int | None
    first_dealer: str
    draw: Draw | None = None
    hands: list[HandBrief]
    ledger: list[LedgerEntry]
    balances: dict[str, int]
    balances_money: dict[str, Money]
    settle_up: list[Transfer]
    played: int
    finished: bool
    next_dealer: str
    next: NextDeal
    id: str
    name: str
    version: int
    live_hand: int | None
    problem: list[ErrorItem] | None


class GroupPaymentOut(_Answer):
    id: int
    payer: str = Field(alias="from")
    payee: str = Field(alias="to")
    points: int
    money: Money
    key: str | None
    at: str | None
    voided: bool = Field(description="Voided (a mistake corrected): listed, but out of what is owed.")
    voided_at: str | None


class OwedTransfer(Transfer):
    """A transfer of what is still owed; ``pay_link`` opens the payee's Toss or KakaoPay link
    (with the amount where the link's form allows), when the payee keeps one."""

    pay_link: str | None = None


class BalanceChange(_Answer):
    player: str
    before: int
    after: int


class BriefPayment(_Answer):
    id: int
    payer: str = Field(alias="from")
    payee: str = Field(alias="to")
    points: int


class HistoryItem(_Answer):
    """One change: when (ISO 8601), what kind, by whom (the phone's seat, "phone" or "api") and what
    changed. ``table`` names the evening's table; ``changes`` the players whose standing at the
    table moved, before and after."""

    at: str
    kind: Annotated[str, Field(json_schema_extra={"enum": list(HISTORY_KINDS)})]
    by: str
    table: str | None = None
    date: str | None = None
    name: str | None = None
    players: list[str] | None = None
    hand: int | None = None
    hand_kind: str | None = None
    changes: list[BalanceChange] | None = None
    payment: BriefPayment | None = None
    player: str | None = None
    pay_link: str | None = None
    which: str | None = None
    rules: Object | None = None


class History(_Answer):
    ok: Literal[True]
    history: list[HistoryItem]


class PaymentVoided(_Answer):
    """A payment voided (``voided_now`` false: it was voided already, nothing changed)."""

    ok: Literal[True]
    voided_now: bool
    payment: GroupPaymentOut
    owed: list[OwedTransfer]


class PayLinkSet(_Answer):
    ok: Literal[True]
    name: str
    pay_link: str | None


def _answer_of(engine_type: type, **json_types: object) -> type[BaseModel]:
    """An answer's fields read off the engine's type (a dataclass's or named tuple's, in order): the
    engine declares them once. ``json_types`` are those whose JSON is not their Python type (a
    nested answer, a trail's steps)."""
    fields: dict[str, Any] = {
        name: (json_types.get(name, hint), ...) for name, hint in typing.get_type_hints(engine_type).items()
    }
    return create_model(f"_{engine_type.__name__}Fields", __base__=_Answer, **fields)


class Biggest(_answer_of(engine.Biggest, trail=list[Object])):  # type: ignore[misc]
    pass


class PlayerStats(_answer_of(engine.PlayerStats, biggest=Biggest | None)):  # type: ignore[misc]
    __doc__ = engine.PlayerStats.__doc__


class Title(_Answer):
    id: str
    player: str
    reason: Object


class GroupEvening(_Answer):
    """One evening of the group: its table, date, result, settle-up and the balances after it."""

    id: str
    name: str
    date: str
    players: list[str]
    played: int
    result: dict[str, int]
    result_money: dict[str, Money]
    settle_up: list[Transfer]
    balances: dict[str, int]
    balances_money: dict[str, Money]
    titles: list[Title]


class GroupMonth(_Answer):
    """One month's statistics and titles (이달의 피박왕 …)."""

    stats: dict[str, PlayerStats]
    titles: list[Title]


class GroupView(_Answer):
    """A group: players, evenings, balances (the sum of its tables'), payments, what is still owed
    (the fewest transfers of balances less payments), statistics and titles."""

    ok: Literal[True]
    id: str
    name: str
    version: int
    chip_value: float
    currency: str
    players: list[str]
    colours: dict[str, str]
    pay_links: dict[str, str] = Field(description="Each player's send-money link, for those who keep one.")
    tables: list[GroupEvening]
    balances: dict[str, int]
    payments: list[GroupPaymentOut]
    owed: list[OwedTransfer]
    stats: dict[str, PlayerStats]
    titles: list[Title]
    months: dict[str, GroupMonth] = Field(description="By month of the evenings' dates (YYYY-MM).")
    head_to_head: dict[str, dict[str, int]]


class PaymentRecorded(_Answer):
    """A payment recorded (``recorded`` false: its key was recorded already, this is that one)."""

    ok: Literal[True]
    recorded: bool
    payment: GroupPaymentOut
    owed: list[OwedTransfer]


# -- the document's schemas --------------------------------------------------------------------------


class OpenAPI30(GenerateJsonSchema):
    """JSON Schema as OpenAPI 3.0 reads it: ``nullable`` for null, ``enum`` for a constant, no titles.

    Defaults are left out too: they are the engine's to apply, and a schema's default is no promise.
    """

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        inner = self.generate_inner(schema["schema"])
        return {**inner, "nullable": True}

    def literal_schema(self, schema: core_schema.LiteralSchema) -> JsonSchemaValue:
        out = super().literal_schema(schema)
        if "const" in out:
            out["enum"] = [out.pop("const")]
        return out


def _plain(node: Any) -> Any:
    """Titles and defaults dropped, everywhere but inside ``properties`` (where they are field names)."""
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if not isinstance(node, dict):
        return node
    return {
        k: (({n: _plain(s) for n, s in v.items()}) if k in ("properties", "$defs") else _plain(v))
        for k, v in node.items()
        if k not in ("title", "default")
    }


REQUESTS: tuple[type[BaseModel], ...] = (
    Summary,
    SeriesConfig,
    NewTable,
    SeriesExport,
    NewHand,
    ReplaceHand,
    Append,
    Undo,
    NewKeys,
    NewGroup,
    NewPayment,
    GroupExport,
    PlayerUpdate,
)
# Every success answer of the API (the document names which operation answers which).
ANSWERS: tuple[type[BaseModel], ...] = (
    Result,
    Created,
    TableView,
    Version,
    Hands,
    Hand,
    Deleted,
    Events,
    GroupView,
    PaymentRecorded,
    PaymentVoided,
    PayLinkSet,
    History,
)


def components() -> dict[str, Any]:
    """``components.schemas`` of the document: every model above and every model they name (a copy)."""
    return copy.deepcopy(_components())


@functools.cache
def _components() -> dict[str, Any]:
    # Generated once per process: some 20 ms, which /openapi.json (open to anyone) would pay on every request.
    models: list[type[BaseModel]] = [*REQUESTS, Error, *ANSWERS]
    _, top = models_json_schema([(m, "validation") for m in models], ref_template=REF, schema_generator=OpenAPI30)
    return {name: _plain(schema) for name, schema in sorted(top.get("$defs", {}).items())}
