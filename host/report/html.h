/* `lab report RUN [RUN ...] --html DIR`: one self-contained page
 * (DIR/index.html: inline SVG and CSS, no script, no network) with, per
 * run, a readahead sweep's curves, contest's Ratio bars, the distribution
 * of each figure of the table per row with its 95% CI, the era disk's
 * request-size histogram and service-time timeline, a bisection's steps,
 * and the text table. */
#ifndef LAB_HTML_H
#define LAB_HTML_H

#include <stddef.h>
#include <stdint.h>

/* Writes DIR/index.html from the store at store_path. Returns the number
 * of figures written, or -1 with an error (a run with no cells). */
int lab_html_report(const char *store_path, const int64_t *runs, size_t nruns, const char *dir);

#endif
