"""``If-Match``: the one grammar the API accepts, read by the routes and declared in the document.

An edit or delete names the version it was made against: ``*`` (whatever the hand is now) or one
or more strong entity tags, each a quoted string as ``GET`` answered it in ``ETag``. A weak tag
(``W/"…"``) can never match under If-Match's strong comparison, and an unquoted token is not an
entity tag at all, so both are refused like a missing header rather than read as some version.
The OpenAPI document's schema for the header is built from the same pattern, so what the document
calls valid is exactly what the server takes.
"""

from __future__ import annotations

import re

# An entity tag's characters (RFC 9110 etagc) less obs-text: visible ASCII but the double quote.
_TAG = r'"[!#-~]*"'
PATTERN = rf"^(\*|{_TAG}( *, *{_TAG})*)$"
_MATCH = re.compile(PATTERN)
_TAGS = re.compile(r'"([!#-~]*)"')

SCHEMA = {"type": "string", "pattern": PATTERN}
DESCRIPTION = (
    "The hand's ETag as GET answered it (a quoted string), several separated by commas, "
    "or `*`: whatever the hand is now."
)


def expected_versions(header: str | None) -> str | frozenset[str] | None:
    """``"*"``, the set of versions the header names, or None when it is missing or not entity tags.

    >>> expected_versions('"a1", "b2"') == frozenset({"a1", "b2"})
    True
    >>> expected_versions("*")
    '*'
    >>> expected_versions("a1") is None, expected_versions('W/"a1"') is None, expected_versions(None) is None
    (True, True, True)
    """
    if header is None or not _MATCH.match(header):
        return None
    if header == "*":
        return "*"
    return frozenset(_TAGS.findall(header))
