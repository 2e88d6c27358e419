#!/bin/bash
# Bad input and faults: each gives a clear message naming the cell, a
# non-zero exit, and leaves no domain, QEMU, nbdkit or socket behind.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
k=6.12.113
small=(--boots 1 --reps 1 --set file_size=16M)

expect() {  # description, wanted exit code, wanted stderr text, lab args...
    local what=$1 want_rc=$2 want_text=$3; shift 3
    "$lab" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    check "$what: exit $want_rc (got $rc)" test "$rc" -eq "$want_rc"
    if grep -qF -- "$want_text" "$tmp/err"; then ok "$what: says '$want_text'"
    else not_ok "$what: stderr lacks '$want_text':"; cat "$tmp/err"; fi
}

# Refused before anything boots.
expect "unknown kernel" 2 "unknown kernel '9.9.9'; known kernels: 6.1.0-47" \
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

check_no_leaks
finish
