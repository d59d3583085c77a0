"""Share links other phones can open: never a loopback address when a better one exists.

A host who opened the app at 127.0.0.1 or localhost would otherwise share links that
open only on their own phone or laptop. The base of a share link is, in order:

1. ``SCOREKEEPER_PUBLIC_URL`` (Flask ``PUBLIC_URL``), when the app is hosted or behind a proxy;
2. the address the page was opened with, when other phones can reach it (not loopback);
3. this machine's LAN address, when the server answers there (``scorekeeper serve --host 0.0.0.0``);
4. the loopback address, and the page warns that no other phone can use it.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from functools import lru_cache
from typing import TYPE_CHECKING, Required, TypedDict
from urllib.parse import urlsplit

import segno
from flask import current_app, g, request, url_for

from ...store.rows import EDIT

if TYPE_CHECKING:
    from ...tables.service import TableState

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    name = (host or "").strip("[]").lower()
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent: a UDP socket only picks a route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like any outside address
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


@lru_cache(maxsize=8)
def _answers(address: str, port: int) -> bool:
    """Whether the server listens on ``address:port`` too (bound to 0.0.0.0, not only loopback)."""
    try:
        with socket.create_connection((address, port), timeout=0.3):
            return True
    except OSError:
        return False


def share_base(host_url: str, public_url: str | None) -> tuple[str, bool]:
    """The base URL for share links and whether it is loopback only (the page then warns)."""
    if public_url:
        return public_url.rstrip("/") + "/", False
    parts = urlsplit(host_url)
    if not is_loopback(parts.hostname or ""):
        return host_url, False
    lan = lan_address()
    port = parts.port or (443 if parts.scheme == "https" else 80)
    if lan and _answers(lan, port):
        return f"{parts.scheme}://{lan}:{port}/", False
    return host_url, True


def rebase(url: str, base: str) -> str:
    """``url`` (absolute, from ``url_for(_external=True)``) moved onto ``base``."""
    parts = urlsplit(url)
    tail = parts.path + (f"?{parts.query}" if parts.query else "")
    return base.rstrip("/") + tail


# -- a table's share links and their QR codes ----------------------------------------------


class ShareLinks(TypedDict, total=False):
    """A table's or a group's share links: view, edit for an editor, a table's seats."""

    loopback: Required[bool]  # only this machine can open them: the page warns
    view: Required[str]
    edit: str
    seats: list[tuple[str, str]]  # (player, the edit link that opens on that seat)


def share_links(state: TableState) -> ShareLinks:
    """The view (and, for an editor, edit) link from an address other phones can reach."""
    t = state.table
    base, loopback = share_base(request.host_url, current_app.config.get("PUBLIC_URL"))
    view = rebase(url_for("tables.enter", public_id=t.public_id, key=t.view_secret, _external=True), base)
    links: ShareLinks = {"loopback": loopback, "view": view}
    if g.get("table_level") == EDIT:
        links["edit"] = rebase(url_for("tables.enter", public_id=t.public_id, key=t.edit_secret, _external=True), base)
        # One seat link per player: the edit link that also says whose phone it opens on.
        links["seats"] = [
            (
                name,
                rebase(
                    url_for("tables.enter", public_id=t.public_id, key=t.edit_secret, seat=name, _external=True), base
                ),
            )
            for name in state.config.players
        ]
    return links


@lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    """A QR code as SVG markup, for the share section (kept: 5-10 ms of CPU each, on every page)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True, svgclass="qr", lineclass=None, omitsize=False
    )
    return out.getvalue().decode()
