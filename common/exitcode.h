/* The lab's exit codes, one table for every command (docs/exit-codes.md
 * says the same to users; `lab help exit-codes` prints it). A CI job gates
 * on them: 1 and 2 say the lab could not decide, 3 says it decided that a
 * comparison changed in the way --fail-on asked about. */
#ifndef LAB_COMMON_EXITCODE_H
#define LAB_COMMON_EXITCODE_H

enum lab_exit {
    LAB_EXIT_OK = 0,            /* done; no --fail-on change found */
    LAB_EXIT_FAILED = 1,        /* a cell, the run, the store or the machine failed */
    LAB_EXIT_USAGE = 2,         /* bad input, refused before anything booted */
    LAB_EXIT_CHANGED = 3,       /* lab run --fail-on: a significant change of that kind */
    LAB_EXIT_INTERRUPTED = 130, /* Ctrl-C or SIGTERM; what was measured is stored */
};

#endif
