#!/bin/bash
# Runs every test: cmocka units (with golden files), then the boot tests that
# start real kernels under QEMU. Prints one closing "N passed, N failed" line.
set -u
unit_only=0
[ "${1:-}" = --unit-only ] && { unit_only=1; shift; }
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0 failed=() flaky=()
# Each test's output is kept too, so that a failed test's last lines can be
# printed again at the end: a CI log cut to its head and tail keeps them.
logs=$(mktemp -d /tmp/lab-run-all.XXXXXX)
log_of() { printf '%s/%s%s.log' "$logs" "$(printf '%s' "$1" | tr / _)" "${2:-}"; }

run_once() {  # name, log suffix, command...: its exit code
    local name=$1 suffix=$2 rc tee_pid start=$SECONDS; shift 2
    { "$@"; } > >(tee "$(log_of "$name" "$suffix")") 2>&1  # tee: the shell's child
    rc=$? tee_pid=$!
    # Let tee write the rest before the line below, but not for ever: a
    # daemon the test left behind may hold its output open.
    for _ in $(seq 50); do kill -0 "$tee_pid" 2>/dev/null || break; sleep 0.1; done
    # How long each took, for keeping CI inside its time (docs/ci.md).
    echo "--- $name: $([ $rc -eq 0 ] && echo ok || echo "FAILED (exit $rc)") in $((SECONDS - start)) s"
    return $rc
}

run_one() {  # name, command...
    local name=$1; shift
    echo "=== $name"
    if run_once "$name" "" "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$name"); fi
}

# A boot test that fails gets one more try, and one that passes then is
# named on the closing line with its first try's failures, never hidden: a
# boot test runs real guests on a shared host, and a failure seen only once
# must not stop the rest landing unexplained, nor pass unreported.
run_boot() {  # name, command...
    local name=$1; shift
    echo "=== $name"
    run_once "$name" "" "$@" && { pass=$((pass + 1)); return; }
    echo "=== $name, a second try (the first try's failures are repeated at the end)"
    if run_once "$name" .second "$@"; then
        pass=$((pass + 1)) flaky+=("$name")
    else
        fail=$((fail + 1)) failed+=("$name")
    fi
}

# What a failed try said: its FAIL lines, then its last lines.
print_try() {  # title, log
    echo "=== $1"
    grep '^FAIL' "$2" | head -n 20
    echo "--- its last lines:"
    tail -n 25 "$2"
}

export LAB_GOLDEN_DIR=$here/golden LAB_SCHEMA_DIR=$here/schema
# Units never see the shared cache: a user kernel someone else registered
# there (an era build in progress) must not change their result.
unit_home=$(mktemp -d /tmp/lab-units.XXXXXX)
trap 'rm -rf "$unit_home" "$logs"' EXIT
saved_home=${LAB_HOME-}
export LAB_HOME=$unit_home
# The code's shape: no call cycle between the agent's files, no function
# over 100 lines outside tests/ (tests/shape-allow.txt lists the old ones).
LAB_SHAPE_LAB=$(cd "$build" && pwd)/lab run_one check-shape "$here/check-shape.sh"
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
# The same units built with ASan and UBSan (make sanitize): any report fails.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
for t in "$build"/asan/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "asan/$(basename "$t")" "$t"
done
unset ASAN_OPTIONS UBSAN_OPTIONS
if [ -n "$saved_home" ]; then export LAB_HOME=$saved_home; else unset LAB_HOME; fi

if [ $unit_only = 0 ]; then
    for t in "$here"/boot/*.sh; do
        [ -x "$t" ] || continue
        run_boot "boot/$(basename "$t" .sh)" "$t" "$build"
    done
fi

# The names go on the closing line too: a CI log cut to its last lines must
# still say which test failed, and what it said.
for name in "${flaky[@]}"; do
    print_try "FAILED ONCE, passed on its second try: $name; the first try" "$(log_of "$name")"
done
for name in "${failed[@]}"; do
    print_try "FAILED: $name, its first try" "$(log_of "$name")"
    [ -e "$(log_of "$name" .second)" ] &&
        print_try "FAILED: $name, its second try" "$(log_of "$name" .second)"
done
[ ${#failed[@]} -gt 0 ] && printf 'FAILED: %s\n' "${failed[@]}"
echo "$pass passed, $fail failed${failed[*]:+: ${failed[*]}}${flaky[*]:+; passed only on a second try: ${flaky[*]}}"
[ $fail -eq 0 ]
