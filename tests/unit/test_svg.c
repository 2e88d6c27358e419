/* The SVG plotting module: tick choice, escaping, element counts per
 * series kind, NaN values left out, well-formed XML, and one golden chart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <libxml/parser.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/golden.h"
#include "host/report/svg.h"

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void assert_well_formed(const char *svg)
{
    xmlDocPtr doc = xmlReadMemory(svg, (int)strlen(svg), "chart.svg", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlFreeDoc(doc);
}

static void test_ticks(void **state)
{
    double t[16];
    size_t n = lab_svg_ticks(0, 57.3, 7, t);
    assert_int_equal(n, 7); /* 0 10 ... 60 */
    assert_true(t[0] == 0 && t[6] == 60);
    n = lab_svg_ticks(0.98, 1.02, 7, t);
    assert_int_equal(n, 5); /* 0.98 0.99 1.00 1.01 1.02 */
    assert_float_equal(t[0], 0.98, 1e-12);
    assert_float_equal(t[4], 1.02, 1e-12);
    n = lab_svg_ticks(-3, 3, 7, t); /* symmetric, through 0 exactly */
    assert_true(t[0] <= -3 && t[n - 1] >= 3);
    int zero = 0;
    for (size_t i = 0; i < n; i++)
        zero |= t[i] == 0 && !signbit(t[i]);
    assert_true(zero);
    n = lab_svg_ticks(5, 5, 7, t); /* one value: still an axis around it */
    assert_true(n >= 2 && t[0] <= 5 && t[n - 1] >= 5 && t[0] < t[n - 1]);
    for (size_t i = 1; i < n; i++)
        assert_true(t[i] > t[i - 1]);
}

static void test_escape(void **state)
{
    char *e = lab_svg_escape("<a & \"b\">");
    assert_string_equal(e, "&lt;a &amp; &quot;b&quot;&gt;");
    free(e);
}

static void test_counts(void **state)
{
    static const double y1[] = {1, 2, NAN, 4}, lo1[] = {0.5, 1.5, NAN, 3.5},
                        hi1[] = {1.5, 2.5, NAN, 4.5};
    static const double y2[] = {2, 3, 4}, xs[] = {64, 128, 256};
    static const char *const cats[] = {"a", "b", "c", "d"};
    struct lab_series s[] = {
        {.name = "points <1>", .kind = LAB_SERIES_POINTS, .y = y1, .lo = lo1, .hi = hi1, .n = 4},
    };
    struct lab_chart c = {.title = "t & u", .categories = cats, .ncategories = 4};
    char *svg = lab_svg_chart(&c, s, 1);
    assert_int_equal(count(svg, "class=\"point\""), 3); /* the NaN is not drawn */
    assert_int_equal(count(svg, "class=\"err\""), 3);
    assert_non_null(strstr(svg, "points &lt;1&gt;"));
    assert_non_null(strstr(svg, "t &amp; u"));
    assert_well_formed(svg);
    free(svg);

    struct lab_series lines[] = {
        {.name = "k1", .kind = LAB_SERIES_LINE, .x = xs, .y = y2, .lo = y2, .hi = y2, .n = 3},
        {.name = "k2", .kind = LAB_SERIES_LINE, .x = xs, .y = y2, .n = 3, .color = 1},
    };
    double ref = 3.5;
    const char *ref_label = "good";
    struct lab_chart lc = {.x_log2 = 1, .hlines = &ref, .hline_labels = &ref_label, .nhlines = 1};
    svg = lab_svg_chart(&lc, lines, 2);
    assert_int_equal(count(svg, "class=\"line\""), 2);
    assert_int_equal(count(svg, "class=\"point\""), 6);
    assert_int_equal(count(svg, "class=\"err\""), 3);
    assert_int_equal(count(svg, "class=\"ref\""), 1);
    assert_non_null(strstr(svg, ">128<")); /* log2 ticks at the powers of two */
    assert_well_formed(svg);
    free(svg);
}

/* Grouped bars: two series over three categories, with error bars. */
static void test_bars_golden(void **state)
{
    static const char *const cats[] = {"no_load", "io_load", "read_load"};
    static const double a[] = {1, 6.67, 10.9}, b[] = {1, 11.52, 19.79};
    static const double alo[] = {0.9, 6.1, 10.1}, ahi[] = {1.1, 7.2, 11.7};
    struct lab_series s[] = {
        {.name = "6.1.0-47", .kind = LAB_SERIES_BARS, .y = a, .lo = alo, .hi = ahi, .n = 3},
        {.name = "6.12.113", .kind = LAB_SERIES_BARS, .y = b, .n = 3, .color = 1},
    };
    struct lab_chart c = {.title = "contest Ratio",
                          .ylabel = "time / no_load time",
                          .categories = cats,
                          .ncategories = 3,
                          .width = 480,
                          .height = 240};
    char *svg = lab_svg_chart(&c, s, 2);
    assert_int_equal(count(svg, "class=\"bar\""), 6);
    assert_int_equal(count(svg, "class=\"err\""), 3);
    assert_well_formed(svg);
    assert_golden("svg-bars.svg", svg);
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_bars_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
