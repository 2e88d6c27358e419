/* A small SVG plotting module for the HTML report: one chart with linear
 * axes (or categories along x), series drawn as lines, points or bars,
 * optional error bars, horizontal reference lines and a legend. Output is
 * plain inline SVG text: no script, no external resource, so the page
 * works from file:// with no network. */
#ifndef LAB_SVG_H
#define LAB_SVG_H

#include <stddef.h>

enum lab_series_kind {
    LAB_SERIES_LINE,   /* points joined in order, with markers */
    LAB_SERIES_POINTS, /* markers only */
    LAB_SERIES_BARS,   /* bars from the baseline; grouped by category */
};

struct lab_series {
    const char *name; /* in the legend; NULL: not listed */
    enum lab_series_kind kind;
    const double *x;       /* NULL: 0, 1, 2 ... (categories) */
    const double *y;       /* a NaN value is not drawn */
    const double *lo, *hi; /* error bars from lo to hi; NULL: none */
    size_t n;
    int color;     /* index into the palette; series with equal colors match */
    double radius; /* markers; 0: the default */
};

struct lab_chart {
    const char *title, *xlabel, *ylabel;
    const char *const *categories; /* non-NULL: labels of x = 0 .. n-1 */
    size_t ncategories;
    int width, height;    /* 0: 640 x 320 */
    int y_from_zero;      /* the y axis starts at 0 (bars always do) */
    int x_log2;           /* numeric x on a log2 scale (readahead settings) */
    const double *hlines; /* reference lines across the chart */
    const char *const *hline_labels;
    size_t nhlines;
};

/* The chart as an <svg> element (malloc'd). */
char *lab_svg_chart(const struct lab_chart *c, const struct lab_series *s, size_t ns);

/* Round tick values covering [lo, hi]: at most max of them, a step of 1, 2
 * or 5 times a power of ten. Returns how many were written to out. */
size_t lab_svg_ticks(double lo, double hi, size_t max, double *out);

/* Text with & < > " escaped, for element text and attribute values
 * (malloc'd). */
char *lab_svg_escape(const char *s);

#endif
