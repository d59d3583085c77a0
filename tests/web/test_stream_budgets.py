"""The push streams' budgets (issue 29): per table and in all, with a per-address cap high enough
for carrier-grade NAT. 20 streams per address pushed 460 of 500 phones behind one address to
polling; 200 streams from one address now stream. The flood of one table's streams is still held
back (``tests/web/test_server_streams.py`` on the real server)."""

from __future__ import annotations

import pytest

from scorekeeper.web import close_app
from tests.conftest import make_app

NAT = "100.64.0.1"  # a carrier's shared address (RFC 6598)


@pytest.fixture
def streams_app(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 's.db'}", tmp_path, PUSH_STREAM_SECONDS=60)
    yield app
    close_app(app)


def _open(client, t, address=NAT):
    return client.get(
        f"/t/{t['id']}/stream", headers={"X-Table-Key": t["view_key"]}, environ_base={"REMOTE_ADDR": address}
    )


def _tables(client, n):
    return [client.post("/api/v1/tables", json={"players": ["A", "B"]}).get_json() for _ in range(n)]


def test_200_streams_from_one_address_all_stream(streams_app):
    client = streams_app.test_client()
    tables = _tables(client, 10)
    held = [_open(client, t) for t in tables for _ in range(20)]
    try:
        assert [r.status_code for r in held] == [200] * 200
    finally:
        for r in held:
            r.close()


def test_a_tables_streams_are_bounded_and_the_refusal_is_coded(streams_app):
    from scorekeeper.web.server.push import STREAMS_PER_TABLE

    client = streams_app.test_client()
    t, other = _tables(client, 2)
    held = [_open(client, t, f"10.0.0.{i % 200}") for i in range(STREAMS_PER_TABLE)]
    try:
        assert {r.status_code for r in held} == {200}
        refused = _open(client, t, "10.9.9.9")
        assert refused.status_code == 429 and b'data-code="rate_limited"' in refused.data
        assert int(refused.headers["Retry-After"]) >= 1
        assert _open(client, other).status_code == 200  # another table is not held back
    finally:
        for r in held:
            r.close()
    assert _open(client, t).status_code == 200  # closed streams give their room back


def test_the_process_keeps_connections_for_taps_and_polls(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 's.db'}", tmp_path, PUSH_STREAMS_TOTAL=25, PUSH_STREAM_SECONDS=60)
    client = app.test_client()
    tables = _tables(client, 5)
    held = [_open(client, t, f"10.0.{i}.1") for i, t in enumerate(tables) for _ in range(5)]
    try:
        assert {r.status_code for r in held} == {200}
        assert _open(client, tables[0], "10.1.1.1").status_code == 429
        assert (
            client.get(
                f"/api/v1/tables/{tables[0]['id']}/version", headers={"X-Table-Key": tables[0]["view_key"]}
            ).status_code
            == 200
        )
    finally:
        for r in held:
            r.close()
        close_app(app)


def test_one_address_is_still_bounded(tmp_path):
    app = make_app(f"sqlite:///{tmp_path / 's.db'}", tmp_path, PUSH_STREAMS_PER_ADDRESS=3, PUSH_STREAM_SECONDS=60)
    client = app.test_client()
    t = _tables(client, 1)[0]
    held = [_open(client, t) for _ in range(3)]
    try:
        assert _open(client, t).status_code == 429 and _open(client, t, "10.2.2.2").status_code == 200
    finally:
        for r in held:
            r.close()
        close_app(app)
