#!/bin/bash
# `lab run --fail-on` and `lab compare`'s like-with-like check, on real
# kernels: the lab builds 2.6.11 from ../shared/kernels twice, once as it
# is and once with VM_MAX_READAHEAD cut from 128 to 16 KiB (a readahead
# regression of the kind the lab exists to find), and reads 4 KiB blocks
# from pata-2003 with both.
#  - the pair with --fail-on slower exits 3 (common/exitcode.h), naming the
#    comparison; with --fail-on faster it exits 0;
#  - twins (the same bzImage under two names) with --fail-on change exit 0;
#  - lab compare of runs on different profiles is refused (exit 2) naming
#    the profiles, and --force labels the output;
#  - lab compare and lab show of a run that does not exist: exit 2.
# Builds are cached in $LAB_HOME by the builder's hash.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
srcs=${LAB_ERA_SOURCES:-$here/../shared/kernels}
home=${LAB_HOME:-/var/cache/lab}
tarball=$srcs/linux-2.6.11.tar.xz
[ -r "$tarball" ] || { not_ok "the era source $tarball is there"; exit 1; }

build() {  # name, source
    "$lab" kernels build "$2" --arch i686 --name "$1" >"$tmp/build-$1" 2>&1
    local rc=$?
    tail -2 "$tmp/build-$1"
    check "$1 builds and passes the IO smoke test (exit $rc)" test $rc -eq 0
}
build gate-2.6.11 "$tarball"
tar -xJf "$tarball" -C "$tmp"
sed -i 's/^#define VM_MAX_READAHEAD\t128\t/#define VM_MAX_READAHEAD\t16\t/' \
    "$tmp/linux-2.6.11/include/linux/mm.h"
check "the regression is in the copy" grep -q 'VM_MAX_READAHEAD.16' "$tmp/linux-2.6.11/include/linux/mm.h"
build gate-ra16-2.6.11 "$tmp/linux-2.6.11"
rm -rf "$tmp/linux-2.6.11"

pair() {  # gate, kernels, extra args...: the run's exit code
    local gate=$1 kernels=$2; shift 2
    "$lab" run --kernels "$kernels" -e seqread -p pata-2003 --set file_size=32M \
        --set block_size=4k --reps 3 --fail-on "$gate" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    tail -4 "$tmp/out"; grep -- '--fail-on' "$tmp/err"
    return $rc
}
pair slower gate-2.6.11,gate-ra16-2.6.11; rc=$?
check "--fail-on slower on the readahead regression exits 3 (got $rc)" test $rc -eq 3
check "it names the slower kernel and its base" \
    grep -q -- '--fail-on slower: gate-ra16-2.6.11 .* slower than gate-2.6.11' "$tmp/err"
slow_run=$(sql "select max(id) from runs")
"$lab" run --kernels gate-2.6.11,gate-ra16-2.6.11 -e seqread -p pata-2003 --set file_size=32M \
    --set block_size=4k --reps 2 --boots 1 --fail-on faster >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--fail-on faster on the same pair exits 0 (got $rc)" test $rc -eq 0

# Twins: the same bzImage and .config registered under a second name.
kdir=$home/kernels/user/gate-2.6.11
"$lab" kernels add gate-twin-2.6.11 --image "$kdir/bzImage" --config "$kdir/config" --arch i686 \
    --replace >/dev/null 2>"$tmp/err" || cat "$tmp/err"
pair change gate-2.6.11,gate-twin-2.6.11 --boots 2; rc=$?
check "--fail-on change on twins exits 0 (got $rc)" test $rc -eq 0
"$lab" kernels remove gate-twin-2.6.11

# Like with like: the same kernels on another profile.
"$lab" run --kernels gate-2.6.11,gate-ra16-2.6.11 -e seqread -p pata-1999 --set file_size=16M \
    --set block_size=4k --reps 2 --boots 1 >/dev/null 2>&1
other_run=$(sql "select max(id) from runs")
"$lab" compare "$slow_run" "$other_run" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
check "lab compare of runs on two profiles is refused, exit 2 (got $rc)" test $rc -eq 2
check "the refusal names both profiles" grep -q 'profile: run [0-9]* pata-2003, run [0-9]* pata-1999' "$tmp/err"
"$lab" compare --force "$slow_run" "$other_run" >"$tmp/out" 2>&1
rc=$?
check "--force compares them anyway (exit $rc)" test $rc -eq 0
check "and labels the output" grep -q '^UNLIKE RUNS (--force): profile' "$tmp/out"
"$lab" compare "$slow_run" 999999 >/dev/null 2>"$tmp/err"
rc=$?
check "lab compare with a run that does not exist: exit 2, 'no run 999999' (got $rc)" \
    sh -c "test $rc -eq 2 && grep -q 'no run 999999' '$tmp/err'"
"$lab" show 999999 >/dev/null 2>"$tmp/err"
rc=$?
check "lab show 999999: exit 2, 'no run 999999' (got $rc)" \
    sh -c "test $rc -eq 2 && grep -q 'no run 999999' '$tmp/err'"

check_no_leaks
finish
