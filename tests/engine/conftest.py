"""Every live hand the engine's tests settle checks its facts against its summary read back.

The live hand hands the payout its facts directly (``live.summary.facts``); its summary is the
JSON edge. Each call of ``facts`` during these tests, the scripted hands and the generated logs
alike, also parses the hand's summary and asserts the same facts (``live_facts.checked_facts``).
"""

from __future__ import annotations

import pytest

from scorekeeper.engine.live import hints
from scorekeeper.engine.live import summary as live_summary

from .live_facts import checked_facts


@pytest.fixture(autouse=True)
def _facts_checked_against_the_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_summary, "facts", checked_facts)
    monkeypatch.setattr(hints, "hand_facts", checked_facts)
