#!/bin/bash
# lab doctor on this machine: every check runs, TCG is named (KVM is not
# usable on this machine type), exit 0; against a libvirt socket that does
# not exist it fails the libvirt check with its fix and exits non-zero.
# (Stopping the shared system libvirtd would break everyone else's guests.)
. "$(dirname "$0")/lib.sh"

out=$tmp/out
"$lab" doctor >"$out" 2>&1
rc=$?
cat "$out"
check "lab doctor exits 0 here (got $rc)" test $rc -eq 0
for c in libvirtd virtlogd libvirt accelerator 'qemu user' nbdkit real-time 'disk space' \
    kernels build; do
    check "checks $c" grep -q "^  [a-zA-Z]*  *$c " "$out"
done
check "says the cells run under TCG" grep -q '^  [a-z]*  *accelerator  *TCG' "$out"
check "says a cell can run" grep -q 'a cell can run here' "$out"
check "no check failed" bash -c "! grep -q '^  FAIL' '$out'"

LAB_LIBVIRT_URI="qemu+unix:///system?socket=$tmp/no-such-libvirt-sock" "$lab" doctor >"$out" 2>&1
rc=$?
cat "$out"
check "with an unreachable libvirt it exits non-zero (got $rc)" test $rc -ne 0
check "the libvirt check fails" grep -q '^  FAIL  libvirt .*cannot connect' "$out"
check "and names the fix" bash -c "grep -A1 '^  FAIL  libvirt' '$out' | grep -q 'fix: systemctl start libvirtd'"
finish
