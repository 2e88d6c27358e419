#!/bin/bash
# Bad input and faults: each gives a clear message naming the cell, a
# non-zero exit, and leaves no domain, QEMU, nbdkit or socket behind.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
k=6.12.113
small=(--boots 1 --reps 1 --set file_size=16M)
# Until the first cell of lab PID $1 has its domain running (at most 2 min).
wait_domain() {
    for _ in $(seq 600); do
        virsh -c qemu:///system list --name 2>/dev/null | grep -q "^lab-$1-0-" && return
        sleep 0.2
    done
}

expect() {  # description, wanted exit code, wanted stderr text, lab args...
    local what=$1 want_rc=$2 want_text=$3; shift 3
    "$lab" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    check "$what: exit $want_rc (got $rc)" test "$rc" -eq "$want_rc"
    if grep -qF -- "$want_text" "$tmp/err"; then ok "$what: says '$want_text'"
    else not_ok "$what: stderr lacks '$want_text':"; cat "$tmp/err"; fi
}

# Refused before anything boots.
expect "unknown kernel" 2 "unknown kernel '9.9.9' ('9.9.9': no kernel.org series 9); known kernels: 6.1.0-47" \
    run --kernels 6.1.0-47,9.9.9
expect "unknown experiment" 2 "unknown experiment 'nosuch'" run --kernels $k --experiment nosuch
printf 'test = seqread\nreps = 2\nblok_size = 1M\n' >"$tmp/bad.exp"
expect "malformed experiment file" 2 "$tmp/bad.exp:3: unknown key 'blok_size'" \
    run --kernels $k --experiment "$tmp/bad.exp"
printf 'test = seqread\nreps = 0\n' >"$tmp/range.exp"
expect "out-of-range value" 2 "$tmp/range.exp:2: reps = 0 is out of range" \
    run --kernels $k --experiment "$tmp/range.exp"
LAB_LIBVIRT_URI=qemu+unix:///system?socket=/nonexistent \
    expect "libvirtd unreachable" 1 "cannot connect to libvirt" run --kernels $k "${small[@]}"

# A guest that panics: an /init the kernel cannot execute.
printf 'not an executable\n' >"$tmp/not-an-init"
LAB_AGENT=$tmp/not-an-init expect "guest panics" 1 "cell $k/seqread failed: kernel panicked" \
    run --kernels $k "${small[@]}"
check "the console log is kept and named" grep -q 'console.log' "$tmp/err"

# A guest that hangs.
cc -static -nostdlib -ffreestanding -fno-stack-protector -fno-pie -no-pie -O2 -mgeneral-regs-only \
    -Wl,-z,noseparate-code -o "$tmp/hang-init" "$here/fake-init.c"
LAB_AGENT=$tmp/hang-init expect "guest hangs" 1 "no result within 45 s" \
    run --kernels $k "${small[@]}" --timeout 45

# A guest whose agent writes a malformed record.
cc -DGARBAGE -static -nostdlib -ffreestanding -fno-stack-protector -fno-pie -no-pie -O2 -mgeneral-regs-only \
    -Wl,-z,noseparate-code -o "$tmp/garbage-init" "$here/fake-init.c"
LAB_AGENT=$tmp/garbage-init expect "malformed agent line" 1 "malformed agent record" \
    run --kernels $k "${small[@]}" --timeout 60

# A guest whose agent writes a malformed record with a terminal escape in it:
# the message quotes it escaped, never raw.
check "the malformed record is quoted escaped (\\x1b)" grep -qF '\x1b[2J' "$tmp/err"
check "no raw control byte reaches the terminal" bash -c "! LC_ALL=C grep -q \$'\\x1b' '$tmp/err'"

# ---- bounded input and ranges (no VM) ----
timed() {  # description, lab args: refused with exit 2 in under 1 s and 64 MB
    local what=$1; shift
    # (ulimit: a lab that reads without bound must not take the machine down)
    (ulimit -v 4194304; timeout 10 /usr/bin/time -f '%e %M' -o "$tmp/time" "$lab" "$@") \
        >/dev/null 2>"$tmp/err"
    local rc=$?
    read -r secs kb < <(tail -1 "$tmp/time") # after any "exited with non-zero status"
    check "$what: exit 2 (got $rc)" test "$rc" -eq 2
    check "$what: refused in under 1 s (took $secs s)" awk -v s="$secs" 'BEGIN { exit !(s < 1) }'
    check "$what: memory bounded (peak $kb KB)" test "$kb" -lt 65536
}
timed "--experiment /dev/zero" run --kernels $k --experiment /dev/zero
head -c 10000000 /dev/zero | tr '\0' '#' >"$tmp/huge.exp"
timed "a 10 MB experiment file" run --kernels $k --experiment "$tmp/huge.exp"
check "it says how large a file may be" grep -q 'larger than 65536 bytes' "$tmp/err"
printf 'test = seqread\nreps = 2\0hidden = 1\n' >"$tmp/nul.exp"
expect "a NUL byte in an experiment" 2 "$tmp/nul.exp:2: a NUL byte" \
    run --kernels $k --experiment "$tmp/nul.exp"
expect "--timeout -5" 2 "--timeout wants seconds from 1 to 86400, not '-5'" \
    run --kernels $k --timeout -5
expect "--reps 1e3" 2 "--reps wants a number from 1 to 1000" run --kernels $k --reps 1e3
expect "a run id out of range" 2 "not a run number: '99999999999999999999999'" \
    show 99999999999999999999999
expect "a bisection id out of range" 2 "--show wants a bisection id" \
    bisect --show 99999999999999999999999

# ---- misleading messages (no VM) ----
export LAB_STORE=$tmp/trace.db # empty, then one seeded run
"$lab" runs >/dev/null
expect "lab trace on an empty store" 1 "holds no runs yet" trace
check "no header before the error" test ! -s "$tmp/out"
sql "insert into runs (command_line, experiment, status, started_wall_ns) values ('seed', 'seqread', 'ok', 1);
     insert into cells (run, kernel, experiment, status, started_wall_ns) values (1, '6.1.0-47', 'seqread', 'ok', 1);"
expect "lab trace with an unknown kernel" 1 "run 1 has no kernel 'nosuchkernel' (its kernels: 6.1.0-47)" \
    trace 1 nosuchkernel
expect "lab bisect --repo /nonexistent" 2 "--repo /nonexistent: No such file or directory" \
    bisect --repo /nonexistent --good v1 --bad v2 --metric mbps
export LAB_STORE=$tmp/results.db
nobody_lab() {  # as an unprivileged user, with the system URI
    setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent \
        LAB_LIBVIRT_URI=qemu:///system "$lab" "$@"
}
nobody_lab run --kernels $k "${small[@]}" >/dev/null 2>"$tmp/err"
check "non-root on qemu:///system: exit 1" test $? -eq 1
check "non-root on qemu:///system: the hint is about permissions" \
    grep -q 'qemu:///system needs root or the libvirt group' "$tmp/err"
check "non-root on qemu:///system: no package hint" bash -c "! grep -q 'install libvirt' '$tmp/err'"
rm -f "$LAB_STORE"*

# ---- store failures ----
# A store on its own small tmpfs, with an earlier run in it.
mnt=$tmp/store-fs
mkdir -p "$mnt"
seed_store() {  # store: makes it with run 1 (3 samples)
    LAB_STORE=$1 "$lab" runs >/dev/null
    LAB_STORE=$1 sql "
        insert into runs (command_line, experiment, status, started_wall_ns) values ('earlier', 'seqread', 'ok', 1);
        insert into cells (run, kernel, experiment, status, started_wall_ns) values (1, '6.1.0-47', 'seqread', 'ok', 1);
        insert into samples (cell, rep, test, bytes, real_ns, user_ns, sys_ns) values
            (1, 0, 'seqread', 1, 1, 0, 0), (1, 1, 'seqread', 1, 1, 0, 0), (1, 2, 'seqread', 1, 1, 0, 0);"
}
earlier_intact() {  # what, store: the earlier run is whole and the file sound
    check "$1: earlier run intact (integrity_check ok)" \
        test "$(LAB_STORE=$2 sql 'PRAGMA integrity_check')" = ok
    check "$1: the earlier run's 3 samples are kept" \
        test "$(LAB_STORE=$2 sql 'select count(*) from samples s join cells c on s.cell = c.id where c.run = 1')" -eq 3
    check "$1: no report of a 'run -1'" bash -c "! grep -q 'run -1' '$tmp/out'"
}
# A store root cannot write (immutable): SQLite opens it read-only, so
# every write fails; the lab used to boot every cell as "run -1".
ro=$tmp/ro/results.db
mkdir -p "$tmp/ro"
seed_store "$ro"
if chattr +i "$ro"; then
    LAB_STORE=$ro expect "read-only store" 1 "result store $ro: cannot begin run: attempt to write a readonly database" \
        run --kernels $k,6.1.0-47 "${small[@]}"
    check "read-only store: no cell started" bash -c "! grep -q '\[1/2\]' '$tmp/err'"
    chattr -i "$ro"
    earlier_intact "read-only store" "$ro"
else
    not_ok "chattr +i is needed for the read-only store test (root, ext4 /tmp)"
fi
if mount -t tmpfs -o size=8m lab-faults "$mnt"; then
    seed_store "$mnt/results.db"

    # The disk fills while the first cell runs: the run stops before the second.
    LAB_STORE=$mnt/results.db "$lab" run --kernels $k,6.1.0-47 "${small[@]}" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 300); do grep -q '\[1/2\]' "$tmp/err" && break; sleep 0.1; done
    dd if=/dev/zero of="$mnt/fill" bs=64k 2>/dev/null
    wait $pid
    rc=$?
    cat "$tmp/err"
    rm -f "$mnt/fill"
    check "full store: exit 1 (got $rc)" test $rc -eq 1
    check "full store: the message names the store" grep -q "result store $mnt/results.db" "$tmp/err"
    check "full store: the second cell never started" bash -c "! grep -q '\[2/2\]' '$tmp/err'"
    check "full store: said once, not per sample" \
        test "$(grep -c 'database or disk is full' "$tmp/err")" -le 3
    earlier_intact "full store" "$mnt/results.db"
    umount "$mnt"
else
    not_ok "cannot mount a tmpfs for the store tests (run as root)"
fi

# ---- a lab killed mid-cell is reconciled ----
marker=$tmp/marker
touch "$marker"
"$lab" run --kernels $k "${small[@]}" >/dev/null 2>"$tmp/err" &
pid=$!
wait_domain $pid
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
run=$(sql "select max(id) from runs")
"$lab" runs >"$tmp/runs" 2>"$tmp/err"
cat "$tmp/runs" "$tmp/err"
check "the killed run shows abandoned" grep -qE "^ +$run .* abandoned " "$tmp/runs"
check "it is stored abandoned with an end time" \
    test "$(sql "select status || (ended_wall_ns > 0) from runs where id = $run")" = abandoned1
check "its cell is abandoned too" \
    test "$(sql "select status from cells where run = $run")" = abandoned
check "no run directory of it remains" bash -c "! ls -d '${LAB_RUN_DIR:-/run/lab}/$pid-'* 2>/dev/null"
log=$(log_dir "$run")/cell-0-$k.console.log
check "its console log is kept ($log)" test "$log" -nt "$marker"

# ---- the disk server dies mid-cell ----
"$lab" run --kernels $k --reps 3 --set file_size=64M >/dev/null 2>"$tmp/err" &
pid=$!
wait_domain $pid
sleep 2
nbd=$(pgrep -P $pid -x nbdkit)
[ -n "$nbd" ] && kill -KILL $nbd
wait $pid
rc=$?
cat "$tmp/err"
check "a killed nbdkit: exit 1 (got $rc)" test $rc -eq 1
check "a killed nbdkit is named as the disk server, with its log" \
    grep -q 'the disk server (nbdkit) of disk 0 was killed by signal 9 (log: .*nbdkit0.log)' "$tmp/err"
check "not blamed on the agent" bash -c "! grep -q 'agent error: read' '$tmp/err'"

# ---- QEMU is killed mid-cell ----
"$lab" run --kernels $k --boots 1 --reps 3 --set file_size=64M >/dev/null 2>"$tmp/err" &
pid=$!
wait_domain $pid
sleep 2
pkill -KILL -f "guest=lab-$pid-0-"
wait $pid
rc=$?
cat "$tmp/err"
check "a killed QEMU: exit 1 (got $rc)" test $rc -eq 1
check "a killed QEMU is named, not the guest" \
    grep -q 'QEMU ended before the agent finished: killed or crashed (libvirt: crashed' "$tmp/err"
check "a killed QEMU: its cell is stored failed" \
    test "$(sql "select status from cells where run = (select max(id) from runs)")" = failed

# ---- libvirtd goes away mid-cell ----
# The lab talks to libvirtd through a private relay; killing the relay is,
# for the lab, libvirtd stopping, while the shared libvirtd keeps running.
cc -O2 -o "$tmp/sockproxy" "$here/sockproxy.c"
setsid "$tmp/sockproxy" "$tmp/libvirt.sock" /run/libvirt/libvirt-sock &
proxy=$!
sleep 0.5
LAB_LIBVIRT_URI="qemu+unix:///system?socket=$tmp/libvirt.sock" \
    "$lab" run --kernels $k,6.1.0-47 --reps 3 --set file_size=64M >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_domain $pid
sleep 1
kill -KILL -- -$proxy
wait $pid
rc=$?
cat "$tmp/err"
check "lost libvirtd: exit 1, not 141 (SIGPIPE) (got $rc)" test $rc -eq 1
check "lost libvirtd: says the connection was lost" grep -q 'lost the connection to libvirt' "$tmp/err"
check "lost libvirtd: the second cell never started" bash -c "! grep -q '\[2/2\]' '$tmp/err'"
run=$(sql "select max(id) from runs")
check "lost libvirtd: the run is stored failed, not running" \
    test "$(sql "select status from runs where id = $run")" = failed
for _ in $(seq 50); do  # libvirtd autodestroys the domain of the closed connection
    virsh -c qemu:///system list --name 2>/dev/null | grep -q "^lab-$pid-" || break
    sleep 0.2
done

# ---- a private session libvirtd dies mid-cell ----
# As a test user on qemu:///session, the lab talks to its own libvirtd; the
# test kills that daemon. Its QEMU outlives it (nobody autodestroys it
# now): the lab must kill it itself. The user is made for the test and
# removed after.
user=labfault
made_user=0
if ! id "$user" >/dev/null 2>&1 && useradd -M -d /nonexistent -s /usr/sbin/nologin "$user"; then
    made_user=1
fi
if id "$user" >/dev/null 2>&1; then
    uhome=$(mktemp -d /tmp/lab-faults-user.XXXXXX)
    mkdir -p "$uhome/run" "$uhome/lab/kernels"
    ln -s "${LAB_HOME:-/var/cache/lab}/kernels/$k" "$uhome/lab/kernels/$k"
    chown -R "$user:" "$uhome"
    chmod 755 "$uhome"
    chmod 700 "$uhome/run"
    as_user() {
        setpriv --reuid="$user" --regid="$user" --init-groups env HOME="$uhome" \
            XDG_RUNTIME_DIR="$uhome/run" LAB_HOME="$uhome/lab" LAB_STORE="$uhome/results.db" "$@"
    }
    as_user "$lab" run --kernels $k,6.1.0-47 --reps 3 --set file_size=64M >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    # ($pid is the subshell's; the user's session holds this lab's domains only)
    for _ in $(seq 600); do
        as_user virsh -c qemu:///session list --name 2>/dev/null | grep -q "^lab-" && break
        sleep 0.3
    done
    sleep 1
    daemon=$(pgrep -u "$user" -x libvirtd)
    qemu=$(pgrep -u "$user" -f "guest=lab-")
    check "the session daemon and the guest run (libvirtd $daemon, qemu $qemu)" \
        test -n "$daemon" -a -n "$qemu"
    [ -n "$daemon" ] && kill -KILL $daemon
    wait $pid
    rc=$?
    cat "$tmp/err"
    check "libvirtd died: exit 1, not 141 (SIGPIPE) (got $rc)" test $rc -eq 1
    check "libvirtd died: says the connection was lost" grep -q 'lost the connection to libvirt' "$tmp/err"
    check "libvirtd died: the second cell never started" bash -c "! grep -q '\[2/2\]' '$tmp/err'"
    sleep 1
    alive=$(for p in $qemu; do ps -o stat= -p "$p" 2>/dev/null | grep -v Z; done | wc -l)
    check "libvirtd died: the orphaned QEMU was killed (found $alive alive)" test "$alive" -eq 0
    for p in $(pgrep -u "$user"); do kill -KILL "$p"; done # a daemon virsh may have respawned
    rm -rf "$uhome"
    sleep 0.5
    [ $made_user = 1 ] && userdel "$user"
else
    not_ok "cannot make the test user $user for the session-daemon test"
fi

check_no_leaks
finish
