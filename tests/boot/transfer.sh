#!/bin/bash
# The IDE transfer mode, set and read back on a real 2.6 kernel (the lab's
# 2.6.9 from ../shared/kernels; era.sh builds the same, so it is cached):
# - --set ide_dma=off (hdparm -d0): the cell records PIO on drivers/ide, the
#   table warns, the JSON row says so;
# - --set ide_xfer=mwdma1 (hdparm -X mdma1, SETFEATURES): the drive's mode
#   reads back as mwdma1 and the kernel uses DMA; it reads far faster;
# - lab compare of the two runs flags the transfer modes in its verdict;
# - --set drop=remount drops the cache by remounting on a 2.6 kernel, whose
#   era default is posix_fadvise.
# - on libata (Debian's 6.12, ata_piix) the same keys are its boot words,
#   libata.dma=0 and libata.force=mwdma1 (QEMU's PIIX3 has no UDMA), and the
#   modes read back; a libata
#   without them (2.6.20) is refused before boot.
# tests/slow/ide.sh does the rest on builds of their own: a .config that
# leaves DMA off, and a kernel that oopses in the cache drop.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
srcs=${LAB_ERA_SOURCES:-$here/../shared/kernels}
fact() { sql "SELECT value FROM cell_facts WHERE cell = (SELECT max(id) FROM cells) AND key = '$1'"; }
run_id() { sql "SELECT max(id) FROM runs"; }
seq_run() {  # label for the JSON file, extra args...: seqread on pata-2003
    local doc=$tmp/$1.json; shift
    "$lab" run --boots 1 --kernels lab-2.6.9 --experiment seqread --bus ide --profile pata-2003 \
        --set warmup=0 --json "$doc" "$@" >"$tmp/run" 2>&1
}
mbps() { json_row "$tmp/$1.json" lab-2.6.9 'round(r["summaries"]["mbps"]["mean"], 1)'; }

"$lab" kernels build "$srcs/linux-2.6.9.tar.xz" --arch i686 --name lab-2.6.9 >"$tmp/build" 2>&1
check "lab-2.6.9 builds and passes its smoke test" grep -q "passed the IO smoke test" "$tmp/build"

# PIO under TCG reads about 1 MB/s (every word a port read): a small file.
seq_run pio --set ide_dma=off --set file_size=4M --set reps=1
rc=$?
cat "$tmp/run"
check "seqread with ide_dma=off exits 0 (got $rc)" test $rc -eq 0
pio_run=$(run_id)
check "the cell records PIO on drivers/ide (got $(fact ide_dma)/$(fact ide_stack))" \
    test "$(fact ide_dma)/$(fact ide_stack)" = 0/ide
check "the mode is a PIO mode (got $(fact ide_mode))" grep -q '^pio[0-4]$' <<<"$(fact ide_mode)"
check "the drive could do DMA (got $(fact ide_dma_capable))" test "$(fact ide_dma_capable)" = 1
check "the table warns about PIO on a DMA controller" \
    grep -q "warning: lab-2.6.9: the IDE data disk ran in PIO" "$tmp/run"
check "the JSON row says PIO" test "$(json_row "$tmp/pio.json" lab-2.6.9 'r["transfer_pio"]')" = True

seq_run dma --set ide_xfer=mwdma1 --set file_size=16M --set reps=2
rc=$?
cat "$tmp/run"
check "seqread with ide_xfer=mwdma1 exits 0 (got $rc)" test $rc -eq 0
dma_run=$(run_id)
check "the drive's mode reads back as mwdma1 (got $(fact ide_mode))" test "$(fact ide_mode)" = mwdma1
check "and the kernel uses DMA (got $(fact ide_dma))" test "$(fact ide_dma)" = 1
check "no PIO warning" bash -c "! grep -q 'ran in PIO' '$tmp/run'"
pio=$(mbps pio) dma=$(mbps dma)
echo "MB/s: PIO $pio, mwdma1 $dma"
check "PIO reads far slower than DMA ($pio < $dma / 4)" \
    python3 -c "import sys; sys.exit(not $pio < $dma / 4)"

"$lab" compare "$pio_run" "$dma_run" >"$tmp/cmp" 2>&1
rc=$?
cat "$tmp/cmp"
check "lab compare of the PIO and the DMA run exits 0 (got $rc)" test $rc -eq 0
check "its verdict line flags the transfer modes" \
    grep -q "\[transfer modes differ: pio[0-4], mwdma1\]" "$tmp/cmp"

# 2.6.9's era default is posix_fadvise; remount is the other 2.6 method.
seq_run remount --set drop=remount --set file_size=16M --set reps=1
rc=$?
check "seqread with drop=remount exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/run"
n=$(sql "SELECT count(*) FROM records WHERE cell = (SELECT max(id) FROM cells)
         AND line LIKE '% log msg=drop%20caches drop=remount%'")
check "its cache drops were remounts (got $n)" test "$n" -ge 1
n=$(sql "SELECT count(*) FROM records WHERE cell = (SELECT max(id) FROM cells)
         AND line LIKE '% log msg=drop%20caches drop=fadvise%'")
check "and none was a posix_fadvise (got $n)" test "$n" -eq 0

# libata (Debian's 6.12 on the ide bus: ata_piix, sda) has no run-time
# setting: the same keys become its boot words, and the agent reads back.
k612() {  # label, extra args...
    local doc=$tmp/$1.json; shift
    "$lab" run --boots 1 --kernels 6.12.113 --experiment seqread --bus ide --profile pata-2003 \
        --set warmup=0 --set reps=1 --json "$doc" "$@" >"$tmp/run" 2>&1
}
k612 lpio --set ide_dma=off --set file_size=4M
rc=$?
check "6.12 with ide_dma=off exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/run"
check "its kernel booted with libata.dma=0" \
    grep -q "libata.dma%3D0" <<<"$(sql "SELECT line FROM records WHERE cell = (SELECT max(id)
        FROM cells) AND line LIKE '% log msg=setup %'")"
check "libata records PIO (got $(fact ide_stack) $(fact ide_dma) $(fact ide_mode))" \
    test "$(fact ide_stack)/$(fact ide_dma)" = libata/0
k612 lmw --set ide_xfer=mwdma1 --set file_size=16M
rc=$?
check "6.12 with ide_xfer=mwdma1 exits 0 (got $rc)" test $rc -eq 0 || cat "$tmp/run"
check "libata.force=mwdma1 set the drive's mode (got $(fact ide_mode))" \
    test "$(fact ide_mode)/$(fact ide_dma)" = mwdma1/1
# A kernel whose libata has no such word is refused before anything boots
# (era-2.6.20.sh builds it; cached).
"$lab" kernels build "$srcs/linux-2.6.20.tar.xz" --arch i686 --name lab-2.6.20 >"$tmp/build" 2>&1
"$lab" run --kernels lab-2.6.20 --bus sata --experiment seqread --set ide_xfer=udma2 \
    >"$tmp/run" 2>&1
check "ide_xfer on 2.6.20's libata is refused before boot" \
    grep -q "skipping lab-2.6.20/seqread: ide_xfer = udma2: .*libata.force= (2.6.28 on" "$tmp/run"
check "and nothing booted" test "$(sql "SELECT count(*) FROM cells WHERE kernel = 'lab-2.6.20'")" = 0

check_no_leaks
finish
