"""View models: what the templates show, gathered from the table's replayed state."""
from __future__ import annotations

import csv
import functools
import io
import unicodedata
from typing import Any

import segno
from flask import current_app, g, request, url_for

from ..engine.cards import BONUS_CARDS, CARDS, DECK
from ..engine.rules import OPTIONS, rules_from
from ..engine.series.gwangpalli import nagari_factor, payable
from ..engine.summary.facts import FIXED_KINDS
from ..store.rows import EDIT
from ..tables.service import TableState, record_of
from . import cardview, seats, sharing
from .catalogue import terms
from .catalogue.i18n import gettext as _
from .catalogue.i18n import money_text
from .chart import balance_chart

OPTION_GROUPS = ["scoring", "bonus", "go", "doubles", "fixed", "gwangpalli"]




def share_links(state: TableState) -> dict[str, Any]:
    """The view (and, for an editor, edit) link from an address other phones can reach."""
    t = state.table
    base, loopback = sharing.share_base(request.host_url, current_app.config.get("PUBLIC_URL"))
    links: dict[str, Any] = {"loopback": loopback}
    links["view"] = sharing.rebase(url_for("tables.enter", public_id=t.public_id, key=t.view_secret,
                                           _external=True), base)
    if g.get("table_level") == EDIT:
        links["edit"] = sharing.rebase(url_for("tables.enter", public_id=t.public_id, key=t.edit_secret,
                                               _external=True), base)
        # One seat link per player: the edit link that also says whose phone it opens on.
        links["seats"] = [(name, sharing.rebase(url_for("tables.enter", public_id=t.public_id, key=t.edit_secret,
                                                        seat=name, _external=True), base))
                          for name in state.config.players]
    return links


@functools.lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    """A QR code as SVG markup, for the share section (kept: 5-10 ms of CPU each, on every page)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True,
                                     svgclass="qr", lineclass=None, omitsize=False)
    return out.getvalue().decode()


def rules_sheet(config_rules: dict) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every option of the table's rules, grouped, with its value and whether it differs."""
    preset = config_rules.get("preset", "pagat")
    rules = rules_from(preset, config_rules.get("options") or {})
    base = rules_from(preset)
    groups: dict[str, list[dict]] = {grp: [] for grp in OPTION_GROUPS}
    for name, spec in OPTIONS.items():
        groups.setdefault(spec.metadata["group"], []).append({
            "name": name, "ko": spec.metadata["ko"], "en": spec.metadata["en"],
            "value": getattr(rules, name), "changed": getattr(rules, name) != getattr(base, name),
        })
    return [(grp, rows) for grp, rows in groups.items() if rows]


def table_view(state: TableState) -> dict[str, Any]:
    """Everything the table page shows."""
    s, cfg = state.series, state.config
    classes = cardview.player_classes(cfg.players)
    history = [d.balances for d in s.deals if d.counted or d.entries]
    nxt = s.next
    return {
        "state": state, "table": state.table, "series": s, "config": cfg, "classes": classes,
        "hands": list(zip(state.hands, s.deals)), "live": state.live, "problem": state.problem,
        "hand_number": s.played + (0 if s.finished else 1), "next": nxt,
        "settle": s.settle_up(), "chart": balance_chart(cfg.players, classes, history),
        "preset_label": terms.preset_label(cfg.rules_doc.get("preset", "pagat")),
        "changed": cfg.rules_doc.get("options") or {},
        "money": lambda v: money_text(v, cfg.currency),
        "can_edit": g.get("table_level") == EDIT,
        # This phone's seat ("I am 지영"): only an editing phone records for its seat.
        "my_seat": seats.seat_in(state.table.public_id, cfg.players) if g.get("table_level") == EDIT else None,
        "hand_count": len(state.hands),
        "balances_money": s.to_json()["balances_money"],
        "carry_factor": lambda carry: nagari_factor(carry, cfg.rules),
        "config_poll": current_app.config["POLL_INTERVAL_MS"],
        **card_lists(cfg.rules),
    }


def card_lists(rules) -> dict[str, Any]:
    """The cards the pickers offer under the table's rules."""
    bonus = [c for c in BONUS_CARDS if rules.bonus_count(c)]
    faces = cardview.FACES
    deck = [faces[c.code] for c in DECK]
    return {
        "bonus_codes": bonus,
        "matter": [f for f in deck if f.kind != "junk" or CARDS[f.code].junk == 2] + [faces[c] for c in bonus],
        "plain_junk": [f for f in deck if f.kind == "junk" and CARDS[f.code].junk == 1],
        "payable": [faces[c.code] for c in DECK if payable(c.code)] + [faces[c] for c in bonus],
        "fixed_kinds": [k for k in FIXED_KINDS if getattr(rules, k)],
        "fixed_labels": {k: terms.step_label({"id": k}) for k in FIXED_KINDS},
    }


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
    w.writerow(head + [_("csv_money", c=cfg.currency), _("csv_trail")])
    for e in state.series.ledger:
        row = e.to_json(cfg.chip_value)
        w.writerow([row["hand"], terms.kind_label(row["kind"]), terms.reason_label(row["reason"]), row["from"],
                    row["to"], row["points"], row["money"], terms.trail_text(row["trail"])])
    w.writerow([])
    w.writerow([_("csv_player"), _("csv_balance"), _("csv_money", c=cfg.currency)])
    money = state.series.to_json()["balances_money"]
    for p, v in state.series.balances.items():
        w.writerow([p, v, money[p]])
    return out.getvalue()


def wants_partial() -> bool:
    return request.headers.get("X-Partial") == "1"




def parse_code(code: str) -> tuple[str | None, str | None]:
    """A join code ``id.key``, or a pasted share link ``…/j/id/key``."""
    code = (code or "").strip()
    if "/j/" in code:
        parts = code.split("/j/", 1)[1].split("?")[0].split("#")[0].strip("/").split("/")
        return (parts[0], parts[1]) if len(parts) >= 2 else (None, None)
    for sep in (".", " "):
        if sep in code:
            public_id, _, key = code.partition(sep)
            return public_id.strip(), key.strip()
    return None, None
