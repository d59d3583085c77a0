"""The group (모임) API: create a group, read it, record a payment, export and import it.

Credentials: the group's edit or read-only secret in ``X-Group-Key`` (a table's keys never open
it). ``POST /tables`` with ``"group"`` makes a new evening of the group (``routes.create_table``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import abort, jsonify, url_for

from ...store.models import GroupPayment
from ...tables import groups as service
from ...tables import grouptransfer, history, paylinks
from ...tables.groups import Evening, GroupState, LedgerRow, PlayerStats, Title, money
from ...tables.refusals import EngineError
from ..access.groups import group_state, keep_group_access, open_group
from ..server.database import db
from ..server.errors import error_response
from ..server.limits import created
from ..server.security import EDIT
from ..views.newtable import default_preset
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


def group_json(state: GroupState) -> dict[str, Any]:
    f = state.figures
    ledger = {row.id: row for row in f.ledger}
    return {
        "ok": True,
        "id": state.group.public_id,
        "name": state.group.name,
        "version": state.group.version,
        "chip_value": float(state.chip_value),
        "currency": state.currency,
        "players": state.players,
        "colours": state.colours,
        "pay_links": state.pay_links,
        "tables": [_evening_json(ev, ledger[ev.id], f.evening_titles.get(ev.id, ())) for ev in state.evenings],
        "balances": f.balances,
        "payments": [payment_json(p, state.chip_value) for p in state.payments],
        "owed": owed_json(state),
        "stats": _stats_json(f.stats),
        "titles": [t.to_json() for t in f.titles],
        "months": {
            m: {"stats": _stats_json(s.stats), "titles": [t.to_json() for t in s.titles]} for m, s in f.months.items()
        },
        "head_to_head": f.head_to_head,
    }


def _evening_json(ev: Evening, row: LedgerRow, titles: Sequence[Title]) -> dict[str, object]:
    return {
        "id": ev.id,
        "name": ev.table.title,
        "date": ev.date,
        "players": list(ev.facts.players),
        "played": ev.facts.played,
        "result": row.result,
        "result_money": row.result_money,
        "settle_up": [t.to_json() for t in row.settle_up],
        "balances": row.balances,
        "balances_money": row.balances_money,
        "titles": [t.to_json() for t in titles],
    }


def _stats_json(stats: Mapping[str, PlayerStats]) -> dict[str, dict[str, object]]:
    return {p: s.to_json() for p, s in stats.items()}


def _body():
    from .routes import _body as body

    return body()


@bp.errorhandler(service.NotInGroup)
def _not_in_group(_err):
    return error_response(404, "not_found", "No such payment, evening or player in this group.")


@bp.post("/groups")
def create_group():
    """A new group; with no rules, its evenings play the default of the phone's language (Accept-Language)."""
    group = service.create(db(), _body(), default_preset())
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
    return jsonify(group_json(group_state(open_group(public_id))))


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
    edit, view = service.rotate_keys(db(), group, which)
    keep_group_access(public_id, edit)
    return jsonify(ok=True, **group_links(group), edit_key=edit, view_key=view)


@bp.post("/groups/<group_id:public_id>/payments")
def add_group_payment(public_id: str):
    """Record money handed over (edit key only): 201, or 200 when its key was recorded already."""
    state = group_state(open_group(public_id, EDIT))
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
    state = group_state(state.group)
    answer = {
        "ok": True,
        "recorded": new,
        "payment": payment_json(payment, state.chip_value),
        "owed": owed_json(state),
    }
    return jsonify(answer), 201 if new else 200


def payment_json(p: GroupPayment, chip_value: float) -> dict[str, object]:
    return {
        "id": p.id,
        "from": p.payer,
        "to": p.payee,
        "points": p.points,
        "money": money(p.points, chip_value),
        "key": p.key,
        "at": history.iso(p.created_at) if p.created_at else None,
        "voided": p.voided_at is not None,
        "voided_at": history.iso(p.voided_at) if p.voided_at else None,
    }


def owed_json(state: GroupState) -> list[dict[str, object]]:
    """What is still owed; a transfer to a player with a pay link carries the link that opens it."""
    return [
        t.to_json()
        | (
            {"pay_link": paylinks.with_amount(state.pay_links[t.payee], t.money, state.currency)}
            if t.payee in state.pay_links
            else {}
        )
        for t in state.figures.owed
    ]


@bp.post("/groups/<group_id:public_id>/payments/<int:payment_id>/void")
def void_group_payment(public_id: str, payment_id: int):
    """Void a payment recorded by mistake (edit key only): it stays listed, ``voided``, out of what
    is owed. Voiding it again changes nothing (200 both times; ``voided_now`` says which)."""
    state = group_state(open_group(public_id, EDIT))
    _body_if_any()
    payment, newly = service.void_payment(db(), state, payment_id)
    state = group_state(state.group)
    return jsonify(ok=True, voided_now=newly, payment=payment_json(payment, state.chip_value), owed=owed_json(state))


@bp.delete("/groups/<group_id:public_id>/evenings/<table_id:table>")
def remove_group_evening(public_id: str, table: str):
    """Remove an evening with no hands (edit key only); one with hands answers 409."""
    state = group_state(open_group(public_id, EDIT))
    service.remove_evening(db(), state, table)
    return jsonify(ok=True)


@bp.put("/groups/<group_id:public_id>/players/<name>")
def set_group_player(public_id: str, name: str):
    """A player's pay link (edit key only): a Toss or KakaoPay https link, or null to remove it."""
    state = group_state(open_group(public_id, EDIT))
    body = _body()
    unknown = sorted(set(body) - {"pay_link"})
    if unknown or "pay_link" not in body:
        raise EngineError(
            "bad_value", 'The body is {"pay_link": "https://toss.me/…" | null}.', unknown[0] if unknown else "pay_link"
        )
    if name not in state.players:
        abort(404)
    link = service.set_pay_link(db(), state, name, body["pay_link"])
    return jsonify(ok=True, name=name, pay_link=link)


@bp.get("/groups/<group_id:public_id>/history")
def group_history(public_id: str):
    """What changed in the group and its evenings, oldest first (a read-only key reads it)."""
    group = open_group(public_id)
    return jsonify(ok=True, history=history.of_group(db(), group))


def _body_if_any() -> dict:
    """The body of a request that needs none: empty, or a JSON object (checked as any other)."""
    from flask import request

    return _body() if request.get_data() else {}
