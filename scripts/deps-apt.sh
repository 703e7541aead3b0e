#!/usr/bin/env bash
# Installs the Debian packages named as arguments when any is missing. Quiet when all are present.
set -euo pipefail
missing=()
for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
        echo "deps: missing packages ${missing[*]}; run as root: apt-get install ${missing[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
# The installer's output goes into the project's build folder, not /tmp: nothing is left outside the clone.
log="$(cd "$(dirname "$0")/.." && pwd)/.build/deps-apt.log"
mkdir -p "$(dirname "$log")"
if ! $sudo apt-get install -y -qq "${missing[@]}" >"$log" 2>&1; then
    $sudo apt-get update -qq >>"$log" 2>&1 || true
    if ! $sudo apt-get install -y -qq "${missing[@]}" >>"$log" 2>&1; then
        echo "deps: could not install ${missing[*]} (see "$log")" >&2
        tail -5 "$log" >&2
        exit 1
    fi
fi
