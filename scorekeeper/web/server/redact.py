"""Keep table secrets out of the logs.

A share link carries its secret in its path (``/j/<id>/<secret>``) and API clients
send theirs in ``X-Table-Key``: a request log (Werkzeug's development server,
gunicorn's access log when someone turns it on) would keep both. ``install()``
puts a filter on those loggers that rewrites each record before any handler sees it.

>>> redact('"GET /j/Ab3_x/s3cr3t-key HTTP/1.1" 302 -')
'"GET /j/Ab3_x/[redacted] HTTP/1.1" 302 -'
"""

from __future__ import annotations

import logging
import re

MASK = "[redacted]"
# The secret is the path segment after the table id; it ends at a space, a query, a quote or the end.
_SHARE_PATH = re.compile(r"(/g?j/[^/\s?#\"']+/)[^\s?#\"'/]+")  # a table's /j/, a group's /gj/
# "X-Table-Key: v", "x-table-key=v", "'HTTP_X_TABLE_KEY': 'v'" and the like.
_KEY_HEADER = re.compile(
    r"((?:X[-_](?:Table|Group)[-_]Key|HTTP_X_(?:TABLE|GROUP)_KEY)[\"']?\s*[:=]\s*[\"']?)"
    r"[^\s,;\"'}&]+",
    re.I,
)
# The loggers that write request lines; the app's own loggers never write a path or a header.
LOGGERS = ("werkzeug", "gunicorn.access", "gunicorn.error")


# A group's picture for link previews carries its read-only key in the query (``?key=``).
_KEY_QUERY = re.compile(r"([?&]key=)[^&\s\"'#]+")


def redact(text: str) -> str:
    """``text`` with share-link secrets, ``?key=`` and ``X-Table-Key`` values masked."""
    return _KEY_QUERY.sub(rf"\1{MASK}", _KEY_HEADER.sub(rf"\1{MASK}", _SHARE_PATH.sub(rf"\1{MASK}", text)))


def _is_key_atom(name: object) -> bool:
    return isinstance(name, str) and any(k in name.lower().replace("_", "-") for k in ("x-table-key", "x-group-key"))


class RedactSecrets(logging.Filter):
    """Rewrite a record whose message holds a table secret; never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        # gunicorn formats its access line from a dict of atoms: "{x-table-key}i" is a header.
        # Changed in place: its class (gunicorn's SafeAtoms) answers "-" for atoms it lacks.
        if isinstance(record.args, dict):
            for name in [k for k in record.args if _is_key_atom(k)]:
                record.args[name] = MASK
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


_FILTER = RedactSecrets()


def install(names: tuple[str, ...] = LOGGERS) -> None:
    """Filter the request loggers of this process (idempotent)."""
    for name in names:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
