/* Experiment files: "key = value" lines checked against one table. */
#include "host/experiment.h"
#include "host/testdef.h"
#include "common/file.h"
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

#ifndef LAB_EXPERIMENTS_DIR
#define LAB_EXPERIMENTS_DIR "lab/experiments"
#endif

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
    KEY_LOAD_LIST
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
};

/* The agent's tests are host/testdef.h's. */
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
    const char *env = getenv("LAB_EXPERIMENTS");
    return env && *env ? env : LAB_EXPERIMENTS_DIR;
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

static int set_key(struct lab_experiment *exp, const char *where, const char *key,
                   const char *value)
{
    const struct key_def *def = NULL;
    uint64_t v;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(keys[i].key, key) == 0)
            def = &keys[i];
    if (!def) {
        char known[256] = "";
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, keys[i].key, sizeof known - strlen(known) - 1);
        }
        return lab_error("%s: unknown key '%s' (known keys: %s)", where, key, known);
    }
    if (!*value)
        return lab_error("%s: key '%s' has no value (%s)", where, key, def->help);
    char *field = (char *)exp + def->offset;
    switch (def->type) {
    case KEY_TEST:
        return set_test((char **)field, where, value);
    case KEY_DISK:
        exp->disk_defaulted = 0;
        return set_choice((char **)field, where, "disk", value, disks,
                          sizeof disks / sizeof disks[0]);
    case KEY_LOAD:
        return set_choice((char **)field, where, "load", value, loads,
                          sizeof loads / sizeof loads[0]);
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

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
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

int lab_experiment_parse(const char *path, const char *text, struct lab_experiment *out)
{
    char *copy = lab_xstrdup(text), *save = NULL;
    int lineno = 0, rc = 0;
    set_defaults(out);
    out->path = lab_xstrdup(path);
    for (char *line = copy; line && rc == 0; line = save) {
        save = strchr(line, '\n');
        if (save)
            *save++ = '\0';
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (!*s)
            continue;
        char *where = lab_asprintf("%s:%d", path, lineno);
        char *eq = strchr(s, '=');
        if (!eq) {
            rc = lab_error("%s: expected 'key = value', got '%s'", where, s);
        } else {
            *eq = '\0';
            rc = set_key(out, where, trim(s), trim(eq + 1));
        }
        free(where);
    }
    free(copy);
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
    char *copy = lab_xstrdup(assignment);
    char *eq = strchr(copy, '=');
    int rc;
    if (!eq) {
        rc = lab_error("%s: expected key=value, got '%s'", origin, assignment);
    } else {
        *eq = '\0';
        rc = set_key(exp, origin, trim(copy), trim(eq + 1));
    }
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
    memset(exp, 0, sizeof *exp);
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
    agent_config_defaults(c);
    agent_text(c, &k, AGENT_K_TEST, exp->test);
    agent_u64(c, &k, AGENT_K_REPS, (uint64_t)exp->reps + exp->warmup);
    agent_u64(c, &k, AGENT_K_BS, exp->block_size);
    agent_u64(c, &k, AGENT_K_RA, exp->readahead);
    agent_u64(c, &k, AGENT_K_SIZE,
              strcmp(exp->test, "seqread") == 0 ? exp->file_size : exp->read_size);
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
    agent_u64(c, &k, AGENT_K_WARMUP, exp->warmup);
    if (exp->warmup_size)
        agent_u64(c, &k, AGENT_K_WARMUP_SIZE, exp->warmup_size);
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
