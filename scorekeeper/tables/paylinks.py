"""A player's send-money link (송금 링크): only Toss's and KakaoPay's own https links are kept.

A link is shown to every phone of the group, read-only ones included, and opened by a tap: a
link to anywhere else (another site, ``javascript:``, a look-alike host) would be a way to send
the group's members somewhere they did not mean to go, so the hosts are named exactly.
"""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit

from .refusals import CodedRefusal

MAX_LINK = 200
# host -> the path a link of it has: a Toss id (toss.me/<id>), a KakaoPay code (qr.kakaopay.com/<code>)
HOSTS = {
    "toss.me": re.compile(r"/([A-Za-z0-9_.\-]{1,40})/?"),
    "qr.kakaopay.com": re.compile(r"/([A-Za-z0-9]{1,64})/?"),
}
MESSAGE = (
    "pay_link is an https link of Toss (https://toss.me/<id>) or KakaoPay (https://qr.kakaopay.com/<code>), or null."
)


def checked(value: object, path: str = "pay_link") -> str | None:
    """The link as kept (its host lower-cased, no trailing slash), None to remove it; else ``bad_pay_link``."""
    if value is None or value == "":
        return None
    parts, port = _split(value, path)
    host = (parts.hostname or "").lower()
    found = _id_of(parts, port, host)
    if found is None:
        raise CodedRefusal("bad_pay_link", MESSAGE, path)
    return f"https://{host}/{found}"


def _split(value: object, path: str) -> tuple[SplitResult, int | None]:
    """A link's parts and port, when it is printable text of a link's length."""
    if not isinstance(value, str) or len(value) > MAX_LINK or not value.isprintable() or " " in value:
        raise CodedRefusal("bad_pay_link", MESSAGE, path)
    try:
        parts = urlsplit(value.strip())
        return parts, parts.port
    except ValueError:
        raise CodedRefusal("bad_pay_link", MESSAGE, path) from None


def _id_of(parts: SplitResult, port: int | None, host: str) -> str | None:
    """The Toss id or KakaoPay code the link names, when it is an https link of that host and
    nothing else (no user, password, port, query or fragment); else None."""
    shape = HOSTS.get(host)
    if parts.scheme.lower() != "https" or shape is None or parts.netloc.lower() != host or port is not None:
        return None
    if parts.query or parts.fragment:
        return None
    found = shape.fullmatch(parts.path)
    return found.group(1) if found else None


def with_amount(link: str, money: float, currency: str) -> str:
    """The link that opens the transfer with its amount where the link's form allows: a Toss link
    takes the amount in won after its id (``https://toss.me/<id>/<won>``); a KakaoPay code, or an
    amount in anything but whole won, is opened as it is."""
    if currency == "₩" and link.startswith("https://toss.me/") and float(money).is_integer() and money > 0:
        return f"{link}/{int(money)}"
    return link
