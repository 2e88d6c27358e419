#!/bin/bash
# Makes the git repo of tests/slow/era-bisect.sh: ../shared/kernels'
# 2.6.12-rc2 tree, the 2.6.20 tree over it (one commit that crosses the
# compat layer's 2.6.13 boundary), then VM_MAX_READAHEAD cut from 128 to
# 16 KiB in include/linux/mm.h (the injected regression: seqread with 4 KiB
# reads on pata-2003 loses about a third), then a Documentation-only commit.
# Fixed author and commit dates: the same commits, so the builder's cache
# serves a second run.
#   usage: make-era-repo.sh DIR
# Idempotent: a DIR that already holds the finished repo is left alone.
set -eu
dir=${1:?usage: make-era-repo.sh DIR}
srcs=${LAB_ERA_SOURCES:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/kernels}
injected="mm: readahead at most 16 KiB (injected regression)"
last="doc: note the era bisection test"

me=make-era-repo
. "$(dirname "$0")/repo-lib.sh"

if repo_ready "$last"; then
    echo "make-era-repo: $dir is ready ($(git -C "$dir" rev-parse --short HEAD))"
    exit 0
fi
for v in 2.6.12-rc2 2.6.20; do
    [ -r "$srcs/linux-$v.tar.xz" ] || { echo "make-era-repo: $srcs/linux-$v.tar.xz is missing" >&2; exit 1; }
done
repo_fresh "linux 2.6.12-rc2"
cd "$dir"
export GIT_AUTHOR_DATE="2007-02-04T18:44:54Z" GIT_COMMITTER_DATE="2007-02-04T18:44:54Z"
git init -q
commit() {  # subject; the work tree changes are made before
    g add -f -A
    g commit -q -m "$1"
}
tar -xJf "$srcs/linux-2.6.12-rc2.tar.xz" --strip-components=1
commit "linux 2.6.12-rc2"
git ls-files -z | xargs -0 rm -f
tar -xJf "$srcs/linux-2.6.20.tar.xz" --strip-components=1
commit "linux 2.6.20"
[ "$(grep -c '^#define VM_MAX_READAHEAD	128	' include/linux/mm.h)" = 1 ] ||
    { echo "make-era-repo: include/linux/mm.h is not the expected 2.6.20 one" >&2; exit 1; }
sed -i 's/^#define VM_MAX_READAHEAD\t128\t/#define VM_MAX_READAHEAD\t16\t/' include/linux/mm.h
commit "$injected"
echo "The lab's era bisection test reads a file on this tree." >>Documentation/block/barrier.txt
commit "$last"
git log --oneline | head -4
