#!/bin/bash
# Benchmarks: figures, not pass/fail. Boot-to-agent time per default
# kernel and for the lab's own minimal build, cell overhead, run-to-run
# variation, and the era disks' fidelity: what a real guest measures against
# the timing model's analytic figure; with each boot figure, where the
# cells' time went (lab show --timing) and the load average. Sections: boot kernel variation
# fidelity hostcache era load twin; `tests/bench/bench.sh build fidelity`
# runs one. load: seqread on pata-2003 idle and under two CPU hogs, with
# and without real-time cells; twin: a kernel against a copy of itself
# with hogs started midway (issue 13); jobs: a 4-cell matrix with --jobs 1
# and --jobs 2, wall time and samples (issue 11); cpu: per CPU profile the
# measured MIPS, the headroom, and seqread idle against two hogs (issue 23).
set -u
build=$(cd "${1:-build}" && pwd)
lab=$build/lab
tmp=$(mktemp -d /tmp/lab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LAB_STORE=$tmp/results.db
kernel=6.12.113
sql() { sqlite3 -batch -noheader "$LAB_STORE" "$@"; }
run() { "$lab" run "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }; }
last() { sql "select max(id) from runs"; }
# Counted samples (after the warm-up) of the newest run: one value per line.
samples() { sql "select $1 from samples s join cells c on s.cell = c.id
                 where c.run = $(last) and s.rep >= 1"; }
# mean, CV% and n of stdin
stats() { awk '{ x[NR] = $1; s += $1 } END { m = s / NR; for (i in x) v += (x[i] - m) ^ 2;
                 sd = NR > 1 ? sqrt(v / (NR - 1)) : 0; printf "%.2f %.1f %d", m, 100 * sd / m, NR }'; }
expect() { "$build/hdd-expect" "lab/profiles/$1.profile" | sed -n "s/^$2=//p"; }
MBPS="bytes / (real_ns / 1e9) / 1e6"

# The host's load average (1, 5, 15 min): every figure says what it was taken under.
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
# Boot-to-agent of the newest run's cells of kernel $1 (median, min, max, n),
# then where their time went (lab show --timing, stored per cell).
boots() {
    sql "select value / 1e9 from cell_facts f join cells c on f.cell = c.id
         where c.run = $(last) and c.kernel = '$1' and c.experiment != 'smoke'
         and f.key = 'boot_to_agent_ns' order by 1" >"$tmp/t"
    awk -v k="$1" -v l="$2" '{ v[NR] = $1 } END {
        printf "  %-11s boot-to-agent median %.2f s  (min %.2f, max %.2f, n=%d; load %s)\n",
               k, v[int((NR + 1) / 2)], v[1], v[NR], NR, l }' "$tmp/t"
    "$lab" show --timing "$(last)" | sed -n '3,$p' | sed 's/^/    /'
}
# Five boots of kernel $1 in one run (one cell each, 1 run of 16 MiB after
# the warm-up; a contended one adds a rerun cell), then its figures; then
# two boots with the kernel's boot on the console (loglevel 7), whose printk
# times split the boot into firmware, decompression and kernel init (the
# console's own cost is in those two, not in the five).
five_boots() {
    local before; before=$(loadavg)
    run --kernels "$1" --boots 5 --reps 1 --set file_size=16M
    boots "$1" "$before -> $(loadavg)"
    before=$(loadavg)
    LAB_KERNEL_LOGLEVEL=7 run --kernels "$1" --boots 2 --reps 1 --set file_size=16M
    echo "    the boot split by printk times, 2 boots with loglevel=7 (load $before -> $(loadavg)):"
    "$lab" show --timing "$(last)" | sed -n '/^domain start/,/^= boot to agent/p;/^n\/a/,$p' |
        sed 's/^/      /'
}

boot() {
echo "== boot to agent ready (domain start to the agent's hello), median of 5 boots, and where it went"
for k in 6.1.0-47 6.12.113; do five_boots $k; done
echo "  accelerator: $(sql "select value from cell_facts where key = 'accel' limit 1")"
}

kernel() {
echo "== the lab's minimal build of linux-source-6.1 (everything built in, no modules)"
[ -f /usr/src/linux-source-6.1.tar.xz ] || apt-get install -y -qq linux-source-6.1 >/dev/null
start=$(date +%s.%N)
"$lab" kernels build /usr/src/linux-source-6.1.tar.xz --name 6.1-lab >"$tmp/build" 2>&1 ||
    { cat "$tmp/build"; exit 1; }
printf "  build (or cache hit): %.1f s\n" "$(echo "$(date +%s.%N) - $start" | bc)"
five_boots 6.1-lab
# An incremental rebuild after a one-line change, in a kept tree with ccache.
work=/var/tmp/lab-bench-src
if [ ! -d $work/linux-source-6.1 ]; then
    mkdir -p $work && tar -xf /usr/src/linux-source-6.1.tar.xz -C $work
fi
"$lab" kernels build $work/linux-source-6.1 --name bench-incr >"$tmp/build" 2>&1 ||
    { cat "$tmp/build"; exit 1; }
echo "/* bench: one-line change */" >>$work/linux-source-6.1/drivers/ata/ata_piix.c
start=$(date +%s.%N)
"$lab" kernels build $work/linux-source-6.1 --name bench-incr >"$tmp/build" 2>&1 ||
    { cat "$tmp/build"; exit 1; }
printf "  incremental rebuild after a one-line change: %.1f s\n" \
    "$(echo "$(date +%s.%N) - $start" | bc)"
sed -i '$d' $work/linux-source-6.1/drivers/ata/ata_piix.c
}

variation() {
echo "== cell overhead and run-to-run variation (seqread 256 MiB, 5 runs + 1 warm-up, $kernel)"
# Per cell, from the stored breakdown: its wall time, the time outside the
# counted runs, and that beyond boot-to-agent (the issue-14 budget: 2 s).
phase() { sql "select avg(ns) / 1e9 from cell_phases p join cells c on p.cell = c.id
               where c.run = $(last) and p.phase = '$1'"; }
for profile in fast pata-2003; do
    before=$(loadavg)
    run --kernels $kernel --profile $profile --boots 1 --reps 5
    read -r mean cv n < <(samples "$MBPS" | stats)
    total=$(phase "= total") outside=$(phase "= outside the counted runs")
    boot=$(phase "= boot to agent (domain start to hello)")
    printf "  %-10s %7.1f MB/s  CV %4.1f%% (n=%d)   cell %.1f s, %.1f s of it outside the counted runs, %.1f s beyond boot-to-agent (load %s)\n" \
        $profile "$mean" "$cv" "$n" "$total" "$outside" "$(echo "$outside - $boot" | bc)" "$before"
    "$lab" show --timing "$(last)" | sed -n '3,$p' | sed 's/^/    /'
done

}

fidelity() {
echo "== era disk fidelity: real guest ($kernel, TCG) against the model's analytic figure"
printf "  %-14s %-34s %10s %10s %7s %6s\n" profile measure guest model diff CV
row() {  # profile, what, guest, model, cv
    printf "  %-14s %-34s %10.2f %10.2f %+6.1f%% %5.1f%%\n" "$1" "$2" "$3" "$4" \
        "$(echo "($3 - $4) * 100 / $4" | bc -l)" "$5"
}
for p in pata-1999 pata-2003 sata-ncq-2005 scsi-10k-1999 scsi-15k-2004; do
    run --kernels $kernel --profile $p --experiment directread --reps 5 \
        --set block_size=1M --set read_size=64M
    read -r mean cv _ < <(samples "$MBPS" | stats)
    row $p "seq 1 MiB reads, MB/s" "$mean" "$(expect $p seq_rate_outer_mbs)" "$cv"

    run --kernels $kernel --profile $p --experiment randread --reps 5 --set count=300
    read -r mean cv _ < <(samples "real_ns / 1e6 / 300" | stats)
    row $p "random 4 KiB qd1, ms/request" "$mean" "$(expect $p random_4k_ms)" "$cv"

    if [ "$p" = sata-ncq-2005 ]; then
        run --kernels $kernel --profile $p --experiment randread --reps 5 --set count=600 \
            --set qd=16
        read -r mean cv _ < <(samples "real_ns / 1e6 / 600" | stats)
        printf "  %-14s %-34s %10.2f %10s %7s %5.1f%%\n" $p "random 4 KiB qd16, ms/request" \
            "$mean" "(SPTF)" "" "$cv"
    fi

    run --kernels $kernel --profile $p --experiment directread --reps 5
    read -r mean cv _ < <(samples "$MBPS" | stats)
    seq=$(expect $p seq_rate_outer_mbs)
    printf "  %-14s %-34s %10.2f %10.2f %6.0f%% %5.1f%%\n" $p "seq 4 KiB O_DIRECT, MB/s (% of seq)" \
        "$mean" "$seq" "$(echo "$mean * 100 / $seq" | bc -l)" "$cv"
done
run --kernels $kernel --profile fast --experiment directread --reps 5 --set disk_size=1G
read -r mean cv _ < <(samples "$MBPS" | stats)
printf "  %-14s %-34s %10.2f   (the emulator's own ceiling: no model at all)\n" fast \
    "seq 4 KiB O_DIRECT, MB/s" "$mean"

}

era() {
echo "== the lab's era builds from ../shared/kernels with this host's gcc (cold: private LAB_HOME, no ccache)"
srcs=$(cd "$(dirname "$0")/../.." && pwd)/../shared/kernels
# QEMU runs as libvirt-qemu: the private home must be readable by it (the
# bench's mktemp dir is 0700), and it reuses the accelerator verdict.
chmod 755 "$tmp"
local home=$tmp/era-home names= t v
mkdir -p "$home" && cp "${LAB_HOME:-/var/cache/lab}"/accel-* "$home"/ 2>/dev/null
# ../shared/kernels' trees, then those of the other era groups when given
# (GitHub snapshots, docs/era-kernels.md's verified table), each TARBALL or
# TARBALL:ARCH (i686 when not said):
# LAB_BENCH_ERA_TREES="/path/linux-3.10.99.tar /path/linux-2.6.32.70.tar:x86_64 ...".
local arch
for t in "$srcs"/linux-{2.4.22,2.6.9,2.6.11,2.6.12-rc2,2.6.20}.tar.xz ${LAB_BENCH_ERA_TREES:-}; do
    arch=i686
    case $t in *:*) arch=${t##*:}; t=${t%:*};; esac
    v=$(basename "$t"); v=${v#linux-}; v=${v%.tar*}
    [ $arch = i686 ] || v=$v-$arch
    start=$(date +%s.%N)
    LAB_HOME=$home CCACHE_DISABLE=1 "$lab" kernels build "$t" --arch $arch \
        --name bench-$v >"$tmp/build" 2>&1 || { tail -20 "$tmp/build"; exit 1; }
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    printf "  %-18s build + smoke test %5.0f s\n" "$v" "$secs"
    names=${names:+$names,}bench-$v
done
# Five boots of each, interleaved (A B C D A B C D ...), then where the
# time went, each kernel's split saying how it was obtained.
local before; before=$(loadavg)
LAB_HOME=$home run --kernels "$names" --boots 5 --reps 1 --set file_size=16M
local after; after=$(loadavg)
echo "  boot to agent, 5 interleaved boots of each (load $before -> $after):"
for v in ${names//,/ }; do
    sql "select value / 1e9 from cell_facts f join cells c on f.cell = c.id
         where c.run = $(last) and c.kernel = '$v' and f.key = 'boot_to_agent_ns' order by 1" |
        awk -v k="$v" '{ v[NR] = $1 } END {
            printf "  %-17s boot-to-agent median %.2f s  (min %.2f, max %.2f, n=%d)\n",
                   k, v[int((NR + 1) / 2)], v[1], v[NR], NR }'
done
LAB_HOME=$home "$lab" show --timing "$(last)" | sed -n '3,$p' | sed 's/^/    /'
rm -rf "$home"
}

hostcache() {
echo "== the host's page cache does not change the result (pata-2003 seqread, 64 MiB)"
for state in cold warm; do
    if [ $state = cold ]; then sync; echo 3 >/proc/sys/vm/drop_caches
    else cat /var/cache/lab/images/data-*.img >/dev/null; fi
    run --kernels $kernel --profile pata-2003 --reps 5 --set file_size=64M
    read -r mean cv _ < <(samples "$MBPS" | stats)
    printf "  host cache %-5s %7.2f MB/s  CV %.1f%%\n" $state "$mean" "$cv"
done
}

# Two CPU hogs at normal priority, one per core; stopped by pid.
hogs=()
start_hogs() { for _ in 1 2; do sh -c 'while :; do :; done' & hogs+=($!); done; }
stop_hogs() { for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; hogs=(); }
kill_delayed_hogs() { for p in $(cat "$tmp/hogs" 2>/dev/null); do kill "$p" 2>/dev/null; done; }
trap 'stop_hogs; kill_delayed_hogs; rm -rf "$tmp"' EXIT
# Counted runs of the newest run's first cell (before any rerun), and the
# mean of a host_* contention key over them.
first_cell() { sql "select min(id) from cells where run = $(last)"; }
first_samples() { sql "select $1 from samples where cell = $(first_cell) and rep >= 1"; }
extra_mean() { sql "select avg(cast(substr(extra, instr(extra, '$1=') + length('$1=')) as real))
                    from samples where cell = $(first_cell) and rep >= 1 and extra like '%$1=%'"; }

load() {
echo "== a busy host: seqread on pata-2003 ($kernel, 64 MiB, 5 runs), idle and under two CPU hogs"
echo "   (normal priority, one per core), each with and without real-time cells"
printf "  %-8s %-6s %9s %6s %9s %11s %9s %8s\n" "cells" "host" "MB/s" "CV" "vs idle" "vCPU wait" \
    "disk late" "flagged"
for rt in rt no-rt; do
    opt=; [ $rt = no-rt ] && opt=--no-rt
    idle=
    for state in idle hogs; do
        [ $state = hogs ] && start_hogs
        run --kernels $kernel --profile pata-2003 --boots 1 --reps 5 --set file_size=64M $opt
        [ $state = hogs ] && stop_hogs
        read -r mean cv _ < <(first_samples "$MBPS" | stats)
        wait_pct=$(sql "select printf('%.1f', 100.0 * avg(cast(substr(extra, instr(extra,
                'host_vcpu_wait_ns=') + 18) as real) / real_ns)) from samples
                where cell = $(first_cell) and rep >= 1")
        late_ms=$(extra_mean host_disk_late_ns)
        flagged=$(sql "select count(*) from samples where cell = $(first_cell) and rep >= 1
                       and extra like '%host_flag=1%'")
        [ $state = idle ] && idle=$mean
        ratio=$(echo "$mean $idle" | awk '{ printf "%+.1f%%", 100 * ($1 / $2 - 1) }')
        printf "  %-8s %-6s %9.2f %5.1f%% %9s %10s%% %7.1f ms %8s\n" $rt $state "$mean" "$cv" \
            "$ratio" "$wait_pct" "$(echo "${late_ms:-0}" | awk '{ print $1 / 1e6 }')" "$flagged/5"
    done
done
}

twin() {
echo "== false positive check: $kernel against an identical copy of itself (twin), two CPU hogs"
echo "   started 20 s into the run (pata-2003, 64 MiB, 5 runs, 2 interleaved boots each)"
dir=/var/cache/lab/kernels/$kernel
image=$(ls $dir/boot/vmlinuz-*) modules=$(ls -d $dir/lib/modules/*)
"$lab" kernels remove twin >/dev/null 2>&1
"$lab" kernels add twin --image "$image" --modules "$modules" --config "$(ls $dir/boot/config-*)" \
    >"$tmp/add" 2>&1 || { cat "$tmp/add"; exit 1; }
(sleep 20; start_hogs; echo "${hogs[@]}" >"$tmp/hogs"; wait) &
delayed=$!
run --kernels $kernel,twin --profile pata-2003 --reps 5 --set file_size=64M
kill_delayed_hogs
kill $delayed 2>/dev/null; wait $delayed 2>/dev/null
grep '^twin vs ' "$tmp/out" | sed 's/^/  /'
sed -n '/^MB\/s .*boots/,/^$/p' "$tmp/out" | sed 's/^/  /'
grep 'contention threshold' "$tmp/out" | sed 's/^/  /'
if grep -q '^twin vs .*no significant difference' "$tmp/out"; then
    echo "  as expected: no significant difference"
else
    echo "  UNEXPECTED: the twin differs"
fi
"$lab" kernels remove twin >/dev/null 2>&1
}

# CPU profiles (docs/cpu.md): per profile, the speed the calibration loop
# measured, the host's headroom for it, and seqread on pata-2003 idle
# against two CPU hogs with the clocks' drift; profiles without the
# headroom are refused and say so.
cpu() {
echo "== CPU profiles: seqread on pata-2003 ($kernel, 64 MiB, 5 runs), idle and under two CPU hogs"
host=$(cat /var/cache/lab/cpu-speed-"$(uname -r)" 2>/dev/null)
printf "  %-12s %9s %9s %9s %9s %9s %9s %8s %8s\n" "cpu" "nominal" "measured" "headroom" \
    "idle MB/s" "hogs MB/s" "vs idle" "drift %" "flagged"
for cpu in 486dx4-100 pentium-66 pentium-133; do
    idle= hogs_mean= mips= drift= flagged=0
    for state in idle hogs; do
        [ $state = hogs ] && start_hogs
        "$lab" run --kernels $kernel --profile pata-2003 --cpu $cpu --boots 1 --reps 5 \
            --set file_size=64M >"$tmp/out" 2>"$tmp/err"
        rc=$?
        [ $state = hogs ] && stop_hogs
        if [ $rc = 2 ]; then
            echo "  $cpu: $(grep -o 'needs .*x headroom.*[0-9]x' "$tmp/err")"
            continue 2
        fi
        host=${host:-$(cat /var/cache/lab/cpu-speed-"$(uname -r)" 2>/dev/null)}
        read -r mean _ < <(first_samples "$MBPS" | stats)
        mips=$(sql "select value from cell_facts where cell = $(first_cell) and key = 'cpu_mips'")
        drift=$(extra_mean host_clock_drift_pct)
        flagged=$((flagged + $(sql "select count(*) from samples where cell = $(first_cell)
                                    and rep >= 1 and extra like '%host_flag=1%'")))
        if [ $state = idle ]; then idle=$mean; else hogs_mean=$mean; fi
    done
    nominal=$("$lab" cpus | awk -v c=$cpu '$1 == c { print $3 }')
    printf "  %-12s %9s %9s %8.1fx %9.2f %9.2f %9s %8.2f %8s\n" $cpu "$nominal" "$mips" \
        "$(echo "${host:-0} $nominal" | awk '{ print $1 / $2 }')" "$idle" "$hogs_mean" \
        "$(echo "$hogs_mean $idle" | awk '{ printf "%+.1f%%", 100 * ($1 / $2 - 1) }')" \
        "${drift:-0}" "$flagged/10"
done
}

# --jobs (issue 11): the same 4-cell matrix with one cell at a time and two
# at once; wall time and stored samples of each. Wants an idle machine.
jobs() {
echo "== --jobs on this host: a 4-cell matrix (6.1.0-47 and 6.12.113, 2 boots each; seqread"
echo "   64 MiB on pata-2003, 3 runs after 1 warm-up), --jobs 1 then --jobs 2 ($(nproc) CPUs)"
local n wall=() planned=() all=() cells=()
for n in 1 2; do
    local t0=$(date +%s.%N)
    run --kernels 6.1.0-47,6.12.113 --boots 2 --profile pata-2003 --reps 3 --set file_size=64M \
        --jobs $n
    wall[$n]=$(echo "$(date +%s.%N) - $t0" | bc)
    cells[$n]=$(sql "select count(*) from cells where run = $(last)")
    all[$n]=$(sql "select count(*) from samples s join cells c on s.cell = c.id where c.run = $(last)")
    # The matrix's own cells (boots 1 and 2); a contention rerun is boot 3+.
    planned[$n]=$(sql "select count(*) from samples s join cells c on s.cell = c.id
                       join cell_facts f on f.cell = c.id and f.key = 'boot'
                       where c.run = $(last) and f.value in ('1', '2')")
    local rt=$(sql "select count(*) from cells c join cell_facts f on f.cell = c.id and
                    f.key = 'rt' where c.run = $(last) and f.value like 'fifo%'")
    printf "  --jobs %d  %6.1f s wall  %d cell(s) (%d real-time)  %d sample(s) of the matrix, %d in all\n" \
        $n "${wall[$n]}" "${cells[$n]}" "$rt" "${planned[$n]}" "${all[$n]}"
done
echo "  --jobs 2 / --jobs 1 wall time: $(echo "scale=3; ${wall[2]} / ${wall[1]}" | bc) (the issue asks for at most 0.6)"
if [ "${planned[1]}" = "${planned[2]}" ]; then
    echo "  the matrix's cells stored the same samples: ${planned[2]}"
else
    echo "  the matrix's samples differ: ${planned[1]} and ${planned[2]}"
fi
[ "${cells[1]}" = 4 ] && [ "${cells[2]}" = 4 ] ||
    echo "  (contention reruns added cells: ${cells[1]} and ${cells[2]}; take it on an idle machine)"
}

# Sections to run: all by default, or the ones named after the build dir.
shift
for section in ${@:-boot kernel era variation fidelity hostcache load twin jobs cpu}; do
    $section
    echo
done
