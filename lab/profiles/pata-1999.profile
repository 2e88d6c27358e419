# pata-1999: ~1999 5400 rpm ATA-66 desktop disk, Quantum Fireball lct10 class.
# Source tags as in docs/disk-model.md: [ds] datasheet, [ds-fam]
# sibling model, [sec] secondary source, [est] estimate, [DS] DiskSim.

# [sec] redhill.net.au page 133 "Quantum Fireball LCT 10"
description = Quantum Fireball lct10 class, 5400 rpm, ATA-66, 512 KB
# lab: PIIX IDE on the i440fx pc machine (reference §0.3)
bus = ide
# [src] IDE issues one command at a time per channel (reference §2.2.5)
queue_depth = 1
# [est] typical 1999 desktop RAM
memory_mib = 64

# [est] 20.4 GB model: 10.2 GB/platter [sec redhill 133] x 2 platters
capacity_bytes = 20416757760
# [sec] redhill 133: 5400 rpm
rpm = 5400
# [est] 2 platters, 4 surfaces
heads = 4
# [est] lower end of reference §3.3's 15-30
zones = 15
# [est] user rate ~75% of the 297 Mbit/s internal rate [sec redhill 133]:
# 26-30 MB/s outer (§4 table A)
media_outer_mbs = 28
# [est] §4 table A: 14-17 MB/s inner
media_inner_mbs = 15.5
# [est] 1999 ATA head switch, about 1.5 ms
head_switch_ms = 1.5
# [est] cylinder switch slightly longer than the head switch
cyl_switch_ms = 2.0

# Lee's seek curve fitted to t2t/avg/full (gives A 9.50, B 7.00, §4 table)
seek = lee
# [est] §4 table A
seek_t2t_ms = 1.5
# [sec] redhill 133: average seek 8.9 ms
seek_avg_ms = 8.9
# [est] §4 table A: 18 ms (3.5" stroke, shorter than the 2.5" 5K320's 20)
seek_full_ms = 18
# [est] reference §4 knobs: +0.3 to 1.0 ms
write_settle_ms = 0.6

# [est] reference §4 knobs: ATA controller overhead 0.3-0.5 ms
overhead_read_miss_ms = 0.5
# [est] cache-hit overhead (DiskSim HP C3323A read hit 0.35 ms, 1994; less by 1999)
overhead_read_hit_ms = 0.1
# [est] write command overhead (DiskSim write-hit overheads 0.19-0.5 ms)
overhead_write_ms = 0.2
# [sec] redhill 133: ATA-66 = 66.7 MB/s (reference §3.3.5)
interface_mbs = 66.7

# [sec] redhill 133: 512 KB buffer
cache_kib = 512
# [est] DiskSim models of the period use 2-10 segments
cache_segments = 4
# [est] read-ahead to segment full (reference §4 knobs); 0 = segment size
readahead_kib = 0
# [est] write-back on by default for ATA (reference §4 knobs)
write_cache = 1
# [est] dirty data limit: half the buffer
write_cache_kib = 256
