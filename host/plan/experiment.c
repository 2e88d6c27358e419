/* Experiment files: "key = value" lines checked against one table. */
#include "host/plan/experiment.h"
#include "host/plan/reported.h"
#include "host/plan/testdef.h"
#include "host/plan/warmup.h"
#include "common/datadir.h"
#include "common/file.h"
#include "common/kv.h"
#include "common/msg.h"
#include "common/str.h"
#include "guest-agent/keys.h"
#include "guest-agent/protocol.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum key_type {
    KEY_TEST,
    KEY_TEXT,
    KEY_UINT,
    KEY_SIZE,
    KEY_DISK,
    KEY_LOAD,
    KEY_SIZE_OR_FULL,
    KEY_RA_LIST,
    KEY_TUNABLES,
    KEY_LOAD_LIST,
    KEY_AGENT_ENUM, /* one of the agent key table's names for key `min` (guest-agent/keys.c) */
    KEY_BOOT_ARGS,  /* kernel command-line words: boot_args_ok */
    KEY_SEED        /* the thread's kernels and figures: host/plan/reported.h */
};

struct key_def {
    const char *key;
    enum key_type type;
    size_t offset;
    uint64_t min, max;
    const char *help;
};

#define OFF(f) offsetof(struct lab_experiment, f)
static const struct key_def keys[] = {
    {"test", KEY_TEST, OFF(test), 0, 0, "the agent's test: seqread"},
    {"summary", KEY_TEXT, OFF(summary), 0, 0, "one line describing the experiment"},
    {"reps", KEY_UINT, OFF(reps), 1, 1000, "runs per kernel"},
    {"warmup", KEY_UINT, OFF(warmup), 0, 10, "runs first, left out of statistics"},
    {"warmup_size", KEY_SIZE, OFF(warmup_size), 0, 64ULL << 30,
     "bytes a warm-up run reads, 0 = as a counted run (seqread, rawread)"},
    {"block_size", KEY_SIZE, OFF(block_size), 512, 4 << 20, "read size per call"},
    {"readahead", KEY_UINT, OFF(readahead), 0, 65536, "device readahead in 512-byte sectors"},
    {"readahead_list", KEY_RA_LIST, OFF(readahead_list), 1, 65536,
     "up to 8 readahead settings swept in one boot, like 256,128,64"},
    {"file_size", KEY_SIZE, OFF(file_size), 1 << 20, 64ULL << 30, "size of the test file"},
    {"verify", KEY_UINT, OFF(verify), 0, 1, "1: the agent checks the content it read"},
    {"timeout", KEY_UINT, OFF(timeout), 0, LAB_TIMEOUT_MAX_S,
     "seconds before a cell is declared hung"},
    {"disk", KEY_DISK, OFF(disk), 0, 0, "data disk: ext2 (holding the test file) or raw"},
    {"disk_size", KEY_SIZE_OR_FULL, OFF(disk_size), 1 << 20, 16ULL << 40,
     "raw disk size, or 'full' for the profile's capacity"},
    {"read_size", KEY_SIZE, OFF(read_size), 0, 16ULL << 40, "devread: bytes per run, 0 = all"},
    {"direct", KEY_UINT, OFF(direct), 0, 1, "1: O_DIRECT"},
    {"qd", KEY_UINT, OFF(qd), 1, 64, "randread: requests in flight"},
    {"count", KEY_UINT, OFF(count), 1, 1000000, "randread: requests per run"},
    {"span", KEY_SIZE, OFF(span), 0, 16ULL << 40, "randread: bytes of the device, 0 = all"},
    {"offset", KEY_SIZE, OFF(offset), 0, 16ULL << 40, "randread: where the span starts"},
    {"tree_files", KEY_UINT, OFF(tree_files), 1, 1000000, "files per synthetic source tree"},
    {"tree_dirs", KEY_UINT, OFF(tree_dirs), 1, 100000, "directories per tree"},
    {"tree_copies", KEY_UINT, OFF(tree_copies), 1, 16, "copies of the tree: /tree0, /tree1, ..."},
    {"tree_seed", KEY_UINT, OFF(tree_seed), 0, 1000000, "the tree generator's seed"},
    {"disk_free", KEY_SIZE, OFF(disk_free), 0, 1ULL << 40, "free space on a tree disk"},
    {"load", KEY_LOAD, OFF(load), 0, 0,
     "background load: none, copy, io_load, io_other, read_load"},
    {"load_list", KEY_LOAD_LIST, OFF(load_list), 0, 0,
     "loads to run one cell each with, like none,io_load,io_other,read_load"},
    {"load_size", KEY_SIZE, OFF(load_size), 1 << 20, 64ULL << 30, "io_load: bytes per file"},
    {"write_pct", KEY_UINT, OFF(write_pct), 0, 100, "overwrite: percent of writes"},
    {"cpu_rounds", KEY_UINT, OFF(cpu_rounds), 1, 1000, "contest: CPU passes over each file"},
    {"scheduler", KEY_TEXT, OFF(scheduler), 0, 0, "IO scheduler (the era decides how)"},
    {"scheduler_list", KEY_TEXT, OFF(scheduler_list), 0, 0,
     "schedulers to run one cell each with, like default,deadline (default: the kernel's)"},
    {"sysfs", KEY_TUNABLES, OFF(sysfs), 0, 0, "queue tunables, like read_ahead_kb:128"},
    {"elvtune", KEY_TUNABLES, OFF(elvtune), 0, 0, "2.4 elevator: READ_LATENCY,WRITE_LATENCY"},
    {"kprofile", KEY_UINT, OFF(kprofile), 0, 1,
     "1: boot with profile=2 and read the kernel's /proc/profile around each run"},
    {"drop", KEY_AGENT_ENUM, OFF(drop), AGENT_K_DROP, 0,
     "cache drop: auto (the era's), fadvise, remount, drop_caches"},
    {"ide_dma", KEY_AGENT_ENUM, OFF(ide_dma), AGENT_K_IDE_DMA, 0,
     "the IDE data disk's DMA, as hdparm -d: auto, on, off"},
    {"ide_xfer", KEY_AGENT_ENUM, OFF(ide_xfer), AGENT_K_IDE_XFER, 0,
     "the IDE data disk's transfer mode, as hdparm -X: auto, pio0-4, mwdma0-2, udma0-6"},
    {"boot_args", KEY_BOOT_ARGS, OFF(boot_args), 0, 0,
     "words added to the kernel command line, like clock=pit (not lab.*)"},
    {"kernels", KEY_SEED, 0, 0, 0, "the thread's kernels, run when --kernels is not given"},
    {"reported", KEY_SEED, 0, 0, 0, "a figure the thread reported: '2.6.0 ra=256: 11.43 11.96 s'"},
    {"stand_in", KEY_SEED, 0, 0, 0, "the lab kernel run for one of the thread's: '2.6.0: 2.6.11'"},
};

/* The agent's tests are host/plan/testdef.h's. */
static const char *const disks[] = {"ext2", "raw", "ext3tree"};
static const char *const loads[] = {"none", "copy", "io_load", "io_other", "read_load"};

static int set_choice(char **field, const char *where, const char *key, const char *value,
                      const char *const *choices, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(choices[i], value) == 0) {
            free(*field);
            *field = lab_xstrdup(value);
            return 0;
        }
    }
    char known[128] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                 choices[i]);
    return lab_error("%s: unknown %s '%s' (known: %s)", where, key, value, known);
}

/* A value of one of the agent's enum keys (lab.drop, lab.ide_dma, ...), by
 * the agent's own list of names. */
static int set_agent_enum(char **field, const char *where, const char *key, const char *value,
                          const struct agent_key *k)
{
    size_t n = 0;
    while (k->names[n])
        n++;
    return set_choice(field, where, key, value, k->names, n);
}

/* boot_args are the kernel's own words: printable, no quote (the kernel's
 * parser and libvirt's XML would each read one their own way), and none of
 * the agent's lab.* words, which travel in the boot image and would be
 * overridden there (host/plan/celldomain.h). Whether the whole line fits
 * the kernel's COMMAND_LINE_SIZE is the cell plan's check. */
static int boot_args_ok(const char *where, const char *args)
{
    for (const char *c = args; *c; c++)
        if (*c < 0x20 || *c > 0x7e || *c == '"' || *c == '\'')
            return lab_error("%s: boot_args = %s: only printable characters without quotes", where,
                             args);
    for (const char *w = args; *w;) {
        w += strspn(w, " ");
        if (strncmp(w, "lab.", 4) == 0)
            return lab_error("%s: boot_args = %s: lab.* words are the agent's; set the "
                             "experiment's own keys instead (docs/experiments.md)",
                             where, args);
        w += strcspn(w, " ");
    }
    return 0;
}

static int set_test(char **field, const char *where, const char *value)
{
    if (lab_test_find(value)) {
        free(*field);
        *field = lab_xstrdup(value);
        return 0;
    }
    char *known = lab_test_names(", ");
    lab_error("%s: unknown test '%s' (known: %s)", where, value, known);
    free(known);
    return -1;
}

const char *lab_experiments_dir(void)
{
    return lab_data_dir(LAB_DATA_EXPERIMENTS);
}

/* "256M", "1k", "4096" -> bytes. */
static int parse_size(const char *s, uint64_t *out)
{
    static const struct {
        char suffix;
        unsigned shift;
    } units[] = {{'k', 10}, {'K', 10}, {'m', 20}, {'M', 20}, {'g', 30}, {'G', 30}};
    char *end;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    for (size_t i = 0; *end && i < sizeof units / sizeof units[0]; i++) {
        if (*end == units[i].suffix) {
            if (v > (UINT64_MAX >> units[i].shift))
                return -1;
            v <<= units[i].shift;
            end++;
            break;
        }
    }
    if (*end == 'i' && end[1] == 'B')
        end += 2;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

/* kernels, reported, stand_in: checked into exp->reported, and kept as
 * text for the run's cells to store. As with any key, a
 * later kernels line replaces an earlier one (--set over the file's). */
static int set_seed(struct lab_experiment *exp, const char *where, const char *key,
                    const char *value)
{
    static const struct {
        const char *key;
        int (*set)(struct lab_reported *, const char *, const char *);
    } setters[] = {{"kernels", lab_reported_kernels},
                   {"reported", lab_reported_add},
                   {"stand_in", lab_reported_stand_in}};
    size_t i = 0;
    while (strcmp(setters[i].key, key) != 0)
        i++;
    if (!exp->reported)
        exp->reported = lab_xcalloc(1, sizeof *exp->reported);
    if (setters[i].set(exp->reported, where, value) < 0)
        return -1;
    char *text =
        lab_asprintf("%s%s = %s\n", exp->reported_text ? exp->reported_text : "", key, value);
    free(exp->reported_text);
    exp->reported_text = text;
    if (strlen(text) > LAB_REPORTED_TEXT_MAX)
        return lab_error("%s: the kernels, reported and stand_in lines pass %u bytes", where,
                         LAB_REPORTED_TEXT_MAX);
    return 0;
}

char *lab_experiment_kernels(const struct lab_experiment *exp)
{
    return lab_reported_kernel_list(exp->reported);
}

/* An unknown key, said with every known one (the whole list). */
static int unknown_key(const char *where, const char *key)
{
    char known[768] = "";
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, keys[i].key, sizeof known - strlen(known) - 1);
    }
    return lab_error("%s: unknown key '%s' (known keys: %s)", where, key, known);
}

static int set_key(struct lab_experiment *exp, const char *where, const char *key,
                   const char *value)
{
    const struct key_def *def = NULL;
    uint64_t v;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].key, key) == 0)
            def = &keys[i];
    if (!def)
        return unknown_key(where, key);
    if (!*value)
        return lab_error("%s: key '%s' has no value (%s)", where, key, def->help);
    char *field = (char *)exp + def->offset;
    switch (def->type) {
    case KEY_TEST:
        return set_test((char **)field, where, value);
    case KEY_SEED:
        return set_seed(exp, where, key, value);
    case KEY_DISK:
        exp->disk_defaulted = 0;
        return set_choice((char **)field, where, "disk", value, disks,
                          sizeof disks / sizeof disks[0]);
    case KEY_LOAD:
        return set_choice((char **)field, where, "load", value, loads,
                          sizeof loads / sizeof loads[0]);
    case KEY_AGENT_ENUM:
        return set_agent_enum((char **)field, where, key, value, &agent_keys[def->min]);
    case KEY_LOAD_LIST: {
        char *copy = lab_xstrdup(value), *save = NULL;
        int n = 0, rc = 0;
        for (char *w = strtok_r(copy, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save)) {
            char *one = NULL;
            rc = set_choice(&one, where, "load", w, loads, sizeof loads / sizeof loads[0]);
            free(one);
            if (++n > 8)
                rc = lab_error("%s: load_list has more than 8 loads", where);
        }
        free(copy);
        if (rc < 0)
            return rc;
        if (n == 0 || strstr(value, ",,") || value[strlen(value) - 1] == ',')
            return lab_error("%s: load_list = %s: want loads separated by commas", where, value);
        free(*(char **)field);
        *(char **)field = lab_xstrdup(value);
        return 0;
    }
    case KEY_TUNABLES:
        /* Passed to the agent on the kernel command line: no spaces, and
         * sysfs paths stay under the queue directory. */
        if (strpbrk(value, " \t\"'") || strstr(value, ".."))
            return lab_error("%s: %s = %s: no spaces, quotes or '..'", where, key, value);
        free(*(char **)field);
        *(char **)field = lab_xstrdup(value);
        return 0;
    case KEY_RA_LIST: {
        const char *p = value;
        int n = 0;
        while (*p) {
            char *end;
            unsigned long ra = strtoul(p, &end, 10);
            if (end == p || ra < def->min || ra > def->max || (*end && *end != ',') || ++n > 8)
                return lab_error("%s: %s = %s: want up to 8 settings of %llu..%llu sectors, "
                                 "comma-separated",
                                 where, key, value, (unsigned long long)def->min,
                                 (unsigned long long)def->max);
            p = *end ? end + 1 : end;
        }
    }
        /* fall through */
    case KEY_BOOT_ARGS:
        if (boot_args_ok(where, value) < 0)
            return -1;
        /* fall through */
    case KEY_TEXT:
        free(*(char **)field);
        *(char **)field = lab_xstrdup(value);
        return 0;
    case KEY_SIZE_OR_FULL:
        if (strcmp(value, "full") == 0) {
            *(uint64_t *)field = 0;
            return 0;
        }
        /* fall through */
    case KEY_UINT:
    case KEY_SIZE:
        if (parse_size(value, &v) < 0 ||
            (def->type == KEY_UINT && strspn(value, "0123456789") != strlen(value)))
            return lab_error("%s: value of '%s' is not a %s: '%s'", where, key,
                             def->type == KEY_UINT ? "number" : "size (like 256M)", value);
        if (v < def->min || v > def->max)
            return lab_error("%s: %s = %s is out of range [%llu, %llu] (%s)", where, key, value,
                             (unsigned long long)def->min, (unsigned long long)def->max, def->help);
        if (def->type != KEY_UINT)
            *(uint64_t *)field = v;
        else
            *(unsigned *)field = (unsigned)v;
        return 0;
    }
    return -1;
}

static void set_defaults(struct lab_experiment *exp)
{
    memset(exp, 0, sizeof *exp);
    exp->reps = 5;
    /* The first run after boot pays for TCG translating the guest's IO
     * paths (about 3x slower here); it is run and stored, not counted. */
    exp->warmup = 1;
    exp->block_size = 1 << 20;
    exp->file_size = 256ULL << 20;
    exp->disk_size = 256ULL << 20;
    exp->qd = 1;
    exp->count = 2000;
    exp->tree_files = 15000; /* Linux 2.6.0 had about 15,000 files */
    exp->tree_dirs = 900;
    exp->tree_copies = 2;
    exp->tree_seed = 1;
    exp->disk_free = 1ULL << 30;
    exp->load_size = 256ULL << 20;
    exp->write_pct = 50;
    exp->cpu_rounds = 4;
}

/* "default,deadline": 1..max names of [a-z0-9_-], at most 15 characters. */
static int names_list_ok(const char *list, size_t max)
{
    size_t n = 0;
    for (const char *p = list;; n++) {
        size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_-");
        if (len == 0 || len > 15 || n == max || (p[len] != ',' && p[len] != '\0'))
            return 0;
        if (!p[len])
            return 1;
        p += len + 1;
    }
}

int lab_experiment_check(const char *where, struct lab_experiment *exp)
{
    /* Which data disk the test needs by default, and which it can use. */
    const struct lab_testdef *t = lab_test_find(exp->test);
    if (t) {
        if (!exp->disk || exp->disk_defaulted) {
            free(exp->disk);
            exp->disk = lab_xstrdup(t->default_disk);
            exp->disk_defaulted = 1;
        }
        if (!lab_test_takes_disk(t, exp->disk))
            return lab_error("%s: test %s cannot use disk = %s (it needs one of: %s)", where,
                             exp->test, exp->disk, t->disks);
    }
    if ((exp->load_list || (exp->load && strcmp(exp->load, "none") != 0)) &&
        strcmp(exp->disk, "ext3tree") != 0)
        return lab_error("%s: load = %s writes files, so it needs disk = ext3tree", where,
                         exp->load ? exp->load : exp->load_list);
    if (((exp->load && strcmp(exp->load, "copy") == 0) ||
         (exp->load_list && strstr(exp->load_list, "copy"))) &&
        exp->tree_copies < 2)
        return lab_error("%s: load = copy copies /tree1, so it needs tree_copies >= 2", where);
    if (exp->scheduler_list && !names_list_ok(exp->scheduler_list, 4))
        return lab_error("%s: scheduler_list = %s: want up to 4 scheduler names (or default) "
                         "separated by commas",
                         where, exp->scheduler_list);
    if (exp->scheduler_list && exp->scheduler)
        return lab_error("%s: give scheduler or scheduler_list, not both", where);
    return 0;
}

/* One "key = value" line of an experiment file. */
struct parse {
    const char *path;
    struct lab_experiment *exp;
};

static int experiment_line(const struct lab_kv_line *l, void *ctx)
{
    struct parse *ps = ctx;
    char *where = lab_asprintf("%s:%d", ps->path, l->lineno);
    int rc = l->key ? set_key(ps->exp, where, l->key, l->value)
                    : lab_error("%s: expected 'key = value', got '%s'", where, l->value);
    free(where);
    return rc;
}

int lab_experiment_parse(const char *path, const char *text, struct lab_experiment *out)
{
    set_defaults(out);
    out->path = lab_xstrdup(path);
    struct parse ps = {.path = path, .exp = out};
    int rc = lab_kv_walk(text, 0, experiment_line, &ps);
    if (rc == 0 && !out->test)
        rc = lab_error("%s: no 'test = ...' line", path);
    if (rc == 0)
        rc = lab_experiment_check(path, out);
    if (rc < 0)
        lab_experiment_free(out);
    return rc;
}

int lab_experiment_load(const char *name_or_path, struct lab_experiment *out)
{
    char *path;
    if (strchr(name_or_path, '/'))
        path = lab_xstrdup(name_or_path);
    else
        path = lab_asprintf("%s/%s.exp", lab_experiments_dir(), name_or_path);
    char *text = lab_read_text(path, LAB_EXPERIMENT_MAX_BYTES, NULL);
    if (!text) {
        if (errno == ENOENT)
            lab_error("unknown experiment '%s' (no file %s); `lab experiments` lists them",
                      name_or_path, path);
        free(path);
        return -1;
    }
    int rc = lab_experiment_parse(path, text, out);
    if (rc == 0) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        out->name = lab_xstrdup(base);
        char *dot = strrchr(out->name, '.');
        if (dot)
            *dot = '\0';
    }
    free(text);
    free(path);
    return rc;
}

int lab_experiment_set(struct lab_experiment *exp, const char *origin, const char *assignment)
{
    char *copy = lab_xstrdup(assignment), *key, *value;
    int rc = lab_kv_split(copy, &key, &value) < 0
                 ? lab_error("%s: expected key=value, got '%s'", origin, assignment)
                 : set_key(exp, origin, key, value);
    free(copy);
    return rc;
}

int lab_experiment_prepare(const char *name_or_path, char *const *sets, size_t nsets,
                           struct lab_experiment *out)
{
    if (lab_experiment_load(name_or_path, out) < 0)
        return -1;
    for (size_t i = 0; i < nsets; i++) {
        if (lab_experiment_set(out, "--set", sets[i]) < 0) {
            lab_experiment_free(out);
            return -1;
        }
    }
    if (nsets && lab_experiment_check("--set", out) < 0) {
        lab_experiment_free(out);
        return -1;
    }
    return 0;
}

void lab_experiment_free(struct lab_experiment *exp)
{
    free(exp->name);
    free(exp->path);
    free(exp->test);
    free(exp->summary);
    free(exp->disk);
    free(exp->readahead_list);
    free(exp->load);
    free(exp->load_list);
    free(exp->scheduler);
    free(exp->scheduler_list);
    free(exp->sysfs);
    free(exp->elvtune);
    free(exp->drop);
    free(exp->ide_dma);
    free(exp->ide_xfer);
    free(exp->boot_args);
    free(exp->reported);
    free(exp->reported_text);
    memset(exp, 0, sizeof *exp);
}

char *lab_experiment_format(const struct lab_experiment *exp)
{
    char *out = lab_xstrdup("");
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct key_def *def = &keys[i];
        const char *field = (const char *)exp + def->offset;
        char num[24], *line;
        const char *v = num;
        switch (def->type) {
        case KEY_UINT:
            snprintf(num, sizeof num, "%u", *(const unsigned *)field);
            break;
        case KEY_SIZE_OR_FULL:
        case KEY_SIZE: {
            uint64_t n = *(const uint64_t *)field;
            snprintf(num, sizeof num, "%llu", (unsigned long long)n);
            if (def->type == KEY_SIZE_OR_FULL && n == 0)
                v = "full";
            break;
        }
        case KEY_SEED:
            continue; /* their lines, as given, follow the loop */
        default:
            v = *(char *const *)field;
        }
        if (!v || (def->type == KEY_DISK && exp->disk_defaulted))
            continue; /* unset; a defaulted disk is the test's again */
        line = lab_asprintf("%s%s = %s\n", out, def->key, v);
        free(out);
        out = line;
    }
    if (exp->reported_text) {
        char *all = lab_asprintf("%s%s", out, exp->reported_text);
        free(out);
        out = all;
    }
    return out;
}

/* One key's value as text, through the agent's own parser for that key: a
 * value it would refuse is not sent (the agent would keep its default), and
 * the host says so. */
static void agent_text(struct agent_config *c, uint64_t *sent, enum agent_key_id id,
                       const char *text)
{
    const struct agent_key *k = &agent_keys[id];
    const char *why = agent_key_set(k, c, text, strlen(text));
    if (why) {
        lab_warn("the agent would refuse lab.%s=%s (%s lab.%s); not sent", k->name, text, why,
                 k->name);
        return;
    }
    *sent |= AGENT_KEY(id);
}

static void agent_u64(struct agent_config *c, uint64_t *sent, enum agent_key_id id, uint64_t v)
{
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    agent_text(c, sent, id, text);
}

uint64_t lab_experiment_agent_config(const struct lab_experiment *exp, struct agent_config *c)
{
    uint64_t k = 0;
    struct lab_warmup w = lab_warmup_of_experiment(exp); /* the agent's groups: lab_warmup_is */
    agent_config_defaults(c);
    agent_text(c, &k, AGENT_K_TEST, exp->test);
    agent_u64(c, &k, AGENT_K_REPS, w.every);
    agent_u64(c, &k, AGENT_K_BS, exp->block_size);
    agent_u64(c, &k, AGENT_K_RA, exp->readahead);
    /* A test whose work is the file (testdef.h) reads file_size bytes of
     * it; the device tests read_size of the device. */
    const struct lab_testdef *t = lab_test_find(exp->test);
    agent_u64(c, &k, AGENT_K_SIZE, t && t->work == LAB_WORK_FILE ? exp->file_size : exp->read_size);
    agent_u64(c, &k, AGENT_K_VERIFY, exp->verify);
    agent_u64(c, &k, AGENT_K_DIRECT, exp->direct);
    agent_u64(c, &k, AGENT_K_QD, exp->qd);
    agent_u64(c, &k, AGENT_K_COUNT, exp->count);
    agent_u64(c, &k, AGENT_K_SPAN, exp->span);
    agent_u64(c, &k, AGENT_K_OFFSET, exp->offset);
    agent_text(c, &k, AGENT_K_FS, strcmp(exp->disk, "ext3tree") == 0 ? "ext3" : "ext2");
    agent_text(c, &k, AGENT_K_FILE, "big_file");
    if (exp->readahead_list)
        agent_text(c, &k, AGENT_K_RA_LIST, exp->readahead_list);
    if (exp->load && strcmp(exp->load, "none") != 0) {
        agent_text(c, &k, AGENT_K_LOAD, exp->load);
        agent_u64(c, &k, AGENT_K_LOAD_SIZE, exp->load_size);
    }
    if (exp->sysfs)
        agent_text(c, &k, AGENT_K_SYSFS, exp->sysfs);
    if (exp->elvtune)
        agent_text(c, &k, AGENT_K_ELVTUNE, exp->elvtune);
    agent_u64(c, &k, AGENT_K_WRITE_PCT, exp->write_pct);
    agent_u64(c, &k, AGENT_K_CPU_ROUNDS, exp->cpu_rounds);
    agent_u64(c, &k, AGENT_K_KPROFILE, exp->kprofile);
    agent_u64(c, &k, AGENT_K_WARMUP, w.warmup);
    if (exp->warmup_size)
        agent_u64(c, &k, AGENT_K_WARMUP_SIZE, exp->warmup_size);
    /* Sent only when asked for: "auto" is the agent's default. */
    static const struct {
        size_t off;
        enum agent_key_id id;
    } enums[] = {{OFF(drop), AGENT_K_DROP},
                 {OFF(ide_dma), AGENT_K_IDE_DMA},
                 {OFF(ide_xfer), AGENT_K_IDE_XFER}};
    for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++) {
        const char *v = *(char *const *)((const char *)exp + enums[i].off);
        if (v && strcmp(v, "auto") != 0)
            agent_text(c, &k, enums[i].id, v);
    }
    return k;
}

char *lab_experiment_cmdline(const struct lab_experiment *exp)
{
    struct agent_config c;
    uint64_t sent = lab_experiment_agent_config(exp, &c);
    char buf[LAB_PARAMS_MAX];
    if (agent_params_format(&c, sent, buf, sizeof buf) < 0) {
        /* Cannot be: every value is bounded well below the file's limit. */
        lab_error("the agent's parameters of %s pass %d bytes", exp->name, LAB_PARAMS_MAX);
        abort();
    }
    return lab_xstrdup(buf);
}
