# pata-2003: ~2003 7200 rpm PATA desktop disk, Seagate Barracuda 7200.7
# ST380011A class (Maxtor DiamondMax Plus 9 similar). The seed 000 machine.
# Source tags as in docs/disk-model.md: [ds] datasheet, [ds-fam]
# sibling model, [sec] secondary source, [est] estimate, [DS] DiskSim.

# [sec] redhill.net.au page 141 "Seagate Barracuda 7200.7 ST380011A"
description = Seagate Barracuda 7200.7 ST380011A class, 7200 rpm, UDMA100, 2 MB
# lab: PIIX IDE on the i440fx pc machine (reference §0.3)
bus = ide
# [src] IDE issues one command at a time per channel (reference §2.2.5)
queue_depth = 1
# [est] typical 2003 desktop RAM
memory_mib = 256

# [est] IDEMA LBA count of an 80.0 GB drive (156,301,488 sectors)
capacity_bytes = 80026361856
# [sec] redhill 141: 7200 rpm
rpm = 7200
# [sec] redhill 141: 80 GB/platter, ST380011A = 2 heads
heads = 2
# [est] within the 15-30 of reference §3.3 (Hitachi 7K500 has 30)
zones = 24
# [est] instantaneous rates chosen so the sustained rate (skews included)
# is the table's ≈58 -> 32 MB/s; 69 MB/s is ~80% of the 683 Mbit/s internal
# rate [sec redhill 141]
media_outer_mbs = 69
# [est] see media_outer_mbs
media_inner_mbs = 38
# [ds-fam] IBM Deskstar 60GXP spec: head switch 1.4 ms (reference §4 notes, B)
head_switch_ms = 1.4
# [ds-fam] IBM Deskstar 60GXP spec: cylinder switch 1.8 ms
cyl_switch_ms = 1.8

# Lee's seek curve fitted to t2t/avg/full (gives A 13.17, B 2.03, §4 table)
seek = lee
# [ds-fam] 7200 rpm track-to-track 0.8 ms (Seagate figure quoted in Mero desim)
seek_t2t_ms = 0.8
# [sec] redhill 141: average seek 8.5 ms
seek_avg_ms = 8.5
# [est] 15-16 ms; IBM 60GXP full stroke 14.7 ms read [ds-fam]
seek_full_ms = 16.0
# [est] reference §4 knobs: +0.3 to 1.0 ms
write_settle_ms = 0.5

# [est] reference §4 knobs: ATA controller overhead 0.3-0.5 ms
overhead_read_miss_ms = 0.4
# [est] cache-hit overhead, small against the DiskSim 0.07-0.37 ms range
overhead_read_hit_ms = 0.05
# [est] write command overhead (DiskSim write-hit overheads 0.19-0.5 ms)
overhead_write_ms = 0.15
# [sec] redhill 141: ATA-100 (UDMA100 = 100 MB/s, reference §3.3.5)
interface_mbs = 100

# [sec] redhill 141: 2 MB buffer (8 MB variants exist)
cache_kib = 2048
# [est] reference §4 knobs: ATA 2 MB about 4-16 adaptive segments
cache_segments = 8
# [est] read-ahead to segment full (reference §4 knobs); 0 = segment size
readahead_kib = 0
# [est] write-back on by default for ATA (reference §4 knobs)
write_cache = 1
# [est] dirty data limit: half the buffer
write_cache_kib = 1024
