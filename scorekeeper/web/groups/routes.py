"""A group's pages: new group, share link, the group page, a new evening, payments, sharing, export."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flask import (
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from ...store import groups as store
from ...store import rows as tables_store
from ...store.groupversions import group_versions
from ...store.models import Group, Table
from ...tables import groups as service
from ...tables import grouptransfer
from ...tables.groups import Figures, LedgerRow, Owed, PlayerStats, money
from ...tables.refusals import EngineError
from ..access import keyring
from ..access.groups import (
    can_edit_group,
    forget_group,
    group_state,
    keep_group_access,
    known_group_ids,
    open_group,
    remember_group_key,
)
from ..catalogue.i18n import current_lang, money_text, refusal
from ..catalogue.i18n import gettext as _
from ..catalogue.terms import trail_text
from ..server.database import db
from ..server.limits import created, refused_key
from ..server.security import EDIT, presented_key, remember_key
from ..views import export, joincode, sharing
from ..views.cardview import player_classes
from ..views.chart import Chart, balance_chart
from ..views.newtable import default_preset
from ..views.tableforms import KeysForm
from . import bp, pictures
from .money import MoneyView, money_view, pay_link_of
from .picture import HEIGHT, WIDTH, picture

LEDGER_ROWS = 20


def _names(text: str) -> list[str]:
    return [n.strip() for chunk in (text or "").splitlines() for n in chunk.split(",") if n.strip()]


def _number(text: str | None, default: float) -> float:
    try:
        value = float(text) if text not in (None, "") else default
    except ValueError:
        raise EngineError("bad_value", "chip_value is a number.", "chip_value") from None
    return int(value) if float(value).is_integer() else value


@bp.route("/g/new", methods=["GET", "POST"])
def new():
    errors: list[str] = []
    if request.method == "POST":
        try:
            doc = {
                "name": request.form.get("name", ""),
                "players": _names(request.form.get("players", "")),
                "chip_value": _number(request.form.get("chip_value"), 100),
            }
            group = service.create(db(), doc, default_preset())
        except EngineError as err:
            errors = [refusal(e) for e in err.errors]
        else:
            created()
            remember_group_key(group.public_id, group.edit_secret)
            return redirect(url_for("groups.show", public_id=group.public_id), 303)
    return render_template("group/new.html", errors=errors, form=request.form), 422 if errors else 200


@bp.get("/gj/<public_id>/<key>")
def enter(public_id: str, key: str):
    """A group's share link: keep its secret on this phone, then drop it from the address bar."""
    group = store.get_group(db(), public_id)
    if group is None or tables_store.access_level(group, key) is None:  # type: ignore[arg-type]
        refused_key()
        abort(404)
    remember_group_key(public_id, key)
    # Not a redirect: a chat app's link preview fetches this address without keeping the cookie,
    # so this answer itself carries the group's Open Graph tags, and a phone goes on to the page.
    state = group_state(group)
    response = make_response(
        render_template(
            "group/enter.html", group=group, og=_open_graph(state), url=url_for("groups.show", public_id=public_id)
        )
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _links(group) -> sharing.ShareLinks:
    base, loopback = sharing.share_base(request.host_url, current_app.config.get("PUBLIC_URL"))
    out: sharing.ShareLinks = {
        "loopback": loopback,
        "view": sharing.rebase(
            url_for("groups.enter", public_id=group.public_id, key=group.view_secret, _external=True), base
        ),
    }
    if can_edit_group():
        out["edit"] = sharing.rebase(
            url_for("groups.enter", public_id=group.public_id, key=group.edit_secret, _external=True), base
        )
    return out


def _money(state: service.GroupState):
    return lambda v: money_text(v, state.currency)


@dataclass(frozen=True, slots=True)
class Shared:
    """What a group's share text and picture say."""

    title: str
    heading: str
    amounts: dict[str, float]  # money, by player
    transfers_heading: str
    transfers: tuple[Owed, ...]
    subtitle: str


def _shared(state: service.GroupState, evening_id: str | None) -> Shared:
    """What is shared: the group's standings and what is still owed, or one evening's result and
    its settle-up (``evening_id``, a table of the group); 404 of an evening not in the group."""
    f = state.figures
    if evening_id:
        i = next((i for i, e in enumerate(state.evenings) if e.id == evening_id), None)
        if i is None:
            abort(404)
        ev, row = state.evenings[i], f.ledger[i]
        return Shared(
            title=f"{state.group.name} · {ev.date}",
            heading=_("evening_result"),
            amounts=row.result_money,
            transfers_heading=_("settle_up"),
            transfers=row.settle_up,
            subtitle=ev.table.title or _("n_hands", n=ev.facts.played),
        )
    last = state.evenings[-1].date if state.evenings else ""
    return Shared(
        title=state.group.name,
        heading=_("group_standings"),
        amounts={p: _cash(state, v) for p, v in f.balances.items()},
        transfers_heading=_("owed_title"),
        transfers=f.owed,
        subtitle=_("group_picture_sub", n=len(state.evenings), date=last),
    )


def share_text(state: service.GroupState, evening_id: str | None = None) -> str:
    """The standings and what is still owed (or an evening's result and settle-up), as a group chat
    reads it ("민수 → 지영 3,600원")."""
    money = _money(state)
    shared = _shared(state, evening_id)
    lines = [f"[{shared.title}] {shared.heading}"]
    for p, v in sorted(shared.amounts.items(), key=lambda kv: -kv[1]):
        lines.append(f"{p} {'+' if v > 0 else ''}{money(v)}")
    if shared.transfers:
        lines.append("")
        lines.append(shared.transfers_heading)
        lines += [f"{t.payer} → {t.payee} {money(t.money)}" for t in shared.transfers]
    return "\n".join(lines)


def _cash(state: service.GroupState, points: int):
    return money(points, state.chip_value)


class PageView(MoneyView):
    """What the group page's template gets (``page_view``), beside its share links and preview."""

    group: Group
    state: service.GroupState
    f: Figures
    classes: dict[str, str]  # each player's colour class
    owed: list[dict[str, object]]  # a transfer's JSON, its key and the payee's pay link
    chart: Chart | None
    ledger: list[LedgerRow]  # newest first
    ledger_more: int  # the evenings left off the page
    evenings: dict[str, service.Evening]  # by id
    money: Callable[[float], str]
    cash: Callable[[int], int | float]  # points → money at the group's chip value
    can_edit: bool
    stats: dict[str, PlayerStats]
    order: list[str]  # the players, the one ahead first
    came: set[str]  # who played the last evening
    share_text: str
    known: list[str]  # the groups this phone holds a key for
    last_settings: dict[str, object]
    trail_text: Callable[[Sequence[object]], str]
    attachable: list[Table]
    picture_version: str


def page_view(state: service.GroupState) -> PageView:
    f = state.figures
    classes = player_classes(state.players)
    history = [row.balances for row in f.ledger]
    owed = [t.to_json() | {"key": service.transfer_key(state, t)} | pay_link_of(state, t) for t in f.owed]
    known = known_group_ids()
    last = state.evenings[-1].facts.players if state.evenings else state.players
    stats = f.stats
    order = sorted(state.players, key=lambda p: -f.balances.get(p, 0))
    return {
        "group": state.group,
        "state": state,
        "f": f,
        "classes": classes,
        "owed": owed,
        "chart": balance_chart(state.players, classes, history),
        # The newest evenings; all of them on ?all=1 (and in the CSV): a page of 200 evenings drew
        # 6,000 names and amounts, most of its server time.
        "ledger": list(reversed(f.ledger))[: None if request.args.get("all") else LEDGER_ROWS],
        "ledger_more": max(0, len(f.ledger) - LEDGER_ROWS) if not request.args.get("all") else 0,
        "evenings": {ev.id: ev for ev in state.evenings},
        "money": _money(state),
        "cash": lambda v: _cash(state, v),
        "can_edit": can_edit_group(),
        "stats": stats,
        "order": order,
        "came": set(last),
        "share_text": share_text(state),
        "known": known,
        "last_settings": service.last_settings(state),
        "trail_text": trail_text,
        "attachable": _attachable() if can_edit_group() else [],
        # Moves with every change the picture shows: a phone never keeps an older picture.
        "picture_version": picture_version(state),
        **money_view(state),
    }


def _attachable() -> list:
    """The tables this phone may edit that are in no group yet (to add one after the fact)."""
    keys = keyring.kept(keyring.TABLE)
    found = tables_store.recent_tables(db(), list(keys))
    return [t for t in found if t.group_id is None and tables_store.access_level(t, keys.get(t.public_id)) == EDIT]


@bp.get("/g/<public_id>")
def show(public_id: str):
    state = group_state(open_group(public_id))
    return render_template(
        "group/show.html", **page_view(state), share=_links(state.group), qr=sharing.qr_svg, og=_open_graph(state)
    )


def og_description(state: service.GroupState) -> str:
    """Who is ahead (the first four), then everyone who still owes and how much: the one who owes
    the most is never left out of a chat's preview, however many play."""
    f = state.figures
    money = _money(state)
    ahead = [(p, v) for p, v in sorted(f.balances.items(), key=lambda kv: -kv[1]) if v > 0][:4]
    text = " · ".join(f"{p} +{money(_cash(state, v))}" for p, v in ahead)
    owes: dict[str, float] = {}
    for t in f.owed:
        owes[t.payer] = owes.get(t.payer, 0) + t.money
    if owes:
        debts = ", ".join(f"{p} {money(v)}" for p, v in sorted(owes.items(), key=lambda kv: -kv[1]))
        text += f" | {_('owed_title')}: {debts}"
    return text


def _open_graph(state: service.GroupState) -> dict[str, str]:
    desc = og_description(state)
    # The picture's address carries the read-only key: a link preview fetches it without this phone's
    # cookie, and whoever sees the preview was sent the read-only link anyway (never the edit key).
    return {
        "title": f"{state.group.name} · {_('app_name')}",
        "description": desc,
        # A new address whenever what it shows changes: chat apps keep a preview by its URL.
        "image": url_for(
            "groups.share_png",
            public_id=state.group.public_id,
            key=state.group.view_secret,
            v=picture_version(state),
            _external=True,
        ),
        "image_width": str(WIDTH),
        "image_height": str(HEIGHT),
    }


@bp.post("/g/<public_id>/evening")
def evening(public_id: str):
    """A new evening from the group: who came (ticked) and any newcomers; the rest from the last evening."""
    state = group_state(open_group(public_id, EDIT))
    came = [p for p in state.players if p in request.form.getlist("came")]
    newcomers = _names(request.form.get("newcomers", ""))
    players = service.seating_from_last(state, came + [n for n in newcomers if n not in came])
    try:
        table = service.new_evening(
            db(),
            state,
            {
                "players": players,
                "first_dealer": players[0] if players else None,
                "name": request.form.get("name") or None,
            },
        )
    except EngineError as err:
        for e in err.errors:
            flash(refusal(e), "error")
        return redirect(url_for("groups.show", public_id=public_id), 303)
    created()
    remember_key(table.public_id, table.edit_secret)
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


@bp.post("/g/<public_id>/attach")
def attach(public_id: str):
    """Add an existing table this phone can edit (or whose edit code is pasted) to the group."""
    state = group_state(open_group(public_id, EDIT))
    table_id: str | None = request.form.get("table", "")
    key: str | None = None
    if request.form.get("code"):
        table_id, key = joincode.parse_code(request.form["code"])
    table = tables_store.get_table(db(), table_id or "")
    key = key or (presented_key(table_id) if table_id else None)
    if table is None or tables_store.access_level(table, key) != EDIT:
        refused_key()
        flash(_("group_attach_refused"), "error")
        return redirect(url_for("groups.show", public_id=public_id), 303)
    if table.group_id is not None:
        flash(_("group_attach_taken"), "error")
        return redirect(url_for("groups.show", public_id=public_id), 303)
    service.attach(db(), state, table)
    flash(_("group_attached"), "ok")
    return redirect(url_for("groups.show", public_id=public_id), 303)


@bp.post("/g/<public_id>/paid")
def paid(public_id: str):
    """One tap, "보냈어요": a transfer of what is owed, or any payment handed over, recorded."""
    state = group_state(open_group(public_id, EDIT))
    form = request.form
    try:
        points = int(form.get("points", ""))
    except ValueError:
        points = None
    try:
        _payment, new = service.record_payment(
            db(),
            state,
            form.get("from"),
            form.get("to"),
            points,
            form.get("key") or None,
            form.get("beyond_owed") == "y",
        )
    except EngineError as err:
        for e in err.errors:
            flash(refusal(e), "error")
    else:
        flash(_("payment_recorded") if new else _("payment_recorded_already"), "ok")
    # The confirmation is the page's first line (base.html): land on it, the owed list just below.
    # Landing on #owed put it 100 px above the screen.
    return redirect(url_for("groups.show", public_id=public_id) + "#flash", 303)


@bp.get("/g/<public_id>/share.png")
def share_png(public_id: str):
    """The picture shared: the group's standings, or one evening's (``?evening=<table>``); ``?key=``
    opens it for a link preview, which has no cookie. Kept per version (``pictures``): a version
    seen before is answered from the group's versions alone, an ``If-None-Match`` naming it with
    a 304; drawn once for every phone and preview asking; 503 when too many are being drawn."""
    group = open_group(public_id, key=request.args.get("key") or None, read=group_versions)
    evening = request.args.get("evening") or None
    versions = pictures.versions_of(group, evening, current_lang())
    if versions is None:
        abort(404)
    try:
        tag, png = pictures.answer(
            versions, lambda: _picture_args(public_id, evening), request.if_none_match.__contains__, picture
        )
    except pictures.Busy:
        return Response(status=503, headers={"Retry-After": "2", "Cache-Control": "no-store"})
    headers = {"Cache-Control": "private, no-cache", "ETag": f'"{tag}"'}
    if png is None:
        return Response(status=304, headers=headers)
    return Response(png, mimetype="image/png", headers=headers)


def _picture_args(public_id: str, evening_id: str | None) -> tuple:
    """What the picture draws (``picture``'s arguments), from the group's state."""
    group = store.get_group(db(), public_id)
    if group is None:  # gone since its versions were read
        abort(404)
    state = group_state(group)
    money = _money(state)
    shared = _shared(state, evening_id)
    standings = [
        (p, state.colours.get(p, ""), f"{'+' if v > 0 else ''}{money(v)}", 1 if v > 0 else -1 if v < 0 else 0)
        for p, v in sorted(shared.amounts.items(), key=lambda kv: -kv[1])
    ]
    transfers = [(f"{t.payer} → {t.payee}", str(money(t.money))) for t in shared.transfers]
    return (
        str(shared.title),
        str(shared.subtitle),
        standings,
        transfers,
        str(_("app_name")),
        str(shared.transfers_heading),
        str(_("picture_more")),
    )


def picture_version(state: service.GroupState) -> str:
    """What the group's picture shows, as a short digest: a new one when the standings, what is
    owed, the evenings or the names change (a chat app keeps a preview by its URL for hours)."""
    f = state.figures
    return pictures.etag(
        state.group.name,
        state.currency,
        sorted(f.balances.items()),
        [(t.payer, t.payee, t.points) for t in f.owed],
        [(ev.table.public_id, ev.table.version, ev.table.title) for ev in state.evenings],
        sorted(state.colours.items()),
    )[:12]


@bp.get("/g/<public_id>/share.txt")
def share_txt(public_id: str):
    state = group_state(open_group(public_id))
    return Response(share_text(state, request.args.get("evening")), mimetype="text/plain")


@bp.get("/g/<public_id>/group.json")
def export_json(public_id: str):
    state = group_state(open_group(public_id))
    return export.json_download(grouptransfer.export(db(), state), f"gostop-group-{public_id}.json")


@bp.get("/g/<public_id>/ledger.csv")
def export_csv(public_id: str):
    state = group_state(open_group(public_id))
    out = io.StringIO()
    w = export._SafeWriter(out)
    w.writerow(
        [_("csv_date"), _("csv_table")]
        + [f"{p} ({_('csv_points')})" for p in state.players]
        + [f"{p} ({_('csv_running')})" for p in state.players]
    )
    # The table's name, else who played that evening: never its id, which a person cannot read.
    names = {ev.id: ev.table.title or ", ".join(ev.facts.players) for ev in state.evenings}
    for row in state.figures.ledger:
        w.writerow(
            [row.date, names.get(row.id, "")]
            + [row.result.get(p, 0) for p in state.players]
            + [row.balances.get(p, 0) for p in state.players]
        )
    w.writerow([])
    w.writerow([_("csv_from"), _("csv_to"), _("csv_points"), _("csv_money", c=state.currency)])
    for t in state.figures.owed:
        w.writerow([t.payer, t.payee, t.points, t.money])
    return Response(
        "\ufeff" + out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename=gostop-group-{public_id}.csv"},
    )


@bp.post("/g/import")
def import_group():
    file = request.files.get("file")
    try:
        from ...tables.transfer import parse_json

        group = grouptransfer.import_group(db(), parse_json(file.read() if file else b""))
    except EngineError as err:
        for e in err.errors:
            flash(refusal(e), "error")
        return redirect(url_for("home.index") + "#groups", 303)
    created()
    remember_group_key(group.public_id, group.edit_secret)
    return redirect(url_for("groups.show", public_id=group.public_id), 303)


@bp.post("/g/<public_id>/keys")
def new_keys(public_id: str):
    """New edit and/or read-only secret for the group (a link pasted in the wrong chat, a phone
    lost), as a table's: the old ones then open nothing. This phone keeps the group."""
    group = open_group(public_id, EDIT)
    form = KeysForm()
    if not form.validate_on_submit():
        flash(_("new_keys_hint"), "error")
        return redirect(url_for("groups.show", public_id=public_id, _anchor="share"), 303)
    edit, _view = service.rotate_keys(db(), group, form.which.data)
    keep_group_access(public_id, edit)
    flash(_("new_group_keys_made"), "ok")
    return redirect(url_for("groups.show", public_id=public_id, _anchor="share"), 303)


@bp.post("/g/<public_id>/forget")
def forget(public_id: str):
    forget_group(public_id)
    return redirect(url_for("home.index"), 303)
