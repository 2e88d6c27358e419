#!/bin/bash
# The lab as people install it: the Debian package (tests/install/deb.sh:
# dpkg-buildpackage in a clean copy of the checkout, through make install)
# unpacked into a scratch root, its build copy gone, then from the
# installed binary alone:
#  - lab --version and every `lab COMMAND --help` (and each `lab kernels
#    SUBCOMMAND --help`) exit 0 and print real newlines;
#  - man lab-run works from the package's man pages;
#  - lab doctor says a cell can run, using the package's agent and filter;
#  - lab run --kernels 6.12.113 -e seqread reads, from the package's files;
#  - make install DESTDIR=... lays out the same files as the package.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
deb=$("$here/tests/install/deb.sh" "$tmp" 2>"$tmp/deb.err" | tail -1)
check "the package builds (${deb:-none}; $(tail -1 "$tmp/deb.err"))" test -f "$deb"
root=$tmp/root
dpkg -x "$deb" "$root"
ilab=$root/usr/bin/lab
check "the package has /usr/bin/lab and its data" \
    test -x "$ilab" -a -d "$root/usr/share/lab/experiments" -a -x "$root/usr/lib/lab/lab-agent"
dpkg -I "$deb" >"$tmp/info"
for dep in qemu-system-x86 libvirt-daemon-system nbdkit patch; do
    check "the package depends on $dep" grep -q "Depends:.*$dep" "$tmp/info"
done

"$ilab" --version >"$tmp/version"; rc=$?
check "lab --version exits 0 and names the agent protocol (exit $rc)" grep -q 'agent protocol: *1' "$tmp/version"
bad=
for cmd in $("$ilab" --help | sed -n 's/^  lab \([a-z]*\) .*/\1/p'); do
    "$ilab" "$cmd" --help >"$tmp/help" 2>&1 || bad="$bad $cmd(exit)"
    grep -q 'x0a' "$tmp/help" && bad="$bad $cmd(\\x0a)"
done
for sub in $("$ilab" kernels --help | sed -n 's/^  lab kernels \([a-z]*\) .*/\1/p'); do
    "$ilab" kernels "$sub" --help >"$tmp/help" 2>&1 || bad="$bad kernels-$sub(exit)"
done
check "every command and kernels subcommand answers --help with exit 0 (bad:${bad:- none})" test -z "$bad"
MANPATH=$root/usr/share/man man -P cat lab-run >"$tmp/man" 2>&1
check "man lab-run shows the run options" grep -q -- '--fail-on' "$tmp/man"

"$ilab" doctor >"$tmp/doctor" 2>&1; rc=$?
check "the installed lab doctor says a cell can run (exit $rc)" grep -q 'a cell can run here' "$tmp/doctor"
check "it uses the package's guest agent" grep -q "guest agent $root/usr/lib/lab/lab-agent" "$tmp/doctor"
"$ilab" run --kernels 6.12.113 -e seqread --boots 1 --reps 2 --set file_size=16M \
    --json "$tmp/run.json" >"$tmp/out" 2>"$tmp/err"; rc=$?
cat "$tmp/out"
check "the installed lab runs a cell (exit $rc)" test $rc -eq 0 || tail -5 "$tmp/err"
n=$(sql "select count(*) from samples where rep >= 1")
check "the run stored its 2 counted samples (got $n; a busy host may add a rerun boot)" test "$n" -ge 2

make -s -C "$here" install DESTDIR="$tmp/inst" PREFIX=/usr >/dev/null 2>&1
# dh_compress gzips the package's man pages; make install leaves them plain.
(cd "$root" && find . -type f -path './usr/*' ! -path './usr/share/doc/*' | sed 's/\.gz$//' |
    sort) >"$tmp/deb.files"
(cd "$tmp/inst" && find . -type f | sort) >"$tmp/make.files"
check "make install lays out the package's files ($(wc -l <"$tmp/make.files") files)" \
    diff "$tmp/deb.files" "$tmp/make.files"
check_no_leaks
finish
