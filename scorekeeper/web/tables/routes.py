"""A table: create it, open it by link or code, its page, rules, export, share."""

from __future__ import annotations

from flask import (
    Response,
    abort,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from ...store import rows as store
from ...tables import service, transfer, writes
from ...tables.refusals import EngineError, WriteRefused
from ..access import seats
from ..access.tables import keep_access, open_poll_row, open_table, table_or_404
from ..catalogue.i18n import gettext as _
from ..catalogue.i18n import refusal
from ..server.database import db
from ..server.limits import created, refused_key
from ..server.security import EDIT, remember_key
from ..views import export, homepage, joincode, sharing, tableview
from ..views.forms import attach_errors
from ..views.newtable import (
    ERROR_FIELDS,
    config_from_form,
    form_for_get,
    localize,
    preset_table,
    rules_sheet,
    sheet_rows,
)
from ..views.tableforms import EndForm, ImportForm, JoinForm, KeysForm, SeatForm, TableForm
from . import bp, pagecache


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = form_for_get(request.args) if request.method == "GET" else TableForm()
    if request.method == "POST" and form.validate_on_submit():
        try:
            config = config_from_form(form)
        except EngineError as err:
            for e in attach_errors(form, err.errors, ERROR_FIELDS):
                flash(e["message"], "error")
        else:
            table = writes.create_table(db(), form.title.data or "", config)
            created()
            remember_key(table.public_id, table.edit_secret)
            return redirect(url_for("tables.show", public_id=table.public_id))
    return render_template(
        "new_table.html", form=localize(form), presets=preset_table(), groups=sheet_rows(form)
    ), 422 if form.errors else 200


@bp.post("/import")
def import_table():
    """A table's export file → a new table with new secrets; a refusal shows its codes on the home page."""
    form = ImportForm()
    if not form.validate_on_submit():
        return homepage.page(form, [{"code": "bad_import", "message": _("err_bad_import"), "path": ""}]), 422
    try:
        table = writes.import_table(db(), transfer.parse_json(form.file.data.read()))
    except (EngineError, WriteRefused) as err:
        return homepage.page(form, [e | {"message": refusal(e)} for e in err.errors]), 422
    created()
    remember_key(table.public_id, table.edit_secret)
    flash(_("imported"), "ok")
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


@bp.get("/j/<public_id>/<key>")
def enter(public_id: str, key: str):
    """A share link: keep its secret on this phone, then drop it from the address bar."""
    table = table_or_404(public_id)
    if store.access_level(table, key) is None:
        refused_key()
        abort(404)
    remember_key(public_id, key)
    seat = request.args.get("seat")
    if seat is not None and store.access_level(table, key) == EDIT:
        # A seat link: the edit link with the seat named ("I am 지영"), one per player.
        taken = seat if seat in (table.config or {}).get("players", []) else None
        seats.take(public_id, taken)
        # The landing says what the link did: this phone now holds that seat ("나는 지영" says it).
        flash(_("seat_taken", p=taken) if taken else _("seat_left"), "ok")
    return redirect(url_for("tables.show", public_id=public_id))


@bp.post("/t/<public_id>/seat")
def take_seat(public_id: str):
    """ "I am 지영": bind this phone to a player's seat, or to none."""
    state = service.load(db(), open_table(public_id, EDIT))
    form = SeatForm()
    seat = (form.seat.data or "") if form.validate_on_submit() else None
    if seat is None or (seat and seat not in state.config.players):
        flash(_("err_bad_request"), "error")
    else:
        seats.take(public_id, seat or None)
        flash(_("seat_taken", p=seat) if seat else _("seat_left"), "ok")
    back = form.back.data or ""
    if back.isdigit() and state.hand(int(back)) is not None:
        return redirect(url_for("hands.show", public_id=public_id, hand_id=int(back)), 303)
    return redirect(url_for("tables.show", public_id=public_id), 303)


@bp.post("/join")
def join():
    form = JoinForm()
    if not form.validate_on_submit():
        flash(_("join_bad_code"), "error")
        return redirect(url_for("home.index"))
    public_id, key = joincode.parse_code(form.code.data)
    table = store.get_table(db(), public_id) if public_id else None
    if table is None or store.access_level(table, key) is None:
        refused_key()
        flash(_("join_bad_code"), "error")
        return redirect(url_for("home.index")), 303
    remember_key(public_id, key)
    return redirect(url_for("tables.show", public_id=public_id), 303)


@bp.get("/t/<public_id>")
def show(public_id: str):
    from ...tables import history
    from ..views import historyview

    state = service.load(db(), open_table(public_id))
    can_edit = g.get("table_level") == EDIT
    # A seated phone's body follows the table into its live hand: its seat is part of what is kept.
    seat = seats.seat_in(public_id, state.config.players) if can_edit else None
    body = pagecache.body(state.table, can_edit, lambda: tableview.table_view(state), seat)
    if tableview.wants_partial():
        return str(body)
    # The page around the body needs only these (a heavy table's whole view is the body's).
    return render_template(
        "table/show.html",
        body_html=body,
        table=state.table,
        config=state.config,
        series=state.series,
        can_edit=can_edit,
        hand_count=len(state.hands),
        my_seat=seat,
        share=sharing.share_links(state),
        qr=sharing.qr_svg,
        group_of=_group_of(state.table),
        history=historyview.view(history.of_table(db(), state.table)),
    )


def _group_of(table):
    """The table's group, when it has one that this phone can open (a link back to it)."""
    from ...store import groups
    from ..access.groups import known_group_ids

    if table.group_id is None:
        return None
    group = groups.group_by_id(db(), table.group_id)
    return group if group is not None and group.public_id in known_group_ids() else None


@bp.get("/t/<public_id>/version")
def version(public_id: str):
    """What phones poll when no push stream is up: the table's version, from one indexed row."""
    row = open_poll_row(public_id)
    etag = f'"v{row.version}"'
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers={"ETag": etag})
    response = jsonify(version=row.version)
    response.headers["ETag"] = etag
    return response


@bp.get("/t/<public_id>/rules")
def rules(public_id: str):
    state = service.load(db(), open_table(public_id))
    return render_template("table/rules.html", **tableview.table_view(state), sheet=rules_sheet(state.config.rules_doc))


@bp.get("/t/<public_id>/export.json")
def export_json(public_id: str):
    state = service.load(db(), open_table(public_id))
    return export.json_download(export.series_document(state), f"gostop-{public_id}.json")


@bp.get("/t/<public_id>/export.csv")
def export_csv(public_id: str):
    state = service.load(db(), open_table(public_id))
    return Response(
        "\ufeff" + export.ledger_csv(state),
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename=gostop-{public_id}.csv"},
    )


@bp.post("/t/<public_id>/end")
def end(public_id: str):
    """End the series early (rules.md §13 reading 10): after a confirmation, the settle-up is final."""
    state = service.load(db(), open_table(public_id, EDIT))
    form = EndForm()
    if not form.validate_on_submit():
        flash(_("end_series_hint"), "error")
        return redirect(url_for("tables.show", public_id=public_id), 303)
    try:
        writes.end_series(db(), state, form.count.data)
    except WriteRefused as err:
        if err.kind == "conflict":
            flash(_("err_conflict"), "error")
        else:
            flash(_("end_refused_live") if err.code == "hand_not_finished" else refusal(err.errors[0]), "error")
    return redirect(url_for("tables.show", public_id=public_id), 303)


@bp.post("/t/<public_id>/keys")
def new_keys(public_id: str):
    """New edit and/or read-only secret (a link pasted in the wrong chat, a phone lost): the old
    ones then open nothing, anywhere. This phone keeps the table, with the new edit secret."""
    table = open_table(public_id, EDIT)
    form = KeysForm()
    if not form.validate_on_submit():
        flash(_("new_keys_hint"), "error")
        return redirect(url_for("tables.show", public_id=public_id, _anchor="share"), 303)
    edit, _view = writes.rotate_keys(db(), table, form.which.data)
    keep_access(public_id, edit)
    flash(_("new_keys_made"), "ok")
    return redirect(url_for("tables.show", public_id=public_id, _anchor="share"), 303)


@bp.post("/t/<public_id>/forget")
def forget(public_id: str):
    from ..access import keyring

    keyring.forget(keyring.TABLE, public_id)
    return redirect(url_for("home.index"), 303)
