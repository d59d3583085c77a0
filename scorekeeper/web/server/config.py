"""Settings from environment variables, with defaults that need no set-up.

- ``DATABASE_URL``: any SQLAlchemy URL (``sqlite:///path``, ``postgresql://…``);
  default a SQLite file ``scorekeeper.db`` in the instance folder.
- ``SECRET_KEY``: default a random key generated once into the instance folder.
- ``SCOREKEEPER_AUTO_MIGRATE`` (default on): apply migrations when the app starts.
- ``SCOREKEEPER_SECURE_COOKIES``: mark cookies Secure always (they are anyway on a request
  that came over HTTPS).
- ``SCOREKEEPER_TRUSTED_PROXIES``: how many reverse proxies stand in front (default 0); only
  then are their ``X-Forwarded-For/-Proto/-Host/-Port`` headers believed (ProxyFix), and
  never by gunicorn's own default (``security._SchemeOfTheSocket``).
- ``SCOREKEEPER_TRUSTED_HOSTS``: the host names served (a JSON list or ``a.example,b.example``);
  a request for another ``Host`` is refused (``bad_host``). Default: any host.
- ``SCOREKEEPER_RATELIMIT_ENABLED`` (default on), ``RATELIMIT_STORAGE_URI`` (default a SQLite
  file ``ratelimits.db`` in the instance folder, counts shared by every worker on this machine;
  ``redis://…`` to share them between several servers),
  ``SCOREKEEPER_RATELIMIT_CREATE`` (tables created per IP, default ``30/hour``) and
  ``SCOREKEEPER_RATELIMIT_GUESS`` (refused ids, codes and keys per IP, default ``20/minute``).
- ``SCOREKEEPER_DEVELOPMENT``: allow Flask's debug mode (refused otherwise: its debugger runs code).
- Any other ``SCOREKEEPER_<NAME>`` sets Flask config ``NAME`` (JSON-decoded when it parses).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

TRUE = {"1", "true", "yes", "on"}


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in TRUE


def defaults(instance_path: str) -> dict:
    return {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{Path(instance_path) / 'scorekeeper.db'}",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or None,
        "AUTO_MIGRATE": env_flag("SCOREKEEPER_AUTO_MIGRATE", True),
        "MAX_CONTENT_LENGTH": 256 * 1024,
        "MAX_FORM_MEMORY_SIZE": 256 * 1024,
        "IMPORT_MAX_CONTENT_LENGTH": 2 * 1024 * 1024,  # a long series with its live-hand logs
        "GROUP_IMPORT_MAX_CONTENT_LENGTH": 32 * 1024 * 1024,  # a group's evenings, live logs and all
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": env_flag("SCOREKEEPER_SECURE_COOKIES", False),
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 365,
        "WTF_CSRF_TIME_LIMIT": None,  # a table lasts an evening; the token lives with the session
        "POLL_INTERVAL_MS": 1500,
        "JSON_SORT_KEYS": False,
        "TRUSTED_PROXIES": 0,
        "TRUSTED_HOSTS": None,
        "DEVELOPMENT": env_flag("SCOREKEEPER_DEVELOPMENT", False),
        "RATELIMIT_ENABLED": True,
        # Counts every worker process shares (limitstore.py); redis://… to share them between servers.
        "RATELIMIT_STORAGE_URI": (
            os.environ.get("RATELIMIT_STORAGE_URI") or f"sqlite:///{Path(instance_path) / 'ratelimits.db'}"
        ),
        "RATELIMIT_STRATEGY": "moving-window",
        "RATELIMIT_CREATE": "30/hour",
        "RATELIMIT_GUESS": "20/minute",
        # Share pictures a worker serves at once, and how many more wait their turn (groups/gate.py).
        "PICTURE_SLOTS": 1,
        "PICTURE_QUEUE": 16,
    }


def instance_secret_key(instance_path: str) -> str:
    """The key kept in ``instance/secret_key``, created on first use."""
    path = Path(instance_path) / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text().strip()
        if key:
            return key
        return instance_secret_key_retry(path)
    with os.fdopen(fd, "w") as f:
        key = secrets.token_hex(32)
        f.write(key)
    return key


def instance_secret_key_retry(path: Path) -> str:
    # Another worker created the file a moment ago and is still writing it.
    import time

    for _ in range(50):
        time.sleep(0.02)
        key = path.read_text().strip()
        if key:
            return key
    raise RuntimeError(f"{path} is empty: delete it or set SECRET_KEY")
