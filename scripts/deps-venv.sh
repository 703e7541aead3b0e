#!/usr/bin/env bash
# Creates ./.venv (first argument) and installs the PyPI packages named after it when any is missing.
# These are test servers, validators and benchmark peers only; the product never uses Python.
set -euo pipefail
venv="$1"; shift
py=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    echo "deps: creating $venv" >&2
    "$py" -m venv "$venv" || { echo "deps: could not create a Python venv with $py" >&2; exit 1; }
fi
stamp="$venv/.installed"
want="$*"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
echo "deps: installing into $venv: $want" >&2
if ! "$venv/bin/pip" install -q --disable-pip-version-check "$@" >"$venv/pip.log" 2>&1; then
    echo "deps: pip could not install $want (see $venv/pip.log)" >&2
    tail -5 "$venv/pip.log" >&2
    exit 1
fi
echo "$want" > "$stamp"
