#!/usr/bin/env bash
# Install what the tests need on a bare machine (from the lock), then run the checks in steps that
# each say whether they passed and how long they took: lint and format (ruff), types (mypy), engine, package
# (docstring examples, rules reference, wheel, short benchmarks), web and browser tests, with the
# coverage of scorekeeper/ over all of them.
# Usage: scripts/test.sh [pytest options]      every step; the options go to each pytest step
#        scripts/test.sh PATH... [options]     only pytest on those paths (after lint and types)
set -uo pipefail
cd "$(dirname "$0")/.."

# Browser tests drive Debian's Chromium (Playwright's own browser download is not used);
# Nanum fonts draw the Korean in its screenshots and in the shared pictures.
if [ ! -x /usr/bin/chromium ] || [ ! -d /usr/share/fonts/truetype/nanum ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -q || exit 1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium fonts-nanum || exit 1
fi

# PostgreSQL tests run where a server is reachable; start the local one if it is installed but down.
if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1 2>/dev/null \
        && command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start 2>/dev/null || true
fi

# Exactly the locked versions, every file checked against its hash; then the project itself.
# (scripts/lock.sh refreshes the lock; pyproject.toml keeps the ranges a user's `pip install` takes.)
# pip itself first, to its locked version: the pip a fresh `python -m venv` brings (23.2.1 with
# Python 3.11.7) reads the extra in pytest-cov's `coverage[toml]` as an unpinned requirement and
# refuses the whole lock.
python -m pip install -q --disable-pip-version-check --require-hashes -r requirements/pip.txt || exit 1
python -m pip install -q --disable-pip-version-check --require-hashes -r requirements/test.txt || exit 1
python -m pip install -q --disable-pip-version-check --no-deps -e . || exit 1

declare -a SUMMARY=()
FAILED=0
step() {  # step NAME COMMAND...: run it, time it, remember how it ended
    local name=$1; shift
    echo; echo "=== $name: $*"
    local start=$SECONDS
    "$@"; local rc=$?
    local took=$((SECONDS - start))
    if [ $rc -eq 0 ]; then SUMMARY+=("$(printf '%-8s passed  %4d s' "$name" "$took")")
    else SUMMARY+=("$(printf '%-8s FAILED  %4d s  (exit %d)' "$name" "$took" "$rc")"); FAILED=1; fi
    echo "=== $name: $([ $rc -eq 0 ] && echo passed || echo "FAILED (exit $rc)") in ${took} s"
}

paths=(); options=()
for arg in "$@"; do
    if [[ $arg != -* && -e ${arg%%::*} ]]; then paths+=("$arg"); else options+=("$arg"); fi
done

# The habits that keep the code readable fail the run like a test (configuration in pyproject.toml).
step lint python -m ruff check --quiet .
step format python -m ruff format --check --quiet .
step types python -m mypy
if [ ${#paths[@]} -gt 0 ]; then
    step pytest python -m pytest "${paths[@]}" "${options[@]}"
else
    rm -f .coverage
    cov=(--cov=scorekeeper --cov-append --cov-report=)
    step engine python -m pytest tests/engine "${cov[@]}" "${options[@]}"
    step package python -m pytest tests/test_*.py "${cov[@]}" "${options[@]}"
    step web python -m pytest tests/web "${cov[@]}" "${options[@]}"
    step browser python -m pytest tests/e2e "${cov[@]}" "${options[@]}"
    echo; python -m coverage report --skip-covered --sort=cover 2>/dev/null | tail -n 12
    SUMMARY+=("$(printf '%-8s %s %% of scorekeeper/ (lines and branches run by the tests above)' coverage \
        "$(python -m coverage report --format=total 2>/dev/null || echo '?')")")
fi

echo; echo "=== summary"; printf '%s\n' "${SUMMARY[@]}"
exit $FAILED
