#!/bin/bash
# Every 2.4 and 2.6.0-2.6.12 tree the lab builds drives its IDE data disk
# with DMA: each tarball given is built for i686 with the lab's fragment,
# must pass the IO smoke test, and its note must say the disk ran in a DMA
# mode on drivers/ide (the smoke test itself fails a build that ran PIO).
#   tests/slow/dma-trees.sh [BUILD] [TARBALL...]
# With no tarball: ../shared/kernels' 2.4.22, 2.6.9, 2.6.11 and 2.6.12-rc2.
# Trees from elsewhere are the point (docs/ide.md lists the ones run here):
# the options that turn DMA on differ by version (kernels/rules.c).
. "$(dirname "$0")/../boot/lib.sh"
shift $(($# > 0 ? 1 : 0))

here=$(cd "$(dirname "$0")/../.." && pwd)
srcs=${LAB_ERA_SOURCES:-$here/../shared/kernels}
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=("$srcs"/linux-2.4.22.tar.xz "$srcs"/linux-2.6.9.tar.xz
                                 "$srcs"/linux-2.6.11.tar.xz "$srcs"/linux-2.6.12-rc2.tar.xz)
for t in "${trees[@]}"; do
    v=$(basename "$t"); v=${v#linux-}; v=${v%%.tar*}
    start=$(date +%s)
    "$lab" kernels build "$t" --arch i686 --name "dma-$v" >"$tmp/build" 2>&1
    rc=$?
    tail -1 "$tmp/build"
    check "linux $v builds (exit $rc, $(($(date +%s) - start)) s)" test $rc -eq 0
    check "linux $v passed the IO smoke test" grep -q "passed the IO smoke test" "$tmp/build"
    check "linux $v read its disk by DMA on drivers/ide" \
        grep -Eq "on hd[a-d] \(drivers/ide\) in (mwdma|udma|sdma)[0-9]" "$tmp/build"
    "$lab" kernels remove "dma-$v" >/dev/null 2>&1
done
check_no_leaks
finish
