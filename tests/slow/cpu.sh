#!/bin/bash
# CPU profiles (docs/cpu.md). A profile the host cannot sustain is refused
# before any boot with the figure measured. Then a CPU-bound test (contest's
# foreground, no load, on the fast disk) under two profiles, one boot each:
# every cell stores its CPU, the calibration loop's speed is within 5% of
# the nominal, every run's guest and host clocks agreed within the bound
# (or the run is flagged), and the test took time in proportion to the
# profiles (125 against 62.5 MIPS: a ratio of 2, within 10%).
. "$(dirname "$0")/../boot/lib.sh"

# libvirt takes the counter through its QEMU namespace (no boot needed).
golden=$(dirname "$0")/../golden/domain-icount.xml
check "the domain XML with the counter validates against libvirt's schema" \
    virt-xml-validate "$golden" domain
argv=$(virsh -c "${LAB_LIBVIRT_URI:-qemu:///system}" domxml-to-native --format qemu-argv \
       --xml "$golden" 2>&1)
check "libvirt passes -icount shift=3,align=on,sleep=on to QEMU" \
    grep -q -- "-icount shift=3,align=on,sleep=on" <<<"$argv"

# The refusal needs no boot: a host whose loop runs at 600 MIPS has 2.4x
# for a 250-MIPS profile, below the 4x asked for.
LAB_CPU_HOST_MIPS=600 "$lab" run --kernels 6.1.0-47 --cpu pentium-133 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a profile without the headroom is refused (exit 2, got $rc)" test $rc -eq 2
check "the refusal names the figure measured" grep -q "at 600.0 MIPS, 2.40x" "$tmp/err"
check "no cell was booted for it" test "$(sql 'select count(*) from cells')" -eq 0
"$lab" run --kernels 6.1.0-47 --cpu cray-1 >/dev/null 2>"$tmp/err"
check "an unknown CPU is bad input (exit 2)" test $? -eq 2

# The host's figure for the cells below: the probe boot measures it once
# per host kernel; the test gives one so that a busy host's probe does not
# decide what is tested.
export LAB_CPU_HOST_MIPS=1000
small=(--set load_list=none --set tree_files=200 --set file_size=16M --set cpu_rounds=16
       --reps 2 --boots 1 --no-rt)
declare -A secs host_secs
for cpu in 486dx4-100 pentium-66; do
    doc=$tmp/$cpu.json
    "$lab" run --kernels 6.1.0-47 -e contest "${small[@]}" --cpu "$cpu" --json "$doc" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    cat "$tmp/out"
    check "$cpu: lab run exits 0 (got $rc)" test $rc -eq 0 || tail -5 "$tmp/err"
    run=$(sql "select max(id) from runs")
    check "$cpu: every cell stores its CPU" \
        test "$(sql "select count(*) from cells where run = $run and cpu != '$cpu'")" -eq 0
    mips=$(sql "select value from cell_facts f join cells c on f.cell = c.id
                where c.run = $run and key = 'cpu_mips'" | head -1)
    nominal=$("$lab" cpus | awk -v c="$cpu" '$1 == c { print $3 }')
    check "$cpu: measured $mips MIPS within 5% of the nominal $nominal" \
        python3 -c "import sys; sys.exit(abs($mips - $nominal) > 0.05 * $nominal)"
    check "$cpu: lab show prints the measured beside the nominal" \
        grep -q "cpu: .*nominal $nominal MIPS, measured" "$tmp/out"
    check "$cpu: the JSON row names the CPU" \
        test "$(json "$doc" 'd["rows"][0]["cpu"]["name"]')" = "$cpu"
    drifts=$(sql "select extra from samples s join cells c on s.cell = c.id where c.run = $run
                  and s.rep >= 1" | grep -o 'host_clock_drift_pct=[-0-9.]*' | cut -d= -f2 | tr '\n' ' ')
    echo "$cpu: clock drift per run (%): $drifts"
    bad=$(sql "select count(*) from samples s join cells c on s.cell = c.id where c.run = $run
               and s.rep >= 1 and extra not like '%host_clock_drift_pct=%'")
    check "$cpu: every run's clocks were compared" test "$bad" -eq 0
    agreed=$(sql "select count(*) from samples s join cells c on s.cell = c.id where c.run = $run
                  and s.rep >= 1 and extra not like '%host_flag=1%'")
    check "$cpu: the clocks agreed within the bound in at least one run ($agreed)" test "$agreed" -ge 1
    secs[$cpu]=$(sql "select avg(real_ns) / 1e9 from samples s join cells c on s.cell = c.id
                      where c.run = $run and s.rep >= 1")
    host_secs[$cpu]=$(sql "select avg(host_end_ns - host_begin_ns) / 1e9 from samples s
                           join cells c on s.cell = c.id where c.run = $run and s.rep >= 1")
done
slow=${secs[486dx4-100]} fast=${secs[pentium-66]}
echo "contest foreground: ${slow} s at 62.5 MIPS, ${fast} s at 125 MIPS (host clock:" \
     "${host_secs[486dx4-100]} s, ${host_secs[pentium-66]} s)"
check "the CPU-bound test took twice as long at half the speed (ratio within 10% of 2)" \
    python3 -c "import sys; r = $slow / $fast; print('ratio %.3f' % r); sys.exit(abs(r - 2) > 0.2)"
check_no_leaks
finish
