#!/bin/bash
# The first tree past 2.6.12 through the era compat layer: the lab builds
# 2.6.20 from the pristine tree in ../shared/kernels with this host's gcc
# (cached by the builder's hash in $LAB_HOME, so a warm machine only
# registers it), the build must pass the IO smoke test, and seqread runs on
# it on PIIX IDE (drivers/ide: hda) and on AHCI (libata: sda). Asserted
# from the store: the agent ran on uname 2.6.20, on the disk the era table
# names for the bus, and read every word as written.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
srcs=${LAB_ERA_SOURCES:-$here/../shared/kernels}
home=${LAB_HOME:-/var/cache/lab}
v=2.6.20
name=lab-$v
tarball=$srcs/linux-$v.tar.xz
run_id() { sql "SELECT max(id) FROM runs"; }
records() { sql "SELECT r.line FROM records r JOIN cells c ON r.cell = c.id WHERE c.run = $1"; }

if [ ! -r "$tarball" ]; then
    not_ok "the era source $tarball is there"
    finish
fi

"$lab" kernels toolchain $v --arch i686 >"$tmp/tc" 2>&1
check "lab kernels toolchain $v says the host's gcc builds it through the layer" \
    grep -q 'builds it through the era compat layer' "$tmp/tc"

start=$(date +%s)
"$lab" kernels build "$tarball" --arch i686 --name "$name" >"$tmp/build" 2>&1
rc=$?
tail -5 "$tmp/build"
check "linux $v builds with $(gcc -dumpfullversion) (exit $rc, $(($(date +%s) - start)) s)" \
    test $rc -eq 0
check "linux $v passed the IO smoke test" grep -q "passed the IO smoke test" "$tmp/build"
check "its kernel.conf says verified=passed" \
    grep -qx 'verified=passed' "$home/kernels/user/$name/kernel.conf"
config=$home/kernels/user/$name/config
check "its .config drives PIIX with drivers/ide and DMA" \
    grep -qx 'CONFIG_BLK_DEV_IDEDMA_PCI=y' "$config"
check "its .config has AHCI and sym53c8xx" \
    bash -c "grep -qx CONFIG_SATA_AHCI=y '$config' && grep -qx CONFIG_SCSI_SYM53C8XX_2=y '$config'"
check "its .config has the era's four schedulers" \
    bash -c "for s in NOOP AS DEADLINE CFQ; do grep -qx CONFIG_IOSCHED_\$s=y '$config' || exit 1; done"

for bus in ide sata; do
    "$lab" run --boots 1 --kernels "$name" --experiment seqread --bus $bus \
        --set file_size=32M --set reps=2 --set verify=1 >"$tmp/run-$bus" 2>&1
    rc=$?
    cat "$tmp/run-$bus"
    check "seqread on $v over $bus exits 0 (got $rc)" test $rc -eq 0
    run=$(run_id)
    first="(SELECT min(id) FROM cells WHERE run = $run)"
    n=$(sql "SELECT count(*) FROM samples s WHERE s.cell = $first
             AND s.bytes = CASE WHEN s.rep = 0 THEN 16777216 ELSE 33554432 END
             AND s.extra LIKE '%verify_errors=0 %'")
    check "$v $bus: a 16 MiB warm-up and 2 reads of 32 MiB, every word as written (got $n)" \
        test "$n" -eq 3
    records "$run" >"$tmp/rec-$bus"
    check "$v $bus: the agent ran on uname $v" grep -q " hello .*uname=$v " "$tmp/rec-$bus"
    grep ' log msg=setup ' "$tmp/rec-$bus" >"$tmp/setup-$bus"
    cat "$tmp/setup-$bus"
done
check "$v ide: the data disk is hda (drivers/ide before 2.6.21)" grep -q ' dev=hda ' "$tmp/setup-ide"
check "$v sata: the data disk is sda (libata's ahci)" grep -q ' dev=sda ' "$tmp/setup-sata"
check_no_leaks
finish
