#!/bin/bash
# Runs the guest agent's host self-test (x86_64 and i386 builds) as if on
# Linux 2.4.0: under era-seccomp, which answers ENOSYS to every newer system
# call. Prints the agent's records; exits non-zero if any run fails.
#   tests/seccomp/agent-selftest.sh [BUILD] [--deny NAME]...
# (make builds BUILD/tests/era-seccomp with build/tests/test_agent_seccomp;
# `make build/tests/era-seccomp` builds it alone.)
set -u
build=build
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then build=$1; shift; fi
harness=$build/tests/era-seccomp
[ -x "$harness" ] || { echo "agent-selftest: no $harness (run make $harness)" >&2; exit 2; }
dir=$(mktemp -d /tmp/lab-agent-selftest-XXXXXX)
trap 'rm -rf "$dir"' EXIT
rc=0
for agent in "$build/lab-agent" "$build/lab-agent-i386"; do
    echo "=== $agent --selftest under era-seccomp $*"
    "$harness" "$@" -- "$agent" --selftest "$dir" || { echo "FAILED: exit $?"; rc=1; }
done
exit $rc
