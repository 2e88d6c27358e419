/* lab doctor: can a cell run on this machine, and if not, what to do. */
#include "lab/commands.h"
#include "host/doctor.h"

#include <stdio.h>
#include <string.h>

int cmd_doctor(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(argc > 1 && strcmp(argv[1], "--help") == 0 ? stdout : stderr,
                "usage: lab doctor\n  checks what a cell needs; exit 0 when a cell can run\n");
        return strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    printf("lab doctor: what a cell needs on this machine\n");
    int failed = lab_doctor_run(stdout);
    if (failed)
        printf("lab doctor: %d check(s) failed: no cell can run until they are fixed\n", failed);
    else
        printf("lab doctor: a cell can run here\n");
    return failed ? 1 : 0;
}
