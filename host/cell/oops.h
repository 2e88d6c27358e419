/* A kernel oops, BUG or panic read from a cell's console, pure: the first
 * one the console shows (later ones follow from it), with the faulting
 * function and offset, the call trace, `kernel BUG at FILE:LINE` where
 * printed, the panic line, and what the agent was doing (its last
 * `lab-agent: phase:` line or mirrored record before the oops). Consoles of
 * 2.4 (addresses only: lab_oops_resolve names them from System.map), 2.6
 * (`EIP is at f+0x4a/0x100`, `[<c0139b2a>] f+0x4a/0x100` trace lines) and
 * later kernels (`RIP: 0010:f+0x16/0x20`, `? f+...` guesses skipped,
 * printk timestamps) are read. */
#ifndef LAB_CELL_OOPS_H
#define LAB_CELL_OOPS_H

#include <stddef.h>

#define LAB_OOPS_TRACE_MAX 16

struct lab_oops {
    int found;             /* 1: an oops, BUG or panic was seen */
    char headline[160];    /* its first line: "kernel BUG at mm/fadvise.c:70!" */
    char function[96];     /* the faulting function ("" unknown) */
    char offset[40];       /* "0x4a/0x100" (or "0x4a" where the size is not printed) */
    unsigned long long ip; /* the faulting address where printed as a number (0 none) */
    int ip_bare;           /* 1: "EIP is at 0x0": no function holds the address (ip is it) */
    char bug_file[128];    /* kernel BUG at FILE:LINE ("" none) */
    int bug_line;
    char panic[160]; /* "Attempted to kill init!" ("" none) */
    size_t ntrace;
    char trace[LAB_OOPS_TRACE_MAX][112];               /* "f+0x4a/0x100", or the address in hex */
    unsigned long long trace_addr[LAB_OOPS_TRACE_MAX]; /* 0 where not printed */
    char phase[96]; /* "boot", "setup", "tunable lab.sched", "cache drop
                       (posix_fadvise)", "run 3", "between runs", "teardown" */
};

/* Reads a console's text. Returns 1 with *out filled when it shows an oops,
 * BUG or panic, 0 when it shows none (out->found 0). */
int lab_oops_parse(const char *console, size_t len, struct lab_oops *out);

/* Names the addresses the console printed without names (2.4 has no
 * kallsyms) from a System.map's text symbols: the faulting function and
 * every bare trace entry. Returns how many were named. */
int lab_oops_resolve(struct lab_oops *o, const char *system_map, size_t len);

/* The experiment key that avoids the failure when the phase is a cache drop
 * or a tunable: "drop" ("--set drop=remount" ...), "ide_dma", "scheduler",
 * "sysfs", "elvtune"; NULL for other phases. */
const char *lab_oops_key(const struct lab_oops *o);

/* One line for people: "kernel BUG at mm/fadvise.c:70! in sys_fadvise64_64+0x4a/0x100
 * during cache drop (posix_fadvise); call trace: a <- b <- c; panic: ...;
 * --set drop=remount avoids the cache drop by posix_fadvise". Returns the
 * length written (truncated to cap). */
size_t lab_oops_summary(const struct lab_oops *o, char *out, size_t cap);

#endif
