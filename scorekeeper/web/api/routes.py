"""The JSON API under /api/v1, described by /api/v1/openapi.json.

Credentials: the table's edit or read-only secret in ``X-Table-Key`` (or the
phone's session cookie, which then needs the ``X-CSRFToken`` header on writes).
Refusals answer ``{"ok": false, "errors": [{"code", "message", "path"}]}``.
"""

from __future__ import annotations

from flask import current_app, jsonify, make_response, request, url_for
from flask_wtf.csrf import CSRFError
from pydantic import ValidationError
from werkzeug.routing import BaseConverter

from ...engine.facade import EngineError, config_from, score_summary
from ...store.models import Table
from ...store.rows import PollRow, hand_version
from ...tables import jsonbody, names, service, taps, transfer, writes
from ...tables.jsonbody import JSONRefused
from ...tables.refusals import Conflict, Stale, WriteRefused
from ..access import seats
from ..access.tables import keep_access, live_for_edit, open_poll_row, open_table, still_at
from ..server import answers, push
from ..server.database import db
from ..server.errors import error_response
from ..server.limits import created
from ..server.security import KEY_HEADER, csrf, presented_key
from ..views import tablejson
from . import bp, models, openapi, preconditions


class TableIdConverter(BaseConverter):
    """A table id in a path: never "import", so ``/tables/import`` is only the import (POST)."""

    regex = r"(?!import$)[^/]+"


@bp.record_once
def _table_id_converter(setup) -> None:
    setup.app.url_map.converters.setdefault("table_id", TableIdConverter)


csrf.exempt(bp)
MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
NO_CREDENTIAL = {"api.score", "api.create_table", "api.import_table", "api.create_group", "api.import_group"}


@bp.before_request
def _csrf_for_cookies():
    """A write that rides on the session cookie needs the CSRF token; a key header does not.

    A request with no secret at all is left to the access check, which answers 401.
    """
    public_id = (request.view_args or {}).get("public_id", "")
    if (request.endpoint or "").startswith("api.") and "group" in (request.endpoint or ""):
        from ..access.groups import GROUP_KEY_HEADER, presented_group_key

        riding = not request.headers.get(GROUP_KEY_HEADER) and presented_group_key(public_id)
    else:
        riding = not request.headers.get(KEY_HEADER) and presented_key(public_id)
    if request.method in MUTATING and request.endpoint not in NO_CREDENTIAL and riding:
        try:
            csrf.protect()
        except CSRFError:
            return error_response(400, "csrf", "A write with the session cookie needs the X-CSRFToken header.")
    return None


def _body() -> dict:
    if not request.is_json:
        raise _Refusal(400, "invalid_json", "The request body must be a JSON object (application/json).")
    try:
        body = jsonbody.loads(request.get_data())
    except JSONRefused as err:
        raise _Refusal(400, err.code, str(err)) from None
    if not isinstance(body, dict):
        raise _Refusal(400, "invalid_json", "The request body must be a JSON object.")
    return body


class _Refusal(Exception):
    def __init__(self, status: int, code: str, message: str, path: str = "", extra: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.path, self.extra = status, code, message, path, extra


@bp.errorhandler(_Refusal)
def _refused(err: _Refusal):
    # A conflict carries the current log (its own "ok" left out by ``refusal_body``).
    return error_response(err.status, err.code, err.message, err.path, err.extra)


@bp.errorhandler(EngineError)
def _engine(err: EngineError):
    return jsonify(ok=False, errors=err.errors), 422


@bp.errorhandler(WriteRefused)
def _write_refused(err: WriteRefused):
    """A write of ``tables.writes`` that stored nothing: the engine's refusals 422, the rest 409
    (the routes that answer a conflict with the current log or hand catch it themselves)."""
    if err.kind == "refused":
        return jsonify(ok=False, errors=err.errors), 422
    return error_response(409, err.code, err.message, err.path)


@bp.post("/score")
def score():
    """The engine contract: one hand summary in, one result out."""
    try:
        doc = jsonbody.loads(request.get_data(cache=False))
    except JSONRefused as err:
        # Not JSON at all is the engine contract's own refusal (422); too deep or not finite, the door's.
        return jsonify(ok=False, errors=err.errors), 422 if err.code == "invalid_json" else 400
    result = score_summary(doc)
    return jsonify(result), 200 if result["ok"] else 422


@bp.post("/tables")
def create_table():
    body = _body()
    _rules_an_object(body)
    if body.get("group") is not None:
        return _evening_of_group(body)
    body.pop("group", None)  # null: no group
    doc = names.normalised_settings(body)
    if "hands" in doc:
        raise EngineError(
            "bad_series", "A new table starts without hands: POST an export to /api/v1/tables/import.", "hands"
        )
    config_from(doc)
    table = writes.create_table(db(), transfer.title_of(doc), doc)
    created()
    return jsonify(ok=True, **_table_links(table), edit_key=table.edit_secret, view_key=table.view_secret), 201


def _rules_an_object(body: dict) -> None:
    """A new table's ``rules`` as the document has them: ``{preset, options}`` or null.

    The engine's own series documents also take a bare preset name (``"rules": "pagat"``), and
    this door took one too although the document rules it out. No client of the API sends one:
    the page's form and the tests send an object, as a new group's rules must be. So it is refused
    (422 ``bad_value`` at ``rules``, the group's own refusal) rather than documented; the tables
    and exports stored with one are still read (``groups.last_settings``) and imported.
    """
    if not isinstance(body.get("rules"), dict | None):
        raise EngineError("bad_value", 'rules is an object {"preset", "options"} or null.', "rules")


def _evening_of_group(body: dict):
    """A new table as an evening of a group: its edit key in ``X-Group-Key`` (never a table's key)."""
    from ...tables import groups
    from ..access.groups import group_state, open_group, presented_group_key

    public_id = body["group"]
    if not isinstance(public_id, str):
        raise EngineError("bad_value", "group is a group's id.", "group")
    group = open_group(public_id, "edit", presented_group_key(public_id, header_only=True) or "")
    if "hands" in body:
        raise EngineError("bad_series", "A new table starts without hands.", "hands")
    table = groups.new_evening(db(), group_state(group), {k: v for k, v in body.items() if k != "group"})
    created()
    return jsonify(ok=True, **_table_links(table), edit_key=table.edit_secret, view_key=table.view_secret), 201


@bp.post("/tables/import")
def import_table():
    """A new table (new id and secrets) from a table's export: its hands and live logs replayed."""
    table = writes.import_table(db(), _body())
    created()
    return jsonify(ok=True, **_table_links(table), edit_key=table.edit_secret, view_key=table.view_secret), 201


def _table_links(table) -> dict:
    return {
        "id": table.public_id,
        "url": url_for("api.get_table", public_id=table.public_id, _external=True),
        "edit_link": url_for("tables.enter", public_id=table.public_id, key=table.edit_secret, _external=True),
        "view_link": url_for("tables.enter", public_id=table.public_id, key=table.view_secret, _external=True),
    }


@bp.get("/tables/<table_id:public_id>")
def get_table(public_id: str):
    table = open_table(public_id)
    kept = answers.get_table(table)
    if kept is not None:  # a heavy table's answer: the same bytes at this version (``answers``)
        return current_app.response_class(kept, mimetype="application/json")
    state = service.load(db(), table)
    response = jsonify(tablejson.table_json(state))
    answers.keep_table(state.table, response.get_data())
    return response


@bp.post("/tables/<table_id:public_id>/keys")
def new_keys(public_id: str):
    """New secrets ({"rotate": "edit" | "view" | "both"}, default both): the old ones then open
    nothing, anywhere (pages, API, streams, phones' sessions). Answers the new links and keys."""
    table = open_table(public_id, "edit")
    body = _body()
    try:
        which = models.NewKeys.model_validate(body).rotate
    except ValidationError:
        raise _Refusal(400, "bad_request", 'The body is {"rotate": "edit" | "view" | "both"}.', "rotate") from None
    edit, view = writes.rotate_keys(db(), table, which)
    keep_access(public_id, edit)
    return jsonify(ok=True, **_table_links(table), edit_key=edit, view_key=view)


@bp.get("/tables/<table_id:public_id>/history")
def table_history(public_id: str):
    """What changed at the table, oldest first: hands added, edited, deleted; keys rotated."""
    from ...tables import history

    table = open_table(public_id)
    return jsonify(ok=True, history=history.of_table(db(), table))


@bp.get("/tables/<table_id:public_id>/version")
def version(public_id: str):
    """What phones poll: the few columns it needs, on a bare connection (``open_poll_row``).

    Most requests are polls; an ORM session around one SELECT costs as much as the rest of it.
    (A plain one is answered before Flask: ``web/server/fastpath.py``.)
    """
    return jsonify(version=open_poll_row(public_id).version)


@bp.get("/tables/<table_id:public_id>/stream")
def stream(public_id: str):
    """Server-Sent Events: the table's last hand as ``…/hands/<hand>/events`` answers it, now
    and at each change (``web/server/push.py``); only the version when it is not a live log."""
    return push.stream_response(public_id, changes=True)


@bp.get("/tables/<table_id:public_id>/hands")
def list_hands(public_id: str):
    state = service.load(db(), open_table(public_id))
    return jsonify(ok=True, hands=[tablejson.hand_json(state, h) for h in state.hands])


@bp.post("/tables/<table_id:public_id>/hands")
def add_hand(public_id: str):
    """Add a quick-entry hand ({"summary": …}) or start a live one ({"log": {}})."""
    state = service.load(db(), open_table(public_id, "edit"))
    body = _body()
    new = models.read_new_hand(body)
    try:
        hand = writes.add_hand(db(), state, new.kind, new.summary, new.seating, new.count)
    except Conflict as err:
        raise _Refusal(409, "conflict", err.message, "count", {"count": err.current}) from None
    state = service.load(db(), state.table)
    return jsonify(tablejson.hand_json(state, state.hand(hand.id))), 201


def _hand(state, hand_id: int):
    hand = state.hand(hand_id)
    if hand is None:
        raise _Refusal(404, "not_found", "No such hand at this table.")
    return hand


@bp.get("/tables/<table_id:public_id>/hands/<int:hand_id>")
def get_hand(public_id: str, hand_id: int):
    state = service.load(db(), open_table(public_id))
    hand = _hand(state, hand_id)
    return _with_etag(jsonify(tablejson.hand_json(state, hand)), hand)


def _with_etag(response, hand):
    response = make_response(response)
    response.set_etag(hand_version(hand))
    return response


def _if_match() -> str | frozenset[str]:
    """The versions an edit or delete was made against (``If-Match``, ``*``: any); 428 when none.

    Without it two phones editing one hand would both be acknowledged and one edit lost.
    """
    expected = preconditions.expected_versions(request.headers.get("If-Match"))
    if expected is None:
        raise _Refusal(
            428,
            "precondition_required",
            "Send If-Match with the hand's ETag (from GET, a quoted string) or *: "
            "the version this change is made against.",
        )
    return expected if expected == "*" else frozenset(_uncoded(tag) for tag in expected)


def _uncoded(tag: str) -> str:
    """The hand's version in an ETag a compressed GET answered: Flask-Compress tags a strong ETag
    with the coding (``"…:br"``), as the bytes differ; the version is the same. Browsers,
    ``curl --compressed`` and python-requests send that tag back, and it names this version."""
    version, colon, coding = tag.rpartition(":")
    return version if colon and coding in current_app.extensions["sk_compress"].enabled_algorithms else tag


def _stale(state, err: Stale):
    """409 with the hand as it is now (and its ETag), for the client to redo its change on."""
    fresh = service.load(db(), state.table)
    hand = _hand(fresh, err.hand.id)
    return _with_etag(
        error_response(
            409,
            "conflict",
            "Someone else changed this hand first: here it is now.",
            "",
            {"hand": tablejson.hand_json(fresh, hand)},
        ),
        hand,
    )


@bp.put("/tables/<table_id:public_id>/hands/<int:hand_id>")
def replace_hand(public_id: str, hand_id: int):
    """Replace a quick-entry hand's summary (``If-Match``: its ETag); the series after it is replayed."""
    state = service.load(db(), open_table(public_id, "edit"))
    hand = _hand(state, hand_id)
    new = models.read_new_hand(_body())
    expected = _if_match()
    if new.kind != "summary" or hand.kind != "summary":
        raise _Refusal(422, "bad_hand_record", "Only a quick-entry hand's summary can be replaced.", "summary")
    try:
        writes.edit_hand(db(), state, hand, new.summary, new.seating, expected)
    except Stale as err:
        return _stale(state, err)
    state = service.load(db(), state.table)
    hand = _hand(state, hand_id)
    return _with_etag(jsonify(tablejson.hand_json(state, hand)), hand)


@bp.delete("/tables/<table_id:public_id>/hands/<int:hand_id>")
def delete_hand(public_id: str, hand_id: int):
    """Delete a hand (``If-Match``: its ETag); the series after it is replayed."""
    state = service.load(db(), open_table(public_id, "edit"))
    hand = _hand(state, hand_id)
    expected = _if_match()
    try:
        writes.delete_hand(db(), state, hand, expected)
    except Stale as err:
        return _stale(state, err)
    return jsonify(ok=True)


@bp.get("/tables/<table_id:public_id>/hands/<int:hand_id>/events")
def get_events(public_id: str, hand_id: int):
    table = open_table(public_id)
    kept = answers.get(table, hand_id)
    if kept is not None:  # another phone fetched (or tapped) it at this version
        return current_app.response_class(kept, mimetype="application/json")
    state = service.load(db(), table)
    response = jsonify(tablejson.events_json(state, _hand(state, hand_id)))
    answers.keep(state.table, hand_id, response.get_data())
    return response


@bp.post("/tables/<table_id:public_id>/hands/<int:hand_id>/events")
def append_event(public_id: str, hand_id: int):
    """Append {"seq": n, "event": {...}}: stored as event n, or 409 with the current log."""
    done = _append_from_kept(public_id, hand_id)
    if done is not None:
        return done
    state = service.load(db(), open_table(public_id, "edit"))
    hand = _hand(state, hand_id)
    sent = _body()
    seq, event = models.read_append(sent)
    live = state.live_of(hand.id)
    if live is None:
        raise _Refusal(
            409, "hand_over", "This hand is not being played: no more events.", "", tablejson.events_json(state, hand)
        )
    seat = seats.seat_in(public_id, live.state.order)
    tap = taps.Tap(event, seq, seat, skip=sent.get("skip") is True, queued=True, saw=_saw(sent, seq))
    if tap.answers_for_another and sent.get("for_them") is not True:  # only when the phone asked first
        raise _Refusal(
            409,
            "not_your_answer",
            f"This phone is seated as {seat}: answering for {event.get('player')} needs for_them.",
            "for_them",
            tablejson.events_json(state, hand),
        )
    try:
        # A seat phone's tap for its own player passes the turns before it (``taps.record``).
        state, waiting = taps.record(db(), state, hand.id, tap)
        if waiting is not None:
            raise _Refusal(
                409,
                "waiting_decision",
                f"{waiting} must first say go or stop: send this tap again after the answer.",
                "player",
                tablejson.events_json(service.load(db(), state.table), hand),
            )
    except Conflict:
        state = service.load(db(), state.table)
        raise _Refusal(409, "conflict", writes.EVENT_FIRST, "seq", tablejson.events_json(state, hand)) from None
    return _appended(public_id, state, hand_id)


def _append_from_kept(public_id: str, hand_id: int):
    """The tap stored from the live hand this process keeps (``live_for_edit``: the table's row
    kept true by ``LISTEN`` on PostgreSQL, read on SQLite; no hands, logs or series read): its
    answer, else None and nothing stored. Only a plain tap that the compare-and-set stores at once
    is answered here; anything else (a key that does not edit, a hand not live, a seat's own tap,
    a hand's last event, a refusal, nothing kept at the table's version) is the read path's to
    answer, with its checks and counts."""
    kept = live_for_edit(public_id, hand_id)
    if kept is None:
        return None
    row, live = kept
    sent = _body()
    seq, event = models.read_append(sent)
    seat = seats.seat_in(public_id, live.state.order)
    tap = taps.Tap(event, seq, seat, skip=sent.get("skip") is True, queued=True, saw=_saw(sent, seq))
    if tap.answers_for_another:
        return None
    if seq != len(live.events) and still_at(public_id, row):
        # A phone behind the log (or ahead of it): the read path's conflict, answered from the
        # hand kept here at the table's version (one small read where that path loads twice and
        # locks; under load, taps on a log not yet shown come by the third).
        document = tablejson.events_document(hand_id, live.events, live.state.to_json(), row.version)
        raise _Refusal(409, "conflict", writes.EVENT_FIRST, "seq", document)
    if tap.seat_tap:
        return None
    done = writes.append_live(db(), row, live, seq, event)
    if done is None:
        return None
    at = row._replace(version=done.version)
    return _answered(
        public_id, at, hand_id, tablejson.events_document(hand_id, done.events, done.state.to_json(), done.version)
    )


def _appended(public_id: str, state: service.TableState, hand_id: int):
    """The answer to a stored tap: the hand's events document (``_answered``)."""
    last = state.hands[-1].id == hand_id
    return _answered(public_id, state.table, hand_id, tablejson.events_json(state, _hand(state, hand_id)), last)


def _answered(public_id: str, table: Table | PollRow, hand_id: int, document: dict, last: bool = True):
    """The answer to a stored tap, ``document`` (the hand's events at the table's version now):
    kept for the other phones' fetch and, for the table's last hand, handed to this process's
    streams (what they send: this answer, not a load each)."""
    response = jsonify(document)
    body = response.get_data()
    answers.keep(table, hand_id, body)  # what the other phones fetch next, at this version
    if last:
        push.offer(public_id, table.version, body, table)
    return response, 201


def _saw(body: dict, seq: int) -> int:
    """The log length a queued tap was first made against (``saw``; a rebased tap keeps it)."""
    saw = body.get("saw")
    return saw if isinstance(saw, int) and not isinstance(saw, bool) and 0 <= saw <= seq else seq


@bp.post("/tables/<table_id:public_id>/hands/<int:hand_id>/undo")
def undo(public_id: str, hand_id: int):
    """Remove the last event of the last hand: {"seq": n} is the log's length as seen; with
    "player", that player's last event (``models.Undo``). A seated session's undo is its own
    player's; another player's, only confirmed."""
    state = service.load(db(), open_table(public_id, "edit"))
    hand = _hand(state, hand_id)
    asked = models.read_undo(_body())
    last = service.last_log_setup(state)
    seat = seats.seat_in(public_id, last[1]["players"]) if last is not None and last[0].id == hand.id else None
    whose = asked.player or seat
    try:
        if seat is not None and whose != seat and not asked.confirm:
            raise _Refusal(
                409,
                "confirm_takeback",
                f"This phone is seated as {seat}: taking back {whose}'s event needs confirm.",
                "confirm",
                tablejson.events_json(state, hand),
            )
        if whose is not None:
            writes.take_back_own(db(), state, hand, whose, asked.at)
        else:
            writes.undo(db(), state, hand, asked.seq)
    except Conflict:
        raise _Refusal(
            409,
            "conflict",
            "Someone else changed the log first.",
            "seq",
            tablejson.events_json(service.load(db(), state.table), hand),
        ) from None
    state = service.load(db(), state.table)
    return jsonify(tablejson.events_json(state, _hand(state, hand_id)))


@bp.get("/openapi.json")
def openapi_document():
    return jsonify(openapi.document())
