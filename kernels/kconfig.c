/* .config parsing and the per-bus option tables; see kconfig.h. */
#include "kernels/kconfig.h"
#include "kernels/rules.h"

#include "common/file.h"
#include "common/msg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lab_kconfig_free(struct lab_kconfig *cfg)
{
    if (!cfg)
        return;
    for (size_t i = 0; i < cfg->n; i++) {
        free(cfg->opts[i].name);
        free(cfg->opts[i].value);
    }
    free(cfg->opts);
    cfg->opts = NULL;
    cfg->n = 0;
}

static const char *strip_prefix(const char *opt)
{
    return strncmp(opt, "CONFIG_", 7) == 0 ? opt + 7 : opt;
}

/* Options are kept sorted by name (lab_kconfig_parse sorts once), so a
 * lookup is a binary search: a Debian .config has ~10000 lines, and a
 * cell's checks read it several times (a linear search per line made each
 * parse take about 0.3 s). */
static int cmp_name(const char *name, size_t n, const char *opt)
{
    int c = strncmp(name, opt, n);
    return c ? c : opt[n] ? -1 : 0;
}

static struct lab_kconfig_opt *find(const struct lab_kconfig *cfg, const char *name, size_t n)
{
    size_t lo = 0, hi = cfg->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_name(name, n, cfg->opts[mid].name);
        if (c == 0)
            return &cfg->opts[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* Appends (parse sorts and drops the earlier of two assignments after). */
static void set(struct lab_kconfig *cfg, size_t *cap, const char *name, size_t nlen,
                const char *val, size_t vlen)
{
    if (cfg->n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        struct lab_kconfig_opt *p = realloc(cfg->opts, *cap * sizeof *p);
        if (!p)
            abort();
        cfg->opts = p;
    }
    struct lab_kconfig_opt *o = &cfg->opts[cfg->n++];
    o->name = strndup(name, nlen);
    o->value = strndup(val, vlen);
    if (!o->name || !o->value)
        abort();
}

/* By name, then by line (the pointers' order is not the lines'): the index
 * travels in a side array. */
struct ranked {
    struct lab_kconfig_opt opt;
    size_t line;
};

static int cmp_ranked(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    int c = strcmp(x->opt.name, y->opt.name);
    return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/* Sorts by name; of two assignments to one option the later line wins. */
static void sort_and_merge(struct lab_kconfig *cfg)
{
    if (cfg->n < 2)
        return;
    struct ranked *r = malloc(cfg->n * sizeof *r);
    if (!r)
        abort();
    for (size_t i = 0; i < cfg->n; i++)
        r[i] = (struct ranked){cfg->opts[i], i};
    qsort(r, cfg->n, sizeof *r, cmp_ranked);
    size_t out = 0;
    for (size_t i = 0; i < cfg->n; i++) {
        if (i + 1 < cfg->n && strcmp(r[i].opt.name, r[i + 1].opt.name) == 0) {
            free(r[i].opt.name); /* a later line sets it again */
            free(r[i].opt.value);
            continue;
        }
        cfg->opts[out++] = r[i].opt;
    }
    cfg->n = out;
    free(r);
}

static int is_name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int lab_kconfig_parse(const char *text, struct lab_kconfig *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0;
    int lineno = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        lineno++;
        while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
            len--;
        if (len > 9 && strncmp(line, "# CONFIG_", 9) == 0) {
            const char *name = line + 9;
            size_t n = 0;
            while (n < len - 9 && is_name_char(name[n]))
                n++;
            if (9 + n + 11 == len && strncmp(name + n, " is not set", 11) == 0)
                set(out, &cap, name, n, "n", 1);
        } else if (len > 7 && strncmp(line, "CONFIG_", 7) == 0) {
            const char *name = line + 7;
            size_t n = 0;
            while (n < len - 7 && is_name_char(name[n]))
                n++;
            if (n == 0 || 7 + n >= len || name[n] != '=') {
                if (err)
                    snprintf(err, errlen, "line %d: not an assignment: %.*s", lineno, (int)len,
                             line);
                lab_kconfig_free(out);
                return -1;
            }
            const char *v = name + n + 1;
            size_t vlen = len - 7 - n - 1;
            if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
                v++;
                vlen -= 2;
            }
            set(out, &cap, name, n, v, vlen);
        }
        line = end ? end + 1 : NULL;
    }
    sort_and_merge(out);
    return 0;
}

/* A full allyesconfig is about 300 KiB; leave room, refuse what is not one. */
#define LAB_KCONFIG_MAX_BYTES (4u << 20)

int lab_kconfig_load(const char *path, struct lab_kconfig *out)
{
    size_t len;
    char *text = lab_read_text(path, LAB_KCONFIG_MAX_BYTES, &len);
    char err[200];
    if (!text)
        return errno == ENOENT ? lab_error("cannot read kernel config %s", path) : -1;
    int rc = lab_kconfig_parse(text, out, err, sizeof err);
    free(text);
    if (rc < 0)
        return lab_error("%s: %s", path, err);
    return 0;
}

const char *lab_kconfig_value(const struct lab_kconfig *cfg, const char *opt)
{
    const char *name = strip_prefix(opt);
    struct lab_kconfig_opt *o = find(cfg, name, strlen(name));
    if (!o || strcmp(o->value, "n") == 0)
        return NULL;
    return o->value;
}

enum lab_kconfig_state lab_kconfig_state(const struct lab_kconfig *cfg, const char *opt)
{
    const char *v = lab_kconfig_value(cfg, opt);
    if (!v)
        return LAB_KCONFIG_ABSENT;
    if (strcmp(v, "m") == 0)
        return LAB_KCONFIG_MODULE;
    return LAB_KCONFIG_BUILTIN; /* y, or a value */
}

/* The two ways a kernel drives QEMU's PIIX3 IDE, each with what the era
 * must allow and what the .config must build. Listed in the order the lab
 * prefers when a kernel has both (libata: the stack that outlived the
 * other, 5.14 on). */
static const struct ide_stack {
    int libata;        /* 1: ata_piix (sdX); 0: drivers/ide (hdX) */
    const char *needs; /* alternatives by '|', options in one by '+' */
    const char *label;
} ide_stacks[] = {
    {1, "ATA_PIIX+BLK_DEV_SD|SCSI_ATA_PIIX+BLK_DEV_SD", "libata"},
    {0, "BLK_DEV_PIIX+BLK_DEV_IDEDISK", "drivers/ide"},
};

static int ide_stack_possible(const struct ide_stack *st, const struct lab_era *era)
{
    return st->libata ? lab_era_has(era, LAB_FEAT_ATA_PIIX_PIIX3)
                      : lab_era_has(era, LAB_FEAT_LEGACY_IDE);
}

/* The requirement strings: alternatives by '|', options in one by '+'. For
 * ide, every stack the era allows. */
const char *lab_kconfig_bus_needs(const char *bus, const struct lab_era *era)
{
    static char ide[160];
    if (strcmp(bus, "ide") == 0) {
        ide[0] = '\0';
        for (size_t i = 0; i < sizeof ide_stacks / sizeof ide_stacks[0]; i++)
            if (ide_stack_possible(&ide_stacks[i], era))
                snprintf(ide + strlen(ide), sizeof ide - strlen(ide), "%s%s", ide[0] ? "|" : "",
                         ide_stacks[i].needs);
        return ide;
    }
    if (strcmp(bus, "sata") == 0)
        return "SATA_AHCI+BLK_DEV_SD|SCSI_SATA_AHCI+BLK_DEV_SD";
    if (strcmp(bus, "scsi") == 0)
        return "SCSI_SYM53C8XX_2+BLK_DEV_SD";
    if (strcmp(bus, "virtio-scsi") == 0)
        return "SCSI_VIRTIO+VIRTIO_PCI+BLK_DEV_SD";
    return NULL;
}

/* Checks one option of an alternative: 1 present, 0 absent (why in *why). */
static int opt_ok(const struct lab_kconfig *cfg, const char *name, const struct lab_era *era,
                  const char **why)
{
    switch (lab_kconfig_state(cfg, name)) {
    case LAB_KCONFIG_BUILTIN:
        return 1;
    case LAB_KCONFIG_MODULE:
        if (cfg->have_modules && era->modules_loadable)
            return 1;
        *why = cfg->have_modules ? "as a module, which this era's agent cannot load"
                                 : "only as a module, and no modules tree was given";
        return 0;
    default:
        *why = NULL;
        return 0;
    }
}

/* "; looked for CONFIG_A + CONFIG_B or CONFIG_C" */
static void describe_alternatives(const char *needs, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "; looked for ");
    for (const char *p = needs; *p && at < len; p++) {
        const char *word = p == needs || p[-1] == '|' || p[-1] == '+' ? "CONFIG_" : "";
        const char *sep = *p == '|' ? " or " : *p == '+' ? " + " : NULL;
        int n = sep ? snprintf(out + at, len - at, "%s", sep)
                    : snprintf(out + at, len - at, "%s%c", word, *p);
        if (n < 0)
            return;
        at += (size_t)n;
    }
}

/* 1 if one alternative of needs holds; else 0 with the first alternative's
 * first missing option in reason. */
static int needs_ok(const struct lab_kconfig *cfg, const char *needs, const struct lab_era *era,
                    const char *what, char *reason, size_t len)
{
    char first_missing[64] = "";
    const char *first_why = NULL;
    const char *alt = needs;
    while (alt && *alt) {
        const char *alt_end = strchr(alt, '|');
        size_t alen = alt_end ? (size_t)(alt_end - alt) : strlen(alt);
        int ok = 1;
        for (const char *o = alt; o < alt + alen;) {
            const char *plus = memchr(o, '+', (size_t)(alt + alen - o));
            size_t olen = plus ? (size_t)(plus - o) : (size_t)(alt + alen - o);
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)olen, o);
            const char *why = NULL;
            if (!opt_ok(cfg, name, era, &why)) {
                ok = 0;
                if (!first_missing[0]) {
                    snprintf(first_missing, sizeof first_missing, "%s", name);
                    first_why = why;
                }
                break;
            }
            o += olen + (plus ? 1 : 0);
        }
        if (ok)
            return 1;
        alt = alt_end ? alt_end + 1 : NULL;
    }
    if (reason) {
        const char *k = cfg->kernel ? cfg->kernel : "this kernel";
        int n;
        if (first_why)
            n = snprintf(reason, len, "kernel %s has CONFIG_%s %s (needed for %s)", k,
                         first_missing, first_why, what);
        else
            n = snprintf(reason, len, "kernel %s lacks CONFIG_%s (needed for %s)", k, first_missing,
                         what);
        /* Several options or ways: name every one looked for. */
        if (strpbrk(needs, "|+") && n > 0 && (size_t)n < len)
            describe_alternatives(needs, reason + n, len - (size_t)n);
    }
    return 0;
}

int lab_kconfig_ide_libata(const struct lab_kconfig *cfg, const struct lab_era *era)
{
    for (size_t i = 0; i < sizeof ide_stacks / sizeof ide_stacks[0]; i++)
        if (ide_stack_possible(&ide_stacks[i], era) &&
            needs_ok(cfg, ide_stacks[i].needs, era, "", NULL, 0))
            return ide_stacks[i].libata;
    return -1;
}

int lab_kconfig_ide_dma_at_boot(const struct lab_kconfig *cfg, const struct lab_era *era,
                                char *reason, size_t len)
{
    if (lab_kconfig_ide_libata(cfg, era) != 0)
        return -1;
    /* What turns DMA on at boot on the PIIX: the rules table's row. */
    const struct lab_rule_row *row = lab_rule_for(LAB_RULE_IDE_DMA_OPTIONS, NULL, era->version);
    if (!row)
        return -1;
    int kconfig_read = lab_rule_for(LAB_RULE_IDE_DMA_KCONFIG_READ, NULL, era->version) != NULL;
    size_t at = 0;
    if (reason && len)
        reason[0] = '\0';
    for (int i = 0; i < 4 && row->mods[i]; i++) {
        const char *name = row->mods[i];
        int mentioned = find(cfg, name, strlen(name)) != NULL;
        if (lab_kconfig_state(cfg, name) == LAB_KCONFIG_BUILTIN)
            continue;
        if (!mentioned && !kconfig_read)
            continue;
        if (reason && at < len)
            at += (size_t)snprintf(reason + at, len - at, "%sCONFIG_%s %s", at ? ", " : "", name,
                                   mentioned ? "is not set" : "is missing");
        else
            at = 1;
    }
    return at == 0;
}

int lab_kconfig_bus_ok(const struct lab_kconfig *cfg, const char *bus, const struct lab_era *era,
                       char *reason, size_t len)
{
    const char *needs = lab_kconfig_bus_needs(bus, era);
    char what[64];
    if (!needs) {
        if (reason)
            snprintf(reason, len, "unknown bus '%s'", bus);
        return -1;
    }
    snprintf(what, sizeof what, "bus %s", bus);
    if (!needs_ok(cfg, needs, era, what, reason, len))
        return 0;
    /* The boot image: an initramfs or an ext2 initrd, both through initrd. */
    const char *boot =
        era->boot == LAB_BOOT_INITRAMFS ? "BLK_DEV_INITRD" : "BLK_DEV_INITRD+BLK_DEV_RAM+EXT2_FS";
    return needs_ok(cfg, boot, era, "the lab's boot image", reason, len);
}

int lab_kconfig_channel_ok(const struct lab_kconfig *cfg, enum lab_agent_channel ch,
                           const struct lab_era *era, char *reason, size_t len)
{
    if (ch == LAB_AGENT_CHAN_UART)
        return needs_ok(cfg, lab_rule_value(LAB_RULE_UART_OPTION, era->version, "SERIAL_8250"), era,
                        "the agent channel uart", reason, len);
    return needs_ok(cfg, "VIRTIO_PCI+VIRTIO_CONSOLE", era, "the agent channel virtio", reason, len);
}

int lab_kconfig_fs_ok(const struct lab_kconfig *cfg, const char *fs, const struct lab_era *era,
                      char *reason, size_t len)
{
    const char *needs;
    char what[64];
    if (!fs || strcmp(fs, "raw") == 0)
        return 1;
    if (strcmp(fs, "ext2") == 0)
        needs = lab_rule_value(LAB_RULE_EXT2_OPTIONS, era ? era->version : 0,
                               "EXT2_FS|EXT4_FS+EXT4_USE_FOR_EXT2");
    else if (strcmp(fs, "ext3") == 0)
        needs = lab_rule_value(LAB_RULE_EXT3_OPTIONS, era ? era->version : 0,
                               "EXT3_FS|EXT4_FS+EXT4_USE_FOR_EXT23");
    else if (strcmp(fs, "ext4") == 0)
        needs = "EXT4_FS|EXT4DEV_FS";
    else {
        if (reason)
            snprintf(reason, len, "unknown filesystem '%s'", fs);
        return -1;
    }
    snprintf(what, sizeof what, "the data disk's %s", fs);
    return needs_ok(cfg, needs, era, what, reason, len);
}
