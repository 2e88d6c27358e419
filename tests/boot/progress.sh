#!/bin/bash
# Live progress. On a terminal (script(1) gives lab a pty) one status line
# is redrawn in place and goes through the phases with a running clock; to
# a file the same run writes plain lines with no control character, and
# its ETA comes from the first run's stored duration.
. "$(dirname "$0")/lib.sh"

args="--boots 1 --kernels 6.12.113 --set file_size=32M --set reps=2"
ts=$tmp/typescript
LAB_STORE=$LAB_STORE script -qfec "$lab run $args" "$ts" >/dev/null 2>&1
rc=$?
check "lab run under script exits 0 (got $rc)" test $rc -eq 0
# The status lines, each drawn after a carriage return and erase-to-end.
tr '\r' '\n' <"$ts" | sed -n 's/^\x1b\[K\(lab: \[1\/1\].*\)/\1/p' >"$tmp/lines"
n=$(wc -l <"$tmp/lines")
check "the status line is redrawn (got $n draws)" test "$n" -ge 5
check "it shows the boot phase" grep -q ': boot  ' "$tmp/lines"
check "it shows the runs, k of 3" grep -q ': run [123]/3  ' "$tmp/lines"
clocks=$(sed -n 's/.*  \([0-9]*:[0-9][0-9]\) (run .*/\1/p' "$tmp/lines" | sort -u | wc -l)
check "its clock advances ($clocks distinct values)" test "$clocks" -ge 3
check "no ETA without history in a fresh store" grep -q 'ETA ?$' "$tmp/lines"
check "the line is cleared before the next log line" \
    grep -q $'\x1b\\[Klab: \\[1/1\\] 6.12.113: 2 run(s) + 1 warm-up' "$ts"

"$lab" run $args >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
check "lab run to files exits 0 (got $rc)" test $rc -eq 0
ctl=$(cat "$tmp/out" "$tmp/err" | LC_ALL=C tr -d '\n\t' | LC_ALL=C tr -dc '\000-\037' | wc -c)
check "no control character in the files (found $ctl)" test "$ctl" -eq 0
check "plain lines name the phases" grep -q '^lab: \[1/1\] 6.12.113 seqread: boot ' "$tmp/err"
check "one line per phase, not per tick" test "$(grep -c ': boot ' "$tmp/err")" -eq 1
check "the ETA comes from the first run" bash -c "grep ': boot ' '$tmp/err' | grep -q 'ETA [0-9]'"
check_no_leaks
finish
