"""The group's result as a PNG drawn on the server, for a chat's link preview and for sharing.

Drawn here, not in the browser, so that every phone shares the same picture. Korean needs a
Korean font: NanumGothic where the system has it, else Pillow's own font (Latin only: Hangul
then shows as boxes, and the text share still carries it).

The shape is a chat preview's: 1200×600 (2:1; KakaoTalk lays previews out at 800×400 and crops
the centre of anything else), the title and the owed list large enough to read at a third of
that size, everything inside a margin a crop may take. Nine players or more do not all fit: the
first three, a line saying how many more, and the last three (those who owe most) are drawn;
past seven transfers, the first six and how many more.

Whatever the group holds is drawn as text: control characters and bidi overrides are dropped,
a colour that is not ``#rrggbb`` is drawn grey, a line too long for its column ends in "…".
"""

from __future__ import annotations

import io
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

FONT = Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")
FONT_BOLD = Path("/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf")
WIDTH, HEIGHT = 1200, 600
MARGIN = 60  # a chat that crops a little of each side still shows everything
ROWS = 7  # lines in a column
ROW_H = 54
TOP = 182  # first line of the columns
BG, INK, MUTED, GOOD, BAD, LINE = "#fbf7ef", "#2a2420", "#7a6f66", "#1f7a45", "#b3261e", "#e2d9cc"
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@lru_cache(maxsize=16)
def font(size: int, bold: bool = False):
    from PIL import ImageFont  # imported when a picture is drawn: the app starts without it

    path = FONT_BOLD if bold and FONT_BOLD.exists() else FONT
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def clean(text: str) -> str:
    """The text as drawn: no control character (C0, C1) or bidi override, one line."""
    return "".join(c for c in str(text) if c not in _BIDI and unicodedata.category(c) != "Cc")


def colour_of(value: str) -> str:
    return value if isinstance(value, str) and COLOUR.fullmatch(value) else MUTED


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut to ``width`` pixels at ``size``, ending in "…" when cut."""
    f = font(size, bold)
    text = clean(text)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _standing_rows(standings: list, rows: int) -> list:
    """Every standing when they fit, else the first three, how many more, and the last three."""
    if len(standings) <= rows:
        return standings
    keep = (rows - 1) // 2
    return [*standings[:keep], len(standings) - 2 * keep, *standings[-keep:]]


def picture(
    title: str,
    subtitle: str,
    standings: list[tuple[str, str, str, int]],
    transfers: list[tuple[str, str]],
    footer: str,
    heading: str = "",
    more: str = "+{n}",
) -> bytes:
    """A PNG: the title, each player's standing (name, colour, amount text, sign) on the left, the
    transfers (who → whom, amount text) under ``heading`` on the right; ``footer`` names the app,
    ``more`` says how many lines were left out ("{n}")."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    d = ImageDraw.Draw(img)
    right = WIDTH - MARGIN
    d.text((right, 52), fit(footer, 26, 300), font=font(26), fill=MUTED, anchor="rs")
    d.text((MARGIN, 40), fit(title, 60, WIDTH - 2 * MARGIN - 320, True), font=font(60, True), fill=INK)
    d.text((MARGIN, 116), fit(subtitle, 30, WIDTH - 2 * MARGIN), font=font(30), fill=MUTED)
    d.line((MARGIN, 164, right, 164), fill=LINE, width=3)
    split = WIDTH // 2 if transfers else right
    columns = [(MARGIN, split - 30)]
    rows = _standing_rows(standings, ROWS if transfers else 2 * ROWS)
    if not transfers and len(rows) > ROWS:  # no debts: the standings take both columns
        columns = [(MARGIN, WIDTH // 2 - 30), (WIDTH // 2 + 30, right)]
    for i, row in enumerate(rows):
        x0, x1 = columns[i // ROWS]
        y = TOP + ROW_H * (i % ROWS)
        if isinstance(row, int):
            d.text((x0 + 36, y), more.format(n=row), font=font(34), fill=MUTED)
            continue
        name, colour, amount, sign = row
        amount = fit(amount, 38, (x1 - x0) / 2, True)
        room = x1 - x0 - 36 - font(38, True).getlength(amount) - 20
        d.ellipse((x0, y + 12, x0 + 22, y + 34), fill=colour_of(colour))
        d.text((x0 + 36, y), fit(name, 38, room, True), font=font(38, True), fill=INK)
        d.text((x1, y), amount, font=font(38, True), fill=GOOD if sign > 0 else BAD if sign < 0 else MUTED, anchor="ra")
    if transfers:
        x0 = split + 30
        d.line((split, TOP, split, TOP + ROW_H * ROWS - 12), fill=LINE, width=3)
        d.text((x0, TOP), fit(heading, 34, right - x0, True), font=font(34, True), fill=MUTED)
        shown = transfers if len(transfers) <= ROWS - 1 else transfers[: ROWS - 2]
        for i, (who, amount) in enumerate(shown):
            y = TOP + ROW_H * (i + 1)
            amount = fit(amount, 36, (right - x0) / 2, True)
            room = right - x0 - font(36, True).getlength(amount) - 20
            d.text((x0, y), fit(who, 36, room), font=font(36), fill=INK)
            d.text((right, y), amount, font=font(36, True), fill=INK, anchor="ra")
        if len(shown) < len(transfers):
            d.text(
                (x0, TOP + ROW_H * (len(shown) + 1)),
                more.format(n=len(transfers) - len(shown)),
                font=font(34),
                fill=MUTED,
            )
    out = io.BytesIO()
    # Not ``optimize``: it tried every filter and took most of the drawing's time, for 10 % less.
    img.save(out, format="PNG", compress_level=6)
    return out.getvalue()
