/* Unit tests of the agent's IDE transfer modes (guest-agent/idemode.c): the
 * names lab.ide_xfer takes and their SETFEATURES values, and the mode read
 * from IDENTIFY data shaped as QEMU's PIIX drive answers it (words 49, 53,
 * 62-64, 88 as hw/ide/core.c's ide_identify fills them) and as older drives
 * without word 88 do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "guest-agent/cmdline.h"
#include "guest-agent/idemode.h"
#include "guest-agent/keys.h"

static int xfer_index(const char *name)
{
    for (int i = 0; agent_ide_xfer_names[i]; i++)
        if (strcmp(agent_ide_xfer_names[i], name) == 0)
            return i;
    return -1;
}

static void test_xfer_values(void **state)
{
    (void)state;
    /* hdparm -X's numbers: pio4 = 12, mwdma2 = 34, udma2 = 66. */
    assert_int_equal(agent_ide_xfer_value(xfer_index("auto")), 0);
    assert_int_equal(agent_ide_xfer_value(xfer_index("pio0")), 0x08);
    assert_int_equal(agent_ide_xfer_value(xfer_index("pio4")), 12);
    assert_int_equal(agent_ide_xfer_value(xfer_index("sdma2")), 0x12);
    assert_int_equal(agent_ide_xfer_value(xfer_index("mwdma2")), 34);
    assert_int_equal(agent_ide_xfer_value(xfer_index("udma2")), 66);
    assert_int_equal(agent_ide_xfer_value(xfer_index("udma6")), 0x46);
    assert_int_equal(agent_ide_xfer_value(99), 0);
    for (int i = 1; agent_ide_xfer_names[i]; i++)
        assert_int_equal(agent_ide_xfer_index(agent_ide_xfer_value(i)), i);
    assert_int_equal(agent_ide_xfer_index(0x0d), -1); /* no pio5 */
    assert_int_equal(agent_ide_xfer_index(0x47), -1); /* no udma7 */
    assert_int_equal(agent_ide_xfer_index(0), -1);
}

/* IDENTIFY as the kernel hands it out (the model in memory order) for a
 * drive QEMU fills: DMA and LBA (49), words 64-70 and 88 valid
 * (53), SW and MW DMA 0-2 and UDMA 0-5 supported, the selected bits as
 * SETFEATURES last set them. */
static void qemu_identity(uint16_t id[AGENT_IDE_ID_WORDS], unsigned mdma_sel, unsigned udma_sel)
{
    memset(id, 0, AGENT_IDE_ID_WORDS * sizeof(id[0]));
    const char *model = "QEMU HARDDISK                           ";
    for (int w = 0; w < 20; w++)
        id[27 + w] = (uint16_t)((unsigned char)model[2 * w + 1] << 8 | (unsigned char)model[2 * w]);
    id[49] = (1u << 11) | (1u << 9) | (1u << 8);
    id[51] = 0x200;
    id[53] = 7;
    id[62] = 7;
    id[63] = (uint16_t)(7 | mdma_sel << 8);
    id[64] = 3;
    id[88] = (uint16_t)(0x3f | udma_sel << 8);
}

static void test_identity_qemu(void **state)
{
    (void)state;
    uint16_t id[AGENT_IDE_ID_WORDS];
    struct agent_ide_identity d;

    qemu_identity(id, 0, 1u << 2); /* hdparm -X udma2 */
    agent_ide_identity_decode(id, &d);
    assert_true(d.dma_capable);
    assert_int_equal(d.current, 0x42);
    assert_int_equal(d.best_dma, 0x45);
    assert_int_equal(d.best_pio, 0x0c);
    assert_string_equal(d.model, "QEMU HARDDISK");

    qemu_identity(id, 1u << 2, 0); /* mwdma2 */
    agent_ide_identity_decode(id, &d);
    assert_int_equal(d.current, 0x22);

    qemu_identity(id, 0, 0); /* nothing selected: PIO */
    agent_ide_identity_decode(id, &d);
    assert_int_equal(d.current, 0);
    assert_int_equal(d.best_dma, 0x45);
}

static void test_identity_old_drive(void **state)
{
    (void)state;
    uint16_t id[AGENT_IDE_ID_WORDS];
    struct agent_ide_identity d;
    qemu_identity(id, 0, 1u << 2);
    id[53] = 2; /* word 88 not valid: its bits do not count */
    agent_ide_identity_decode(id, &d);
    assert_int_equal(d.current, 0);
    assert_int_equal(d.best_dma, 0x22);

    id[49] = 1u << 9; /* no DMA at all: PIO 2 from word 51 */
    id[53] = 0;
    agent_ide_identity_decode(id, &d);
    assert_false(d.dma_capable);
    assert_int_equal(d.current, 0);
    assert_int_equal(d.best_dma, 0);
    assert_int_equal(d.best_pio, 0x0a);
}

static void test_keys(void **state)
{
    (void)state;
    struct agent_config c;
    agent_config_defaults(&c);
    assert_int_equal(c.ide_dma, AGENT_IDE_DMA_AUTO);
    assert_int_equal(c.ide_xfer, 0);
    const char *words = "lab.ide_dma=on lab.ide_xfer=udma2 lab.drop=drop_caches";
    assert_int_equal(agent_config_parse(&c, words, strlen(words)), 0);
    assert_int_equal(c.ide_dma, AGENT_IDE_DMA_ON);
    assert_int_equal(agent_ide_xfer_value(c.ide_xfer), 0x42);
    assert_int_equal(c.drop, AGENT_DROP_PROC);
    const char *bad = "lab.ide_dma=1 lab.ide_xfer=udma9";
    assert_int_equal(agent_config_parse(&c, bad, strlen(bad)), 2);
    assert_int_equal(c.ide_dma, AGENT_IDE_DMA_ON); /* kept */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xfer_values),
        cmocka_unit_test(test_identity_qemu),
        cmocka_unit_test(test_identity_old_drive),
        cmocka_unit_test(test_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
