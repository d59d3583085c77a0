"""The secrets a phone keeps: one cookie a table (``t.<id>``) and one a group (``g.<id>``).

They were kept in the signed session cookie, and a phone that had opened 24 seated tables sent
4,775 bytes, 30 groups 6,020 (issue 29): past 4,096 a browser drops the cookie that would hold
the newest key, and the phone silently lost the table or group it had just joined. One cookie a
secret stays ~50 bytes however many a phone holds; the newest ``MAX_KEPT`` of each kind are kept
(the oldest cookie is let go, on purpose, when one more is remembered), each for the session's
lifetime, HttpOnly, SameSite=Lax and Secure like the session's.

A value is ``<secret>.<when>`` (seconds; the order of the home page's list and of letting go).
Secrets a session still holds from before (``keys``, ``group_keys``) are read too, and moved to
their own cookie when one is remembered again.
"""

from __future__ import annotations

import time

from flask import Flask, current_app, g, request, session

from ..server.security import cookie_secure

TABLE, GROUP = "t.", "g."
LEGACY = {TABLE: "keys", GROUP: "group_keys"}
MAX_KEPT = 60


def _pending() -> dict[tuple[str, str], str | None]:
    if "sk_keyring" not in g:
        g.sk_keyring = {}
    return g.sk_keyring


def _parse(value: str) -> tuple[str, int]:
    secret, _dot, when = value.partition(".")
    return secret, int(when) if when.isdigit() else 0


def kept(prefix: str) -> dict[str, str]:
    """The secrets of this kind this phone holds, public id → secret, oldest first."""
    legacy = session.get(LEGACY[prefix])
    found: list[tuple[int, str, str]] = [
        (0, pid, secret)
        for pid, secret in (legacy.items() if isinstance(legacy, dict) else ())
        if isinstance(secret, str)
    ]
    for name, value in request.cookies.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            secret, when = _parse(value)
            found.append((when, name[len(prefix) :], secret))
    out: dict[str, str] = {}
    for _when, pid, secret in sorted(found, key=lambda f: f[0]):
        out.pop(pid, None)
        out[pid] = secret
    for (kind, pid), change in _pending().items():
        if kind == prefix:
            out.pop(pid, None)
            if change is not None:
                out[pid] = change
    return out


def secret_of(prefix: str, public_id: str) -> str | None:
    pending = _pending()
    if (prefix, public_id) in pending:
        return pending[(prefix, public_id)]
    value = request.cookies.get(prefix + public_id)
    if value:
        return _parse(value)[0]
    legacy = session.get(LEGACY[prefix])
    secret = legacy.get(public_id) if isinstance(legacy, dict) else None
    return secret if isinstance(secret, str) else None


def remember(prefix: str, public_id: str, secret: str) -> None:
    """Keep ``secret`` for ``public_id`` on this phone (its own cookie, set with the answer)."""
    _drop_legacy(prefix, public_id)
    _pending()[(prefix, public_id)] = secret
    held = kept(prefix)
    for old in list(held)[: max(0, len(held) - MAX_KEPT)]:
        forget(prefix, old)


def forget(prefix: str, public_id: str) -> None:
    _drop_legacy(prefix, public_id)
    _pending()[(prefix, public_id)] = None


def _drop_legacy(prefix: str, public_id: str) -> None:
    legacy = session.get(LEGACY[prefix])
    if isinstance(legacy, dict) and public_id in legacy:
        session[LEGACY[prefix]] = {k: v for k, v in legacy.items() if k != public_id}


def _write(response):
    pending = g.pop("sk_keyring", None)
    if not pending:
        return response
    app = current_app
    secure = cookie_secure()
    for (prefix, pid), secret in pending.items():
        if secret is None:
            if request.cookies.get(prefix + pid) is not None:
                response.delete_cookie(prefix + pid, path="/", secure=secure, httponly=True, samesite="Lax")
            continue
        response.set_cookie(
            prefix + pid,
            f"{secret}.{int(time.time())}",
            max_age=int(app.permanent_session_lifetime.total_seconds()),
            path="/",
            secure=secure,
            httponly=True,
            samesite="Lax",
        )
    return response


def init_app(app: Flask) -> None:
    app.after_request(_write)
