/* Hardware profiles as the lab uses them: `fast` (the image as fast as
 * emulation serves it), `iotune:BYTES,IOPS` (QEMU throttling, coarse), or a
 * file in lab/profiles/ driving the hdd timing model. */
#ifndef LAB_PROFILE_H
#define LAB_PROFILE_H

#include <stdio.h>

#include "host/hdd/model.h"
#include "host/plan/cpu.h"

enum lab_profile_kind { LAB_PROFILE_FAST, LAB_PROFILE_MODEL, LAB_PROFILE_IOTUNE };

struct lab_profile {
    char name[64];
    enum lab_profile_kind kind;
    char path[4096];          /* the profile file (model profiles) */
    struct hdd_params params; /* model profiles */
    const char *bus;          /* the bus the era hardware had */
    unsigned rpm;             /* told to the guest; 0 for fast */
    unsigned memory_mib;      /* guest RAM; 0 = the lab's default */
    unsigned long long iotune_bytes, iotune_iops;
    const struct lab_cpu *cpu; /* the file's `cpu` key (host/plan/cpu.h); NULL = fast */
};

/* Resolves a name; -1 with a clear error (FILE:LINE for a bad file). */
int lab_profile_resolve(const char *name, struct lab_profile *out);
/* `lab profiles`: every profile with its key figures. */
int lab_profiles_list(FILE *out);
const char *lab_profiles_dir(void);

#endif
