"""A table exported: the series document (``scorekeeper replay`` reads it back) and the ledger as a
spreadsheet (CSV) whose cells no spreadsheet runs as formulas."""

from __future__ import annotations

import csv
import io
import unicodedata
from typing import Any

from flask import Response
from jinja2.utils import htmlsafe_json_dumps

from ...tables.service import TableState, record_of
from ..catalogue import terms
from ..catalogue.i18n import gettext as _


def json_download(doc: object, filename: str) -> Response:
    """``doc`` as a JSON file to save (a table's or a group's export). Jinja's HTML-safe JSON:
    markup in a name stays inert wherever the file is opened."""
    text = str(htmlsafe_json_dumps(doc, ensure_ascii=False, indent=1))
    return Response(
        text, mimetype="application/json", headers={"Content-Disposition": f"attachment; filename={filename}"}
    )


def series_document(state: TableState) -> dict[str, Any]:
    """The table as a series document (``scorekeeper replay`` reads it back)."""
    doc = dict(state.table.config)
    doc["hands"] = [record_of(h, state.logs.get(h.id)) for h in state.hands]
    return doc


# A spreadsheet runs a cell that starts with one of these as a formula: a player named
# "=HYPERLINK(…)" must stay a name. Such a cell is written with a leading apostrophe.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    if not isinstance(value, str):
        return value
    # Spreadsheets skip leading blanks, newlines and zero-width characters before a formula.
    start = 0
    while start < len(value) and (value[start].isspace() or unicodedata.category(value[start]) == "Cf"):
        start += 1
    return f"'{value}" if value.startswith(_FORMULA_START) or value[start:].startswith(_FORMULA_START) else value


class _SafeWriter:
    def __init__(self, out):
        self._w = csv.writer(out)

    def writerow(self, row):
        self._w.writerow([_cell(v) for v in row])


def ledger_csv(state: TableState) -> str:
    """The ledger as a spreadsheet, in the phone's language: kinds, reasons and cards named."""
    out = io.StringIO()
    w = _SafeWriter(out)
    cfg = state.config
    head = [_(k) for k in ("csv_hand", "csv_kind", "csv_reason", "csv_from", "csv_to", "csv_points")]
    w.writerow([*head, _("csv_money", c=cfg.currency), _("csv_trail")])
    for e in state.series.ledger:
        row = e.to_json(cfg.chip_value)
        w.writerow(
            [
                row["hand"],
                terms.kind_label(row["kind"]),
                terms.reason_label(row["reason"]),
                row["from"],
                row["to"],
                row["points"],
                row["money"],
                terms.trail_text(row["trail"]),
            ]
        )
    w.writerow([])
    w.writerow([_("csv_player"), _("csv_balance"), _("csv_money", c=cfg.currency)])
    money = state.series.to_json()["balances_money"]
    for p, v in state.series.balances.items():
        w.writerow([p, v, money[p]])
    return out.getvalue()
