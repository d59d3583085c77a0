"""The page's script as ES modules: the offline queue's pure parts (static/js/queue-core.js) tested in node.

tests/js/ holds node's own tests (``node --test``); here pytest runs them, and has the module write
the server's log from the real page's data, line for line as the server does. Skipped, with the
reason said, on a machine without node.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scorekeeper.web.hands import eventlines

from .test_offline_rules import LOG, live_data, page

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the script's own tests need it")
# The modules are plain .js files (the browser's modules): node reads them as ES modules with this flag.
ESM = "--experimental-default-type=module"


def node(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    assert NODE is not None
    return subprocess.run([NODE, ESM, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120)


@needs_node
def test_the_queues_pure_parts_pass_their_node_tests():
    run = node("--test", "tests/js/")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout


@needs_node
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_pending_tap_reads_as_the_servers_log(make_table, client, lang):
    t = make_table(rules={"preset": "korean-common", "options": {"missions": True}})
    t.enter()
    hand = t.start_live()
    cfg = live_data(page(client, t, hand, lang))
    script = (
        "import { describe } from './static/js/queue-core.js';"
        "let s = ''; process.stdin.on('data', (d) => { s += d; }).on('end', () => {"
        "  const { cfg, events } = JSON.parse(s);"
        "  process.stdout.write(JSON.stringify(events.map((e) => describe(cfg, e)))); });"
    )
    run = node("--input-type=module", "-e", script, stdin=json.dumps({"cfg": cfg, "events": LOG}))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [eventlines.write(e, cfg["lines"], cfg) for e in LOG]


def test_every_piece_the_script_builds_is_a_template_the_server_renders():
    """The script clones server-rendered <template>s (their words the catalogue's) and builds nothing by hand."""
    scripts = {p: p.read_text(encoding="utf-8") for p in (ROOT / "static").rglob("*.js") if p.name != "sw.js"}
    used = {m for source in scripts.values() for m in re.findall(r"""tpl\(["']([\w-]+)["']\)""", source)}
    used |= {m for source in scripts.values() for m in re.findall(r"""["'](tpl-[\w-]+)["']""", source)}
    rendered = {
        m
        for p in (ROOT / "templates").rglob("*.html")
        for m in re.findall(r'<template id="([\w-]+)"', p.read_text(encoding="utf-8"))
    }
    assert used and used <= rendered
    modules = [p for p in scripts if p.parent.name == "js" or p.name == "app.js"]
    assert [
        p.name for p in modules if "createElement(" in scripts[p] and 'createElement("template")' not in scripts[p]
    ] == []


# Live forms as a phone posts them (in LOG's order, so the engine takes each), some with a field the
# type does not take: the server's event_from() keeps only the engine's fields, and so must the script.
FORMS = [
    [("type", "capture"), ("player", "A"), ("cards", "1g"), ("cards", "5r"), ("cards", "1g"), ("month", "3")],
    [("type", "take_junk"), ("player", "A"), ("reason", "sseul"), ("last_card", "y")],
    [("type", "shake"), ("player", "A"), ("month", "7"), ("reason", "sseul")],
    [("type", "ppuk"), ("player", "A"), ("month", "11"), ("multiplier", "")],
    [("type", "ppuk"), ("player", "A"), ("month", "")],
    [("type", "mission"), ("multiplier", "2"), ("player", ""), ("last_card", "y")],
]


@needs_node
def test_a_tap_kept_offline_is_the_event_the_server_makes_of_the_form(make_table, client):
    """eventsOf() with the page's form rules against event_from() through the live page's own route."""
    t = make_table(rules={"preset": "korean-common", "options": {"missions": True}})
    t.enter()
    hand = t.start_live()
    cfg = live_data(page(client, t, hand))
    for seq, form in enumerate(FORMS):
        fields: dict[str, list[str]] = {}
        for name, value in form:
            fields.setdefault(name, []).append(value)
        r = client.post(f"{t.url}/hands/{hand}/events", data={"seq": str(seq), **fields}, headers={"X-Partial": "1"})
        assert r.status_code == 200, (form, r.get_data(as_text=True)[:300])
    stored = t.api("GET", f"/hands/{hand}/events").get_json()["events"]
    ignored = set(cfg["turn"]["ignored"])
    server = [{k: v for k, v in e.items() if k not in ignored} for e in stored]
    script = (
        "import { eventsOf } from './static/js/queue-core.js';"
        "let s = ''; process.stdin.on('data', (d) => { s += d; }).on('end', () => {"
        "  const { form, forms } = JSON.parse(s);"
        "  const out = forms.map((pairs) => { const d = new FormData(); pairs.forEach(([k, v]) => d.append(k, v));"
        "    return eventsOf(d, form); });"
        "  process.stdout.write(JSON.stringify(out)); });"
    )
    run = node("--input-type=module", "-e", script, stdin=json.dumps({"form": cfg["form"], "forms": FORMS}))
    assert run.returncode == 0, run.stderr
    assert [events for events in json.loads(run.stdout)] == [[e] for e in server]


def test_the_page_says_how_every_field_of_every_event_reads(make_table, client):
    from scorekeeper.engine.live.hand import EVENTS

    t = make_table()
    t.enter()
    form = live_data(page(client, t, t.start_live()))["form"]
    assert form["fields"] == {k: sorted(set(kind.required) | set(kind.optional)) for k, kind in EVENTS.items()}
    # The fields a live form can carry (event_from reads no other): each an engine field.
    assert set(form["kinds"]) <= {f for fields in form["fields"].values() for f in fields}
