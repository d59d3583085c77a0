"""A plain ``pip install .`` (a wheel, not the editable checkout) serves the pages and their
static files and the rules reference: the top-level ``templates/`` and ``static/`` travel inside
the package."""
from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SERVE = """
import pathlib, sys, tempfile
import scorekeeper
from scorekeeper.web import create_app
where = pathlib.Path(scorekeeper.__file__).resolve()
assert sys.prefix in str(where), f"imported {where}, not the wheel"
app = create_app({"TESTING": True, "SECRET_KEY": "x",
                  "DATABASE_URL": "sqlite:///" + tempfile.mkdtemp() + "/t.db",
                  "RATELIMIT_STORAGE_URI": "memory://"})
client = app.test_client()
home = client.get("/", headers={"Accept-Language": "ko"})
script = client.get("/static/app.js")
new = client.get("/new")
rules = client.get("/rules")
print(home.status_code, script.status_code, new.status_code, rules.status_code, "<form" in home.get_data(as_text=True),
      len(script.data), app.template_folder.startswith(sys.prefix))
"""


def test_wheel_installs_and_serves_pages_and_static_files(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--disable-pip-version-check",
                    "-w", str(wheels), str(ROOT)], check=True, cwd=tmp_path)
    (wheel,) = wheels.glob("scorekeeper-*.whl")
    env_dir = tmp_path / "venv"
    # The dependencies come from this interpreter's site-packages; the package itself only from the wheel.
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                    str(wheel)], check=True, cwd=tmp_path)
    out = subprocess.run([str(python), "-c", SERVE], check=True, cwd=tmp_path, capture_output=True, text=True)
    home, script, new, rules, has_form, size, from_wheel = out.stdout.split()
    assert (home, script, new, rules, has_form, from_wheel) == ("200", "200", "200", "200", "True", "True")
    assert int(size) == len((ROOT / "static" / "app.js").read_bytes())
