#!/usr/bin/env bash
# Install what the tests need on a bare machine, then lint (ruff), type-check (mypy) and run the whole suite.
# Usage: scripts/test.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# Browser tests drive Debian's Chromium (Playwright's own browser download is not used);
# Nanum fonts draw the Korean in its screenshots.
if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/truetype/nanum ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium fonts-nanum
fi

# PostgreSQL tests run where a server is reachable; start the local one if it is installed but down.
if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 2>/dev/null \
        && command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start 2>/dev/null || true
fi

python -m pip install -q --disable-pip-version-check -e '.[test]'

# The habits that keep the code readable fail the run like a test (configuration in pyproject.toml).
python -m ruff check --quiet .
python -m mypy
exec python -m pytest "$@"
