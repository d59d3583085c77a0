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
    script = ("import { describe } from './static/js/queue-core.js';"
              "let s = ''; process.stdin.on('data', (d) => { s += d; }).on('end', () => {"
              "  const { cfg, events } = JSON.parse(s);"
              "  process.stdout.write(JSON.stringify(events.map((e) => describe(cfg, e)))); });")
    run = node("--input-type=module", "-e", script, stdin=json.dumps({"cfg": cfg, "events": LOG}))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [eventlines.write(e, cfg["lines"], cfg) for e in LOG]


def test_every_piece_the_script_builds_is_a_template_the_server_renders():
    """The script clones server-rendered <template>s (their words the catalogue's) and builds nothing by hand."""
    scripts = {p: p.read_text(encoding="utf-8") for p in (ROOT / "static").rglob("*.js") if p.name != "sw.js"}
    used = {m for source in scripts.values() for m in re.findall(r"""tpl\(["']([\w-]+)["']\)""", source)}
    used |= {m for source in scripts.values() for m in re.findall(r"""["'](tpl-[\w-]+)["']""", source)}
    rendered = {m for p in (ROOT / "templates").rglob("*.html")
                for m in re.findall(r'<template id="([\w-]+)"', p.read_text(encoding="utf-8"))}
    assert used and used <= rendered
    modules = [p for p in scripts if p.parent.name == "js" or p.name == "app.js"]
    assert [p.name for p in modules if "createElement(" in scripts[p] and "createElement(\"template\")" not in scripts[p]] == []
