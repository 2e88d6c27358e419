/* What `lab bisect` says: a bisection's events as progress lines on
 * stderr ("lab: bisect: step 1 ..."), its closing report (the first bad
 * commit, the evidence table) on stdout, and a stored one (--show,
 * --junit). */
#ifndef LAB_BISECTREPORT_H
#define LAB_BISECTREPORT_H

#include "host/bisect/bisectdriver.h"

#include <stdio.h>

/* A report hook (struct lab_bisect_hooks) printing one line per event to
 * stderr; ctx is not used (it is the stop hook's). */
void lab_bisect_report_line(void *ctx, const struct lab_bisect_event *ev);

/* The closing report of a driven bisection: to out, and its failures as
 * errors on stderr. */
void lab_bisect_print_result(FILE *out, const struct lab_bisect_setup *set,
                             const struct lab_bisect_result *r);

/* `lab bisect --show`: the stored bisection id (< 0: the newest) as it
 * prints it (command line, status, first bad commit, evidence table) to
 * out, and as JUnit XML into junit unless NULL. 0, or -1 said (1 when
 * there is no such bisection). */
int lab_bisect_show(FILE *out, struct lab_store *st, int64_t id, const char *junit);

/* The stored bisection id as JUnit XML (host/report/junit.h), read back from the
 * store as --show reads it. 0, or -1 said. */
int lab_bisect_junit_stored(struct lab_store *st, int64_t id, const char *path);

#endif
