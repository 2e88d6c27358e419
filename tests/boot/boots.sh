#!/bin/bash
# Boots as well as runs (issue 13, part 2): with --boots 2 each kernel
# boots twice and the cells run interleaved, A1 B1 A2 B2; every cell
# stores its boot, and the report merges the boots of a kernel into one row.
. "$(dirname "$0")/lib.sh"

doc=$tmp/run.json
"$lab" run --kernels 6.1.0-47,6.12.113 --boots 2 --reps 2 --set file_size=16M --json "$doc" \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
check "lab run --boots 2 exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/err"
run=$(sql "select max(id) from runs")
order=$(sql "select c.kernel || '/' || f.value from cells c join cell_facts f on f.cell = c.id
             where c.run = $run and f.key = 'boot' order by c.id limit 4" | tr '\n' ' ')
check "cells ran interleaved, each with its boot ($order)" \
    test "$order" = "6.1.0-47/1 6.12.113/1 6.1.0-47/2 6.12.113/2 "
# Cells after those four are reruns of runs over a contention threshold
# (a busy host): boots 3 and up, said on stderr.
extra=$(sql "select count(*) from cells c join cell_facts f on f.cell = c.id
             where c.run = $run and f.key = 'boot' and cast(f.value as integer) > 2")
total=$(sql "select count(*) from cells where run = $run")
check "any cell beyond the four is a rerun in a later boot ($extra of $((total - 4)))" \
    test "$extra" -eq $((total - 4))
[ "$extra" -gt 0 ] && check "reruns are said" grep -q 'rerun of' "$tmp/err"
check "the progress lines name the boot" grep -q '6.12.113: seqread boot 2/2' "$tmp/err"
check "the JSON has one row per kernel" test "$(json "$doc" 'len(d["rows"])')" = 2
for k in 6.1.0-47 6.12.113; do
    cells=$(sql "select count(*) from cells where run = $run and kernel = '$k'")
    check "$k: the row lists its $cells cells and at least 2 boots" \
        test "$(json_row "$doc" "$k" 'len(r["cells"]) == '"$cells"' and r["boots"] >= 2')" = True
    n=$(sql "select count(*) from samples s join cells c on s.cell = c.id
             where c.run = $run and c.kernel = '$k' and c.id in
             (select id from cells where run = $run order by id limit 4)")
    check "$k: 2 x (1 warm-up + 2 runs) samples stored in its two planned boots (got $n)" \
        test "$n" -eq 6
    counted=$(sql "select count(*) from samples s join cells c on s.cell = c.id
                   where c.run = $run and c.kernel = '$k' and s.rep >= 1")
    check "$k: the row's n is its counted runs less those left out for contention" \
        test "$(json_row "$doc" "$k" 'r["n"] + (0 if r["contended"] else r["flagged"])')" = "$counted"
done
# Boot-level statistics: lab show prints each row's boots and their
# variation, the comparison says which method it used.
"$lab" show "$run" >"$tmp/show"
check "lab show prints the boots table" grep -q 'between-boot sd' "$tmp/show"
check "lab show names the boot-level method" \
    grep -Eq 'by (a two-level bootstrap|Welch on per-boot means) over [0-9]+ and [0-9]+ boots' "$tmp/show"
check "the JSON row has a between-boot sd" \
    test "$(json_row "$doc" 6.12.113 'r["boot_variation"]["between_boot_sd"] is not None')" = True
check "the JSON comparison's method is by boots" \
    test "$(json "$doc" 'd["comparisons"][0]["method"] in ("bootstrap", "boot-means")')" = True
check_no_leaks
finish
