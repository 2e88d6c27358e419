#!/bin/bash
# Contention on record (issue 13, part 4): a pata-2003 seqread under two
# CPU hogs (one per core, normal priority) with --no-rt, so the guest does
# wait. Every sample stores the vCPU threads' run-queue wait (non-zero),
# the host's CPU pressure (non-zero) and the era disk's deadline overruns;
# runs over a threshold are flagged, left out, rerun, and said so.
. "$(dirname "$0")/lib.sh"

hogs=()
stop_hogs() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done; hogs=(); }
trap 'stop_hogs; rm -rf "$tmp"' EXIT
for _ in 1 2; do
    sh -c 'while :; do :; done' &
    hogs+=($!)
done

doc=$tmp/run.json
"$lab" run --no-rt --boots 1 --kernels 6.12.113 --profile pata-2003 --reps 3 \
    --set file_size=32M --json "$doc" >"$tmp/out" 2>"$tmp/err"
rc=$?
stop_hogs
cat "$tmp/out"
check "lab run under two hogs exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/err"
run=$(sql "select max(id) from runs")
n=$(sql "select count(*) from samples s join cells c on s.cell = c.id where c.run = $run")
check "samples were stored ($n)" test "$n" -ge 4
count() {  # a condition on a sample's extra -> how many samples of the run meet it
    sql "select count(*) from samples s join cells c on s.cell = c.id where c.run = $run and ($1)"
}
num() { echo "cast(substr(extra, instr(extra, '$1=') + length('$1=')) as integer)"; }
check "every sample has a non-zero vCPU wait" \
    test "$(count "extra like '%host_vcpu_wait_ns=%' and $(num host_vcpu_wait_ns) > 0")" -eq "$n"
check "every sample has a non-zero CPU pressure" \
    test "$(count "extra like '%host_psi_cpu_us=%' and $(num host_psi_cpu_us) > 0")" -eq "$n"
check "every sample has the disk's request count and overruns" \
    test "$(count "extra like '%host_disk_late=%' and $(num host_disk_reqs) > 0")" -eq "$n"
check "the JSON carries them (sample extra)" \
    test "$(json "$doc" '"host_vcpu_wait_ns" in d["cells"][0]["samples"][0]["extra"]')" = True
flagged=$(count "extra like '%host_flag=1%' and rep >= 1")
json_flagged=$(json "$doc" 'sum(r["flagged"] for r in d["rows"])')
check "the JSON counts the $flagged flagged counted run(s) (got $json_flagged)" \
    test "$json_flagged" = "$flagged"
if [ "$flagged" -gt 0 ]; then
    check "the report says how many were flagged" grep -q "^$flagged run(s) over a contention" "$tmp/out"
    check "the flagged runs were rerun" grep -q 'rerun of' "$tmp/err"
    check "the row still has figures (left out only while others remain)" \
        test "$(json "$doc" 'd["rows"][0]["n"] >= 2')" = True
else
    check "no flag: the report says nothing about it" bash -c "! grep -q 'contention threshold' '$tmp/out'"
fi
check_no_leaks
finish
