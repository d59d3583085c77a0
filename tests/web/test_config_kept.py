"""A table's settings checked once per process (``service.config_of``): every load of a table
checked its settings document again (``config_from``, a twentieth of a stream's load of another
process's tap); the checked config is kept with the document it came from and reused only
while the table's document is equal to it."""

from __future__ import annotations

import pytest

from scorekeeper.engine.errors import EngineError
from scorekeeper.engine.series import config_from
from scorekeeper.store.models import Table
from scorekeeper.tables import service

DOC = {"players": ["A", "B", "C"], "first_dealer": "A", "chip_value": 100}


def table(doc: dict, table_id: int = 1) -> Table:
    return Table(id=table_id, public_id="t", config=doc)


def test_settings_are_checked_once_and_each_change_is_checked_again(monkeypatch):
    service.forget()
    calls = []
    real = service.series_engine.config_from
    monkeypatch.setattr(service.series_engine, "config_from", lambda doc: calls.append(1) or real(doc))
    first = service.config_of(table(DOC))
    assert service.config_of(table({**DOC, "players": list(DOC["players"])})) is first and calls == [1]
    changed = {**DOC, "chip_value": 500}
    assert service.config_of(table(changed)) == config_from(changed) != first and calls == [1, 1]
    assert service.config_of(table(DOC, table_id=2)) == first and len(calls) == 3


def test_a_kept_document_changed_in_place_is_not_taken_for_the_table(monkeypatch):
    service.forget()
    doc = {**DOC, "players": list(DOC["players"])}
    first = service.config_of(table(doc))
    doc["players"][2] = "D"  # whoever holds the document the config was checked from
    assert service.config_of(table(doc)) == config_from(doc) != first


def test_refused_settings_are_refused_each_time():
    service.forget()
    for _ in range(2):
        with pytest.raises(EngineError):
            service.config_of(table({**DOC, "players": ["A"]}))
