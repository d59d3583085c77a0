"""Issue 32: a server that 1,000 tables' phones reach at once. Each phone holds a push stream and a
keep-alive connection; the paced run's 3,000 streams over two workers were refused by the hundreds
(429) once one worker held its 1,500, three quarters of 2,000 connections. And every connection
is a file: at a laptop's soft limit of 1,024 files a worker could hold no more, whatever it was
configured to hold."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from scorekeeper.web.server import serving
from tests.conftest import make_app


def test_one_worker_holds_two_thirds_of_a_thousand_tables_streams_by_default(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_CONNECTIONS", raising=False)
    app = make_app(f"sqlite:///{tmp_path / 's.db'}", tmp_path)
    # 3,000 streams over two workers, split as unevenly as 2:1 when the phones connect together.
    assert app.config["PUSH_STREAMS_TOTAL"] >= 2000
    assert app.config["PUSH_STREAMS_TOTAL"] < serving.DEFAULT_CONNECTIONS  # the rest for taps and polls


@pytest.mark.parametrize(("soft", "wanted"), [(1024, 5000), (256, 300), (4096, 2000)])
def test_the_file_limit_is_raised_to_what_the_workers_hold(soft, wanted):
    _hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    hard = sys.maxsize if _hard == resource.RLIM_INFINITY else _hard
    if hard < soft:
        pytest.skip(f"this machine's hard file limit ({hard}) is below the case's soft one ({soft})")
    code = (
        "import resource\n"
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({soft}, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n"
        "from scorekeeper.web.server.serving import raise_file_limit\n"
        f"raise_file_limit({wanted})\n"
        "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n"
    )
    # In a process of its own: this one's limits stay as they were.
    now = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert now == max(soft, min(wanted, hard))  # raised toward the hard limit, never lowered


def test_the_master_raises_the_file_limit_before_it_forks_the_workers():
    assert serving.options()["on_starting"] is serving.on_starting
