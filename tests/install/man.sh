#!/bin/bash
# The man pages, generated with help2man from `lab --help` and each
# `lab COMMAND --help`: what --help prints is what the man page says, so the
# two cannot disagree. lab(1) lists the commands; lab-COMMAND(1) each one.
#   tests/install/man.sh BUILD_DIR OUT_DIR
set -eu
lab=$1/lab out=$2
command -v help2man >/dev/null || { echo "man.sh: no help2man (make deps installs it)" >&2; exit 2; }
mkdir -p "$out"
gen() {  # page name, help option, one-line description
    help2man -N --no-discard-stderr --help-option="$2" --version-option=--version \
        --name="$3" --section=1 "$lab" >"$out/$1.1.tmp"
    # help2man names every page after the program: retitle the command pages.
    sed -e "s/^\.TH LAB /.TH $(echo "$1" | tr a-z A-Z) /" \
        -e "/^\.SH NAME/{n;s/^lab /$1 /}" "$out/$1.1.tmp" >"$out/$1.1"
    rm -f "$out/$1.1.tmp"
}
gen lab --help "boot kernel matrices under QEMU and compare their IO performance"
# Each command's row of `lab --help`: "  lab NAME ARGS  WHAT" (main.c's table).
"$lab" --help | sed -n 's/^  lab \([a-z]*\) .*/\1/p' | while read -r cmd; do
    what=$("$lab" --help | awk -v c="$cmd" '$1 == "lab" && $2 == c { sub(/.*  +/, ""); print; exit }')
    gen "lab-$cmd" "$cmd --help" "${what:-lab $cmd}"
done
