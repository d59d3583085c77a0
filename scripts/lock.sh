#!/usr/bin/env bash
# Refresh the lock: the newest versions that pyproject.toml's ranges admit, for Python 3.11 on any
# platform (Linux x86_64 and aarch64 included), every file's hash pinned. Commit the refresh on its
# own, after scripts/test.sh passes on it.
# Usage: scripts/lock.sh [--upgrade-package NAME ...]   (no argument: upgrade everything)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v uv >/dev/null || python -m pip install -q uv
args=("$@"); [ ${#args[@]} -gt 0 ] || args=(--upgrade)
compile() { uv pip compile --universal --python-version 3.11 --generate-hashes \
    --no-header --quiet "${args[@]}" "$@"; }
compile pyproject.toml -o requirements/app.txt
compile pyproject.toml --extra test -o requirements/test.txt
# The installer the other two need (scripts/test.sh installs it first); pip alone, not the project's
# packages: with pyproject.toml among the sources this file got the whole app set.
echo pip | compile - -o requirements/pip.txt
