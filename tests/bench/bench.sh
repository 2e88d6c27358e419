#!/bin/bash
# Benchmarks (figures, not pass/fail): boot-to-agent-ready time per default
# kernel, median of 5 boots, and the run-to-run variation of seqread.
set -u
build=$(cd "${1:-build}" && pwd)
lab=$build/lab
tmp=$(mktemp -d /tmp/lab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LAB_STORE=$tmp/results.db
kernels=(6.1.0-47 6.12.113)
boots=5
sql() { sqlite3 -batch -noheader "$LAB_STORE" "$@"; }

echo "== boot to agent ready (domain start to the agent's hello), median of $boots boots"
for k in "${kernels[@]}"; do
    for _ in $(seq $boots); do
        "$lab" run --kernels "$k" --reps 1 --set file_size=16M >/dev/null 2>"$tmp/err" ||
            { cat "$tmp/err"; exit 1; }
    done
    sql "select value / 1e9 from cell_facts f join cells c on f.cell = c.id
         where c.kernel = '$k' and f.key = 'boot_to_agent_ns' order by 1" >"$tmp/t"
    awk -v k="$k" '{ v[NR] = $1 } END {
        printf "%-10s boot-to-agent  median %.2f s  (min %.2f, max %.2f, n=%d)\n",
               k, v[int((NR + 1) / 2)], v[1], v[NR], NR }' "$tmp/t"
done
echo "accelerator: $(sql "select value from cell_facts where key = 'accel' limit 1")"

echo
echo "== seqread run-to-run variation (256 MiB, 5 runs in one boot)"
"$lab" run --kernels "${kernels[0]}" --reps 5 | tail -n +3
