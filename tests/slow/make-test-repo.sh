#!/bin/bash
# Makes the git repo the end-to-end bisection test runs on: Debian's
# linux-source-6.1 as commit "base", then five small commits, one of which
# (the third after base) injects a real IO performance regression: the block
# layer caps every request at 16K (block/blk-settings.c). The others touch
# only Documentation/ or a comment, so they measure the same.
#   usage: make-test-repo.sh DIR
# Idempotent: a DIR that already holds the finished repo is left alone.
set -eu
dir=${1:?usage: make-test-repo.sh DIR}
tarball=${LAB_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
injected="block: cap requests at 16K (injected regression)"
last="doc: note the bisection test in the block docs"

me=make-test-repo
. "$(dirname "$0")/repo-lib.sh"

if repo_ready "$last" "$injected"; then
    echo "make-test-repo: $dir is ready ($(git -C "$dir" rev-parse --short HEAD))"
    exit 0
fi
[ -r "$tarball" ] || { echo "make-test-repo: $tarball is missing (apt-get install linux-source-6.1)" >&2; exit 1; }
repo_fresh "base: Debian linux-source-6.1"
tar -xJf "$tarball" -C "$dir" --strip-components=1
cd "$dir"
git init -q
# The tarball's .gitignore ignores everything: add by force.
g add -f -A
g commit -q -m "base: Debian linux-source-6.1"

commit() {  # subject; the work tree changes are made before
    g add -f -A
    g commit -q -m "$1"
}

echo "Bisection test repository for lab (tests/slow)." >>Documentation/process/howto.rst
commit "doc: mention the lab bisection test in the howto"

sed -i '1a .. lab: this file is part of the bisection test repo.' Documentation/admin-guide/README.rst
commit "doc: tag the admin guide README"

# The injected regression: at most 16K per request for every disk (the
# block layer caps max_hw_sectors at 32 sectors), so a 1 MiB read() becomes
# 64 commands; on pata-2003 (one command at a time) seqread falls from ~54
# to ~30 MB/s (measured with --set sysfs=max_sectors_kb:16 on 6.1-lab).
old='	limits->max_hw_sectors = max_hw_sectors;'
[ "$(grep -cxF "$old" block/blk-settings.c)" = 1 ] || { echo "make-test-repo: blk-settings.c is not the expected 6.1 one" >&2; exit 1; }
sed -i "s|^$old\$|\t/* Injected regression (lab bisection test): at most 16K per request. */\n\tmax_hw_sectors = min(max_hw_sectors, 32U);\n&|" block/blk-settings.c
grep -qF 'max_hw_sectors = min(max_hw_sectors, 32U);' block/blk-settings.c || { echo "make-test-repo: injection failed" >&2; exit 1; }
commit "$injected"

sed -i '3a\ *    (lab bisection test: comment only)' drivers/ata/ata_piix.c
commit "ata_piix: comment-only change"

echo "The lab's bisection test reads a file sequentially on this tree." >>Documentation/block/index.rst
commit "$last"
git log --oneline | head -6
