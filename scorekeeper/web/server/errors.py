"""Error pages and JSON errors: the client's ``Accept`` (or an ``/api/`` path) decides.

Every refusal answers ``{"ok": false, "errors": [{"code", "message", "path"}]}``
in JSON; the codes of the web layer are ``WEB_ERROR_CODES``, those of the engine
``scorekeeper.engine.errors.ERROR_CODES``.
"""

from __future__ import annotations

import logging
import sqlite3

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy import exc as sa_exc
from werkzeug.exceptions import HTTPException, InternalServerError, SecurityError

from ...tables.refusals import WEB_ERROR_CODES, CodedRefusal  # noqa: F401  (the web layer's codes)
from ..catalogue.i18n import gettext as _

_BY_STATUS = {
    400: ("bad_request", "err_bad_request"),
    401: ("no_access", "err_no_access"),
    403: ("read_only", "err_forbidden"),
    404: ("not_found", "err_not_found"),
    405: ("method_not_allowed", "err_method"),
    409: ("conflict", "err_conflict"),
    413: ("too_large", "err_too_large"),
    429: ("rate_limited", "err_rate"),
}
log = logging.getLogger(__name__)


def wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def refusal_body(code: str, message: str, path: str = "", extra: dict | None = None) -> dict:
    """A refusal's JSON: its error, then ``extra`` (a conflict's current log or hand), whose own
    "ok" never turns the refusal into a success. Also the fast path's (``fastpath._conflict``)."""
    body = {"ok": False, "errors": [{"code": code, "message": message, "path": path}]}
    return body | {k: v for k, v in (extra or {}).items() if k != "ok"}


def error_response(status: int, code: str, message: str, path: str = "", extra: dict | None = None):
    if wants_json():
        return jsonify(refusal_body(code, message, path, extra)), status
    return render_template("error.html", status=status, code=code, message=message), status


# Faults of the database, not of the request: the same request may succeed in a moment.
DB_FAULTS = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.InternalError,
    sa_exc.TimeoutError,
    sa_exc.PendingRollbackError,
    sqlite3.OperationalError,
    sqlite3.InterfaceError,
)
RETRY_AFTER_S = {503: 2, 507: 60}


def db_fault(err: Exception) -> tuple[int, str, str]:
    """(status, code, message key) of a database fault: 507 when the disk is full, else 503."""
    orig = getattr(err, "orig", None) or err
    text = str(orig).lower()
    if "disk is full" in text or "no space left" in text or getattr(orig, "sqlstate", None) == "53100":
        return 507, "storage_full", "err_storage_full"
    return 503, "unavailable", "err_unavailable"


def init_app(app: Flask) -> None:
    @app.errorhandler(sa_exc.SQLAlchemyError)
    @app.errorhandler(sqlite3.Error)
    def _database(err: Exception):
        """Disk full, read-only files, a connection the server closed, a pool run dry: a coded
        "try again" (503, or 507 for a full disk) with ``Retry-After``, in the page's language;
        nothing of the request was stored (its transaction is rolled back). Any other database
        error is a bug: a 500 as any."""
        if not isinstance(err, DB_FAULTS) and not getattr(err, "connection_invalidated", False):
            return _server(InternalServerError(original_exception=err))
        status, code, key = db_fault(err)
        log.warning("database fault answered %d: %s: %s", status, type(err).__name__, str(err).splitlines()[0][:200])
        response = app.make_response(error_response(status, code, _(key)))
        response.headers["Retry-After"] = str(RETRY_AFTER_S[status])
        return response

    @app.errorhandler(CSRFError)
    def _csrf(err):
        return error_response(400, "csrf", _("err_csrf"))

    @app.errorhandler(SecurityError)
    def _host(err):
        # JSON even to a browser: the page templates build links, and links from this host are refused.
        return jsonify(refusal_body("bad_host", _("err_bad_host"))), 400

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException):
        if err.code and err.code < 400:
            return err
        code, key = _BY_STATUS.get(err.code or 500, ("server_error", "err_server"))
        message = err.description if getattr(err, "sk_message", False) else _(key)
        response = error_response(err.code or 500, code, message or _(key))
        allowed = getattr(err, "valid_methods", None)  # set on werkzeug's MethodNotAllowed
        if err.code == 405 and allowed:
            resp = app.make_response(response)
            resp.headers["Allow"] = ", ".join(allowed)
            return resp
        return response

    @app.errorhandler(InternalServerError)
    def _server(err):
        log.exception("unexpected error", exc_info=getattr(err, "original_exception", None))
        return error_response(500, "server_error", _("err_server"))
