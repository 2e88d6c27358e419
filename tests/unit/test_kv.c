/* Unit tests of common/kv.c, the "key = value" walker of experiment files
 * and disk profiles: comments, blank lines, spaces, malformed and long
 * lines, the source-comment link, and a callback's stop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/kv.h"

/* What the walker handed over, one "lineno|key|value|flags" per line. */
struct got {
    char text[1024];
    int calls, stop_at;
};

static int record(const struct lab_kv_line *l, void *ctx)
{
    struct got *g = ctx;
    size_t n = strlen(g->text);
    snprintf(g->text + n, sizeof g->text - n, "%d|%s|%s|%s%s\n", l->lineno,
             l->key ? l->key : "(none)", l->value, l->commented ? "c" : "", l->too_long ? "L" : "");
    return ++g->calls == g->stop_at ? 5 : 0;
}

static void test_pairs_comments_blanks(void **state)
{
    struct got g = {0};
    const char *text = "# a note\n"
                       "  rpm =  7200   \n"
                       "\n"
                       "heads=4 # datasheet\n"
                       "zones = \n"
                       "   \t\n"
                       "# only a note\n"
                       "\n"
                       "bus = ide";
    assert_int_equal(lab_kv_walk(text, 0, record, &g), 0);
    assert_string_equal(g.text, "2|rpm|7200|c\n"
                                "4|heads|4|c\n"
                                "5|zones||\n"
                                "9|bus|ide|\n");
}

/* The first '=' splits: a value may hold more. */
static void test_first_equals(void **state)
{
    struct got g = {0};
    assert_int_equal(lab_kv_walk("sysfs = a=1,b=2\n", 0, record, &g), 0);
    assert_string_equal(g.text, "1|sysfs|a=1,b=2|\n");
}

static void test_malformed_line(void **state)
{
    struct got g = {0};
    assert_int_equal(lab_kv_walk("  no equals here  \n", 0, record, &g), 0);
    assert_string_equal(g.text, "1|(none)|no equals here|\n");
}

/* A line over max_line is handed over as too long, blank or not; a line
 * of exactly max_line is not. */
static void test_long_line(void **state)
{
    struct got g = {0};
    assert_int_equal(lab_kv_walk("a = 123\nbb = 1234\n          \n", 8, record, &g), 0);
    assert_string_equal(g.text, "1|a|123|\n2|(none)||L\n3|(none)||L\n");
}

static void test_stop(void **state)
{
    struct got g = {.stop_at = 2};
    assert_int_equal(lab_kv_walk("a = 1\nb = 2\nc = 3\n", 0, record, &g), 5);
    assert_int_equal(g.calls, 2);
}

static void test_split_and_trim(void **state)
{
    char s[] = "  key\t=  value with spaces \t", *k, *v;
    assert_int_equal(lab_kv_split(s, &k, &v), 0);
    assert_string_equal(k, "key");
    assert_string_equal(v, "value with spaces");
    char none[] = "no pair";
    assert_int_equal(lab_kv_split(none, &k, &v), -1);
    assert_string_equal(none, "no pair");
    char blank[] = " \t ";
    assert_string_equal(lab_kv_trim(blank), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs_comments_blanks),
        cmocka_unit_test(test_first_equals),
        cmocka_unit_test(test_malformed_line),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_split_and_trim),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
