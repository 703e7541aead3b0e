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
if ! $sudo apt-get install -y -qq "${missing[@]}" >/tmp/contacts-deps-apt.log 2>&1; then
    $sudo apt-get update -qq >>/tmp/contacts-deps-apt.log 2>&1 || true
    if ! $sudo apt-get install -y -qq "${missing[@]}" >>/tmp/contacts-deps-apt.log 2>&1; then
        echo "deps: could not install ${missing[*]} (see /tmp/contacts-deps-apt.log)" >&2
        tail -5 /tmp/contacts-deps-apt.log >&2
        exit 1
    fi
fi
