#!/bin/bash
# End-to-end performance bisection: a git repo of Debian's linux-source-6.1
# with five commits after "base", one of which caps block requests at 16K
# (make-test-repo.sh). `lab bisect` builds, boots and measures seqread on
# pata-2003 and must name that commit, print the evidence table, store the
# bisection, and decide no step from fewer than 2 runs.
#   usage: bisect.sh BUILD   ($LAB_BISECT_REPO: where the repo is made,
#   default /var/tmp/lab-bisect-repo; kept for the next run and ccache)
. "$(dirname "$0")/../boot/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
repo=${LAB_BISECT_REPO:-/var/tmp/lab-bisect-repo}
injected="block: cap requests at 16K (injected regression)"

"$here/make-test-repo.sh" "$repo" || { not_ok "make-test-repo.sh $repo"; finish; exit; }
want=$(git -C "$repo" log --format='%H %s' | awk -v s="$injected" 'substr($0, 42) == s { print $1 }')
good=$(git -C "$repo" rev-list --reverse HEAD | sed -n 2p)   # base + 1
check "the injected commit is in the repo ($want)" test -n "$want"

out=$tmp/out
start=$(date +%s)
"$lab" bisect --repo "$repo" --good "$good" --bad HEAD --experiment seqread --metric mbps \
    --profile pata-2003 --set file_size=64M --reps 5 --junit "$tmp/bisect.xml" >"$out" 2>"$tmp/err"
rc=$?
secs=$(( $(date +%s) - start ))
grep '^lab: bisect' "$tmp/err"
cat "$out"
echo "(lab bisect took $secs s)"
check "lab bisect exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 "$tmp/err"  # check itself succeeds: say why here
check "it names the injected commit first bad" \
    grep -qxF "first bad commit: $want $injected" "$out"
check "the evidence table is printed" grep -q '^step  commit .*verdict .*p good .*p bad' "$out"
check "the endpoints' difference is printed" grep -q 'good and bad differ: ' "$out"
check "the JUnit file is valid" \
    xmllint --noout --schema "$(dirname "$0")/../schema/junit.xsd" "$tmp/bisect.xml"
check "the JUnit result fails, naming the first bad commit" \
    test "$(xmllint --xpath "count(//testcase[@name='result']/failure[contains(@message,'$want')])" \
        "$tmp/bisect.xml")" = 1

id=$(sql "select max(id) from bisect")
check "the bisection is stored as found" test "$(sql "select status from bisect where id = $id")" = found
check "the stored first bad commit is the injected one" \
    test "$(sql "select first_bad from bisect where id = $id")" = "$want"
nsteps=$(sql "select count(*) from bisect_steps where bisect = $id and role = 'step'")
check "at least one step ran between the endpoints ($nsteps)" test "$nsteps" -ge 1
small=$(sql "select count(*) from bisect_steps where bisect = $id and verdict in ('good','bad') and n < 2")
check "no step or endpoint was decided from fewer than 2 runs" test "$small" -eq 0
small=$(sql "select count(*) from bisect_steps where bisect = $id and verdict in ('good','bad') and n < 5")
check "every decided step has the 5 runs asked for" test "$small" -eq 0
nocells=$(sql "select count(*) from bisect_steps s where bisect = $id and n > 0 and not exists
               (select 1 from bisect_step_cells c where c.step = s.id)")
check "every measured step references its cells" test "$nocells" -eq 0
# The table's n agrees with the samples stored for those cells (warm-up left out).
mism=$(sql "select count(*) from bisect_steps s where bisect = $id and n > 0 and n !=
            (select count(*) - count(distinct c.cell) from bisect_step_cells c
             join samples x on x.cell = c.cell where c.step = s.id)")
check "each step's n equals its stored samples minus one warm-up per cell" test "$mism" -eq 0
"$lab" bisect --show "$id" >"$tmp/show" 2>&1
check "lab bisect --show $id prints the first bad commit" grep -qF "first bad commit: $want" "$tmp/show"
check_no_leaks
finish
