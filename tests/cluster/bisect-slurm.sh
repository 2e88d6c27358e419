#!/bin/bash
# lab bisect --engine slurm on the test's single-node Slurm (slurm-lib.sh;
# the node has the feature lab-class-a), over the repo and range of the
# end-to-end local bisection (tests/slow/make-test-repo.sh: good = base + 1,
# bad = HEAD, one commit caps block requests at 16K). The same bisection
# runs locally first; through Slurm each build must be a job on the node
# class and its boots `lab cell` jobs queued behind it with afterok (the
# partition is held DOWN until the first build and its two boots are seen
# pending, so squeue shows them), and the verdict must be the local one.
# Then Ctrl-C while a cell runs in Slurm: exit 130, stored as interrupted,
# no job left. Last a repo whose commits do not build: the build job fails,
# the endpoint is a build failure, and the boots queued behind it never run.
#   usage: bisect-slurm.sh BUILD   ($LAB_BISECT_REPO as for tests/slow)
. "$(dirname "$0")/../boot/lib.sh"
. "$(dirname "$0")/slurm-lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
repo=${LAB_BISECT_REPO:-/var/tmp/lab-bisect-repo}

command -v slurmctld >/dev/null || { not_ok "slurm-wlm is not installed (make deps CLUSTER=1)"; finish; exit; }
"$here/../slow/make-test-repo.sh" "$repo" || { not_ok "make-test-repo.sh $repo"; finish; exit; }
sd=$tmp/slurm
trap 'slurm_down "$sd"; rm -rf "$tmp"' EXIT
slurm_up "$sd" || { not_ok "the test's Slurm came up"; finish; exit; }
ok "the test's Slurm came up ($(sinfo -h -o '%N %f %T'))"
node=$(sinfo -h -o '%N')
good=$(git -C "$repo" rev-list --reverse HEAD | sed -n 2p)
args=(--repo "$repo" --good "$good" --bad HEAD --experiment seqread --metric mbps
      --profile pata-2003 --set file_size=32M --reps 4 --no-rt)
first_bad() { sed -n 's/^first bad commit: \([0-9a-f]*\) .*/\1/p' "$1"; }

start=$(date +%s)
"$lab" bisect "${args[@]}" >"$tmp/local.out" 2>"$tmp/local.err"
rc=$?
echo "(the local bisection took $(( $(date +%s) - start )) s)"
check "the local bisection exits 0 (got $rc)" test $rc -eq 0 || tail "$tmp/local.err"
local_bad=$(first_bad "$tmp/local.out")
local_id=$(sql "select max(id) from bisect")
check "it names a first bad commit ($local_bad)" test -n "$local_bad"

# Slurm: the partition down, so the first build and its boots stay pending
# until squeue has shown them with their dependency and constraint.
scontrol update PartitionName=lab State=DOWN
start=$(date +%s)
"$lab" -v bisect --engine slurm "${args[@]}" >"$tmp/slurm.out" 2>"$tmp/slurm.err" &
labpid=$!
for _ in $(seq 600); do
    [ "$(squeue -h -o '%j' | grep -c "^lab-$labpid-")" -ge 3 ] && break
    kill -0 $labpid 2>/dev/null || break
    sleep 0.2
done
squeue -h -o '%i|%j|%E|%f|%T' | grep "|lab-$labpid-" >"$tmp/first"
scontrol update PartitionName=lab State=UP
# Every job of the bisection as squeue shows it while the lab runs.
while kill -0 $labpid 2>/dev/null; do
    squeue -h -o '%i|%j|%E|%f|%T' | grep "|lab-$labpid-" >>"$tmp/seen"
    sleep 0.3
done
wait $labpid
rc=$?
echo "(the Slurm bisection took $(( $(date +%s) - start )) s)"
grep '^lab: bisect' "$tmp/slurm.err"
cat "$tmp/slurm.out"
echo "the first build and its boots, as squeue showed them:"
cat "$tmp/first"
check "the Slurm bisection exits 0 (got $rc)" test $rc -eq 0 || tail -20 "$tmp/slurm.err"
check "it names the local bisection's first bad commit" test "$(first_bad "$tmp/slurm.out")" = "$local_bad"
id=$(sql "select max(id) from bisect")
check "both are stored as found" test "$(sql "select group_concat(status) from bisect where id in ($local_id, $id)")" = found,found
build=$(awk -F'|' '$2 ~ /-build$/ { print $1; exit }' "$tmp/first")
check "the first build was a job ($build) on the node class" \
    grep -q "^$build|lab-$labpid-build|.*|lab-class-a|" "$tmp/first"
check "its two boots were queued behind it with afterok, on the node class" \
    test "$(grep -c "|lab-$labpid-cell|afterok:$build[(_].*|lab-class-a|" "$tmp/first")" -eq 2
builds=$(grep -c 'bisect: [0-9a-f]*: build job [0-9]* (kernel' "$tmp/slurm.err")
after=$(sed -n 's/.*bisect: slurm: cell job [0-9]*: .*, afterok:\([0-9]*\)$/\1/p' "$tmp/slurm.err" | sort -u | wc -l)
check "every build ($builds) had boots queued behind it with afterok ($after)" test "$after" -eq "$builds"
check "every job squeue showed asked for lab-class-a" \
    test "$(cat "$tmp/first" "$tmp/seen" | awk -F'|' '$4 != "lab-class-a"' | wc -l)" -eq 0
run=$(sql "select run from bisect where id = $id")
check "every cell of its steps ran on the node ($node)" test "$(sql "select count(*) from
    bisect_step_cells c join bisect_steps s on s.id = c.step join cells x on x.id = c.cell
    where s.bisect = $id and (x.host is null or x.host != '$node')")" -eq 0
check "its steps reference cells" test "$(sql "select count(*) from bisect_step_cells c
    join bisect_steps s on s.id = c.step where s.bisect = $id")" -ge 8
check "no cell of its run is left running" \
    test "$(sql "select count(*) from cells where run = $run and status = 'running'")" -eq 0
check "each step's n equals its stored samples minus one warm-up per cell" \
    test "$(sql "select count(*) from bisect_steps s where bisect = $id and n > 0 and n !=
        (select count(*) - count(distinct c.cell) from bisect_step_cells c
         join samples x on x.cell = c.cell where c.step = s.id)")" -eq 0
check "the spool is gone" test ! -e "${LAB_HOME:-/var/cache/lab}/spool/$labpid"

# Ctrl-C while a boot's cell runs in Slurm (its kernels are built by now):
# the lab cancels its jobs, that cell is stored interrupted and gives no
# step a verdict, the bisection and its run end interrupted with exit 130,
# and nothing of it is left in Slurm.
"$lab" bisect --engine slurm "${args[@]}" >"$tmp/int.out" 2>"$tmp/int.err" &
labpid=$!
for _ in $(seq 600); do
    squeue -h -o '%j|%T' | grep -q "^lab-$labpid-cell|RUNNING" && break
    kill -0 $labpid 2>/dev/null || break
    sleep 0.2
done
sleep 1
kill -INT $labpid
wait $labpid
rc=$?
tail -3 "$tmp/int.err"
check "a Slurm bisection interrupted while a cell runs: exit 130 (got $rc)" test $rc -eq 130
id=$(sql "select max(id) from bisect")
irun=$(sql "select run from bisect where id = $id")
check "it is stored as interrupted, its run too" \
    test "$(sql "select status from bisect where id = $id")/$(sql "select status from runs where id = $irun")" = interrupted/interrupted
check "the cell it cut short is stored interrupted" \
    test "$(sql "select count(*) from cells where run = $irun and status = 'interrupted'")" -ge 1
check "no step has a verdict from a cell that did not end ok" \
    test "$(sql "select count(*) from bisect_step_cells c join bisect_steps s on s.id = c.step
        join cells x on x.id = c.cell where s.bisect = $id and x.status != 'ok'")" -eq 0
check "no cell of its run is left running" \
    test "$(sql "select count(*) from cells where run = $irun and status = 'running'")" -eq 0
left=1
for _ in $(seq 150); do
    left=$(squeue -h -o '%j' | grep -c "^lab-$labpid-")
    [ "$left" -eq 0 ] && break
    sleep 0.2
done
check "no job of it is left in Slurm (found $left)" test "$left" -eq 0
check "its spool is gone" test ! -e "${LAB_HOME:-/var/cache/lab}/spool/$labpid"

# A repo that does not build: the build job fails (a skip, here of the
# good endpoint, which ends the bisection), and its boots never run.
bad=$tmp/broken
mkdir -p "$bad"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION =\n%%:\n\tfalse\n' >"$bad/Makefile"
g() { git -C "$bad" -c user.name="lab test" -c user.email="lab@localhost" "$@"; }
g init -q && g add -A && g commit -qm one && echo >>"$bad/Makefile" && g commit -qam two
"$lab" -v bisect --engine slurm --repo "$bad" --good HEAD~1 --bad HEAD --metric mbps \
    --no-rt >"$tmp/broken.out" 2>"$tmp/broken.err"
rc=$?
grep 'bisect' "$tmp/broken.err"
check "a repo that does not build: exit 1 (got $rc)" test $rc -eq 1
check "the good endpoint is a build failure in its Slurm job" \
    grep -q 'the good endpoint [0-9a-f]*: build failed in Slurm job' "$tmp/broken.err"
brun=$(sql "select run from bisect where id = (select max(id) from bisect)")
check "its boots never ran: one failed with the build, one not measured" \
    test "$(sql "select group_concat(status, ',') from (select status from cells where run = $brun
        order by status)")" = failed,skipped
check "no job of it is left in Slurm" test "$(squeue -h -o '%j' | grep -c '^lab-')" -eq 0
check_no_leaks
finish
