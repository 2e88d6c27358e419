#!/bin/bash
# Boots both default Debian kernels under QEMU (TCG here) on PIIX IDE and
# checks real measured results: every sample read the whole file, the agent
# verified every word it read, times are positive and MB/s agrees with them.
. "$(dirname "$0")/lib.sh"

size=$((64 << 20))
out=$tmp/out
"$lab" run --kernels 6.1.0-47,6.12.113 --reps 2 --set file_size=64M --set verify=1 >"$out" 2>"$tmp/err"
rc=$?
cat "$out"
check "lab run exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/err"

run=$(sql "select max(id) from runs")
for k in 6.1.0-47 6.12.113; do
    n=$(sql "select count(*) from samples s join cells c on s.cell = c.id
             where c.run = $run and c.kernel = '$k'")
    check "$k: 1 warm-up + 2 samples stored (got $n)" test "$n" -eq 3
    n=$(awk -v k="$k" '$1 == k && NF == 12 { print $2 }' "$out")
    check "$k: the table counts the 2 runs after the warm-up (n=$n)" test "$n" = 2
    bad=$(sql "select count(*) from samples s join cells c on s.cell = c.id
               where c.run = $run and c.kernel = '$k' and (bytes != $size or real_ns <= 0)")
    check "$k: every sample read $size bytes in a positive time" test "$bad" -eq 0
    verr=$(sql "select count(*) from samples s join cells c on s.cell = c.id
                where c.run = $run and c.kernel = '$k' and extra not like '%verify_errors=0%'")
    check "$k: the agent found no wrong word in what it read" test "$verr" -eq 0
    uname=$(sql "select value from cell_facts f join cells c on f.cell = c.id
                 where c.run = $run and c.kernel = '$k' and key = 'uname'")
    check "$k: the guest ran the kernel asked for (uname $uname)" \
        bash -c "case '$uname' in ${k}*) true;; *) false;; esac"
    # The table's mean MB/s equals bytes over the mean of per-run MB/s.
    want=$(sql "select printf('%.1f', avg(bytes / (real_ns / 1e9) / 1e6)) from samples s
                join cells c on s.cell = c.id where c.run = $run and c.kernel = '$k' and rep >= 1")
    got=$(awk -v k="$k" '$1 == k && NF == 12 { print $8 }' "$out")
    check "$k: table mean MB/s $got matches the samples ($want)" test "$got" = "$want"
done
check "the comparison line is printed" grep -q '^6.12.113 vs 6.1.0-47: MB/s' "$out"
check_no_leaks
finish
