# scsi-10k-1999: 1998-99 10k rpm SCSI disk, Seagate Cheetah 9LP ST39102LW.
# Most values are DiskSim 4.0's validated model (benh/disksim
# valid/cheetah9LP.{model,diskspecs,seek}). Tags (docs/disk-model.md):
# [DS] DiskSim, [est] estimate.

# [DS] valid/cheetah9LP
description = Seagate Cheetah 9LP ST39102LW class, 10k rpm, Ultra2 SCSI, 3 x 280 KB
# lab: lsilogic (QEMU lsi, LSI53C895A), reference §0.3
bus = scsi
# [est] SCSI TCQ 32-256; QEMU's NBD client caps in-flight at 16 (§2.2.2)
queue_depth = 16
# [est] 1999 server RAM
memory_mib = 128

# [est] ST39102 user capacity 17,783,240 blocks (9.1 GB)
capacity_bytes = 9105018880
# [DS] 10045 rpm
rpm = 10045
# [DS] 6962 cylinders x 12 heads
heads = 12
# [DS] 11 zones (below §3.3's 15-30: the measured drive has 11)
zones = 11
# [DS] 254 sectors/track outer -> 21.8 MB/s
media_outer_mbs = 21.8
# [DS] 167 sectors/track inner -> 14.3 MB/s
media_inner_mbs = 14.3
# [DS] track skew 97 sectors of 254 = 2.28 ms at 10045 rpm
head_switch_ms = 2.28
# [DS] cylinder skew 133 sectors of 254 = 3.12 ms
cyl_switch_ms = 3.12

# [DS] HPL fit of the 106-point measured seek curve (reference §3.2, rms 0.06 ms)
seek = hpl
# [DS] V1: cylinders where the curve turns linear
hpl_v1 = 1200
# [DS] V2 (ms)
hpl_v2 = 1.083
# [DS] V3 (ms per sqrt(cyl))
hpl_v3 = 0.0966
# [DS] V4 (ms)
hpl_v4 = 3.110
# [DS] V5 (ms per cylinder)
hpl_v5 = 0.001079
# [DS] V6: single-cylinder seek 0.83 ms
hpl_v6 = 0.83
# [DS] write settle 0.461 ms
write_settle_ms = 0.461

# [DS] read-miss overhead 0.284 ms
overhead_read_miss_ms = 0.284
# [DS] read-hit overhead 0.066 ms
overhead_read_hit_ms = 0.066
# [DS] write-hit overhead 0.500 ms
overhead_write_ms = 0.5
# [est] Ultra2 Wide SCSI 80 MB/s
interface_mbs = 80

# [DS] 3 segments x 561 blocks (842 KiB in all)
cache_kib = 842
# [DS] 3 segments
cache_segments = 3
# [DS] maximum read-ahead 561 blocks = the segment; 0 = segment size
readahead_kib = 0
# [DS] Fast write level 2 (write-back for sequential streams)
write_cache = 1
# [DS] one segment of dirty data (561 blocks)
write_cache_kib = 280
# [est] aging: a request passed over for 100 ms goes next (§3.3.9)
max_wait_ms = 100
