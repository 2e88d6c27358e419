# Shared by the boot tests: a private store, checks, and leak detection.
# Sourced, not run. Kernels and images stay in the shared cache ($LAB_HOME).
set -u
build=$(cd "${1:-build}" && pwd)
lab=$build/lab
tmp=$(mktemp -d /tmp/lab-boot.XXXXXX)
export LAB_STORE=$tmp/results.db
trap 'rm -rf "$tmp"' EXIT
failures=0

ok() { echo "ok: $*"; }
not_ok() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() {  # description, command...
    local what=$1; shift
    if "$@"; then ok "$what"; else not_ok "$what"; fi
}
sql() { sqlite3 -batch -noheader "$LAB_STORE" "$@"; }

# No lab domain, no QEMU started for a lab domain, no nbdkit, no socket left.
check_no_leaks() {
    local doms
    doms=$(virsh -c qemu:///system list --all --name 2>/dev/null | grep -c '^lab-')
    check "no lab domain left (found $doms)" test "$doms" -eq 0
    check "no lab qemu process left" bash -c '! pgrep -f "[g]uest=lab-" >/dev/null'
    check "no nbdkit process left" bash -c '! pgrep -x nbdkit >/dev/null'
    check "no socket left under the run dir" \
        bash -c '! find "${LAB_RUN_DIR:-/run/lab}" -name "*.sock" 2>/dev/null | grep -q .'
}

finish() {
    [ "$failures" -eq 0 ]
}
