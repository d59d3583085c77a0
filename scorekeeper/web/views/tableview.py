"""The table page's view model: what its template shows, gathered from the table's replayed state,
and whether a script asked for the page's fragment only."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import current_app, g, request

from ...store.models import Hand, Table
from ...store.rows import EDIT
from ...tables.groups import TransferJSON
from ...tables.service import Deal, Live, Series, SeriesConfig, TableState
from ..access import seats
from ..catalogue import terms
from ..catalogue.i18n import money_text
from . import cardview
from .cardview import CardLists
from .chart import Chart, balance_chart


class TableView(CardLists):
    """What the table page's templates get (``table_view``); a hand's page adds its own."""

    state: TableState
    table: Table
    series: Series
    config: SeriesConfig
    classes: dict[str, str]  # each player's colour class
    hands: list[tuple[Hand, Deal]]  # each finished hand with its deal
    live: Live | None
    problem: list[dict] | None  # a stored record the engine now refuses
    hand_number: int  # the hand being played, or next
    next: object  # the series' NextDeal: the next dealer, a nagari's carry, who sits out
    settle: list[TransferJSON]
    chart: Chart | None
    preset_label: str
    changed: Mapping[str, object]  # the options the table changed from its preset
    money: Callable[[float], str]
    can_edit: bool
    my_seat: str | None
    hand_count: int
    balances_money: dict[str, float]
    carry_factor: Callable[[int], int]
    config_poll: int  # ms between polls


def table_view(state: TableState) -> TableView:
    """Everything the table page shows."""
    s, cfg = state.series, state.config
    classes = cardview.player_classes(cfg.players)
    history = [d.balances for d in s.deals if d.counted or d.entries]
    nxt = s.next
    return {
        "state": state,
        "table": state.table,
        "series": s,
        "config": cfg,
        "classes": classes,
        "hands": list(zip(state.hands, s.deals)),
        "live": state.live,
        "problem": state.problem,
        "hand_number": s.played + (0 if s.finished else 1),
        "next": nxt,
        "settle": s.settle_up(),
        "chart": balance_chart(cfg.players, classes, history),
        "preset_label": terms.preset_label(cfg.rules_doc.get("preset", "pagat")),
        "changed": cfg.rules_doc.get("options") or {},
        "money": lambda v: money_text(v, cfg.currency),
        "can_edit": g.get("table_level") == EDIT,
        # This phone's seat ("I am 지영"): only an editing phone records for its seat.
        "my_seat": seats.seat_in(state.table.public_id, cfg.players) if g.get("table_level") == EDIT else None,
        "hand_count": len(state.hands),
        "balances_money": s.to_json()["balances_money"],
        "carry_factor": state.carry_factor,
        "config_poll": current_app.config["POLL_INTERVAL_MS"],
        **cardview.card_lists(cfg.rules),
    }


def wants_partial() -> bool:
    return request.headers.get("X-Partial") == "1"
