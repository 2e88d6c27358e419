#!/bin/bash
# Seed-era kernels for real: the lab builds 2.4.22 and 2.6.9 from the
# pristine trees in ../shared/kernels with this host's gcc (the builder's
# era compat layer), each build must pass the IO smoke test, and each runs
# seqread on PIIX IDE over the UART. Asserted from the store: the era's
# decisions as the agent took them (hdX, ttyS1, device nodes by mknod, the
# cache drop, the scheduler mechanism, a command line that fits 256 bytes),
# every read of the file's exact size with every word as written. Then the
# refusals: a .config with no disk driver, a kernel that failed its smoke
# test. Builds are cached in $LAB_HOME by the builder's hash, so a warm
# machine reuses them.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
srcs=${LAB_ERA_SOURCES:-$here/../shared/kernels}
home=${LAB_HOME:-/var/cache/lab}
run_id() { sql "SELECT max(id) FROM runs"; }
records() { sql "SELECT r.line FROM records r JOIN cells c ON r.cell = c.id WHERE c.run = $1"; }
setup_log() { records "$1" | grep ' log msg=setup '; }

for v in 2.4.22 2.6.9; do
    tarball=$srcs/linux-$v.tar.xz
    if [ ! -r "$tarball" ]; then
        not_ok "the era source $tarball is there"
        continue
    fi
    name=lab-$v
    start=$(date +%s)
    "$lab" kernels build "$tarball" --arch i686 --name "$name" >"$tmp/build" 2>&1
    rc=$?
    tail -5 "$tmp/build"
    check "linux $v builds with $(gcc -dumpfullversion) (exit $rc, $(($(date +%s) - start)) s)" \
        test $rc -eq 0
    check "linux $v passed the IO smoke test" grep -q "passed the IO smoke test" "$tmp/build"
    check "its kernel.conf says verified=passed" \
        grep -qx 'verified=passed' "$home/kernels/user/$name/kernel.conf"
    check "its System.map is kept for /proc/profile" test -s "$home/kernels/user/$name/System.map"

    "$lab" run --boots 1 --kernels "$name" --experiment seqread --bus ide --channel uart \
        --set file_size=32M --set reps=2 --set verify=1 >"$tmp/run" 2>&1
    rc=$?
    cat "$tmp/run"
    check "seqread on $v exits 0 (got $rc)" test $rc -eq 0
    run=$(run_id)
    # The first cell (a run flagged as contended is rerun in another one).
    first="(SELECT min(id) FROM cells WHERE run = $run)"
    # The warm-up reads the file's last 16 MiB (seqread.exp's warmup_size).
    n=$(sql "SELECT count(*) FROM samples s WHERE s.cell = $first
             AND s.bytes = CASE WHEN s.rep = 0 THEN 16777216 ELSE 33554432 END
             AND s.extra LIKE '%verify_errors=0 %'")
    check "$v: a 16 MiB warm-up and 2 reads of 32 MiB, every word as written (got $n)" \
        test "$n" -eq 3
    records "$run" >"$tmp/rec"
    check "$v: the agent ran on uname $v" grep -q " hello .*uname=$v " "$tmp/rec"
    setup_log "$run" >"$tmp/setup"
    cat "$tmp/setup"
    check "$v: the data disk is hda (drivers/ide)" grep -q ' dev=hda ' "$tmp/setup"
    check "$v: the agent reports over ttyS1" grep -q ' chan=ttyS1 ' "$tmp/setup"
    check "$v: device nodes by mknod (no devtmpfs)" grep -q ' nodes=mknod ' "$tmp/setup"
    # The longest of the run's cells (a rerun cell logs its own line). A
    # line the kernel cut at COMMAND_LINE_SIZE keeps exactly 255 bytes.
    cmdline=$(sed -n 's/.* cmdline=\([^ ]*\).*/\1/p' "$tmp/setup" | python3 -c \
        'import sys, urllib.parse; print(max((urllib.parse.unquote(l.strip()) for l in sys.stdin), key=len))')
    check "$v: the command line the kernel kept (${#cmdline} bytes) was not cut at 255" \
        test "${#cmdline}" -lt 255
    check "$v: drivers/ide was told to skip the empty positions" \
        grep -q 'hdb=noprobe hdc=noprobe hdd=noprobe' <<<"$cmdline"
    check "$v: it carries no agent parameter" bash -c "! grep -q 'lab\\.' <<<'$cmdline'"
done

# The same trees on x86_64, where the era's own code differs: 2.4.22's
# arch/x86_64 (in 2.4 from 2.4.20) and 2.6.9's, which without
# init-task-union-align and -mno-sse hung in its idle loop or faulted in
# ACPI. A build counts once the smoke test has booted it and read every word.
for v in 2.4.22 2.6.9; do
    tarball=$srcs/linux-$v.tar.xz
    [ -r "$tarball" ] || continue
    name=lab-$v-x86_64
    "$lab" kernels build "$tarball" --arch x86_64 --name "$name" >"$tmp/build64" 2>&1
    rc=$?
    tail -3 "$tmp/build64"
    check "linux $v x86_64 builds through the layer (exit $rc)" test $rc -eq 0
    check "linux $v x86_64 passed the IO smoke test" \
        grep -q "passed the IO smoke test" "$tmp/build64"
    check "its kernel.conf says x86_64" grep -qx 'arch=x86_64' "$home/kernels/user/$name/kernel.conf"
done

# The cache drop and the scheduler, each by its era's means.
if "$lab" kernels show lab-2.4.22 >/dev/null 2>&1; then
    "$lab" run --boots 1 --kernels lab-2.4.22 --experiment seqread --bus ide --set file_size=32M \
        --set reps=1 --set elvtune=2048,4096 >"$tmp/run24" 2>&1
    rc=$?
    cat "$tmp/run24"
    check "2.4.22 with an elvtune setting exits 0 (got $rc)" test $rc -eq 0
    records "$(run_id)" >"$tmp/rec24"
    grep -iE 'drop|elv' "$tmp/rec24"
    check "2.4.22 drops the cache by unmount + mount" grep -q 'msg=drop%20caches drop=remount' \
        "$tmp/rec24"
    check "2.4.22 set the elevator through elvtune (BLKELVSET) and read 2048 back" \
        bash -c "grep -i elvtune '$tmp/rec24' | grep -q 2048"
fi
if "$lab" kernels show lab-2.6.9 >/dev/null 2>&1; then
    "$lab" run --boots 1 --kernels lab-2.6.9 --experiment seqread --bus ide --set file_size=32M \
        --set reps=1 --set scheduler=deadline >"$tmp/run26" 2>&1
    rc=$?
    cat "$tmp/run26"
    check "2.6.9 with scheduler = deadline exits 0 (got $rc)" test $rc -eq 0
    run=$(run_id)
    setup_log "$run" >"$tmp/setup26"
    check "2.6.9 gets its scheduler by elevator= at boot" grep -q 'elevator%3Ddeadline' "$tmp/setup26"
    records "$run" >"$tmp/rec26"
    check "2.6.9 drops a file's pages with posix_fadvise" \
        grep -q 'msg=drop%20caches drop=fadvise' "$tmp/rec26"
    console=$(ls -t "$(log_dir "$run")"/cell-*-lab-2.6.9.console.log 2>/dev/null | head -1)
    check "2.6.9's console says it uses deadline" grep -qi 'deadline' "${console:-/dev/null}"

    # A .config with no disk driver at all: refused before boot, every way named.
    dir=$home/kernels/user/lab-2.6.9
    sed -e '/^CONFIG_BLK_DEV_PIIX=/d' -e '/^CONFIG_BLK_DEV_IDEDISK=/d' "$dir/config" >"$tmp/nodisk"
    "$lab" kernels add ci-nodisk-$$ --image "$dir/bzImage" --config "$tmp/nodisk" --arch i686 \
        >/dev/null 2>&1
    "$lab" run --boots 1 --kernels ci-nodisk-$$ --experiment seqread --bus ide --set reps=1 >"$tmp/nd" 2>&1
    rc=$?
    cat "$tmp/nd"
    check "a kernel whose .config has no IDE disk driver is refused with exit 2 (got $rc)" \
        test $rc -eq 2
    check "the refusal names the options looked for" \
        grep -q 'CONFIG_BLK_DEV_PIIX + CONFIG_BLK_DEV_IDEDISK' "$tmp/nd"
    "$lab" kernels remove ci-nodisk-$$ >/dev/null 2>&1
fi

# A user image of the 2.6.10-2.6.24 class whose .config drives PIIX with
# drivers/ide (before 2.6.21 the only way; after, what such a .config
# says): the lab's 2.6.12-rc2, registered as a user would, runs on hda.
tarball=$srcs/linux-2.6.12-rc2.tar.xz
if "$lab" kernels build "$tarball" --arch i686 --name lab-2.6.12-rc2 >"$tmp/b12" 2>&1; then
    dir=$home/kernels/user/lab-2.6.12-rc2
    check "2.6.12-rc2's .config drives IDE with drivers/ide" \
        grep -qx 'CONFIG_BLK_DEV_PIIX=y' "$dir/config"
    "$lab" kernels add ci-user-$$ --image "$dir/bzImage" --config "$dir/config" >"$tmp/add" 2>&1
    check "lab kernels add takes the image (version from its header)" \
        grep -q 'linux 2.6.12-rc2' "$tmp/add"
    "$lab" run --boots 1 --kernels ci-user-$$ --experiment seqread --bus ide --set file_size=32M \
        --set reps=1 --set verify=1 >"$tmp/u" 2>&1
    rc=$?
    cat "$tmp/u"
    check "seqread on the user image exits 0 (got $rc)" test $rc -eq 0
    setup_log "$(run_id)" >"$tmp/setupu"
    check "its disk is hda, as its .config says" grep -q ' dev=hda ' "$tmp/setupu"
    "$lab" kernels remove ci-user-$$ >/dev/null 2>&1
else
    tail -20 "$tmp/b12"
    not_ok "linux 2.6.12-rc2 builds"
fi

# A kernel that cannot read its disk fails the smoke test and is refused:
# Debian's 6.12 image without its modules has no disk driver built in.
"$lab" kernels fetch 6.12.113 >/dev/null 2>&1
deb=$home/kernels/6.12.113/boot/vmlinuz-6.12.113+deb12-amd64
"$lab" kernels add ci-nodrv-$$ --image "$deb" >/dev/null 2>&1
"$lab" kernels verify ci-nodrv-$$ >"$tmp/v" 2>&1
rc=$?
cat "$tmp/v"
check "a kernel that cannot read its disk fails the smoke test (exit 1, got $rc)" test $rc -eq 1
check "its kernel.conf says verified=failed" \
    grep -qx 'verified=failed' "$home/kernels/user/ci-nodrv-$$/kernel.conf"
"$lab" run --boots 1 --kernels ci-nodrv-$$ --set reps=1 >"$tmp/r" 2>&1
rc=$?
check "cells refuse it (exit 2, got $rc)" test $rc -eq 2
check "saying it failed the smoke test" grep -q 'failed the lab.s IO smoke test' "$tmp/r"
"$lab" kernels remove ci-nodrv-$$ >/dev/null 2>&1

# A name given to another cached build is that build from then on: both
# builds above are cached, so these two builds only register (and
# smoke-test) them; the second used to leave the first in place.
alias=ci-alias-$$
if [ -r "$srcs/linux-2.6.9.tar.xz" ] && [ -r "$srcs/linux-2.4.22.tar.xz" ]; then
    "$lab" kernels build "$srcs/linux-2.6.9.tar.xz" --arch i686 --name $alias >"$tmp/a1" 2>&1
    "$lab" kernels build "$srcs/linux-2.4.22.tar.xz" --arch i686 --name $alias >"$tmp/a2" 2>&1
    rc=$?
    "$lab" kernels show $alias >"$tmp/a3" 2>&1
    check "a cached 2.4.22 build takes over the name of a 2.6.9 one (exit $rc)" \
        grep -qE '^  version +2\.4\.22$' "$tmp/a3"
    "$lab" kernels remove $alias >/dev/null 2>&1
fi
check_no_leaks
finish
