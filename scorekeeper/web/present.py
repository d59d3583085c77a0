"""The names the route modules still read as ``present.X``; each now lives in the module of its
concern (their bodies are being rewritten elsewhere: once they import from these modules, this goes).
"""
from __future__ import annotations

from .export import _SafeWriter, ledger_csv, series_document
from .joincode import parse_code
from .rulesheet import rules_sheet
from .sharing import qr_svg, share_links
from .tableview import table_view, wants_partial

__all__ = ["_SafeWriter", "ledger_csv", "parse_code", "qr_svg", "rules_sheet", "series_document", "share_links",
           "table_view", "wants_partial"]
