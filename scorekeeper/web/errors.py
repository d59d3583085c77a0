"""Error pages and JSON errors: the client's ``Accept`` (or an ``/api/`` path) decides.

Every refusal answers ``{"ok": false, "errors": [{"code", "message", "path"}]}``
in JSON; the codes of the web layer are ``WEB_ERROR_CODES``, those of the engine
``scorekeeper.engine.errors.ERROR_CODES``.
"""
from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, SecurityError

from ..engine.errors import EngineError
from .i18n import gettext as _

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
    "too_large": "The request body is too large.",
    "rate_limited": "Too many tables created, or ids, codes and keys refused, from this address: wait.",
    "bad_import": "No file, or not a table's JSON export.",
    "bad_player_name": "A player's name is empty, invisible, or holds control or bidi-override characters.",
    "duplicate_player": "Two players' names read the same (compared after Unicode normalisation).",
    "server_error": "An unexpected error.",
}


class CodedRefusal(EngineError):
    """A refusal of the web layer with one of ``WEB_ERROR_CODES``, answered as the engine's are (422)."""

    def __init__(self, code: str, message: str, path: str = ""):
        assert code in WEB_ERROR_CODES, code
        ValueError.__init__(self, message)
        self.errors = [{"code": code, "message": message, "path": path}]


_BY_STATUS = {
    400: ("bad_request", "err_bad_request"), 401: ("no_access", "err_no_access"),
    403: ("read_only", "err_forbidden"), 404: ("not_found", "err_not_found"),
    405: ("method_not_allowed", "err_method"), 409: ("conflict", "err_conflict"),
    413: ("too_large", "err_too_large"), 429: ("rate_limited", "err_rate"),
}
log = logging.getLogger(__name__)


def wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def error_response(status: int, code: str, message: str, path: str = "", extra: dict | None = None):
    if wants_json():
        body = {"ok": False, "errors": [{"code": code, "message": message, "path": path}]}
        return jsonify(body | (extra or {})), status
    return render_template("error.html", status=status, code=code, message=message), status


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def _csrf(err):
        return error_response(400, "csrf", _("err_csrf"))

    @app.errorhandler(SecurityError)
    def _host(err):
        # JSON even to a browser: the page templates build links, and links from this host are refused.
        body = {"ok": False, "errors": [{"code": "bad_host", "message": _("err_bad_host"), "path": ""}]}
        return jsonify(body), 400

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException):
        if err.code and err.code < 400:
            return err
        code, key = _BY_STATUS.get(err.code or 500, ("server_error", "err_server"))
        message = err.description if getattr(err, "sk_message", False) else _(key)
        response = error_response(err.code or 500, code, message)
        if err.code == 405 and err.valid_methods:  # type: ignore[attr-defined]
            resp = app.make_response(response)
            resp.headers["Allow"] = ", ".join(err.valid_methods)
            return resp
        return response

    @app.errorhandler(InternalServerError)
    def _server(err):
        log.exception("unexpected error", exc_info=getattr(err, "original_exception", None))
        return error_response(500, "server_error", _("err_server"))
