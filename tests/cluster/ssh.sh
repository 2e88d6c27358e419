#!/bin/bash
# --engine ssh on two fake hosts (network+mount namespaces, each with its
# own libvirtd, /run and spool, reached through an ssh stand-in that
# nsenters them): two cells (6.1.0-47, 6.12.113; fast, 8 MiB, 1 run) go
# through GNU parallel; h1's libvirtd is killed while its cell runs. That
# cell must run again on h2, its bundle from h1 refused, and the store
# hold every cell once, with samples, and h2 as its host; the progress
# lines show the phases the cells reach on their machines. Then a cell's
# QEMU is killed mid-cell, and a machine cannot be reached at all.
. "$(dirname "$0")/../boot/lib.sh"
. "$(dirname "$0")/fakehost-lib.sh"

command -v parallel >/dev/null || { not_ok "GNU parallel is not installed (CLUSTER=1 make deps)"; finish; exit; }
fh=$tmp/hosts
trap 'fakehost_down "$fh"; rm -rf "$tmp"' EXIT
fakehost_up "$fh" h1 h2 || { not_ok "the fake hosts came up"; finish; exit; }
ok "two fake hosts, each with its own libvirtd ($(cat "$fh/hosts" | tr '\n' ' '))"

# Kill h1's libvirtd once a cell's domain runs there (not at all if none
# does before the run ends).
(
    while [ ! -e "$tmp/ran" ]; do
        if fakehost_in "$fh" h1 virsh -c qemu:///system list --name 2>/dev/null | grep -q '^lab-'; then
            sleep 2
            p=$(fakehost_libvirtd "$fh" h1)
            [ -n "$p" ] && kill -KILL "$p" && echo "$p" >"$tmp/killed"
            break
        fi
        sleep 0.5
    done
) &
killer=$!
# Without $SHELL, as a CI runner may start us: GNU parallel's remote
# wrapper needs one, and the login command here passes ours on.
env -u SHELL "$lab" -v run --engine ssh --hosts "$fh/hosts" --kernels 6.1.0-47,6.12.113 --boots 1 --reps 1 \
    --set file_size=8M --no-rt >"$tmp/out" 2>"$tmp/err"
rc=$?
touch "$tmp/ran"
wait $killer
cat "$tmp/err"
run=$(sql "select max(id) from runs")
check "h1's libvirtd was killed mid-cell" test -s "$tmp/killed"
check "the run exits 0 (got $rc)" test $rc -eq 0
# (A busy host may add contention reruns, boot 2: cells of their own.)
check "each cell is stored once" test "$(sql "select max(n) from (select count(*) n from cells
    where run = $run and attempt > 0 group by cell_key)")" -eq 1
check "both planned cells ok with 2 samples each" test "$(sql "select group_concat(n) from
    (select count(s.id) n from cells c join samples s on s.cell = c.id join cell_facts f on
     f.cell = c.id and f.key = 'boot' and f.value = '1' where c.run = $run and c.status = 'ok'
     group by c.id)")" = 2,2
check "no dispatch row left" test "$(sql "select count(*) from cells where run = $run and attempt = 0")" -eq 0
check "the cell cut short on h1 ran again on h2 (attempt 2)" \
    test "$(sql "select count(*) from cells where run = $run and host = 'h2' and attempt = 2")" -ge 1
check "its bundle from h1 was refused, saying why" grep -q "bundle .*/a1 refused" "$tmp/err"
# The progress reads each running cell's phase from its machine (its live
# store copied back), not "image" for as long as it runs.
check "the progress showed a cell's phase on its machine (boot, run, teardown)" \
    grep -Eq '^lab: \[[0-9]+/[0-9]+\] [^ ]+ seqread: (boot|run [0-9]+/[0-9]+|teardown) ' "$tmp/err"
check "nothing is stored from h1" test "$(sql "select count(*) from cells where run = $run and host = 'h1' and status != 'ok'")" -eq 0
for h in h1 h2; do
    n=$(fakehost_in "$fh" $h virsh -c qemu:///system list --name 2>/dev/null | grep -c '^lab-')
    check "no domain left on $h" test "${n:-0}" -eq 0
done

# QEMU killed mid-cell (h1's libvirtd started again first): whichever host
# runs the one cell loses its QEMU; the cell runs again on the other host
# and is stored once, from there.
fakehost_in "$fh" h1 libvirtd -d
for _ in $(seq 100); do
    fakehost_in "$fh" h1 virsh -c qemu:///system version >/dev/null 2>&1 && break
    sleep 0.2
done
(
    while [ ! -e "$tmp/ran2" ]; do
        for h in h1 h2; do
            d=$(fakehost_in "$fh" $h virsh -c qemu:///system list --name 2>/dev/null | grep -m1 '^lab-')
            [ -n "$d" ] || continue
            sleep 2
            pkill -KILL -f "guest=$d," && echo $h >"$tmp/qkilled"
            exit
        done
        sleep 0.5
    done
) &
killer=$!
env -u SHELL "$lab" run --engine ssh --hosts "$fh/hosts" --kernels 6.12.113 --boots 1 --reps 1 \
    --set file_size=8M --no-rt >/dev/null 2>"$tmp/err3"
rc=$?
touch "$tmp/ran2"
wait $killer
cat "$tmp/err3"
victim=$(cat "$tmp/qkilled" 2>/dev/null)
other=h1
[ "$victim" = h1 ] && other=h2
run=$(sql "select max(id) from runs")
check "a cell's QEMU was killed on its host (${victim:-none})" test -n "$victim"
check "that run exits 0 (got $rc)" test $rc -eq 0
# Boot 1 is the planned cell; a busy host may add a contention rerun (boot
# 2), a cell of its own that may run on either host.
check "its cell is stored once, ok, from $other" \
    test "$(sql "select group_concat(c.host || ':' || c.status) from cells c join cell_facts f
        on f.cell = c.id and f.key = 'boot' and f.value = '1' where c.run = $run and c.attempt > 0")" = "$other:ok"
check "the bundle from $victim was refused: its QEMU was killed" \
    grep -q "refused: that attempt on $victim failed: QEMU ended before the agent finished: killed or crashed" "$tmp/err3"

# A machine that cannot be reached: the cell fails saying where it ran and
# how each attempt ended, from GNU parallel's joblog.
echo "$fh/ssh nohost" >"$tmp/badhosts"
"$lab" run --engine ssh --hosts "$tmp/badhosts" --kernels 6.1.0-47 --boots 1 --reps 1 \
    --set file_size=8M --no-rt >/dev/null 2>"$tmp/err2"
rc=$?
cat "$tmp/err2"
check "a cell no machine ran fails the run (exit $rc)" test $rc -eq 1
check "it says each attempt's machine and exit" \
    grep -Eq "cell 6.1.0-47/seqread failed: GNU parallel ran its last retry: on nohost exit [1-9][0-9]*; it said: .+" "$tmp/err2"
check_no_leaks
finish
