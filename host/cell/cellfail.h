/* What a cell learns from the guest beyond its samples: the data disk's
 * IDE transfer mode (the agent's `log msg=ide transfer mode` record) and,
 * when the kernel fails, its oops, BUG or panic named (host/cell/oops.h). */
#ifndef LAB_CELL_CELLFAIL_H
#define LAB_CELL_CELLFAIL_H

#include <stddef.h>
#include <stdint.h>

struct lab_store;
struct lab_record;

/* If rec is the agent's transfer-mode record: its keys stored as the
 * cell's facts (ide_stack, ide_dma, ide_mode, ide_dma_capable, ide_best,
 * ide_model), a warning when a drivers/ide disk whose drive can do DMA
 * runs in PIO, and 1. 0 for any other record. */
int lab_cell_note_xfer(struct lab_store *st, int64_t cell, const char *kernel,
                       const struct lab_record *rec);

/* The console's first oops, BUG or panic, its bare addresses named from
 * system_map (may be NULL), stored as the cell's failure (store may be
 * NULL) and summed up in out: "... in f+0x4a/0x100 during cache drop
 * (posix_fadvise); call trace: ...; --set drop=remount avoids it".
 * 1 found, 0 none (out empty). */
int lab_cell_kernel_failure(struct lab_store *st, int64_t cell, const char *console,
                            const char *system_map, char *out, size_t len);

#endif
