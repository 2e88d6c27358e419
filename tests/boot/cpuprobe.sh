#!/bin/bash
# The host-speed probe behind CPU profiles (docs/cpu.md), for real: with no
# figure cached for this host's kernel, `lab run --cpu` first boots the
# first cell's kernel once at full speed under TCG, runs the agent's
# calibration loop, caches the figure in $LAB_HOME/cpu-speed-RELEASE, and
# only then decides whether the profile has its headroom. pentium2-233
# (500 MIPS) needs a host loop of 2000 MIPS: refused on a host below that,
# naming the figure just measured; run, with the cell's CPU stored, on one
# above. (tests/slow/cpu.sh gives the figure instead, to test the profiles
# themselves.)
. "$(dirname "$0")/lib.sh"

home=${LAB_HOME:-/var/cache/lab}
cache=$home/cpu-speed-$(uname -r)
saved=$tmp/cpu-speed.saved
[ -e "$cache" ] && mv "$cache" "$saved"
unset LAB_CPU_HOST_MIPS
"$lab" run --kernels 6.12.113 --cpu pentium2-233 --boots 1 --reps 1 --set file_size=8M \
    --no-rt >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -v '^lab: \[' "$tmp/err"
mips=$(sed -n 's/^lab: this host runs the calibration loop at \([0-9.]*\) MIPS.*/\1/p' "$tmp/err")
check "the probe boot measured this host's speed (${mips:-none} MIPS)" \
    python3 -c "import sys; sys.exit(not ${mips:-0} > 0)"
check "and cached it for this host kernel" test "$(cat "$cache" 2>/dev/null)" = "$mips"
if python3 -c "import sys; sys.exit(not ${mips:-0} < 2000)"; then
    check "below 2000 MIPS: pentium2-233 is refused (exit 2, got $rc)" test $rc -eq 2
    check "naming the figure measured" grep -q "calibration loop at $mips MIPS" "$tmp/err"
    check "no cell was booted for it" test "$(sql 'select count(*) from cells')" -eq 0
else
    check "2000 MIPS or more: the run exits 0 (got $rc)" test $rc -eq 0
    check "its cell stores the CPU" test "$(sql 'select group_concat(cpu) from cells')" = pentium2-233
fi
# The figure from before the test, if there was one, is the cache again.
if [ -e "$saved" ]; then mv "$saved" "$cache"; fi
check_no_leaks
finish
