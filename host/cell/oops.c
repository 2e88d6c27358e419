/* Oops, BUG and panic records from a console (see oops.h). */
#include "host/cell/oops.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_ 512

/* One console line without its printk time ("[   1.234567] "), its log
 * level ("<0>") and leading blanks. */
static const char *clean_line(const char *p, size_t n, char *buf)
{
    if (n >= LINE_MAX_)
        n = LINE_MAX_ - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    while (n && (buf[n - 1] == '\r' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    char *s = buf;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r') /* a console's "\n\r" */
            s++;
        if (s[0] == '<' && isdigit((unsigned char)s[1]) && s[2] == '>')
            s += 3;
        else if (s[0] == '[' && strchr(s, ']') &&
                 strspn(s + 1, " 0123456789.") == (size_t)(strchr(s, ']') - s - 1))
            s = strchr(s, ']') + 1;
        else
            return s;
    }
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The lines that open an oops, a BUG or a panic, in the forms 2.4 to 6.x print. */
static const char *const openers[] = {
    "kernel BUG at ",
    "Unable to handle kernel ",
    "BUG: ",
    "Oops: ",
    "invalid operand: ",
    "invalid opcode: ",
    "general protection fault",
    "Kernel panic",
    "double fault: ",
};

static int is_opener(const char *s)
{
    for (size_t i = 0; i < sizeof openers / sizeof openers[0]; i++)
        if (starts(s, openers[i]))
            return 1;
    return 0;
}

/* What the agent was doing, from its console lines before the oops. */
static void note_phase(struct lab_oops *o, const char *s)
{
    if (starts(s, "lab-agent: phase: ")) {
        snprintf(o->phase, sizeof o->phase, "%s", s + 18);
    } else if (starts(s, "lab-agent ")) {
        snprintf(o->phase, sizeof o->phase, "setup");
    } else if (starts(s, "LAB1 ")) {
        const char *type = strchr(s + 5, ' ');
        if (!type)
            return;
        type++;
        const char *rep = strstr(type, " rep=");
        if (starts(type, "begin ") && rep)
            snprintf(o->phase, sizeof o->phase, "run %d", atoi(rep + 5));
        else if (starts(type, "end ") || starts(type, "error "))
            snprintf(o->phase, sizeof o->phase, "between runs");
        else if (starts(type, "bye "))
            snprintf(o->phase, sizeof o->phase, "teardown");
    }
}

/* "f+0x4a/0x100" at s: the name into o->function, the rest into o->offset. */
static int take_symbol(const char *s, char *fn, size_t fncap, char *off, size_t offcap)
{
    size_t n = strcspn(s, "+ \t{}");
    if (n == 0 || s[n] != '+' || n >= fncap)
        return 0;
    snprintf(fn, fncap, "%.*s", (int)n, s);
    const char *o = s + n + 1;
    snprintf(off, offcap, "%.*s", (int)strcspn(o, " \t}]"), o);
    return 1;
}

/* EIP/RIP lines: "EIP is at f+0x4a/0x100" (2.6), "EIP:    0010:[<c01234ab>]" (2.4),
 * "RIP: 0010:f+0x16/0x20" and "EIP: f+0x.." (later), "RIP: 0010:[<ffff..>] <ffff..>{f+0x12}". */
static void take_ip(struct lab_oops *o, const char *s)
{
    if (o->function[0])
        return; /* a later oops's lines: the first one counts */
    if (starts(s, "EIP is at ")) {
        /* a bare address: the CPU jumped where no function is, so the
         * trace's first frame is the caller, not the faulting function */
        if (!take_symbol(s + 10, o->function, sizeof o->function, o->offset, sizeof o->offset)) {
            o->ip = strtoull(s + 10, NULL, 16);
            o->ip_bare = 1;
        }
        return;
    }
    if (!starts(s, "EIP:") && !starts(s, "RIP:") && !starts(s, "PC is at "))
        return;
    const char *a = strstr(s, "[<");
    if (a && !o->ip)
        o->ip = strtoull(a + 2, NULL, 16);
    const char *brace = strchr(s, '{');
    if (brace) {
        take_symbol(brace + 1, o->function, sizeof o->function, o->offset, sizeof o->offset);
        return;
    }
    const char *p = s + 4;
    while (*p == ' ')
        p++;
    const char *colon = strchr(p, ':');
    if (colon && strspn(p, "0123456789abcdef") == (size_t)(colon - p))
        p = colon + 1;
    if (!o->function[0] && !starts(p, "["))
        take_symbol(p, o->function, sizeof o->function, o->offset, sizeof o->offset);
}

static void add_trace(struct lab_oops *o, unsigned long long addr, const char *sym, size_t n)
{
    if (o->ntrace >= LAB_OOPS_TRACE_MAX)
        return;
    if (sym && n)
        snprintf(o->trace[o->ntrace], sizeof o->trace[0], "%.*s", (int)n, sym);
    else
        snprintf(o->trace[o->ntrace], sizeof o->trace[0], "%llx", addr);
    o->trace_addr[o->ntrace++] = addr;
}

/* One line of a call trace; 0 when the line is not one (the trace ended). */
static int take_trace_line(struct lab_oops *o, const char *s)
{
    if (starts(s, "Call Trace:"))
        s += 11;
    while (*s == ' ')
        s++;
    if (!*s)
        return 1;
    if (starts(s, "<TASK>") || starts(s, "</TASK>") || starts(s, "<IRQ>") || starts(s, "</IRQ>") ||
        starts(s, "<EOI>") || starts(s, "? "))
        return 1; /* frame markers; "? f" is a guess from a stack scan */
    int took = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        unsigned long long addr = 0;
        if (starts(s, "[<") || starts(s, "<")) {
            addr = strtoull(s + (s[1] == '<' ? 2 : 1), NULL, 16);
            s += strcspn(s, ">") + 1;
            if (*s == ']')
                s++;
            while (*s == ' ')
                s++;
            if (*s == '{')
                s++;
        }
        size_t n = strcspn(s, " \t}");
        int named = n && memchr(s, '+', n) && !starts(s, "[<") && s[0] != '<';
        if (!addr && !named)
            return took;
        add_trace(o, addr, named ? s : NULL, named ? n : 0);
        took = 1;
        s += named ? n : 0;
        if (*s == '}')
            s++;
    }
    return took;
}

/* Fields of the oops's own lines, in any order after the opener. */
static void take_fields(struct lab_oops *o, const char *s)
{
    if (starts(s, "kernel BUG at ") && !o->bug_file[0]) {
        const char *f = s + 14;
        const char *colon = strrchr(f, ':');
        if (colon) {
            snprintf(o->bug_file, sizeof o->bug_file, "%.*s", (int)(colon - f), f);
            o->bug_line = atoi(colon + 1);
        }
    }
    if (starts(s, "Kernel panic") && !o->panic[0]) {
        const char *m = strchr(s, ':');
        snprintf(o->panic, sizeof o->panic, "%.159s", m ? m + 1 + (m[1] == ' ') : s);
    }
    take_ip(o, s);
}

/* The frames a panic's trace starts with before the caller that panicked. */
static const char *const panic_frames[] = {
    "dump_stack", "dump_stack_lvl", "show_stack", "panic", "vpanic", "__warn", "warn_slowpath_fmt"};

/* A panic prints no faulting address: its function is the trace's first
 * frame past the panic plumbing (sysrq_handle_crash, mount_block_root...). */
static void settle_function(struct lab_oops *o)
{
    if (o->ip_bare)
        return;
    for (size_t i = 0; !o->function[0] && i < o->ntrace; i++) {
        size_t n = strcspn(o->trace[i], "+");
        int plumbing = !o->trace[i][n];
        for (size_t j = 0; j < sizeof panic_frames / sizeof panic_frames[0]; j++)
            plumbing |=
                strlen(panic_frames[j]) == n && strncmp(o->trace[i], panic_frames[j], n) == 0;
        if (!plumbing)
            take_symbol(o->trace[i], o->function, sizeof o->function, o->offset, sizeof o->offset);
    }
}

int lab_oops_parse(const char *console, size_t len, struct lab_oops *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->phase, sizeof out->phase, "boot");
    char buf[LINE_MAX_];
    int in_trace = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(console + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (console + at)) : len - at;
        const char *s = clean_line(console + at, n, buf);
        at += n + 1;
        if (!out->found) {
            if (!is_opener(s)) {
                note_phase(out, s);
                continue;
            }
            out->found = 1;
            snprintf(out->headline, sizeof out->headline, "%.159s", s);
        }
        if (in_trace && !take_trace_line(out, s))
            in_trace = 0;
        if (starts(s, "Call Trace:") && out->ntrace == 0) {
            in_trace = 1;
            take_trace_line(out, s);
        }
        if (!in_trace)
            take_fields(out, s);
    }
    if (out->found)
        settle_function(out);
    return out->found;
}

struct sym {
    unsigned long long addr;
    const char *name;
    size_t n;
};

static int cmp_sym(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The text symbols of a System.map ("c0139ae0 T sys_fadvise64_64"), sorted. */
static struct sym *load_map(const char *map, size_t len, size_t *count)
{
    size_t cap = 1024, n = 0;
    struct sym *v = malloc(cap * sizeof *v);
    for (size_t at = 0; v && at < len;) {
        const char *line = map + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t ln = nl ? (size_t)(nl - line) : len - at;
        at += ln + 1;
        char *end;
        unsigned long long a = strtoull(line, &end, 16);
        if (end == line || (size_t)(end - line) + 3 > ln || end[0] != ' ' || end[2] != ' ' ||
            !strchr("tTwW", end[1]))
            continue;
        if (n == cap) {
            struct sym *w = realloc(v, (cap *= 2) * sizeof *v);
            if (!w)
                break;
            v = w;
        }
        v[n++] = (struct sym){a, end + 3, ln - (size_t)(end + 3 - line)};
    }
    if (v)
        qsort(v, n, sizeof *v, cmp_sym);
    *count = v ? n : 0;
    return v;
}

/* "f+0x4a/0x100" for addr, or 0 when no symbol covers it. */
static int name_addr(const struct sym *v, size_t n, unsigned long long addr, char *out, size_t cap)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || lo == n) /* below the first symbol, or past the last one's start */
        return 0;
    const struct sym *s = &v[lo - 1];
    snprintf(out, cap, "%.*s+0x%llx/0x%llx", (int)s->n, s->name, addr - s->addr,
             v[lo].addr - s->addr);
    return 1;
}

int lab_oops_resolve(struct lab_oops *o, const char *system_map, size_t len)
{
    size_t n;
    struct sym *v = load_map(system_map, len, &n);
    if (!v)
        return 0;
    int named = 0;
    char buf[160];
    if (!o->function[0] && o->ip && name_addr(v, n, o->ip, buf, sizeof buf)) {
        char *plus = strchr(buf, '+');
        *plus = '\0';
        snprintf(o->function, sizeof o->function, "%.95s", buf);
        snprintf(o->offset, sizeof o->offset, "%s", plus + 1);
        named++;
    }
    for (size_t i = 0; i < o->ntrace; i++)
        if (o->trace_addr[i] && !strchr(o->trace[i], '+') &&
            name_addr(v, n, o->trace_addr[i], buf, sizeof buf)) {
            snprintf(o->trace[i], sizeof o->trace[i], "%.111s", buf);
            named++;
        }
    free(v);
    return named;
}

/* Phases whose failure a key avoids, and the advice. */
static const struct {
    const char *phase_prefix;
    const char *key;
    const char *advice;
} avoid[] = {
    {"cache drop (posix_fadvise)", "drop", "--set drop=remount avoids it"},
    {"cache drop (drop_caches)", "drop", "--set drop=fadvise or drop=remount avoids it"},
    {"cache drop (remount)", "drop",
     "--set drop=fadvise (2.6.0+) or drop=drop_caches (2.6.16+) avoids it where the kernel "
     "has them"},
    {"cache drop", "drop", "another --set drop= method may avoid it"},
    {"tunable lab.ide_dma", "ide_dma", "leaving ide_dma and ide_xfer at auto avoids it"},
    {"tunable lab.sched", "scheduler", "leaving out scheduler avoids it"},
    {"tunable lab.sysfs", "sysfs", "leaving out sysfs avoids it"},
    {"tunable lab.elvtune", "elvtune", "leaving out elvtune avoids it"},
};

static int avoid_row(const struct lab_oops *o)
{
    for (size_t i = 0; i < sizeof avoid / sizeof avoid[0]; i++)
        if (starts(o->phase, avoid[i].phase_prefix))
            return (int)i;
    return -1;
}

const char *lab_oops_key(const struct lab_oops *o)
{
    int r = avoid_row(o);
    return r < 0 ? NULL : avoid[r].key;
}

size_t lab_oops_summary(const struct lab_oops *o, char *out, size_t cap)
{
    if (!cap)
        return 0;
    size_t at = 0;
#define PUT(...)                                                                                   \
    do {                                                                                           \
        if (at < cap)                                                                              \
            at += (size_t)snprintf(out + at, cap - at, __VA_ARGS__);                               \
    } while (0)
    PUT("%s", o->headline);
    if (o->function[0])
        PUT(" in %s%s%s", o->function, o->offset[0] ? "+" : "", o->offset);
    else if (o->ip_bare)
        PUT(" at 0x%llx%s", o->ip,
            o->ip < 4096 ? " (a call through a NULL function pointer: the trace's first frame "
                           "made it)"
                         : "");
    PUT(" during %s", o->phase);
    for (size_t i = 0; i < o->ntrace && i < 8; i++)
        PUT("%s%s", i ? " <- " : "; call trace: ", o->trace[i]);
    if (o->panic[0])
        PUT("; panic: %s", o->panic);
    int r = avoid_row(o);
    if (r >= 0)
        PUT("; %s", avoid[r].advice);
#undef PUT
    return at < cap ? at : cap - 1;
}
