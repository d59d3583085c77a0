"""The table app's own refusal codes, besides the engine's (``engine.errors.ERROR_CODES``).

A ``CodedRefusal`` is answered like an engine refusal (422, ``{"code", "message", "path"}``);
the web layer maps HTTP errors onto the same codes (``web.errors``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal, NotRequired, TypedDict, cast

# EngineError is re-exported: the web catches the engine's refusals through this module.
from ..engine.errors import EngineError as EngineError

if TYPE_CHECKING:
    from ..store.models import Hand

WEB_ERROR_CODES: dict[str, str] = {
    "bad_request": "The request is malformed.",
    "bad_host": "The Host of the request is not one this server answers for (TRUSTED_HOSTS).",
    "invalid_json": "The request body is not a JSON object.",
    "json_too_deep": "The JSON body nests too deeply.",
    "non_finite_number": "A number in the JSON body is NaN, Infinity or too large to be finite.",
    "csrf": "The form's CSRF token is missing or stale.",
    "no_access": "The table needs its edit or read-only secret.",
    "read_only": "The read-only secret cannot change anything.",
    "not_found": "No such table, hand or page.",
    "method_not_allowed": "That method is not allowed here.",
    "conflict": "Someone else changed this first.",
    "precondition_required": "An edit or delete needs If-Match: the hand's ETag it was made against.",
    "not_last_hand": "Only the last hand's log can be undone.",
    "confirm_takeback": "A seated phone takes back another player's event only when asked first (confirm).",
    "not_your_answer": "A seated phone answers go or stop for another player only when asked first (for_them).",
    "too_large": "The request body is too large.",
    "rate_limited": "Too many tables created, or ids, codes and keys refused, from this address: wait.",
    "bad_import": "No file, or not a table's JSON export.",
    "bad_player_name": "A player's name is empty, invisible, or holds control or bidi-override characters.",
    "duplicate_player": "Two players' names read the same (compared after Unicode normalisation).",
    "bad_pay_link": "A pay link is an https link of Toss (toss.me) or KakaoPay (qr.kakaopay.com).",
    "group_file": "This is a group's export, not a table's: open it with Import a group (POST /groups/import).",
    "evening_has_hands": "An evening with hands is kept: only an empty evening can be removed.",
    "server_error": "An unexpected error.",
    "unavailable": "The database cannot answer now (read-only, unreachable, busy): nothing stored; retry later.",
    "storage_full": "The server's disk is full: nothing was stored; retry later.",
}


class CodedRefusal(EngineError):
    """A refusal of the web layer with one of ``WEB_ERROR_CODES``, answered as the engine's are (422)."""

    def __init__(self, code: str, message: str, path: str = "") -> None:
        assert code in WEB_ERROR_CODES, code
        ValueError.__init__(self, message)
        self.errors = [{"code": code, "message": message, "path": path}]


# -- what a write of ``tables.writes`` answers when it stores nothing --------------------------

RefusalKind = Literal["conflict", "stale", "refused", "not_live"]


class ErrorJSON(TypedDict):
    """One refusal as the JSON boundary carries it (the engine's ``{"code", "message", "path"}``;
    the API's ``models.Error``)."""

    code: str
    message: str
    path: str
    index: NotRequired[int]


class WriteRefused(Exception):
    """A write of ``tables.writes`` that stored nothing: its ``kind`` says how the web answers it.

    - ``refused``: the engine (or a check of the table's own) said no; ``errors`` say why (422).
    - ``conflict``: someone else changed the table first; ``current`` is what the writer expected
      against now (a hand count, a log length) (409).
    - ``stale``: an edit or delete made against a version of the hand that is no longer current;
      ``hand`` is the hand as it is now (409).
    - ``not_live``: the hand takes no more events, or is not the one that can be undone (409).
    """

    kind: ClassVar[RefusalKind] = "refused"

    def __init__(self, errors: list[ErrorJSON]) -> None:
        super().__init__(errors[0]["message"])
        self.errors = errors

    @property
    def code(self) -> str:
        return self.errors[0]["code"]

    @property
    def message(self) -> str:
        return self.errors[0]["message"]

    @property
    def path(self) -> str:
        return self.errors[0]["path"]


class Refused(WriteRefused):
    kind: ClassVar[RefusalKind] = "refused"

    @classmethod
    def of(cls, err: EngineError) -> Refused:
        """The engine's refusals (each ``{"code", "message", "path"}``, some with an ``index``)."""
        return cls(cast(list[ErrorJSON], err.errors))


class Conflict(WriteRefused):
    kind: ClassVar[RefusalKind] = "conflict"

    def __init__(self, message: str, current: int, path: str = "", code: str = "conflict") -> None:
        super().__init__([{"code": code, "message": message, "path": path}])
        self.current = current


class Stale(Conflict):
    kind: ClassVar[RefusalKind] = "stale"

    def __init__(self, hand: Hand, count: int) -> None:
        super().__init__("Someone else changed this hand first.", count)
        self.hand = hand


class NotLive(WriteRefused):
    kind: ClassVar[RefusalKind] = "not_live"

    def __init__(self, code: str, message: str, path: str = "") -> None:
        super().__init__([{"code": code, "message": message, "path": path}])
