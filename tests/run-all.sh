#!/bin/bash
# Runs every test: cmocka units (with golden files), then the boot tests that
# start real kernels under QEMU. Prints one closing "N passed, N failed" line.
set -u
unit_only=0
[ "${1:-}" = --unit-only ] && { unit_only=1; shift; }
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0 failed=()

run_one() {  # name, command...
    local name=$1; shift
    echo "=== $name"
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$name"); fi
}

export LAB_GOLDEN_DIR=$here/golden LAB_SCHEMA_DIR=$here/schema
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done

if [ $unit_only = 0 ]; then
    for t in "$here"/boot/*.sh; do
        [ -x "$t" ] || continue
        run_one "boot/$(basename "$t" .sh)" "$t" "$build"
    done
fi

[ ${#failed[@]} -gt 0 ] && printf 'FAILED: %s\n' "${failed[@]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
