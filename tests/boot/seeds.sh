#!/bin/bash
# The seed's thread beside the lab (docs/seeds.md): seed 000's sweep on two
# Debian kernels, which stand in for the thread's 2.6.0 and 2.6.1-rc1 by
# position. The thread's figures (carried by readahead-sweep.exp) appear
# beside the run's rows in the table, in `lab show` from the store again
# and in the JSON, with each finding's agreement. Without --kernels the run
# takes the experiment's own kernels and resolves them by name through
# LAB_KERNEL_MIRROR: an empty mirror directory here, so exit 2 naming
# 2.6.0 and what was tried, before anything is stored.
. "$(dirname "$0")/lib.sh"

"$lab" run -e readahead-sweep --kernels 6.1.0-47,6.12.113 --boots 1 --profile pata-2003 \
    --set file_size=16M --set reps=2 --json "$tmp/run.json" >"$tmp/run.out" 2>&1
rc=$?
cat "$tmp/run.out"
check "the sweep exits 0 (got $rc)" test $rc -eq 0
run=$(sql "select max(id) from runs")

check "the table says 6.1.0-47 stands in for the thread's 2.6.0, by position" \
    grep -q "6.1.0-47 stands in for the thread's 2.6.0 (by position" "$tmp/run.out"
check "the table says 6.12.113 stands in for the thread's 2.6.1-rc1" \
    grep -q "6.12.113 stands in for the thread's 2.6.1-rc1 (by position" "$tmp/run.out"
# One line: the thread's row, its three runs and mean, then the lab's row
# with its runs (2, or more where runs over a contention threshold were
# rerun).
check "the thread's 2.6.0 ra=256 times sit beside the lab's 6.1.0-47 ra=256" \
    grep -Eq '^2\.6\.0 ra=256 +time +11\.427 11\.963 11\.291 +3 +11\.5603 s +6\.1\.0-47 ra=256 +[0-9]+ ' \
    "$tmp/run.out"
check "the thread's 2.6.1-rc1 ra=64 times sit beside the lab's 6.12.113 ra=64" \
    grep -Eq '^2\.6\.1-rc1 ra=64 +time +11\.361 11\.655 11\.369 +3 +11\.4617 s +6\.12\.113 ra=64 +[0-9]+ ' \
    "$tmp/run.out"
check "the ra=64 finding: the thread's +25.1% slower, and whether the lab agrees" \
    grep -Eq '^2\.6\.1-rc1 ra=64 vs 2\.6\.0 ra=64, time: the thread \+25\.1% \(slower, Welch p=0\.000584\); here 6\.12\.113 ra=64 vs 6\.1\.0-47 ra=64 [-+][0-9.]+% .*: (agrees|DISAGREES|not confirmed|differs)' \
    "$tmp/run.out"

"$lab" show "$run" >"$tmp/show.out" 2>&1
check "lab show prints the same part from the store" \
    diff <(sed -n '/^The figures the seed/,$p' "$tmp/run.out") \
    <(sed -n '/^The figures the seed/,$p' "$tmp/show.out")

check "the JSON holds 18 reported figures and 9 findings" \
    test "$(json "$tmp/run.json" 'len(d["reported"]["figures"]), len(d["reported"]["findings"])')" \
    = "(18, 9)"
fig0=$(json "$tmp/run.json" '[(f["values"], f["lab_row"], f["lab"]["n"]) for f in d["reported"]["figures"] if f["kernel"] == "2.6.0" and f["row"] == "ra=256" and f["figure"] == "time"][0]')
n0=$(json_row "$tmp/run.json" "6.1.0-47 ra=256" 'r["n"]')
check "JSON: 2.6.0 ra=256's times beside 6.1.0-47 ra=256's $n0 runs ($fig0)" \
    test "$fig0" = "([11.427, 11.963, 11.291], '6.1.0-47 ra=256', $n0)"
lab_mean=$(json_row "$tmp/run.json" "6.1.0-47 ra=256" 'r["summaries"]["secs"]["mean"]')
beside=$(json "$tmp/run.json" '[f["lab"]["mean"] for f in d["reported"]["figures"] if f["kernel"] == "2.6.0" and f["row"] == "ra=256" and f["figure"] == "time"][0]')
check "JSON: the lab figure beside it is the row's own mean ($beside = $lab_mean)" \
    test "$beside" = "$lab_mean"
verdicts=$(json "$tmp/run.json" 'sorted(set(f["agreement"] in ("agrees", "opposite", "unconfirmed", "agrees-none", "lab-only") and f["lab_p"] is not None for f in d["reported"]["findings"]))')
check "JSON: every finding has the lab's p and an agreement ($verdicts)" test "$verdicts" = "[True]"

runs=$(sql "select count(*) from runs")
mkdir "$tmp/mirror"
# An empty LAB_HOME: a 2.6.0 made by name earlier on this machine would run
# without asking the mirror.
LAB_HOME=$tmp/home-own LAB_KERNEL_MIRROR=$tmp/mirror "$lab" run -e readahead-sweep >"$tmp/own.out" 2>&1
rc=$?
cat "$tmp/own.out"
check "no --kernels: the experiment's own kernels, not in the mirror: exit 2 (got $rc)" \
    test $rc -eq 2
check "no --kernels: it says whose kernels it took" \
    grep -q "kernels from experiment readahead-sweep, its thread's own: 2.6.0,2.6.1-rc1" "$tmp/own.out"
check "no --kernels: 2.6.0 is looked for in the mirror" \
    grep -q "the mirror has no linux-2.6.0.tar" "$tmp/own.out"
"$lab" run -e seqread >"$tmp/none.out" 2>&1
rc=$?
check "an experiment with no kernels of its own still needs --kernels (exit $rc)" \
    bash -c "test $rc -eq 2 && grep -q 'experiment seqread names no kernels of its own' '$tmp/none.out'"
check "neither stored a run" test "$(sql "select count(*) from runs")" = "$runs"
check_no_leaks
finish
