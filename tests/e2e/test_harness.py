"""The browser tests' own rule: they wait inside Playwright, never in plain Python.

Playwright's sync API runs what the browser reports (a ``page.route`` handler, an event
listener) only while the test is inside one of its calls. A test that waits with
``time.sleep`` between calls starves them: a tap whose post a route is to answer stays
unanswered in the browser for the whole wait. That was the offline journeys' flakiness
(issue 26): the 503/507 test slept while it polled the API for the queue's resend; when the
tap's post reached the route just after the click returned (1 run in 10 under load), the page
stayed busy with it and nothing was stored in the 15 s it waited.
"""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).parent


def sleeps(path: Path) -> list[str]:
    """The lines of ``path`` that call ``time.sleep`` (or a ``sleep`` imported from ``time``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    from_time = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "time"
        for alias in node.names
        if alias.name == "sleep"
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (
            isinstance(f, ast.Attribute)
            and f.attr == "sleep"
            and isinstance(f.value, ast.Name)
            and f.value.id == "time"
        ) or (isinstance(f, ast.Name) and f.id in from_time):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_browser_test_waits_in_plain_python():
    found = [line for path in sorted(HERE.glob("*.py")) for line in sleeps(path)]
    # Wait with expect(...), page.wait_for_function or page.wait_for_timeout instead.
    assert found == []


def test_the_rule_sees_a_sleep(tmp_path):
    """The scan finds both spellings (else the rule above would pass by seeing nothing)."""
    probe = tmp_path / "probe.py"
    probe.write_text("import time\nfrom time import sleep as nap\n\ntime.sleep(1)\nnap(2)\npage.wait_for_timeout(3)\n")
    assert sleeps(probe) == ["probe.py:4", "probe.py:5"]
