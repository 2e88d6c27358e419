/* IDE transfer modes: names, SETFEATURES values and IDENTIFY decoding (see
 * idemode.h). */
#include <stddef.h>

#include "idemode.h"

const char *const agent_ide_dma_names[] = {"auto", "on", "off", NULL};

const char *const agent_ide_xfer_names[] = {
    "auto",   "pio0",   "pio1",  "pio2",  "pio3",  "pio4",  "sdma0", "sdma1", "sdma2", "mwdma0",
    "mwdma1", "mwdma2", "udma0", "udma1", "udma2", "udma3", "udma4", "udma5", "udma6", NULL};

/* Each family's first name index, SETFEATURES base and mode count, in the
 * order of agent_ide_xfer_names. */
static const struct {
    int first;
    uint8_t base;
    int count;
} families[] = {{1, 0x08, 5}, {6, 0x10, 3}, {9, 0x20, 3}, {12, 0x40, 7}};
#define FAMILIES ((int)(sizeof(families) / sizeof(families[0])))

uint8_t agent_ide_xfer_value(int i)
{
    for (int f = 0; f < FAMILIES; f++)
        if (i >= families[f].first && i < families[f].first + families[f].count)
            return (uint8_t)(families[f].base + (i - families[f].first));
    return 0;
}

int agent_ide_xfer_index(uint8_t value)
{
    for (int f = 0; f < FAMILIES; f++)
        if (value >= families[f].base && value < families[f].base + families[f].count)
            return families[f].first + (value - families[f].base);
    return -1;
}

/* The highest bit set among bits 0..n-1 of w, or -1. */
static int top_bit(uint16_t w, int n)
{
    for (int b = n - 1; b >= 0; b--)
        if (w & (1u << b))
            return b;
    return -1;
}

static void decode_model(const uint16_t *id, char model[41])
{
    int n = 0;
    for (int w = 27; w <= 46; w++) {
        /* As the kernel keeps it: drivers/ide byte-swaps the model into a
         * plain string at probe time, and libata's HDIO_GET_IDENTITY writes
         * it so too (for hdparm): memory order, the low byte first. */
        model[n++] = (char)(id[w] & 0xff);
        model[n++] = (char)(id[w] >> 8);
    }
    while (n > 0 && (model[n - 1] == ' ' || model[n - 1] == 0))
        n--;
    for (int i = 0; i < n; i++)
        if ((unsigned char)model[i] < 0x20 || (unsigned char)model[i] > 0x7e)
            model[i] = '?';
    model[n] = 0;
}

/* The selected DMA mode (SETFEATURES value) or 0, and the best supported. */
static void decode_dma(const uint16_t *id, struct agent_ide_identity *out)
{
    int udma_valid = (id[53] & 0x4) != 0;
    int sel_udma = udma_valid ? top_bit((uint16_t)(id[88] >> 8), 7) : -1;
    int sel_mw = top_bit((uint16_t)(id[63] >> 8), 3);
    int sel_sw = top_bit((uint16_t)(id[62] >> 8), 3);
    if (sel_udma >= 0)
        out->current = (uint8_t)(0x40 + sel_udma);
    else if (sel_mw >= 0)
        out->current = (uint8_t)(0x20 + sel_mw);
    else if (sel_sw >= 0)
        out->current = (uint8_t)(0x10 + sel_sw);
    int best_udma = udma_valid ? top_bit(id[88], 7) : -1;
    int best_mw = top_bit(id[63], 3);
    int best_sw = top_bit(id[62], 3);
    if (best_udma >= 0)
        out->best_dma = (uint8_t)(0x40 + best_udma);
    else if (best_mw >= 0)
        out->best_dma = (uint8_t)(0x20 + best_mw);
    else if (best_sw >= 0)
        out->best_dma = (uint8_t)(0x10 + best_sw);
}

void agent_ide_identity_decode(const uint16_t id[AGENT_IDE_ID_WORDS],
                               struct agent_ide_identity *out)
{
    out->dma_capable = (id[49] & 0x100) != 0;
    out->current = 0;
    out->best_dma = 0;
    if (out->dma_capable)
        decode_dma(id, out);
    /* Word 51's high byte: PIO 0-2; word 64 (valid with word 53 bit 1): 3, 4. */
    int pio = (id[51] >> 8) <= 2 ? (id[51] >> 8) : 0;
    if ((id[53] & 0x2) && top_bit(id[64], 2) >= 0)
        pio = 3 + top_bit(id[64], 2);
    out->best_pio = (uint8_t)(0x08 + pio);
    decode_model(id, out->model);
}
