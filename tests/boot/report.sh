#!/bin/bash
# lab report on two real runs of 6.12.113 on the 2003 era disk (so both are
# traced): a seqread and a readahead sweep. The page opens in headless
# Chromium (Debian's package), its DOM holds the expected figures, and a
# screenshot is written; both runs' JSON holds every stored sample.
. "$(dirname "$0")/lib.sh"

common=(--boots 1 --kernels 6.12.113 --profile pata-2003 --set file_size=32M --set reps=2)
"$lab" run "${common[@]}" --experiment seqread >"$tmp/seq.out" 2>&1
check "the seqread run exits 0 (got $?)" test $? -eq 0 || cat "$tmp/seq.out"
seq=$(sql "select max(id) from runs")
"$lab" run "${common[@]}" --experiment readahead-sweep >"$tmp/sweep.out" 2>&1
check "the sweep run exits 0 (got $?)" test $? -eq 0 || cat "$tmp/sweep.out"
sweep=$(sql "select max(id) from runs")

for run in "$seq" "$sweep"; do
    "$lab" show "$run" --format json >"$tmp/$run.json"
    check "run $run: lab show --format json | python3 -m json.tool" \
        python3 -m json.tool "$tmp/$run.json" /dev/null
    want=$(sql "select count(*) from samples s join cells c on s.cell = c.id where c.run = $run")
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(sum(len(c["samples"]) for c in d["cells"]))' "$tmp/$run.json")
    check "run $run: the JSON holds every stored sample ($got of $want)" test "$got" = "$want"
done

html=$tmp/html
"$lab" report "$seq" "$sweep" --html "$html" >"$tmp/report.out" 2>&1
rc=$?
cat "$tmp/report.out"
check "lab report exits 0 (got $rc)" test $rc -eq 0
# seqread: a distribution per column of the table (time, MB/s, user, sys),
# request sizes, one timeline (6); the sweep: the same plus its curves (7).
check "lab report says 13 figures" grep -q ': 13 figure(s) for 2 run(s)' "$tmp/report.out"
dom=$tmp/dom.html
chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$html/index.html" \
    >"$dom" 2>/dev/null
figures=$(grep -o '<figure' "$dom" | wc -l)
check "Chromium's DOM has 13 figures (got $figures)" test "$figures" -eq 13
svgs=$(grep -o '<svg' "$dom" | wc -l)
check "each figure is an inline SVG (got $svgs)" test "$svgs" -eq 13
check "the page loads nothing (no src, href or script)" \
    bash -c "! grep -Eq 'src=|href=|<script' '$html/index.html'"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1380,1600 \
    --screenshot="$tmp/shot.png" "file://$html/index.html" >/dev/null 2>&1
check "Chromium renders a screenshot" \
    bash -c "head -c 8 '$tmp/shot.png' | od -An -tx1 | grep -q '89 50 4e 47'"
check_no_leaks
finish
