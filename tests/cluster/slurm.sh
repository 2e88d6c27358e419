#!/bin/bash
# --engine slurm on a single-node Slurm the test starts itself (munged,
# slurmctld and slurmd from a generated slurm.conf in a temp dir; the node
# has the feature lab-class-a): a 4-cell matrix (2 kernels x 2 boots, fast,
# 8 MiB seqread, 1 run) through Slurm stores exactly the samples the same
# matrix stores run locally, per cell (kernel, boot), with the node as the
# host of each; the job array asked for the node class; one task requeued
# mid-cell (scontrol requeue) is stored once, from its second attempt; a
# cell that lands after its controller was killed is imported by the next
# command's reconcile.
. "$(dirname "$0")/../boot/lib.sh"
. "$(dirname "$0")/slurm-lib.sh"

command -v slurmctld >/dev/null || { not_ok "slurm-wlm is not installed (make deps CLUSTER=1)"; finish; exit; }
sd=$tmp/slurm
trap 'slurm_down "$sd"; rm -rf "$tmp"' EXIT
slurm_up "$sd" || { not_ok "the test's Slurm came up"; finish; exit; }
ok "the test's Slurm came up ($(sinfo -h -o '%N %f %T'))"
node=$(sinfo -h -o '%N')
args=(--kernels 6.1.0-47,6.12.113 --boots 2 --reps 1 --set file_size=8M --no-rt)

per_cell() {  # run -> "kernel boot samples" lines, sorted
    sql "select c.kernel, f.value, count(s.id) from cells c
         join cell_facts f on f.cell = c.id and f.key = 'boot'
         left join samples s on s.cell = c.id where c.run = $1 and f.value in ('1', '2')
         group by c.id order by 1, 2"
}

"$lab" run "${args[@]}" >"$tmp/local.out" 2>"$tmp/local.err"
rc=$?
check "the local run exits 0 (got $rc)" test $rc -eq 0 || tail "$tmp/local.err"
local_run=$(sql "select max(id) from runs")

LAB_HOME_SPOOL=${LAB_HOME:-/var/cache/lab}/spool
# Requeue the first task once its cell is booting: its attempt 1 is cut short.
(
    for _ in $(seq 600); do
        t=$(squeue -h -r -t R -o '%i' 2>/dev/null | head -1)
        [ -n "$t" ] && ls "$LAB_HOME_SPOOL"/*/*/a1/live.db >/dev/null 2>&1 && break
        sleep 0.5
    done
    sleep 3
    [ -n "$t" ] && scontrol requeue "$t" && echo "$t" >"$tmp/requeued"
) &
watcher=$!
"$lab" -v run --engine slurm "${args[@]}" >"$tmp/slurm.out" 2>"$tmp/slurm.err"
rc=$?
wait $watcher
cat "$tmp/slurm.err"
slurm_run=$(sql "select max(id) from runs")
# A contention rerun (boot 3+, a busy host) may fail on its own; the
# planned cells must not.
echo "the Slurm run exited $rc"
check "every planned cell of the Slurm run is ok" test "$(sql "select count(*) from cells c
    join cell_facts f on f.cell = c.id and f.key = 'boot' and f.value in ('1', '2')
    where c.run = $slurm_run and c.status = 'ok'")" -eq 4
check "it went as a job array with the node class" grep -q 'slurm: job array [0-9]*: 4 cell(s)' "$tmp/slurm.err"
check "the node class is the feature lab-class-a" grep -q 'node class lab-class-a' "$tmp/slurm.err"
per_cell $local_run >"$tmp/local.cells"
per_cell $slurm_run >"$tmp/slurm.cells"
cat "$tmp/slurm.cells"
check "4 cells with samples locally" test "$(wc -l <"$tmp/local.cells")" -eq 4
check "the same samples per cell (kernel, boot) as the local run" cmp -s "$tmp/local.cells" "$tmp/slurm.cells"
check "every Slurm cell has the node ($node) as its host" \
    test "$(sql "select count(*) from cells where run = $slurm_run and host = '$node'")" -ge 4
check "no dispatch row left" test "$(sql "select count(*) from cells where run = $slurm_run and attempt = 0")" -eq 0
if [ -s "$tmp/requeued" ]; then
    t=$(cat "$tmp/requeued")
    check "a requeued task ($t): its cell is stored once" \
        test "$(sql "select count(*) from cells where run = $slurm_run group by cell_key order by 1 desc limit 1")" -eq 1
    check "from its second attempt" \
        test "$(sql "select count(*) from cells where run = $slurm_run and attempt = 2")" -eq 1
else
    not_ok "no task was requeued (the watcher saw none running)"
fi
# This run's spools (other labs' may be there: the shared cache's).
spool=$(sed -n 's/^lab: slurm: spool \([^,]*\),.*/\1/p' "$tmp/slurm.err")
check "the Slurm run's spool ($spool) is gone" test -n "$spool" -a ! -e "$spool"
check "the local run's spool is gone" test ! -e "$LAB_HOME_SPOOL/$(sql "select pid from runs where id = $local_run")"

# A controller killed while its cell runs on Slurm: the cell's bundle lands
# in the dead lab's spool, and the next command's reconcile imports it.
"$lab" run --engine slurm --kernels 6.1.0-47 --boots 1 --reps 1 --set file_size=8M --no-rt \
    >/dev/null 2>"$tmp/killed.err" &
pid=$!
for _ in $(seq 600); do
    squeue -h -t R -o '%j' | grep -qx "lab-$pid" && break
    sleep 0.5
done
kill -KILL $pid
wait $pid 2>/dev/null
for _ in $(seq 600); do
    squeue -h -o '%j' | grep -qx "lab-$pid" || break
    sleep 0.5
done
krun=$(sql "select max(id) from runs")
"$lab" runs >/dev/null 2>"$tmp/reconcile.err"
cat "$tmp/reconcile.err"
check "the killed controller's run is abandoned" \
    test "$(sql "select status from runs where id = $krun")" = abandoned
check "its cell, landed after it died, is imported by the next command, with its samples" \
    test "$(sql "select count(s.id) from cells c join samples s on s.cell = c.id
        where c.run = $krun and c.status = 'ok' and c.attempt = 1 and c.host = '$node'")" -eq 2
check "no dispatch row of it is left" \
    test "$(sql "select count(*) from cells where run = $krun and attempt = 0")" -eq 0
check "the reconciler said so" grep -q "imported from the spool of lab $pid" "$tmp/reconcile.err"
check "the dead lab's spool is gone" test ! -e "$LAB_HOME_SPOOL/$pid"
check_no_leaks
finish
