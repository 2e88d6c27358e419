#!/bin/bash
# measure.sh PROFILE [BUILD]: runs the hdd filter for real (nbdkit, file
# plugin, sparse image of the drive's full capacity) and times, through
# libnbd (python3-libnbd), synchronous: sequential 1 MiB reads, random 4 KiB
# reads over the whole drive and over 256 MiB, and sequential 4 KiB reads
# (O_DIRECT-style). Prints measured figures next to the model's analytic
# expectations (build/hdd-expect).
set -eu
profile=$1
build=${2:-build}
dir=$(mktemp -d /tmp/hdd-measure.XXXXXX)
trap 'kill $(cat $dir/pid 2>/dev/null) 2>/dev/null; rm -rf $dir' EXIT
cap=$("$build/hdd-expect" "$profile" | sed -n 's/^capacity_bytes=//p')
truncate -s "$cap" "$dir/img"
nbdkit -U "$dir/sock" -P "$dir/pid" --filter="$(realpath "$build/nbdkit-hdd-filter.so")" \
    file "$dir/img" profile="$profile" trace="$dir/trace"
for i in $(seq 50); do [ -S "$dir/sock" ] && break; sleep 0.1; done
"$build/hdd-expect" "$profile" | grep -E '^(summary|seq_rate|media_rate|random_4k)'
echo "span256MiB_$("$build/hdd-expect" "$profile" 268435456 | grep random_4k)"
/usr/bin/python3 - "$dir/sock" "$cap" <<'PY'
import nbd, random, sys, time
sock, cap = sys.argv[1], int(sys.argv[2])
h = nbd.NBD()
h.connect_unix(sock)
def timed(f):
    t = time.monotonic(); f(); return time.monotonic() - t
def seq(bs, n, off):
    for i in range(n):
        h.pread(bs, off + i * bs)
def rnd(span, n):
    r = random.Random(1)
    for i in range(n):
        h.pread(4096, r.randrange(span // 4096) * 4096)
n = 300
t = timed(lambda: seq(1 << 20, n, 0))
print("measured_seq_1M_mbs=%.2f" % (n * 1048576 / t / 1e6))
n = 300
t = timed(lambda: rnd(cap, n))
print("measured_random_4k_ms=%.3f" % (t / n * 1e3))
n = 500
t = timed(lambda: rnd(256 << 20, n))
print("measured_random_4k_256MiB_ms=%.3f" % (t / n * 1e3))
n = 8000
t = timed(lambda: seq(4096, n, 512 << 20))
print("measured_seq_4k_mbs=%.2f" % (n * 4096 / t / 1e6))
h.shutdown()
PY
