/* Unit tests of the profile parser (host/hdd/profile.c) and the shipped
 * lab/profiles/NAME.profile files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "host/hdd/profile.h"

#define PROFILES_DIR LAB_SOURCE_DIR "/lab/profiles"

/* A complete, valid profile; the tests append or replace lines. */
static const char *base = "# test drive\n"
                          "description = test drive # est\n"
                          "bus = ide # est\n"
                          "queue_depth = 1 # est\n"
                          "memory_mib = 256 # est\n"
                          "capacity_bytes = 102400000 # est\n"
                          "rpm = 6000 # est\n"
                          "heads = 2 # est\n"
                          "zones = 20 # est\n"
                          "media_outer_mbs = 6 # est\n"
                          "media_inner_mbs = 4 # est\n"
                          "head_switch_ms = 1 # est\n"
                          "cyl_switch_ms = 2 # est\n"
                          "seek = lee # est\n"
                          "seek_t2t_ms = 1 # est\n"
                          "seek_avg_ms = 5 # est\n"
                          "seek_full_ms = 10 # est\n"
                          "write_settle_ms = 0.5 # est\n"
                          "overhead_read_miss_ms = 0.5 # est\n"
                          "overhead_read_hit_ms = 0.1 # est\n"
                          "overhead_write_ms = 0.2 # est\n"
                          "interface_mbs = 100 # est\n"
                          "# est: 2 MB\n"
                          "cache_kib = 2048\n"
                          "cache_segments = 8 # est\n"
                          "write_cache = 1 # est\n";

static int parse(const char *text, struct hdd_params *p, char *err, size_t n)
{
    err[0] = 0;
    return hdd_profile_parse("t.profile", text, p, err, n);
}

static void test_base_parses(void **state)
{
    struct hdd_params p;
    char err[256];
    assert_int_equal(parse(base, &p, err, sizeof(err)), 0);
    assert_string_equal(p.description, "test drive");
    assert_int_equal(p.bus, HDD_BUS_IDE);
    assert_true(p.capacity_bytes == 102400000);
    assert_true(p.rpm == 6000);
    assert_true(p.cache_bytes == 2048 * 1024);
    assert_true(p.media_inner_mbs == 4);
    assert_int_equal(p.seek_type, HDD_SEEK_LEE);
    assert_true(p.max_wait_ms == 100); /* default */
}

/* Every shipped profile (lab/profiles/NAME.profile) loads and summarises,
 * so a profile added as one file is checked without a line here; the five
 * whose figures the reference table gives stay within 5% of it. */
static void test_shipped_profiles(void **state)
{
    static const struct {
        const char *name;
        double rand4k_ms; /* §4 table rand-4K column */
    } table[] = {{"pata-1999", 15},
                 {"pata-2003", 13},
                 {"sata-ncq-2005", 13},
                 {"scsi-10k-1999", 8.9},
                 {"scsi-15k-2004", 5.8}};
    size_t shipped = 0, compared = 0;
    DIR *d = opendir(PROFILES_DIR);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 9 || strcmp(e->d_name + len - 8, ".profile") != 0)
            continue;
        char path[512], err[512] = "", line[512];
        struct hdd_params p;
        snprintf(path, sizeof(path), "%s/%s", PROFILES_DIR, e->d_name);
        if (hdd_profile_load(path, &p, err, sizeof(err)) < 0)
            fail_msg("%s", err);
        assert_true(hdd_profile_summary(&p, line, sizeof(line)) > 0);
        assert_non_null(strstr(line, "rpm"));
        shipped++;
        for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
            if (strncmp(e->d_name, table[i].name, len - 8) != 0 || table[i].name[len - 8])
                continue;
            /* The model's expectation stays within 5% of the reference table. */
            double ms = hdd_expect_random_ms(&p, p.capacity_bytes, 4096);
            if (ms < table[i].rand4k_ms * 0.95 || ms > table[i].rand4k_ms * 1.05)
                fail_msg("%s: random 4K %.2f ms, table %.1f", table[i].name, ms,
                         table[i].rand4k_ms);
            compared++;
        }
    }
    closedir(d);
    assert_int_equal(compared, sizeof(table) / sizeof(table[0]));
    assert_true(shipped >= compared);
}

/* Replaces the line starting with key (or appends when key is NULL). */
static void edit(char *out, size_t n, const char *key, const char *line)
{
    const char *s = base;
    out[0] = 0;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = (size_t)(nl - s) + 1;
        if (key && !strncmp(s, key, strlen(key)) && s[strlen(key)] == ' ')
            strncat(out, line, n - strlen(out) - 1);
        else
            strncat(out, s, len < n - strlen(out) - 1 ? len : n - strlen(out) - 1);
        s += len;
    }
    if (!key)
        strncat(out, line, n - strlen(out) - 1);
}

static void expect_error(const char *key, const char *line, const char *want)
{
    char text[4096], err[256];
    struct hdd_params p;
    edit(text, sizeof(text), key, line);
    assert_int_equal(parse(text, &p, err, sizeof(err)), -1);
    if (!strstr(err, want))
        fail_msg("error '%s' lacks '%s'", err, want);
}

static void test_errors(void **state)
{
    /* Appended after the 26 lines of base: line 27. */
    expect_error(NULL, "foo = 1 # est\n", "t.profile:27: unknown key 'foo'");
    /* rpm is line 7. */
    expect_error("rpm", "rpm = # est\n", "t.profile:7: missing value for 'rpm'");
    expect_error("rpm", "rpm = 90000 # est\n", "t.profile:7: rpm: value out of range '90000'");
    expect_error("rpm", "rpm = 72OO # est\n", "t.profile:7: rpm: malformed number '72OO'");
    expect_error("rpm", "rpm = 7200\n", "t.profile:7: 'rpm' has no source comment");
    expect_error("heads", "heads = 2.5 # est\n", "t.profile:8: heads: integer expected");
    expect_error("bus", "bus = usb # est\n", "t.profile:3: bus: bus must be ide, sata or scsi");
    expect_error(NULL, "rpm = 7200 # est\n", "t.profile:27: duplicate key 'rpm'");
    expect_error(NULL, "just words\n", "t.profile:27: expected 'key = value'");
    /* Dropping a required key: reported at the last line (26). */
    expect_error("rpm", "", "t.profile:25: missing required key 'rpm'");
    /* HPL seek needs V1..V5. */
    expect_error("seek", "seek = hpl # est\n", "missing required key 'hpl_v1'");
    /* Cross-key: a seek curve that is not increasing. */
    expect_error("seek_avg_ms", "seek_avg_ms = 9.9 # est\n", "t.profile:26: Lee seek fit");
    expect_error("media_inner_mbs", "media_inner_mbs = 7 # est\n", "inner <= outer");
}

static void test_load_missing_file(void **state)
{
    struct hdd_params p;
    char err[256] = "";
    assert_int_equal(hdd_profile_load("/nonexistent/x.profile", &p, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "/nonexistent/x.profile"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base_parses),
        cmocka_unit_test(test_shipped_profiles),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_load_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
