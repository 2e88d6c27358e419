/* The agent's key table (guest-agent/keys.c) and the host's parameters
 * generated from it: every key round-trips through the table's format and
 * the agent's parser, and every shipped experiment's parameters, as
 * host/plan/experiment.c writes them (and the cell's, as host/plan/celldomain.c adds
 * them), parse back in the agent to exactly what the host meant. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/plan/celldomain.h"
#include "host/plan/experiment.h"
#include "guest-agent/keys.h"
#include "guest-agent/protocol.h"

/* A value for every key, none its default: adding a key to the agent's
 * table without a value here fails test_every_key. */
static const char *const values[AGENT_KEY_COUNT] = {
    [AGENT_K_TEST] = "randread",
    [AGENT_K_REPS] = "7",
    [AGENT_K_BS] = "65536",
    [AGENT_K_RA] = "512",
    [AGENT_K_SIZE] = "123456789",
    [AGENT_K_VERIFY] = "1",
    [AGENT_K_DIRECT] = "1",
    [AGENT_K_QD] = "32",
    [AGENT_K_COUNT] = "65536",
    [AGENT_K_SPAN] = "1048576",
    [AGENT_K_OFFSET] = "4096",
    [AGENT_K_FS] = "ext3",
    [AGENT_K_FILE] = "dir/f_1.bin",
    [AGENT_K_RA_LIST] = "256,0,64",
    [AGENT_K_LOAD] = "io_other",
    [AGENT_K_LOAD_SIZE] = "8388608",
    [AGENT_K_SYSFS] = "read_ahead_kb:128,iosched/quantum:4",
    [AGENT_K_ELVTUNE] = "2147483647,0",
    [AGENT_K_WRITE_PCT] = "100",
    [AGENT_K_CPU_ROUNDS] = "1000000",
    [AGENT_K_KPROFILE] = "1",
    [AGENT_K_WARMUP] = "2",
    [AGENT_K_WARMUP_SIZE] = "16777216",
    [AGENT_K_SCHED] = "mq-deadline",
    [AGENT_K_DEV] = "hda",
    [AGENT_K_DEV2] = "hdc",
    [AGENT_K_CHAN] = "ttyS1",
    [AGENT_K_RA_BLKFRA] = "1",
    [AGENT_K_SEED] = "18446744073709551615",
    [AGENT_K_TIMEOUT] = "86400",
    [AGENT_K_DEVTMPFS] = "0",
    [AGENT_K_TREE] = "trees/t2",
    [AGENT_K_LOAD_SRC] = "tree3",
    [AGENT_K_LOAD_DST] = "out/copy",
    [AGENT_K_LOAD_FILE] = "other_file",
    [AGENT_K_RW] = "1",
    [AGENT_K_DROP] = "remount",
    [AGENT_K_IDE_DMA] = "on",
    [AGENT_K_IDE_XFER] = "udma2",
};

static unsigned parse(struct agent_config *c, const char *s)
{
    agent_config_defaults(c);
    return agent_config_parse(c, s, strlen(s));
}

static unsigned words(const char *s)
{
    unsigned n = 0;
    for (const char *p = s; *p; p++)
        if (p[0] != ' ' && (p == s || p[-1] == ' '))
            n++;
    return n;
}

static void test_table(void **state)
{
    struct agent_config c;
    agent_config_defaults(&c);
    assert_int_equal(c.errors, 0); /* every default goes through the parser */
    assert_int_equal(c.given, 0);
    assert_true(c.seed == LAB_CONTENT_SEED_DEFAULT);
    assert_true(c.load_size == AGENT_LOAD_SIZE_DEFAULT);
    assert_true(c.cpu_rounds == AGENT_CPU_ROUNDS_DEFAULT);
    for (int i = 0; i < AGENT_KEY_COUNT; i++) {
        const struct agent_key *k = &agent_keys[i];
        assert_non_null(k->name);
        assert_non_null(k->help);
        assert_ptr_equal(agent_key_find(k->name, strlen(k->name)), k);
        if (k->type == AGENT_KT_U64)
            assert_true(k->lo <= k->hi);
    }
    assert_null(agent_key_find("nosuch", 6));
    assert_null(agent_key_find("tes", 3));
    /* The defaults written out read back as themselves. */
    uint64_t with_default = 0;
    for (int i = 0; i < AGENT_KEY_COUNT; i++)
        if (agent_keys[i].def)
            with_default |= AGENT_KEY(i);
    char buf[LAB_PARAMS_MAX];
    assert_true(agent_params_format(&c, with_default, buf, sizeof buf) > 0);
    struct agent_config d;
    assert_int_equal(parse(&d, buf), 0);
    for (int i = 0; i < AGENT_KEY_COUNT; i++)
        assert_true(agent_key_equal(&agent_keys[i], &c, &d));
}

/* Every key set to a value that is not its default, written by the table's
 * format, parsed by the agent: the same value comes back. */
static void test_every_key(void **state)
{
    struct agent_config want, got, def;
    agent_config_defaults(&want);
    agent_config_defaults(&def);
    for (int i = 0; i < AGENT_KEY_COUNT; i++) {
        const struct agent_key *k = &agent_keys[i];
        if (!values[i])
            fail_msg("lab.%s has no test value", k->name);
        const char *why = agent_key_set(k, &want, values[i], strlen(values[i]));
        if (why)
            fail_msg("lab.%s=%s: %s", k->name, values[i], why);
        if (agent_key_equal(k, &want, &def))
            fail_msg("lab.%s=%s is its default", k->name, values[i]);
    }
    char buf[LAB_PARAMS_MAX];
    long n = agent_params_format(&want, AGENT_KEYS_ALL, buf, sizeof buf);
    assert_true(n > 0 && (size_t)n == strlen(buf));
    assert_int_equal(words(buf), AGENT_KEY_COUNT);
    assert_int_equal(parse(&got, buf), 0);
    assert_int_equal(got.unknown, 0);
    for (int i = 0; i < AGENT_KEY_COUNT; i++)
        if (!agent_key_equal(&agent_keys[i], &want, &got))
            fail_msg("lab.%s=%s did not round-trip: %s", agent_keys[i].name, values[i], buf);
    assert_int_equal(got.given, AGENT_GIVEN_BS | AGENT_GIVEN_DIRECT | AGENT_GIVEN_RW);
    /* A key's value as written is the value as given. */
    assert_non_null(strstr(buf, "lab.sysfs=read_ahead_kb:128,iosched/quantum:4 "));
    assert_non_null(strstr(buf, "lab.seed=18446744073709551615 "));
    assert_non_null(strstr(buf, "lab.chan=ttyS1 "));
    /* Too small a buffer is refused, not cut. */
    assert_int_equal(agent_params_format(&want, AGENT_KEYS_ALL, buf, (size_t)n), -1);
    assert_true(agent_params_format(&want, AGENT_KEYS_ALL, buf, (size_t)n + 1) == n);
}

/* The host's words for exp parse back in the agent to the configuration
 * the host meant, key by key; returns the keys sent. */
static uint64_t round_trip(const struct lab_experiment *exp, const char *what)
{
    struct agent_config meant, got;
    uint64_t sent = lab_experiment_agent_config(exp, &meant);
    char *words_ = lab_experiment_cmdline(exp);
    unsigned errors = parse(&got, words_);
    if (errors || got.unknown)
        fail_msg("%s: the agent refuses the host's parameters (%s): %s", what, got.err, words_);
    unsigned n = 0;
    for (int i = 0; i < AGENT_KEY_COUNT; i++) {
        if (!(sent & AGENT_KEY(i)))
            continue;
        n++;
        if (!agent_key_equal(&agent_keys[i], &meant, &got))
            fail_msg("%s: lab.%s reads back differently: %s", what, agent_keys[i].name, words_);
    }
    assert_int_equal(words(words_), n);
    /* And what the host meant is the experiment. */
    assert_string_equal(got.test, exp->test);
    assert_true(got.reps == (uint64_t)exp->reps + exp->warmup);
    assert_true(got.warmup == exp->warmup && got.warmup_size == exp->warmup_size);
    assert_true(got.bs == exp->block_size);
    assert_true(got.direct == exp->direct);
    assert_true(got.verify == exp->verify);
    assert_true(got.kprofile == exp->kprofile);
    if (exp->load && strcmp(exp->load, "none") != 0)
        assert_string_equal(agent_load_name(got.load), exp->load);
    else
        assert_int_equal(got.load, AGENT_LOAD_NONE);
    if (exp->readahead_list)
        assert_true(got.ra_count > 0);
    free(words_);
    return sent;
}

/* The experiment keys: all the host's experiment generator can send. */
#define EXPERIMENT_KEYS (AGENT_KEY(AGENT_K_WARMUP_SIZE + 1) - 1)

static uint64_t round_trip_set(const char *name, const char *assignment)
{
    struct lab_experiment exp;
    assert_int_equal(lab_experiment_load(name, &exp), 0);
    if (assignment && lab_experiment_set(&exp, "test", assignment) < 0)
        fail_msg("%s: --set %s refused", name, assignment);
    char what[160];
    snprintf(what, sizeof what, "%s %s", name, assignment ? assignment : "");
    uint64_t sent = round_trip(&exp, what);
    lab_experiment_free(&exp);
    return sent;
}

/* Every shipped experiment, once per load of its load_list, round-trips;
 * with two --set overrides for the keys none of them uses, every
 * experiment key is sent at least once. */
static void test_shipped_experiments(void **state)
{
    DIR *d = opendir(lab_experiments_dir());
    assert_non_null(d);
    uint64_t seen = 0;
    unsigned exps = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".exp") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(n - 4), e->d_name);
        struct lab_experiment exp;
        assert_int_equal(lab_experiment_load(name, &exp), 0);
        seen |= round_trip(&exp, name);
        exps++;
        char *list = exp.load_list ? strdup(exp.load_list) : NULL, *save = NULL;
        for (char *load = list ? strtok_r(list, ",", &save) : NULL; load;
             load = strtok_r(NULL, ",", &save)) {
            char set[64];
            snprintf(set, sizeof set, "load=%s", load);
            seen |= round_trip_set(name, set);
        }
        free(list);
        lab_experiment_free(&exp);
    }
    closedir(d);
    assert_true(exps >= 10);
    seen |= round_trip_set("seqread", "sysfs=read_ahead_kb:128,iosched/quantum:4");
    seen |= round_trip_set("seqread", "elvtune=100,200");
    seen |= round_trip_set("seqread", "warmup_size=16M");
    for (int i = 0; i < AGENT_KEY_COUNT; i++)
        if ((EXPERIMENT_KEYS & AGENT_KEY(i)) && !(seen & AGENT_KEY(i)))
            fail_msg("no experiment sent lab.%s", agent_keys[i].name);
    assert_true((seen & ~EXPERIMENT_KEYS) == 0);
}

/* The whole file a cell's boot image carries: the experiment's words and
 * the cell's (disks, channel, scheduler, 2.4's readahead) parse cleanly. */
static void cell_params(const char *version, const char *arch, const char *bus_name,
                        enum lab_channel_kind ch, const char *extra, const char *want)
{
    struct lab_era era;
    struct lab_experiment exp;
    assert_int_equal(lab_era_for(version, arch, &era), 0);
    assert_int_equal(lab_experiment_load("seqread", &exp), 0);
    if (extra)
        assert_int_equal(lab_experiment_set(&exp, "test", extra), 0);
    struct lab_cell_plan plan = {.era = era, .bus = lab_bus_find(bus_name), .channel = ch};
    char why[256];
    assert_int_equal(lab_cell_plan_rules(&plan, &exp, why, sizeof why), 0);
    char *p = lab_cell_agent_params(&plan, &exp);
    struct agent_config c;
    if (parse(&c, p) || c.unknown)
        fail_msg("%s: the agent refuses the cell's parameters (%s): %s", version, c.err, p);
    if (!strstr(p, want))
        fail_msg("%s: no %s in %s", version, want, p);
    free(p);
    lab_experiment_free(&exp);
}

static void test_cell_params(void **state)
{
    cell_params("2.4.26", "i686", "ide", LAB_CHANNEL_UART, NULL, "lab.ra_blkfra=1");
    cell_params("2.4.26", "i686", "ide", LAB_CHANNEL_UART, NULL, "lab.dev=hda lab.dev2=hdc");
    cell_params("2.6.18", "x86_64", "ide", LAB_CHANNEL_UART, "scheduler=deadline",
                "lab.sched=deadline");
    cell_params("6.12.113", "x86_64", "virtio-scsi", LAB_CHANNEL_VIRTIO_SERIAL, NULL,
                "lab.chan=virtio");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_every_key),
        cmocka_unit_test(test_shipped_experiments),
        cmocka_unit_test(test_cell_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
