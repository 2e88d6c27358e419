#!/bin/bash
# Boots both default Debian kernels under QEMU (TCG here) on PIIX IDE and
# checks real measured results (two boots each, the default): every sample read the whole file, the agent
# verified every word it read, times are positive and MB/s agrees with them.
# Figures are read from the run's JSON (--json), the JUnit file is checked
# against the schema.
. "$(dirname "$0")/lib.sh"

size=$((64 << 20))
out=$tmp/out
doc=$tmp/run.json junit=$tmp/run.xml
"$lab" run --kernels 6.1.0-47,6.12.113 --reps 2 --set file_size=64M --set verify=1 \
    --json "$doc" --junit "$junit" >"$out" 2>"$tmp/err"
rc=$?
cat "$out"
check "lab run exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/err"

run=$(sql "select max(id) from runs")
for k in 6.1.0-47 6.12.113; do
    # The two planned boots (a busy host may add contention reruns, boot 3+).
    n=$(sql "select count(*) from samples s join cells c on s.cell = c.id
             join cell_facts f on f.cell = c.id and f.key = 'boot'
             where c.run = $run and c.kernel = '$k' and f.value in ('1', '2')")
    check "$k: 2 boots x (1 warm-up + 2) samples stored (got $n)" test "$n" -eq 6
    counted=$(sql "select count(*) from samples s join cells c on s.cell = c.id
                   where c.run = $run and c.kernel = '$k' and s.rep >= 1")
    n=$(json_row "$doc" "$k" 'r["n"] + (0 if r["contended"] else r["flagged"])')
    check "$k: the JSON counts the runs after each boot's warm-up ($n of $counted)" \
        test "$n" = "$counted"
    # seqread.exp's warmup_size: each warm-up reads the file's last 16 MiB.
    bad=$(sql "select count(*) from samples s join cells c on s.cell = c.id
               where c.run = $run and c.kernel = '$k'
               and (bytes != case when rep = 0 then 16777216 else $size end or real_ns <= 0)")
    check "$k: every warm-up read 16 MiB, every counted run $size bytes, in a positive time" \
        test "$bad" -eq 0
    verr=$(sql "select count(*) from samples s join cells c on s.cell = c.id
                where c.run = $run and c.kernel = '$k' and extra not like '%verify_errors=0%'")
    check "$k: the agent found no wrong word in what it read" test "$verr" -eq 0
    uname=$(sql "select value from cell_facts f join cells c on f.cell = c.id
                 where c.run = $run and c.kernel = '$k' and key = 'uname'")
    uname=$(echo "$uname" | sort -u)
    check "$k: the guest ran the kernel asked for (uname $uname)" \
        bash -c "case '$uname' in ${k}*) true;; *) false;; esac"
    # The reported mean MB/s is the mean of the counted runs' bytes / time.
    want=$(sql "select printf('%.4f', avg(bytes / (real_ns / 1e9) / 1e6)) from samples s
                join cells c on s.cell = c.id where c.run = $run and c.kernel = '$k' and rep >= 1
                and (extra not like '%host_flag=1%' or
                     $(json_row "$doc" "$k" 'int(r["contended"] or r["flagged"] == 0)') = 1)")
    got=$(json_row "$doc" "$k" '"%.4f" % r["summaries"]["mbps"]["mean"]')
    check "$k: mean MB/s $got matches the samples ($want)" test "$got" = "$want"
done
check "the comparison line is printed" grep -q '^6.12.113 vs 6.1.0-47: MB/s' "$out"
check "the JSON has the comparison" \
    test "$(json "$doc" '[c["row"] + " vs " + c["base"] for c in d["comparisons"]]')" = \
    "['6.12.113 vs 6.1.0-47']"
check "the JSON holds every stored sample" test "$(json "$doc" \
    'sum(len(c["samples"]) for c in d["cells"])')" = "$(sql "select count(*) from samples")"
check "the JUnit file is valid" xmllint --noout --schema "$(dirname "$0")/../schema/junit.xsd" "$junit"
check "the JUnit file has 2 cells and 1 comparison, no error" \
    test "$(xmllint --xpath 'concat(count(//testcase), count(//error))' "$junit")" = 30
check_no_leaks
finish
