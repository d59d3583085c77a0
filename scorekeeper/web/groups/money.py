"""A group's page, where money is corrected and paid: a payment voided (two steps), an empty evening
removed (two steps), a player's pay link, the rules of the next evening; and the history's lines."""

from __future__ import annotations

from typing import TypedDict

from flask import abort, flash, redirect, render_template, request, url_for

from ...store import groups as store
from ...tables import groups as service
from ...tables import history, paylinks
from ...tables.groups import Owed
from ...tables.groups import money as money_of
from ...tables.refusals import EngineError, WriteRefused
from ..access.groups import group_state, open_group
from ..catalogue.i18n import gettext as _
from ..catalogue.i18n import refusal
from ..server.database import db
from ..server.security import EDIT
from ..views import historyview
from ..views.newtable import form_with_rules, localize, preset_table, rules_of_form, sheet_rows
from ..views.tableforms import TableForm
from . import bp


def _back(public_id: str, anchor: str):
    return redirect(url_for("groups.show", public_id=public_id) + anchor, 303)


@bp.post("/g/<public_id>/payments/<int:payment_id>/void")
def void(public_id: str, payment_id: int):
    """The second step of voiding a payment (the first opened the question on the page)."""
    state = group_state(open_group(public_id, EDIT))
    try:
        _payment, newly = service.void_payment(db(), state, payment_id)
    except service.NotInGroup:
        abort(404)
    flash(_("payment_voided") if newly else _("payment_voided_already"), "ok")
    return _back(public_id, "#payments")


@bp.post("/g/<public_id>/evenings/<table_id>/remove")
def remove_evening(public_id: str, table_id: str):
    """The second step of removing an evening with no hands."""
    state = group_state(open_group(public_id, EDIT))
    try:
        service.remove_evening(db(), state, table_id)
    except service.NotInGroup:  # another phone removed it first (or it never was one of the group's)
        flash(_("evening_gone"), "error")
    except WriteRefused:
        flash(_("evening_has_hands"), "error")
    else:
        flash(_("evening_removed"), "ok")
    return _back(public_id, "#group-ledger")


@bp.post("/g/<public_id>/pay-link")
def pay_link(public_id: str):
    """A player's Toss or KakaoPay link (empty: none)."""
    state = group_state(open_group(public_id, EDIT))
    name = request.form.get("player", "")
    if name not in state.players:
        abort(404)
    try:
        link = service.set_pay_link(db(), state, name, request.form.get("pay_link", "").strip() or None)
    except EngineError as err:
        for e in err.errors:
            flash(refusal(e), "error")
    else:
        flash(_("pay_link_saved", p=name) if link else _("pay_link_removed", p=name), "ok")
    return _back(public_id, "#pay-links")


def _rules_form(state: service.GroupState, args) -> TableForm:
    """The new table's sheet, filled with the next evening's rules (or ``?preset=``'s)."""
    return form_with_rules(service.last_settings(state).get("rules") or {}, args.get("preset"))


@bp.route("/g/<public_id>/rules", methods=["GET", "POST"])
def rules(public_id: str):
    """The rules the group's next evening plays: a preset and its options, the new table's sheet."""
    state = group_state(open_group(public_id, EDIT))
    if request.method == "POST":
        form = TableForm()
        try:
            chosen = rules_of_form(form)
            if chosen is not None:
                service.set_rules(db(), state, chosen)
        except EngineError as err:
            for e in err.errors:
                flash(refusal(e), "error")
        else:
            if chosen is None:
                flash(_("refuse_generic"), "error")
            else:
                flash(_("group_rules_saved"), "ok")
                return _back(public_id, "#new-evening")
    else:
        form = _rules_form(state, request.args)
    return render_template(
        "group/rules.html", group=state.group, form=localize(form), presets=preset_table(), groups=sheet_rows(form)
    )


def pay_link_of(state: service.GroupState, transfer: Owed) -> dict[str, str]:
    """What the owed line needs to open the payee's link: the link (with the amount where it can
    carry one) and which app it is; nothing when the payee keeps none."""
    link = state.pay_links.get(transfer.payee)
    if not link:
        return {}
    return {
        "pay_link": paylinks.with_amount(link, transfer.money, state.currency),
        "pay_app": "toss" if link.startswith("https://toss.me/") else "kakaopay",
    }


# A payment as the group page lists it ("from" is a keyword: the functional form).
PaymentLine = TypedDict(
    "PaymentLine",
    {"id": int, "from": str, "to": str, "points": int, "money": float, "date": str, "voided": bool},
)


class MoneyView(TypedDict):
    """The group page's money part (``money_view``): its payments, pay links, history, next rules."""

    payments: list[PaymentLine]
    pay_links: dict[str, str]
    pay_link_example: str
    history: list[historyview.Line]
    empty_evenings: set[str]
    next_rules: str
    next_rules_changed: bool


def money_view(state: service.GroupState) -> MoneyView:
    """The group page's payments (newest first, voided ones marked), pay links, history, and the
    next evening's rules."""
    from ..catalogue.terms import preset_label

    rules = service.last_settings(state).get("rules") or {}
    return {
        "payments": [
            {
                "id": p.id,
                "from": p.payer,
                "to": p.payee,
                "points": p.points,
                "money": money_of(p.points, state.chip_value),
                "date": p.created_at.strftime("%Y-%m-%d") if p.created_at else "",
                "voided": p.voided_at is not None,
            }
            for p in reversed(state.payments)
        ],
        "pay_links": state.pay_links,
        "pay_link_example": "https://toss.me/…",
        "history": historyview.view(history.of_group(db(), state.group)),
        "empty_evenings": store.empty_evenings(db(), state.group),
        "next_rules": preset_label(str(rules.get("preset", "pagat"))),
        "next_rules_changed": bool(rules.get("options")),
    }
