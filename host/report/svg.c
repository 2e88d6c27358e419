/* SVG charts for the HTML report. Every element a test or a reader may
 * want to count carries a class: line, point, bar, err, ref. */
#include "host/report/svg.h"
#include "common/str.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_W 640
#define DEFAULT_H 320
#define MARGIN_L  68
#define MARGIN_R  16
#define MARGIN_T  44
#define MARGIN_B  52
#define MAX_TICKS 7
#define BAND      0.8 /* share of a category's width its bars take */
#define DEFAULT_R 3.0

/* Tableau 10: distinguishable, and still apart in greyscale print. */
static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
#define NCOLORS (sizeof palette / sizeof palette[0])

static const char *color(int i)
{
    return palette[(size_t)(i < 0 ? 0 : i) % NCOLORS];
}

char *lab_svg_escape(const char *s)
{
    static const struct {
        char c;
        const char *entity;
    } map[] = {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}};
    size_t len = 0;
    char *out = lab_xcalloc(1, 6 * strlen(s ? s : "") + 1);
    for (const char *p = s ? s : ""; *p; p++) {
        size_t i = 0;
        while (i < sizeof map / sizeof map[0] && map[i].c != *p)
            i++;
        if (i < sizeof map / sizeof map[0]) {
            strcpy(out + len, map[i].entity);
            len += strlen(map[i].entity);
        } else {
            out[len++] = *p;
        }
    }
    return out;
}

size_t lab_svg_ticks(double lo, double hi, size_t max, double *out)
{
    static const double mults[] = {1, 2, 5, 10, 20, 50};
    if (!(hi > lo)) { /* one value, or none: a unit around it */
        double pad = lo != 0 ? fabs(lo) / 2 : 1;
        lo -= pad;
        hi += pad;
    }
    if (max < 2)
        max = 2;
    double mag = pow(10, floor(log10((hi - lo) / (double)max)));
    for (size_t m = 0; m < sizeof mults / sizeof mults[0]; m++) {
        double step = mults[m] * mag;
        double first = floor(lo / step) * step, last = ceil(hi / step) * step;
        size_t n = (size_t)llround((last - first) / step) + 1;
        if (n > max)
            continue;
        for (size_t i = 0; i < n; i++) {
            out[i] = first + (double)i * step;
            if (fabs(out[i]) < step * 1e-9)
                out[i] = 0; /* no "-0" or 1e-17 labels */
        }
        return n;
    }
    out[0] = lo;
    out[1] = hi;
    return 2;
}

/* Data to pixels. */
struct scale {
    double x0, x1, y0, y1; /* the data domain */
    double px0, px1, py0, py1;
    int log2;
};

static double fx(const struct scale *s, double x)
{
    if (s->log2)
        x = log2(x);
    return s->px0 + (x - s->x0) / (s->x1 - s->x0) * (s->px1 - s->px0);
}

static double fy(const struct scale *s, double y)
{
    return s->py0 + (y - s->y0) / (s->y1 - s->y0) * (s->py1 - s->py0);
}

static double xval(const struct lab_series *s, size_t i)
{
    return s->x ? s->x[i] : (double)i;
}

static int have(double v)
{
    return !isnan(v) && !isinf(v);
}

static void widen(double *lo, double *hi, double v)
{
    if (!have(v))
        return;
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

/* y domain: every value, error bar and reference line; bars from 0. */
static void y_domain(const struct lab_chart *c, const struct lab_series *s, size_t ns, double *lo,
                     double *hi)
{
    int bars = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t k = 0; k < ns; k++) {
        bars |= s[k].kind == LAB_SERIES_BARS;
        for (size_t i = 0; i < s[k].n; i++) {
            widen(lo, hi, s[k].y[i]);
            if (s[k].lo)
                widen(lo, hi, s[k].lo[i]);
            if (s[k].hi)
                widen(lo, hi, s[k].hi[i]);
        }
    }
    for (size_t i = 0; i < c->nhlines; i++)
        widen(lo, hi, c->hlines[i]);
    if (!(*hi >= *lo))
        *lo = *hi = 0;
    if ((bars || c->y_from_zero) && *lo > 0)
        *lo = 0;
}

static void x_domain(const struct lab_chart *c, const struct lab_series *s, size_t ns, double *lo,
                     double *hi)
{
    if (c->categories) {
        *lo = -0.5;
        *hi = (double)c->ncategories - 0.5;
        return;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++)
            if (!c->x_log2 || xval(&s[k], i) > 0)
                widen(lo, hi, c->x_log2 ? log2(xval(&s[k], i)) : xval(&s[k], i));
    if (!(*hi >= *lo))
        *lo = *hi = 0;
    double pad = *hi > *lo ? (*hi - *lo) * 0.05 : 0.5;
    *lo -= pad;
    *hi += pad;
}

static void text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *s)
{
    char *e = lab_svg_escape(s);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">%s</text>\n", x, y,
            anchor, cls, e);
    free(e);
}

static void draw_y_axis(FILE *f, const struct scale *sc, const double *ticks, size_t nt,
                        const char *label)
{
    char buf[32];
    for (size_t i = 0; i < nt; i++) {
        double y = fy(sc, ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>\n",
                sc->px0, y, sc->px1, y);
        snprintf(buf, sizeof buf, "%g", ticks[i]);
        text(f, sc->px0 - 6, y + 4, "end", "tick", buf);
    }
    if (label) {
        char *e = lab_svg_escape(label);
        double mid = (sc->py0 + sc->py1) / 2;
        fprintf(f,
                "<text transform=\"translate(14,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                "class=\"label\">%s</text>\n",
                mid, e);
        free(e);
    }
}

static void draw_x_axis(FILE *f, const struct lab_chart *c, const struct scale *sc, int height)
{
    char buf[32];
    double ticks[16];
    size_t nt = 0;
    if (c->categories) {
        /* Long labels side by side would overlap: slant them. */
        int slant = c->ncategories > 6;
        for (size_t i = 0; i < c->ncategories; i++) {
            double x = fx(sc, (double)i), y = sc->py0 + 16;
            char *e = lab_svg_escape(c->categories[i]);
            if (slant)
                fprintf(f,
                        "<text transform=\"translate(%.1f,%.1f) rotate(-25)\" text-anchor=\"end\" "
                        "class=\"tick\">%s</text>\n",
                        x, y, e);
            else
                fprintf(f,
                        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" class=\"tick\">%s"
                        "</text>\n",
                        x, y, e);
            free(e);
        }
    } else if (c->x_log2) {
        for (double v = exp2(ceil(sc->x0)); log2(v) <= sc->x1 && nt < 16; v *= 2)
            ticks[nt++] = v;
    } else {
        nt = lab_svg_ticks(sc->x0, sc->x1, MAX_TICKS, ticks);
    }
    for (size_t i = 0; i < nt; i++) {
        double x = fx(sc, ticks[i]);
        if (x < sc->px0 - 0.5 || x > sc->px1 + 0.5)
            continue;
        snprintf(buf, sizeof buf, "%g", ticks[i]);
        text(f, x, sc->py0 + 16, "middle", "tick", buf);
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"axis\"/>\n", sc->px0,
            sc->py0, sc->px1, sc->py0);
    if (c->xlabel)
        text(f, (sc->px0 + sc->px1) / 2, height - 8, "middle", "label", c->xlabel);
}

static void draw_error_bar(FILE *f, const struct scale *sc, double x, double lo, double hi,
                           const char *col)
{
    if (!have(lo) || !have(hi))
        return;
    double px = fx(sc, x), y0 = fy(sc, lo), y1 = fy(sc, hi);
    fprintf(f,
            "<path class=\"err\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"%s\"/>\n",
            px, y0, y1, px - 4, y0, px - 4, y1, col);
}

/* Bars of series k among nbars bar series, at each category. */
static void draw_bars(FILE *f, const struct scale *sc, const struct lab_series *s, int slot,
                      int nbars)
{
    double w = BAND / nbars, base = fy(sc, sc->y0 > 0 ? sc->y0 : 0);
    for (size_t i = 0; i < s->n; i++) {
        if (!have(s->y[i]))
            continue;
        double x = xval(s, i) - BAND / 2 + w * slot;
        double px0 = fx(sc, x), px1 = fx(sc, x + w), py = fy(sc, s->y[i]);
        fprintf(f,
                "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "fill=\"%s\"><title>%g</title></rect>\n",
                px0, py < base ? py : base, px1 - px0, fabs(base - py), color(s->color), s->y[i]);
        if (s->lo && s->hi)
            draw_error_bar(f, sc, x + w / 2, s->lo[i], s->hi[i], "#333");
    }
}

static void draw_marks(FILE *f, const struct scale *sc, const struct lab_series *s)
{
    const char *col = color(s->color);
    double r = s->radius > 0 ? s->radius : DEFAULT_R;
    if (s->kind == LAB_SERIES_LINE) {
        int pen = 0;
        fprintf(f, "<path class=\"line\" fill=\"none\" stroke=\"%s\" d=\"", col);
        for (size_t i = 0; i < s->n; i++) {
            if (!have(s->y[i])) {
                pen = 0;
                continue;
            }
            fprintf(f, "%s%.1f %.1f", pen ? "L" : "M", fx(sc, xval(s, i)), fy(sc, s->y[i]));
            pen = 1;
        }
        fprintf(f, "\"/>\n");
    }
    for (size_t i = 0; i < s->n; i++) {
        if (!have(s->y[i]))
            continue;
        if (s->lo && s->hi)
            draw_error_bar(f, sc, xval(s, i), s->lo[i], s->hi[i], col);
        fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
                fx(sc, xval(s, i)), fy(sc, s->y[i]), r, col);
    }
}

static void draw_refs(FILE *f, const struct lab_chart *c, const struct scale *sc)
{
    for (size_t i = 0; i < c->nhlines; i++) {
        double y = fy(sc, c->hlines[i]);
        fprintf(f, "<line class=\"ref\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                sc->px0, y, sc->px1, y);
        if (c->hline_labels && c->hline_labels[i])
            text(f, sc->px1 - 4, y - 4, "end", "reflabel", c->hline_labels[i]);
    }
}

/* One row of swatches under the title; series without a name are left out,
 * and a color is listed once. */
static void draw_legend(FILE *f, const struct lab_series *s, size_t ns, double x, double y)
{
    for (size_t k = 0; k < ns; k++) {
        int dup = 0;
        for (size_t j = 0; j < k; j++)
            dup |= s[j].name && s[k].name && s[j].color == s[k].color;
        if (!s[k].name || dup)
            continue;
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n", x,
                y - 9, color(s[k].color));
        text(f, x + 14, y, "start", "legend", s[k].name);
        x += 24 + 7.0 * (double)strlen(s[k].name);
    }
}

char *lab_svg_chart(const struct lab_chart *c, const struct lab_series *s, size_t ns)
{
    int w = c->width ? c->width : DEFAULT_W, h = c->height ? c->height : DEFAULT_H;
    struct scale sc = {.px0 = MARGIN_L,
                       .px1 = w - MARGIN_R,
                       .py0 = h - MARGIN_B,
                       .py1 = MARGIN_T,
                       .log2 = c->x_log2 && !c->categories};
    double yt[16], ylo, yhi;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    y_domain(c, s, ns, &ylo, &yhi);
    size_t nyt = lab_svg_ticks(ylo, yhi, MAX_TICKS, yt);
    sc.y0 = yt[0];
    sc.y1 = yt[nyt - 1];
    x_domain(c, s, ns, &sc.x0, &sc.x1);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\">\n",
            w, h, w, h);
    if (c->title)
        text(f, MARGIN_L, 18, "start", "title", c->title);
    draw_legend(f, s, ns, MARGIN_L, 36);
    draw_y_axis(f, &sc, yt, nyt, c->ylabel);
    draw_x_axis(f, c, &sc, h);
    draw_refs(f, c, &sc);
    int nbars = 0, slot = 0;
    for (size_t k = 0; k < ns; k++)
        nbars += s[k].kind == LAB_SERIES_BARS;
    for (size_t k = 0; k < ns; k++) {
        if (s[k].kind == LAB_SERIES_BARS)
            draw_bars(f, &sc, &s[k], slot++, nbars);
        else
            draw_marks(f, &sc, &s[k]);
    }
    fprintf(f, "</svg>\n");
    fclose(f);
    return buf;
}
