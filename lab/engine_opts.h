/* lab run's engine options as rows of its option table (lab/options.h),
 * into a struct lab_engine_opts at offset `off` of the command's options:
 * --jobs, --engine, --partition, --hosts (issue 11). */
#ifndef LAB_ENGINE_OPTS_H
#define LAB_ENGINE_OPTS_H

#include <stddef.h>

#include "host/run/engine.h"
#include "lab/options.h"

#define LAB_ENGINE_OPT(off, f) ((off) + offsetof(struct lab_engine_opts, f))
#define LAB_ENGINE_OPTS(off)                                                                       \
    {"jobs",                                                                                       \
     'j',                                                                                          \
     LAB_OPT_UINT,                                                                                 \
     LAB_ENGINE_OPT(off, jobs),                                                                    \
     0,                                                                                            \
     LAB_ENGINE_MAX_JOBS,                                                                          \
     "a number",                                                                                   \
     "  -j, --jobs N           cells at once (default 1), each a `lab cell` of its own"},          \
        {"engine",                                                                                 \
         'E',                                                                                      \
         LAB_OPT_STR,                                                                              \
         LAB_ENGINE_OPT(off, engine),                                                              \
         0,                                                                                        \
         0,                                                                                        \
         NULL,                                                                                     \
         "      --engine E         local (default), slurm or ssh (docs/scale-out.md)"},  \
        {"partition", 'P',                                                                         \
         LAB_OPT_STR, LAB_ENGINE_OPT(off, partition),                                              \
         0,           0,                                                                           \
         NULL,        "      --partition P      the Slurm partition (--engine slurm)"},            \
    {                                                                                              \
        "hosts", 'H', LAB_OPT_STR, LAB_ENGINE_OPT(off, hosts), 0, 0, NULL,                         \
            "      --hosts FILE       GNU parallel's --sshloginfile (--engine ssh)"                \
    }

#endif
