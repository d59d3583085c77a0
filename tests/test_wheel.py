"""A plain ``pip install .`` (a wheel, not the editable checkout) serves the pages and their
static files and the rules reference: the top-level ``templates/`` and ``static/`` travel inside
the package."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SERVE = """
import pathlib, sys, tempfile
import scorekeeper
from scorekeeper.web import create_app
app = create_app({"TESTING": True, "SECRET_KEY": "x",
                  "DATABASE_URL": "sqlite:///" + tempfile.mkdtemp() + "/t.db",
                  "RATELIMIT_STORAGE_URI": "memory://"})
client = app.test_client()
from_elsewhere = sorted(name for name, module in sys.modules.items()
                        if name.split(".")[0] == "scorekeeper" and getattr(module, "__file__", None)
                        and not module.__file__.startswith(sys.prefix))
home = client.get("/", headers={"Accept-Language": "ko"})
script = client.get("/static/app.js")
new = client.get("/new")
rules = client.get("/rules")
print(home.status_code, script.status_code, new.status_code, rules.status_code, "<form" in home.get_data(as_text=True),
      len(script.data), app.template_folder.startswith(sys.prefix))
print(" ".join(from_elsewhere))
"""


def test_wheel_installs_and_serves_pages_and_static_files(tmp_path):
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--disable-pip-version-check",
            "-w",
            str(wheels),
            str(ROOT),
        ],
        check=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    # setuptools warns of a folder Python could import that the package list leaves out (docs/,
    # migrations/, templates/hand/): "would be ignored" today, left out of the wheel by a later setuptools.
    assert "would be ignored" not in built.stdout + built.stderr, built.stderr
    (wheel,) = wheels.glob("scorekeeper-*.whl")
    env_dir = tmp_path / "venv"
    # The dependencies come from this interpreter's site-packages; the package itself only from the wheel.
    # A .pth line, not system_site_packages: run from a virtualenv (CI's, a contributor's), "system" would
    # be the base Python without the dependencies. Paths a .pth adds are not scanned for .pth files of
    # their own, so the editable install's finder stays out.
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    inner = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    outer = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    (Path(inner) / "dependencies.pth").write_text("".join(f"{path}\n" for path in sorted(outer)))
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check", str(wheel)],
        check=True,
        cwd=tmp_path,
    )
    # The checkout must not leak in: every scorekeeper module is to come from the wheel (a package
    # missing from it would otherwise be found in the source tree through PYTHONPATH or the editable install).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([str(python), "-c", SERVE], check=True, cwd=tmp_path, capture_output=True, text=True, env=env)
    figures, elsewhere = out.stdout.split("\n")[:2]
    assert elsewhere == ""
    home, script, new, rules, has_form, size, from_wheel = figures.split()
    assert (home, script, new, rules, has_form, from_wheel) == ("200", "200", "200", "200", "True", "True")
    assert int(size) == len((ROOT / "static" / "app.js").read_bytes())
