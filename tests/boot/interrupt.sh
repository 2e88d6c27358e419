#!/bin/bash
# Ctrl-C mid-run: the first kernel's samples stay in the store, the second
# cell is marked interrupted, and nothing of the lab is left running.
. "$(dirname "$0")/lib.sh"

"$lab" run --boots 1 --kernels 6.1.0-47,6.12.113 --reps 1 --set file_size=16M >"$tmp/out" 2>"$tmp/err" &
pid=$!
# Wait until the second cell's domain runs, then interrupt like a terminal would.
for _ in $(seq 600); do
    virsh -c qemu:///system list --name 2>/dev/null | grep -q "^lab-$pid-1-" && break
    sleep 0.2
done
check "the second cell's domain was running" \
    bash -c "virsh -c qemu:///system list --name | grep -q '^lab-$pid-1-'"
kill -INT $pid
wait $pid
rc=$?
cat "$tmp/err"
check "lab exits 130 after SIGINT (got $rc)" test $rc -eq 130
run=$(sql "select max(id) from runs")
check "the run is stored as interrupted" test "$(sql "select status from runs where id=$run")" = interrupted
n=$(sql "select count(*) from samples s join cells c on s.cell = c.id
         where c.run = $run and c.kernel = '6.1.0-47'")
check "the first kernel's samples (warm-up + 1) are kept (got $n)" test "$n" -eq 2
st=$(sql "select status from cells where run = $run and kernel = '6.12.113'")
check "the second cell is marked interrupted (got $st)" test "$st" = interrupted
check_no_leaks
finish
