"""The group's result as text for a group chat, and as a PNG drawn on the server.

Drawn here, not in the browser, so that every phone shares the same picture. Korean needs a
Korean font: NanumGothic where the system has it, else Pillow's own font (Latin only: Hangul
then shows as boxes, and the text share still carries it).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

FONT = Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")
FONT_BOLD = Path("/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf")
WIDTH = 720
BG, INK, MUTED, GOOD, BAD, LINE = "#fbf7ef", "#2a2420", "#7a6f66", "#1f7a45", "#b3261e", "#e2d9cc"


@lru_cache(maxsize=8)
def font(size: int, bold: bool = False):
    from PIL import ImageFont  # imported when a picture is drawn: the app starts without it

    path = FONT_BOLD if bold and FONT_BOLD.exists() else FONT
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def picture(
    title: str,
    subtitle: str,
    standings: list[tuple[str, str, str, int]],
    transfers: list[str],
    footer: str,
    heading: str = "",
) -> bytes:
    """A PNG: the title, each player's standing (name, colour, amount text, sign), the transfers."""
    from PIL import Image, ImageDraw

    rows = len(standings) + len(transfers) + (2 if transfers else 0)
    height = 150 + 52 * rows + 60
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    d.text((32, 28), title, font=font(40, True), fill=INK)
    d.text((32, 82), subtitle, font=font(24), fill=MUTED)
    y = 130
    for name, colour, amount, sign in standings:
        d.ellipse((32, y + 10, 52, y + 30), fill=colour or MUTED)
        d.text((66, y), name, font=font(30, True), fill=INK)
        d.text(
            (WIDTH - 32, y),
            amount,
            font=font(30, True),
            fill=GOOD if sign > 0 else BAD if sign < 0 else MUTED,
            anchor="ra",
        )
        y += 52
    if transfers:
        d.line((32, y + 14, WIDTH - 32, y + 14), fill=LINE, width=2)
        y += 40
        if heading:
            d.text((32, y), heading, font=font(26, True), fill=MUTED)
            y += 52
        for line in transfers:
            d.text((32, y), line, font=font(28), fill=INK)
            y += 52
    d.text((32, height - 46), footer, font=font(20), fill=MUTED)
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
