#!/bin/bash
# Real-time cells (issue 13, part 1). As root: while a pata-2003 seqread
# runs, every QEMU thread and every nbdkit thread of the cell is SCHED_FIFO
# (QEMU at 10, nbdkit at 11), the cell's "rt" fact says so, and the kernel's
# RT throttle is what it was. Without CAP_SYS_NICE (what a container or a
# non-root user has) the run completes, says once that it ran without
# real-time scheduling and records it; --no-rt turns it off silently.
. "$(dirname "$0")/lib.sh"

throttle=$(cat /proc/sys/kernel/sched_rt_runtime_us)
starts() { case "$1" in "$2"*) return 0;; esac; return 1; }
policy() { chrt -p "$1" 2>/dev/null | sed -n '1s/.*: //p'; }
prio() { chrt -p "$1" 2>/dev/null | sed -n '2s/.*: //p'; }

"$lab" run --boots 1 --kernels 6.12.113 --profile pata-2003 --reps 3 --set file_size=64M \
    >"$tmp/out" 2>"$tmp/err" &
labpid=$!
qemu=
for _ in $(seq 1 120); do
    qemu=$(pgrep -f "guest=lab-$labpid-" | head -1)
    [ -n "$qemu" ] && grep -q 'CPU 0/' /proc/"$qemu"/task/*/comm 2>/dev/null && break
    sleep 0.5
done
sleep 3 # the lab sets QEMU's threads just after the domain starts
qemu_other=0 nbd_other=0 nthreads=0 qprio= nprio=
if [ -n "$qemu" ]; then
    for t in /proc/"$qemu"/task/*; do
        nthreads=$((nthreads + 1))
        [ "$(policy "${t##*/}")" = SCHED_FIFO ] || qemu_other=$((qemu_other + 1))
        qprio=$(prio "${t##*/}")
    done
fi
nbds=$(pgrep -P "$labpid" nbdkit)
for n in $nbds; do
    for t in /proc/"$n"/task/*; do
        [ "$(policy "${t##*/}")" = SCHED_FIFO ] || nbd_other=$((nbd_other + 1))
        nprio=$(prio "${t##*/}")
    done
done
wait "$labpid"
rc=$?
check "lab run exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/err"
check "QEMU was found running ($qemu, $nthreads threads)" test -n "$qemu" -a "$nthreads" -gt 1
check "every QEMU thread was SCHED_FIFO ($qemu_other were not)" test "$qemu_other" -eq 0
check "QEMU's priority was 10 (got $qprio)" test "$qprio" = 10
check "nbdkit ran ($nbds)" test -n "$nbds"
check "every nbdkit thread was SCHED_FIFO ($nbd_other were not)" test "$nbd_other" -eq 0
check "nbdkit's priority was 11, above QEMU (got $nprio)" test "$nprio" = 11
run=$(sql "select max(id) from runs")
fact=$(sql "select value from cell_facts f join cells c on f.cell = c.id
            where c.run = $run and key = 'rt'")
check "the cell records real-time scheduling ($fact)" starts "$fact" fifo
wait_ns=$(sql "select value from cell_facts f join cells c on f.cell = c.id
               where c.run = $run and key = 'reader_wait_ns'")
check "the channel reader's run-queue wait is recorded ($wait_ns ns)" test -n "$wait_ns"
check "the RT throttle is left as it was ($throttle)" \
    test "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = "$throttle"
check "no warning about real-time as root" bash -c "! grep -q 'real-time' '$tmp/err'"

# Without CAP_SYS_NICE: completes, says so once, records it.
setpriv --bounding-set -sys_nice -- "$lab" run --boots 1 --kernels 6.12.113 --profile pata-2003 \
    --reps 2 --set file_size=16M >"$tmp/out2" 2>"$tmp/err2"
rc=$?
check "without CAP_SYS_NICE lab run exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/err2"
said=$(grep -c 'real-time scheduling is not permitted' "$tmp/err2")
check "it says once that it runs without real-time scheduling (said $said times)" test "$said" -eq 1
run=$(sql "select max(id) from runs")
fact=$(sql "select value from cell_facts f join cells c on f.cell = c.id
            where c.run = $run and key = 'rt'")
check "the cell records it ($fact)" starts "$fact" "off: not permitted"
# 1 warm-up + 2 runs in the planned boot; a run flagged for contention
# (likelier without real time) is measured again in another boot, with a
# warm-up and one run per flagged run of its own.
n=$(sql "select count(*) from samples s join cells c on s.cell = c.id join cell_facts f on
         f.cell = c.id and f.key = 'boot' and f.value = '1' where c.run = $run")
check "it measured anyway ($n samples in its planned boot: 3)" test "$n" -eq 3

"$lab" run --boots 1 --no-rt --kernels 6.12.113 --reps 1 --set file_size=8M >/dev/null 2>"$tmp/err3"
run=$(sql "select max(id) from runs")
# Every cell of the run (a contended run's rerun adds one) says the same.
fact=$(sql "select distinct value from cell_facts f join cells c on f.cell = c.id
            where c.run = $run and key = 'rt'")
check "--no-rt is recorded ($fact) and not warned about" \
    bash -c "test '$fact' = 'off: --no-rt' && ! grep -q 'real-time' '$tmp/err3'"
check_no_leaks
finish
