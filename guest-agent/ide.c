/* The data disk's IDE transfer mode: lab.ide_xfer and lab.ide_dma applied
 * with the ioctls `hdparm -X` and `hdparm -d` use, then read back into one
 * `log msg=ide transfer mode` record (the host stores it with the cell).
 *
 * drivers/ide (hdX): HDIO_SET_PIO_MODE for a PIO mode, SETFEATURES "set
 * transfer mode" through HDIO_DRIVE_CMD for a DMA mode (the kernel then
 * retunes the controller), HDIO_SET_DMA; HDIO_GET_DMA says whether the
 * kernel uses DMA. libata (sdX) answers HDIO_GET_IDENTITY but has no
 * HDIO_GET_DMA and no run-time setting: its mode is chosen at boot
 * (libata.dma=, libata.force=), so asking for one here is an error. */
#include "agent.h"
#include "idemode.h"
#include "str.h"
#include "sys.h"

#define HDIO_GET_DMA_      0x030b
#define HDIO_GET_IDENTITY_ 0x030d
#define HDIO_DRIVE_CMD_    0x031f
#define HDIO_SET_DMA_      0x0326
#define HDIO_SET_PIO_MODE_ 0x0327
#define WIN_SETFEATURES_   0xef
#define SETFEATURES_XFER_  0x03

/* hdparm -X: a PIO mode by HDIO_SET_PIO_MODE (the driver tunes the
 * controller and the drive), a DMA mode by SETFEATURES. */
static void set_xfer(int fd, int index)
{
    uint8_t v = agent_ide_xfer_value(index);
    long r;
    if (v < 0x10) {
        r = sys_ioctl(fd, HDIO_SET_PIO_MODE_, (unsigned long)(v - 0x08));
    } else {
        unsigned char args[4] = {WIN_SETFEATURES_, v, SETFEATURES_XFER_, 0};
        r = sys_ioctl(fd, HDIO_DRIVE_CMD_, (unsigned long)args);
    }
    if (r < 0)
        report_failure("lab.ide_xfer", agent_ide_xfer_names[index], r);
}

static const char *mode_name(uint8_t value)
{
    int i = agent_ide_xfer_index(value);
    return i > 0 ? agent_ide_xfer_names[i] : "none";
}

/* The record: the stack, whether the kernel uses DMA, the mode in effect
 * and what the drive could do. Not an ATA disk (SCSI, virtio): ide_stack=none. */
static void report_mode(const struct agent_config *c, const char *stack, long using_dma,
                        const struct agent_ide_identity *id)
{
    struct agent_line *l = report_start("log");
    agent_line_str(l, "msg", "ide transfer mode");
    agent_line_str(l, "ide_dev", c->dev);
    agent_line_str(l, "ide_stack", stack);
    if (id) {
        /* libata has no HDIO_GET_DMA: a DMA mode selected in IDENTIFY is in use. */
        int dma = agent_streq(stack, "libata") ? id->current != 0 : using_dma != 0;
        agent_line_u64(l, "ide_dma", (uint64_t)dma);
        /* DMA switched on (hdparm -d1) on a drive no SETFEATURES gave a DMA
         * mode: "dma", the mode unknown. */
        agent_line_str(l, "ide_mode",
                       !dma          ? mode_name(id->best_pio)
                       : id->current ? mode_name(id->current)
                                     : "dma");
        agent_line_u64(l, "ide_dma_capable", (uint64_t)id->dma_capable);
        agent_line_str(l, "ide_best",
                       id->best_dma ? mode_name(id->best_dma) : mode_name(id->best_pio));
        if (id->model[0])
            agent_line_str(l, "ide_model", id->model);
    }
    report_send();
}

/* drivers/ide: hdparm -X, then -d, each an error record where it fails. */
static void set_ide(const struct agent_config *c, int fd)
{
    if (c->ide_xfer != 0)
        set_xfer(fd, c->ide_xfer);
    if (c->ide_dma != AGENT_IDE_DMA_AUTO) {
        long r = sys_ioctl(fd, HDIO_SET_DMA_, c->ide_dma == AGENT_IDE_DMA_ON ? 1 : 0);
        if (r < 0)
            report_failure("lab.ide_dma", agent_ide_dma_names[c->ide_dma], r);
    }
}

void ide_apply(const struct agent_config *c)
{
    char dev[64];
    size_t at = agent_cat(dev, sizeof(dev), 0, "/dev/");
    agent_cat(dev, sizeof(dev), at, c->dev);
    long fd = sys_open(dev, O_RDONLY_ | O_NONBLOCK_ | O_LARGEFILE_, 0);
    if (fd < 0) {
        report_failure("ide transfer mode: open", dev, fd);
        return;
    }
    long using_dma = 0;
    int ide = sys_ioctl((int)fd, HDIO_GET_DMA_, (unsigned long)&using_dma) == 0;
    if (ide) {
        set_ide(c, (int)fd);
        sys_ioctl((int)fd, HDIO_GET_DMA_, (unsigned long)&using_dma);
    }
    static uint16_t idw[AGENT_IDE_ID_WORDS];
    struct agent_ide_identity id;
    int have_id = sys_ioctl((int)fd, HDIO_GET_IDENTITY_, (unsigned long)idw) == 0;
    sys_close((int)fd);
    if (have_id)
        agent_ide_identity_decode(idw, &id);
    const char *stack = ide ? "ide" : have_id ? "libata" : "none";
    if (!ide && (c->ide_dma != AGENT_IDE_DMA_AUTO || c->ide_xfer != 0))
        report_failure(c->ide_xfer ? "lab.ide_xfer" : "lab.ide_dma",
                       have_id ? "libata has no run-time transfer-mode setting (at boot: "
                                 "libata.dma=, libata.force=)"
                               : "not an ATA disk",
                       0);
    report_mode(c, stack, using_dma, have_id ? &id : NULL);
}
