"""A join code typed or pasted on the home page: ``id.key``, or a whole share link."""

from __future__ import annotations


def parse_code(code: str) -> tuple[str | None, str | None]:
    """A join code ``id.key``, or a pasted share link ``…/j/id/key``."""
    code = (code or "").strip()
    if "/j/" in code:
        parts = code.split("/j/", 1)[1].split("?")[0].split("#")[0].strip("/").split("/")
        return (parts[0], parts[1]) if len(parts) >= 2 else (None, None)
    for sep in (".", " "):
        if sep in code:
            public_id, _, key = code.partition(sep)
            return public_id.strip(), key.strip()
    return None, None
