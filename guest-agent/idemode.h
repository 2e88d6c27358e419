/* The IDE transfer mode as hdparm sees it, pure: the names of the modes
 * (`hdparm -X` takes them), the SETFEATURES value of each, and the mode a
 * drive runs in, read from its IDENTIFY data (ATA-6 words 49, 53, 62, 63,
 * 64, 88). Built for the guest and the host: the host's key table checks
 * lab.ide_xfer, the agent decodes what HDIO_GET_IDENTITY returns. */
#ifndef LAB_AGENT_IDEMODE_H
#define LAB_AGENT_IDEMODE_H

#include <stdint.h>

/* lab.ide_dma: auto leaves the kernel's choice; on and off are
 * `hdparm -d1` and `hdparm -d0` (HDIO_SET_DMA). */
enum agent_ide_dma { AGENT_IDE_DMA_AUTO = 0, AGENT_IDE_DMA_ON, AGENT_IDE_DMA_OFF };
extern const char *const agent_ide_dma_names[];

/* lab.ide_xfer: index 0 is "auto" (no SETFEATURES); the others are the
 * modes by name, pio0..pio4, sdma0..sdma2, mwdma0..mwdma2, udma0..udma6. */
extern const char *const agent_ide_xfer_names[];
/* The SETFEATURES "set transfer mode" value (sector count) of name index i:
 * PIO 0x08+n, single-word DMA 0x10+n, multiword DMA 0x20+n, UDMA 0x40+n;
 * 0 for auto or an index out of range. */
uint8_t agent_ide_xfer_value(int i);
/* The index in agent_ide_xfer_names of a SETFEATURES value, or -1. */
int agent_ide_xfer_index(uint8_t value);

#define AGENT_IDE_ID_WORDS 256

/* What a drive's IDENTIFY data says. */
struct agent_ide_identity {
    int dma_capable;  /* word 49 bit 8 */
    uint8_t current;  /* the selected mode's SETFEATURES value; 0: no DMA mode selected */
    uint8_t best_dma; /* the fastest DMA mode the drive supports; 0: none */
    uint8_t best_pio; /* the fastest PIO mode (words 51, 64) */
    char model[41];   /* words 27-46, trailing spaces cut */
};

/* Decodes IDENTIFY data (host byte order, as the kernel keeps it and
 * HDIO_GET_IDENTITY returns it: the model string already in memory order). The
 * selected DMA mode: UDMA from word 88 where word 53 bit 2 says it is valid,
 * else multiword DMA from word 63, else single-word DMA from word 62. */
void agent_ide_identity_decode(const uint16_t id[AGENT_IDE_ID_WORDS],
                               struct agent_ide_identity *out);

#endif
