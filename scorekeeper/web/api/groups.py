"""The group (모임) API: create a group, read it, record a payment, export and import it.

Credentials: the group's edit or read-only secret in ``X-Group-Key`` (a table's keys never open
it). ``POST /tables`` with ``"group"`` makes a new evening of the group (``routes.create_table``).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, url_for

from ...engine.errors import EngineError
from ...engine.payout import money
from ...engine.series.settle import settle_up
from ...store import groups as store
from ...tables import groups as service
from ...tables import grouptransfer
from ..database import db
from ..groupaccess import keep_group_access, open_group
from ..limits import created
from ..security import EDIT
from . import bp, routes  # noqa: F401  (routes first: it registers the id converter these paths use)

PAYMENT_FIELDS = {"from", "to", "points", "key", "beyond_owed"}


@bp.record_once
def _group_id_converter(setup) -> None:
    """A group id in a path (never "import", like a table's): documented as ``{group}``."""
    from .routes import TableIdConverter

    setup.app.url_map.converters.setdefault("group_id", TableIdConverter)


def group_links(group) -> dict[str, str]:
    return {
        "id": group.public_id,
        "url": url_for("api.get_group", public_id=group.public_id, _external=True),
        "edit_link": url_for("groups.enter", public_id=group.public_id, key=group.edit_secret, _external=True),
        "view_link": url_for("groups.enter", public_id=group.public_id, key=group.view_secret, _external=True),
    }


def group_json(state: service.GroupState) -> dict[str, Any]:
    f = state.figures
    chip = state.chip_value
    ledger = {row["id"]: row for row in f["ledger"]}
    tables = []
    for ev in state.evenings:
        row = ledger[ev.table.public_id]
        ev_chip = ev.facts.get("chip_value", chip)
        tables.append(
            {
                "id": ev.table.public_id,
                "name": ev.table.title,
                "date": ev.date,
                "players": ev.facts["players"],
                "played": ev.facts.get("played", 0),
                "result": row["result"],
                "result_money": row["result_money"],
                "settle_up": [
                    {"from": t.payer, "to": t.payee, "points": t.points, "money": money(t.points, ev_chip)}
                    for t in settle_up(ev.facts["balances"])
                ],
                "balances": row["balances"],
                "balances_money": row["balances_money"],
                "titles": f["evening_titles"].get(ev.table.public_id, []),
            }
        )
    return {
        "ok": True,
        "id": state.group.public_id,
        "name": state.group.name,
        "version": state.group.version,
        "chip_value": float(chip),
        "currency": state.currency,
        "players": state.players,
        "colours": state.colours,
        "tables": tables,
        "balances": f["balances"],
        "payments": f["payments"],
        "owed": f["owed"],
        "stats": f["stats"],
        "titles": f["titles"],
        "months": f["months"],
        "head_to_head": f["head_to_head"],
    }


def _body():
    from .routes import _body as body

    return body()


@bp.post("/groups")
def create_group():
    group = service.create(db(), _body())
    created()
    return jsonify(ok=True, **group_links(group), edit_key=group.edit_secret, view_key=group.view_secret), 201


@bp.post("/groups/import")
def import_group():
    """A new group (new id and secrets) with every evening of a group's export."""
    group = grouptransfer.import_group(db(), _body())
    created()
    return jsonify(ok=True, **group_links(group), edit_key=group.edit_secret, view_key=group.view_secret), 201


@bp.get("/groups/<group_id:public_id>")
def get_group(public_id: str):
    return jsonify(group_json(service.load(db(), open_group(public_id))))


@bp.post("/groups/<group_id:public_id>/keys")
def new_group_keys(public_id: str):
    """New secrets ({"rotate": "edit" | "view" | "both"}, default both), as a table's: the old
    ones then open nothing, anywhere. Answers the new links and keys."""
    from pydantic import ValidationError

    from . import models
    from .routes import _Refusal

    group = open_group(public_id, EDIT)
    try:
        which = models.NewKeys.model_validate(_body()).rotate
    except ValidationError:
        raise _Refusal(400, "bad_request", 'The body is {"rotate": "edit" | "view" | "both"}.', "rotate") from None
    edit, view = store.rotate_secrets(db(), group, which)
    keep_group_access(public_id, edit)
    return jsonify(ok=True, **group_links(group), edit_key=edit, view_key=view)


@bp.post("/groups/<group_id:public_id>/payments")
def add_group_payment(public_id: str):
    """Record money handed over (edit key only): 201, or 200 when its key was recorded already."""
    state = service.load(db(), open_group(public_id, EDIT))
    body = _body()
    unknown = sorted(set(body) - PAYMENT_FIELDS)
    if unknown:
        raise EngineError("bad_payment", f"Unknown field {unknown[0]!r} in the payment.", unknown[0])
    key = body.get("key")
    if key is not None and (not isinstance(key, str) or not 1 <= len(key) <= 80):
        raise EngineError("bad_payment", "key is a short text naming the transfer (1–80 characters).", "key")
    beyond = body.get("beyond_owed", False)
    if not isinstance(beyond, bool):
        raise EngineError("bad_payment", "beyond_owed is true or false.", "beyond_owed")
    payment, new = service.record_payment(
        db(), state, body.get("from"), body.get("to"), body.get("points"), key, beyond
    )
    state = service.load(db(), state.group)
    answer = {
        "ok": True,
        "recorded": new,
        "payment": service.payment_json(payment, state.chip_value),
        "owed": state.figures["owed"],
    }
    return jsonify(answer), 201 if new else 200
