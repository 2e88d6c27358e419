#!/bin/bash
# Issue 4's boot tests: every shipped seed experiment runs from its file on
# a Debian kernel at a small size, and its samples carry real results:
# bytes read, file counts equal to the tree's, background loads completed.
. "$(dirname "$0")/lib.sh"
k=6.12.113
tree=(--set tree_files=300 --set tree_dirs=25 --set file_size=32M --set disk_free=128M)

run_exp() {  # experiment, lab run args...
    local e=$1; shift
    "$lab" run --boots 1 --kernels $k --experiment "$e" --reps 2 "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    check "$e: lab run exits 0 (got $rc)" test $rc -eq 0 || { cat "$tmp/err"; return 1; }
    grep -q "^$k" "$tmp/out" || { not_ok "$e: the table has no row for $k"; cat "$tmp/out"; }
}
counted() {  # SQL condition on the newest run's counted samples -> how many fail it
    sql "select count(*) from samples s join cells c on s.cell = c.id
         where c.run = (select max(id) from runs) and s.rep >= 1 and not ($1)"
}
total() {
    sql "select count(*) from samples s join cells c on s.cell = c.id
         where c.run = (select max(id) from runs) and s.rep >= 1"
}
extra() {  # key -> the value in each counted sample, one per line
    sql "select extra from samples s join cells c on s.cell = c.id
         where c.run = (select max(id) from runs) and s.rep >= 1" |
        sed -n "s/.*\b$1=\([0-9]*\).*/\1/p"
}

# Seed 000: three readahead settings in one boot, each read the whole file.
run_exp readahead-sweep --set file_size=16M
check "readahead-sweep: 3 settings x 2 runs" test "$(total)" -ge 6
check "readahead-sweep: every run read 16 MiB" test "$(counted "bytes = 16777216")" -eq 0
check "readahead-sweep: rows for ra=256, 128 and 64" \
    bash -c "grep -q 'ra=256' '$tmp/out' && grep -q 'ra=128' '$tmp/out' && grep -q 'ra=64' '$tmp/out'"

# Seed 004: the raw device, buffered and O_DIRECT, with CPU figures.
for e in rawread rawread-direct; do
    run_exp $e --set read_size=32M --set disk_size=64M
    check "$e: every run read 32 MiB" test "$(counted "bytes = 33554432")" -eq 0
    check "$e: /proc/stat figures present" test "$(extra cpu_idle | wc -l)" -eq "$(total)"
done

# Seed 003: a tree read, the big file and the overwrite, each under a copy.
run_exp tree-under-load "${tree[@]}"
check "tree-under-load: every run read all 300 files" \
    test "$(extra files | grep -cx 300)" -eq "$(total)"
run_exp tree-under-load-bigfile "${tree[@]}"
check "tree-under-load-bigfile: every run read 32 MiB" test "$(counted "bytes = 33554432")" -eq 0
check "tree-under-load-bigfile: the copy ran (load_bytes > 0)" \
    test "$(extra load_bytes | awk '$1 > 0' | wc -l)" -eq "$(total)"
run_exp tree-under-load-overwrite "${tree[@]}" --set count=300
check "tree-under-load-overwrite: 300 operations per run" \
    test "$(extra ops | grep -cx 300)" -eq "$(total)"

# Seed 001: contest, one cell per load; the loads complete units.
run_exp contest "${tree[@]}" --set load_size=8M --set cpu_rounds=50
# A run flagged as contended is rerun in another cell: every counted run
# of the load's cells, however many, must have completed units.
for load in io_load io_other read_load; do
    where="c.run = (select max(id) from runs) and s.rep >= 1 and c.params like '%lab.load=$load %'"
    all=$(sql "select count(*) from samples s join cells c on s.cell = c.id where $where")
    n=$(sql "select count(*) from samples s join cells c on s.cell = c.id where $where
             and s.extra like '%load_units=%'
             and cast(substr(s.extra, instr(s.extra, 'load_units=') + 11, 4) as integer) > 0")
    check "contest: $load completed load units in every run ($n of $all, at least 2)" \
        test "$n" -eq "$all" -a "$n" -ge 2
done
check "contest: Ratio column against no_load" grep -q "no_load .* 1.00$" "$tmp/out"

# An impossible setting is refused before anything boots.
"$lab" run --boots 1 --kernels $k --experiment tree-under-load --set scheduler=cfq >"$tmp/out" 2>"$tmp/err"
check "cfq on 6.12 is refused before boot (exit 2)" test $? -eq 2
check "the refusal says why" grep -q "scheduler cfq exists from Linux 2.6.6 until before 5.0" \
    "$tmp/err"

check_no_leaks
finish
