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
             where c.run = $run and f.key = 'boot' order by c.id" | tr '\n' ' ')
check "cells ran interleaved, each with its boot ($order)" \
    test "$order" = "6.1.0-47/1 6.12.113/1 6.1.0-47/2 6.12.113/2 "
check "the progress lines name the boot" grep -q '6.12.113: seqread boot 2/2' "$tmp/err"
check "the JSON has one row per kernel" test "$(json "$doc" 'len(d["rows"])')" = 2
for k in 6.1.0-47 6.12.113; do
    check "$k: the row merges 2 boots x 2 runs (n=$(json_row "$doc" "$k" 'r["n"]'))" \
        test "$(json_row "$doc" "$k" '(r["n"], r["boots"], len(r["cells"]))')" = "(4, 2, 2)"
    n=$(sql "select count(*) from samples s join cells c on s.cell = c.id
             where c.run = $run and c.kernel = '$k'")
    check "$k: 2 x (1 warm-up + 2 runs) samples stored (got $n)" test "$n" -eq 6
done
# Boot-level statistics: lab show prints each row's boots and their
# variation, the comparison says which method it used.
"$lab" show "$run" >"$tmp/show"
check "lab show prints the boots table" grep -q 'between-boot sd' "$tmp/show"
check "lab show names the boot-level method" grep -q 'a two-level bootstrap over 2 and 2 boots' "$tmp/show"
check "the JSON row has a between-boot sd" \
    test "$(json_row "$doc" 6.12.113 'r["boot_variation"]["between_boot_sd"] is not None')" = True
check "the JSON comparison's method is the bootstrap" \
    test "$(json "$doc" 'd["comparisons"][0]["method"]')" = bootstrap
check_no_leaks
finish
