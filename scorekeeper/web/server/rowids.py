"""An ``<int:…>`` in an address names a row: past what a row id holds, no row has it.

PostgreSQL's INTEGER ends at 2**31 − 1 and SQLite cannot bind past 2**63 − 1: an id beyond
answered 500 (issue 29, schemathesis voiding payment 139468164254531613326573568). Every
``<int:…>`` of the app reads such an id as 0, which no row has (ids start at 1): each view then
answers its own "not found", as for any id that names nothing. (The converter's ``max`` would
refuse it in routing, but werkzeug then answers 405 for the methods of the other routes.)
"""

from __future__ import annotations

from werkzeug.routing import IntegerConverter

MAX_ROW_ID = 2**31 - 1  # the OpenAPI document's maximum for a hand's and a payment's id


class RowId(IntegerConverter):
    def to_python(self, value: str) -> int:
        number = int(super().to_python(value))
        return number if number <= MAX_ROW_ID else 0
