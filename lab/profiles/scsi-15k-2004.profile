# scsi-15k-2004: 2003-05 15k rpm U320 SCSI disk, Seagate Cheetah 15K.3/15K.4,
# Fujitsu MAS/MAU class. Tags as in docs/disk-model.md: [ds]
# datasheet, [ds-fam] sibling/later model, [sec] secondary, [est] estimate.

# [est] §4 table D2
description = Seagate Cheetah 15K.4 class, 15k rpm, U320 SCSI, 8 MB
# lab: lsilogic (QEMU lsi, LSI53C895A), reference §0.3
bus = scsi
# [est] SCSI TCQ 32-256; QEMU's NBD client caps in-flight at 16 (§2.2.2)
queue_depth = 16
# [est] 2004 server RAM
memory_mib = 1024

# [est] 36.7 GB model (71,687,372 blocks)
capacity_bytes = 36703934464
# [ds-fam] 15000 rpm (Cheetah 15K.7: 250 rev/s)
rpm = 15000
# [est] 2 disks, 4 heads for the 36 GB model
heads = 4
# [est] within §3.3's 15-30
zones = 20
# [est] instantaneous rates chosen so the sustained rate (skews included)
# is §4 table D2's ≈96 -> 58 MB/s
media_outer_mbs = 112
# [est] see media_outer_mbs
media_inner_mbs = 68
# [est] 15k head switch; with cyl_switch_ms gives the 96/112 sustained ratio
head_switch_ms = 0.6
# [est] see head_switch_ms
cyl_switch_ms = 0.85

# Lee's seek curve fitted to t2t/avg/full (gives A 5.00, B 2.20, §4 table)
seek = lee
# [est] from later datasheets: 15K.7 track-to-track 0.2 ms read
seek_t2t_ms = 0.2
# [est] §4 table D2: 3.6 ms (15K.7 3.4, Ultrastar 15K450 3.3 [ds-fam])
seek_avg_ms = 3.6
# [est] §4 table D2: 7.4 ms
seek_full_ms = 7.4
# [ds-fam] 15K.7 average 3.4/3.9 ms read/write: +0.5 ms
write_settle_ms = 0.5

# [est] reference §4 knobs: SCSI controller overhead 0.1-0.3 ms
overhead_read_miss_ms = 0.15
# [est] cache-hit overhead (DiskSim Cheetah 9LP 0.066 ms, newer drive faster)
overhead_read_hit_ms = 0.03
# [est] write command overhead
overhead_write_ms = 0.1
# [ds-fam] Ultra320 SCSI 320 MB/s
interface_mbs = 320

# [sec] xbitlabs Fujitsu MAS review: 8 MB cache
cache_kib = 8192
# [est] SCSI 3-10 segments (DiskSim); 8 of 1 MiB
cache_segments = 8
# [est] read-ahead to segment full; 0 = segment size
readahead_kib = 0
# [est] write-back often off for SCSI in servers (reference §4 knobs)
write_cache = 0
# [est] aging: a request passed over for 100 ms goes next (§3.3.9)
max_wait_ms = 100
