#!/bin/bash
# Builds the Debian package from a clean copy of the checkout's files (what
# git tracks, and new files it does not ignore), so the package never sees
# a build directory. Prints the .deb's path last.
#   tests/install/deb.sh [OUT_DIR]   (default build/deb)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/build}/deb
work=$(mktemp -d /var/tmp/lab-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lab" "$out"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work/lab")
(cd "$work/lab" && dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) || {
    tail -40 "$work/build.log" >&2; echo "deb.sh: dpkg-buildpackage failed" >&2; exit 1; }
cp "$work"/lab_*.deb "$out/"
ls "$out"/lab_*.deb | tail -1
