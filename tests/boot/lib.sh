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
# The log directory of run N of this test's store (lab_run_log_dir in
# common/paths.h: a store of its own keeps its logs apart).
log_dir() {
    local hash
    hash=$(printf %s "$(realpath "$LAB_STORE")" | sha256sum | cut -c1-12)
    echo "${LAB_HOME:-/var/cache/lab}/logs/store-$hash/run-$1"
}
# Figures come from the run's JSON document, never from the table's columns.
# json FILE EXPR: a Python expression over the document d, printed.
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
# json_row FILE LABEL EXPR: the same over the row r with that label.
json_row() {
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
r = next(r for r in d["rows"] if r["label"] == sys.argv[2])
print(eval(sys.argv[3]))' "$@"
}

# Nothing of a finished lab is left: no domain, no QEMU, no nbdkit, no
# socket. A lab domain is named lab-<pid of its lab>-...; one whose lab has
# exited is a leak (domains of a lab still running elsewhere are not).
orphans() {  # lines of "lab-PID-..." names on stdin -> those whose lab is gone
    while read -r name; do
        pid=${name#lab-}; pid=${pid%%-*}
        [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && echo "$name"
    done
}
check_no_leaks() {
    local doms qemus nbd socks
    doms=$(virsh -c qemu:///system list --all --name 2>/dev/null | grep '^lab-' | orphans | wc -l)
    check "no domain of a finished lab left (found $doms)" test "$doms" -eq 0
    qemus=$(pgrep -af '[g]uest=lab-' | grep -o 'guest=lab-[0-9]*-' | sed 's/guest=//' | orphans |
            wc -l)
    check "no QEMU of a finished lab left (found $qemus)" test "$qemus" -eq 0
    # nbdkit runs with --exit-with-parent: one whose parent is not a lab is a leak.
    nbd=0
    for p in $(pgrep -x nbdkit); do
        parent=$(ps -o comm= -p "$(ps -o ppid= -p "$p" | tr -d ' ')" 2>/dev/null)
        [ "$parent" = lab ] || nbd=$((nbd + 1))
    done
    check "no nbdkit outside a running lab (found $nbd)" test "$nbd" -eq 0
    socks=$(find "${LAB_RUN_DIR:-/run/lab}" -name '*.sock' 2>/dev/null |
            sed -n 's|.*/\([0-9]*\)-[0-9]*/[^/]*$|lab-\1-|p' | orphans | wc -l)
    check "no socket of a finished lab left (found $socks)" test "$socks" -eq 0
}

finish() {
    [ "$failures" -eq 0 ]
}
