# sata-ncq-2005: 2005 7200 rpm SATA disk with NCQ, Hitachi Deskstar 7K500 class.
# Source tags as in docs/disk-model.md: [ds] datasheet, [ds-fam]
# sibling model, [sec] secondary source, [est] estimate, [DS] DiskSim.

# [ds] Hitachi Deskstar 7K500 spec (easymanua.ls hds725050kla360)
description = Hitachi Deskstar 7K500 class, 7200 rpm, SATA NCQ, 8 MB
# lab: AHCI (libvirt adds the ahci controller, reference §0.3)
bus = sata
# [ds] NCQ 32 tags; QEMU's NBD client caps in-flight requests at 16 (§2.2.2)
queue_depth = 32
# [est] typical 2005 desktop RAM
memory_mib = 512

# [est] IDEMA LBA count of a 500.1 GB drive (976,773,168 sectors)
capacity_bytes = 500107862016
# [ds] 7K500: 7200 rpm
rpm = 7200
# [ds] 7K500 500 GB: 5 disks, 10 heads
heads = 10
# [ds] 7K500 spec table 10: zones 0-29
zones = 30
# [ds] 7K500 table 10: instantaneous 76.3 MB/s outer (sustained 64.8)
media_outer_mbs = 76.3
# [ds] 7K500 table 10: instantaneous 36.5 MB/s inner (sustained 31.0)
media_inner_mbs = 36.5
# [est] chosen so the §4.4.4 sustained formula gives the datasheet's 64.8
# and 31.0 MB/s from the instantaneous rates (also the 60GXP's 1.4 ms)
head_switch_ms = 1.4
# [est] as head_switch_ms (60GXP cylinder switch 1.8 ms [ds-fam])
cyl_switch_ms = 1.8

# Lee's seek curve fitted to t2t/avg/full (gives A 13.33, B 1.17, §4 table)
seek = lee
# [est] §4 table C
seek_t2t_ms = 1.0
# [ds-fam] Hitachi 7K1000.C spec: 8.5 ms read average
seek_avg_ms = 8.5
# [est] §4 table C
seek_full_ms = 15.5
# [ds-fam] 7K1000.C: write average 9.5 ms = read + 1.0 ms
write_settle_ms = 1.0

# [est] reference §4 knobs: ATA controller overhead 0.3-0.5 ms
overhead_read_miss_ms = 0.3
# [est] cache-hit overhead, small against the DiskSim 0.07-0.37 ms range
overhead_read_hit_ms = 0.05
# [est] write command overhead (DiskSim write-hit overheads 0.19-0.5 ms)
overhead_write_ms = 0.1
# [ds] 7K500: SATA 1.5 Gb/s = 150 MB/s (3 Gb/s variant: 300)
interface_mbs = 150

# [est] §4 table C: 8-16 MB (7K500 ships 8 MB or 16 MB)
cache_kib = 8192
# [est] adaptive segments; 16 of 512 KiB
cache_segments = 16
# [est] read-ahead to segment full (reference §4 knobs); 0 = segment size
readahead_kib = 0
# [est] write-back on by default for ATA (reference §4 knobs)
write_cache = 1
# [est] dirty data limit: half the buffer
write_cache_kib = 4096
# [est] aging: a request passed over for 100 ms goes next (§3.3.9)
max_wait_ms = 100
