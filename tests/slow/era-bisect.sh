#!/bin/bash
# A bisection across a compat-rule boundary. make-era-repo.sh makes a git
# repository of ../shared/kernels' 2.6.12-rc2 tree, then the 2.6.20 tree
# over it, then VM_MAX_READAHEAD cut from 128 to 16 KiB (the injected
# regression), then a harmless commit. `lab bisect --arch i686` builds each
# step through the era compat layer's rows for its own version: the good
# end with the 2.6.0-2.6.12 rows (compiler-gcc4 ...), the 2.6.20 commits
# with the 2.6.13+ rows (make-mixed-rules ...). It must name the injected
# commit.
#   usage: era-bisect.sh BUILD   ($LAB_ERA_BISECT_REPO: where the repo is
#   made, default /var/tmp/lab-era-bisect-repo; kept for the next run)
. "$(dirname "$0")/../boot/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
repo=${LAB_ERA_BISECT_REPO:-/var/tmp/lab-era-bisect-repo}
injected="mm: readahead at most 16 KiB (injected regression)"

"$here/make-era-repo.sh" "$repo" || { not_ok "make-era-repo.sh $repo"; finish; exit; }
want=$(git -C "$repo" log --format='%H %s' | awk -v s="$injected" 'substr($0, 42) == s { print $1 }')
good=$(git -C "$repo" rev-list --reverse HEAD | head -1)
check "the injected commit is in the repo ($want)" test -n "$want"

start=$(date +%s)
"$lab" bisect --repo "$repo" --good "$good" --bad HEAD --arch i686 --experiment seqread \
    --metric mbps --profile pata-2003 --set file_size=32M --set block_size=4k --reps 3 \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
echo "(lab bisect took $(( $(date +%s) - start )) s)"
grep '^lab: bisect' "$tmp/err"
cat "$tmp/out"
check "lab bisect --arch i686 exits 0 (got $rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -20 "$tmp/err"
check "it names the injected commit first bad" \
    grep -qxF "first bad commit: $want $injected" "$tmp/out"

# Each build's log names the rows that changed its copy of the tree (a
# build the builder had cached says where: its log is beside it).
rules_of() {  # version -> the compat rows that changed a file in its builds
    { sed -n "s/^lab: building linux $1 with .*(log \(.*\))\$/\1/p" "$tmp/err"
      sed -n "s/^lab: linux $1 for these inputs is cached in \(.*\)\$/\1.log/p" "$tmp/err"; } |
        sort -u | while read -r l; do
            sed -n 's/^lab compat: \([a-z0-9-]*\): .*change(s))$/\1/p' "$l"
        done | sort -u | tr '\n' ' '
}
old=" $(rules_of 2.6.12-rc2)" new=" $(rules_of 2.6.20)"
echo "rows applied: 2.6.12-rc2:$old; 2.6.20:$new"
has() { [[ "$1" == *" $2 "* ]]; }  # row list, row: whole names only
check "the good end (2.6.12-rc2) was built with the 2.6.0-2.6.12 rows" has "$old" compiler-gcc4
check "... and none of the 2.6.13+ rows" \
    eval '! has "$old" make-mixed-rules && ! has "$old" compiler-gcc4-late'
check "the 2.6.20 steps were built with the 2.6.13+ rows" has "$new" make-mixed-rules
check "... and not the 2.6.0-2.6.12 compiler.h row" eval '! has "$new" compiler-gcc4'
finish
