/* Kernel profiles from kprof records; see kprof.h. */
#include "host/report/kprof.h"

#include "host/cell/proto.h"
#include "host/plan/warmup.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define SYMTAB_LINE_MAX 512
#define SYMTAB_MAX_SYMS (4u << 20)
#define SYMTAB_FILE_MAX (256u << 20)

static int by_addr(const void *a, const void *b)
{
    const struct lab_sym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : strcmp(x->name, y->name);
}

/* Text symbols only: the profile counts instruction addresses. */
static int is_text_type(char t)
{
    return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* One "ADDR TYPE NAME" line into *sym (name malloc'd); 1 taken, 0 skipped
 * (not text), -1 malformed. */
static int parse_line(const char *l, size_t n, struct lab_sym *sym, uint64_t *stext,
                      uint64_t *etext)
{
    char buf[SYMTAB_LINE_MAX + 1], *end, type, name[SYMTAB_LINE_MAX + 1];
    memcpy(buf, l, n);
    buf[n] = '\0';
    if (memchr(buf, '\0', n))
        return -1;
    uint64_t addr = strtoull(buf, &end, 16);
    if (end == buf || *end != ' ' || sscanf(end, " %c %512s", &type, name) != 2)
        return -1;
    if (strcmp(name, "_stext") == 0)
        *stext = addr;
    if (strcmp(name, "_etext") == 0)
        *etext = addr;
    if (!is_text_type(type))
        return 0;
    sym->addr = addr;
    sym->name = lab_xstrdup(name);
    sym->ticks = 0;
    return 1;
}

int lab_symtab_parse(const char *text, size_t len, struct lab_symtab *out, char *err, size_t errlen)
{
    size_t cap = 0, lineno = 0;
    memset(out, 0, sizeof *out);
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        lineno++;
        if (n > SYMTAB_LINE_MAX) {
            lab_symtab_free(out);
            return lab_fail_into(err, errlen, "line %zu is longer than %d bytes", lineno,
                                 SYMTAB_LINE_MAX);
        }
        if (n) {
            if (out->n == cap) {
                if (cap >= SYMTAB_MAX_SYMS) {
                    lab_symtab_free(out);
                    return lab_fail_into(err, errlen, "more than %u symbols", SYMTAB_MAX_SYMS);
                }
                cap = cap ? cap * 2 : 1024;
                out->v = realloc(out->v, cap * sizeof *out->v);
                if (!out->v)
                    abort();
            }
            int r = parse_line(text + at, n, &out->v[out->n], &out->stext, &out->etext);
            if (r < 0) {
                lab_symtab_free(out);
                return lab_fail_into(err, errlen, "line %zu is not 'ADDRESS TYPE NAME'", lineno);
            }
            out->n += (size_t)r;
        }
        at += n + 1;
    }
    if (!out->n || !out->stext) {
        const char *why = out->n ? "no _stext symbol"
                                 : "no text symbols (a placeholder? Debian ships the real "
                                   "System.map in its linux-image-*-dbg package)";
        lab_symtab_free(out);
        return lab_fail_into(err, errlen, "%s", why);
    }
    qsort(out->v, out->n, sizeof *out->v, by_addr);
    if (!out->etext)
        out->etext = out->v[out->n - 1].addr;
    return 0;
}

int lab_symtab_load(const char *path, struct lab_symtab *out)
{
    size_t len;
    char err[160];
    char *text = lab_read_file(path, &len);
    if (!text)
        return lab_error("cannot read the System.map %s", path);
    if (len > SYMTAB_FILE_MAX) {
        free(text);
        return lab_error("%s: over %u MiB, not a System.map", path, SYMTAB_FILE_MAX >> 20);
    }
    int rc = lab_symtab_parse(text, len, out, err, sizeof err);
    free(text);
    return rc < 0 ? lab_error("%s: %s", path, err) : 0;
}

void lab_symtab_free(struct lab_symtab *t)
{
    for (size_t i = 0; t->v && i < t->n; i++)
        free(t->v[i].name);
    free(t->v);
    memset(t, 0, sizeof *t);
}

long lab_symtab_find(const struct lab_symtab *t, uint64_t addr)
{
    if (!t->n || addr < t->v[0].addr || addr >= t->etext)
        return -1;
    size_t lo = 0, hi = t->n; /* the last symbol at or below addr */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->v[mid].addr <= addr)
            lo = mid;
        else
            hi = mid;
    }
    return (long)lo;
}

static int parse_u64(const char **p, uint64_t *out)
{
    char *end;
    if (**p < '0' || **p > '9')
        return -1;
    *out = strtoull(*p, &end, 10);
    *p = end;
    return 0;
}

int lab_kprof_add(struct lab_symtab *t, uint64_t step, const char *slots, uint64_t *total,
                  uint64_t *unresolved, char *err, size_t errlen)
{
    if (step == 0 || step > (1u << 20))
        return lab_fail_into(err, errlen, "slot size %" PRIu64 " is not a profile step", step);
    for (const char *p = slots; *p;) {
        uint64_t slot, ticks;
        if (parse_u64(&p, &slot) < 0 || *p++ != ':' || parse_u64(&p, &ticks) < 0 ||
            (*p && *p != ','))
            return lab_fail_into(err, errlen, "malformed slots near '%.20s'", p);
        if (*p == ',')
            p++;
        *total += ticks;
        long i =
            slot > (UINT64_MAX - t->stext) / step ? -1 : lab_symtab_find(t, t->stext + slot * step);
        if (i < 0)
            *unresolved += ticks;
        else
            t->v[i].ticks += ticks;
    }
    return 0;
}

/* ---- the report ---- */

struct cell_prof {
    struct lab_symtab *syms;
    struct lab_warmup warmup;
    uint64_t rep, total, unresolved;
    int after_end, records, bad;
    char err[160];
};

/* kprof records belong to the run whose end record came just before. */
static int take_record(int64_t host_ns, const char *line, void *ctx)
{
    struct cell_prof *cp = ctx;
    static struct lab_record rec;
    (void)host_ns;
    if (lab_record_parse(line, strlen(line), &rec, NULL, 0) < 0)
        return 0;
    if (rec.type == LAB_REC_END) {
        lab_record_get_u64(&rec, "rep", &cp->rep);
        cp->after_end = 1;
    } else if (rec.type == LAB_REC_BEGIN) {
        cp->after_end = 0;
    } else if (rec.type == LAB_REC_KPROF && cp->after_end && !lab_warmup_is(cp->warmup, cp->rep)) {
        uint64_t step = 0;
        lab_record_get_u64(&rec, "step", &step);
        cp->records++;
        if (lab_kprof_add(cp->syms, step, lab_record_get(&rec, "slots"), &cp->total,
                          &cp->unresolved, cp->err, sizeof cp->err) < 0)
            cp->bad++;
    }
    return 0;
}

static int has_kprof(int64_t host_ns, const char *line, void *ctx)
{
    (void)host_ns;
    (void)ctx;
    return strstr(line, " kprof ") != NULL;
}

static int by_ticks(const void *a, const void *b)
{
    const struct lab_sym *x = a, *y = b;
    return x->ticks > y->ticks ? -1 : x->ticks < y->ticks ? 1 : strcmp(x->name, y->name);
}

/* readprofile's columns: ticks, function, ticks per byte of the function. */
static void print_profile(FILE *out, const struct lab_symtab *t, const struct cell_prof *cp,
                          size_t top)
{
    struct lab_sym *v = lab_xcalloc(t->n ? t->n : 1, sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (!t->v[i].ticks)
            continue;
        v[n] = t->v[i];
        uint64_t next = i + 1 < t->n ? t->v[i + 1].addr : t->etext;
        v[n].addr = next > t->v[i].addr ? next - t->v[i].addr : 1; /* the length, from here on */
        n++;
    }
    qsort(v, n, sizeof *v, by_ticks);
    fprintf(out, "%8s  %-40s %8s\n", "ticks", "function", "load");
    for (size_t i = 0; i < n && i < top; i++)
        fprintf(out, "%8" PRIu64 "  %-40s %8.4f\n", v[i].ticks, v[i].name,
                (double)v[i].ticks / (double)v[i].addr);
    uint64_t text = t->etext > t->stext ? t->etext - t->stext : 1;
    fprintf(out, "%8" PRIu64 "  %-40s %8.4f\n", cp->total, "total",
            (double)cp->total / (double)text);
    if (cp->unresolved)
        fprintf(out, "  (%" PRIu64 " ticks outside the kernel text)\n", cp->unresolved);
    free(v);
}

struct report_ctx {
    FILE *out;
    struct lab_store *st;
    size_t top;
    int printed_header;
};

static int report_cell(const struct lab_cell_info *ci, void *ctx)
{
    struct report_ctx *rc = ctx;
    char map[1024];
    if (lab_store_foreach_record(rc->st, ci->id, has_kprof, NULL) != 1)
        return 0;
    if (!rc->printed_header++)
        fprintf(rc->out, "\nkernel profile (/proc/profile with profile=2, over the counted runs; "
                         "load = ticks per byte of the function, as readprofile prints it)\n");
    fprintf(rc->out, "\n%s (cell %" PRId64 "):\n", ci->kernel, ci->id);
    if (!lab_store_cell_get(rc->st, ci->id, "system_map", map, sizeof map)) {
        fprintf(rc->out, "  no System.map for this kernel: the profile cannot be resolved "
                         "(lab kernels add --system-map FILE)\n");
        return 0;
    }
    struct lab_symtab syms;
    if (lab_symtab_load(map, &syms) < 0) {
        fprintf(rc->out, "  cannot read its System.map %s\n", map);
        return 0;
    }
    struct cell_prof cp = {.syms = &syms, .warmup = lab_warmup_of_cell(rc->st, ci->id, ci->params)};
    int rc2 = lab_store_foreach_record(rc->st, ci->id, take_record, &cp);
    if (rc2 < 0) {
        lab_symtab_free(&syms);
        return -1;
    }
    if (cp.bad)
        fprintf(rc->out, "  %d kprof record(s) refused: %s\n", cp.bad, cp.err);
    if (!cp.records)
        fprintf(rc->out, "  no profile of a counted run\n");
    else
        print_profile(rc->out, &syms, &cp, rc->top);
    lab_symtab_free(&syms);
    return 0;
}

int lab_kprof_report(FILE *out, struct lab_store *st, int64_t run, size_t top)
{
    struct report_ctx rc = {out, st, top, 0};
    return lab_store_foreach_cell(st, run, report_cell, &rc) < 0 ? -1 : 0;
}
