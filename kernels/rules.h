/* The kernel-version rules table: every decision about running a kernel
 * that depends on its version and is not a feature row of the era table
 * (kernels/era.c) lives here, as rows of [since, until) version ranges
 * with their value and the reason, and lab_kver_in is the one place that
 * compares a kernel's version with anything. The era rows, the agent's
 * modules, the schedulers, the command-line words, the machine type, the
 * guest's memory floor, the firmware and the .config options that depend
 * on the version all read this file; the cell plan (host/plan/cellplan.c)
 * applies it and the .config to a cell. Facts: docs/era-facts.md. */
#ifndef LAB_KERNELS_RULES_H
#define LAB_KERNELS_RULES_H

#include <stddef.h>

#include "kernels/era.h"

/* 1 if v lies in [since, until) (until 0: no end). A pre-release counts as
 * its release: whatever was merged for X is in X-rc1 already. */
int lab_kver_in(lab_kver v, lab_kver since, lab_kver until);

enum lab_rule {
    LAB_RULE_SUPPORTED,     /* the kernels the lab's agent runs on */
    LAB_RULE_MACHINE_PC,    /* value: the machine type a "pc" bus pins */
    LAB_RULE_NOAPIC,        /* value: command-line words (APIC off) */
    LAB_RULE_CONSOLE_WORDS, /* value: command-line words (printk times, timer check) */
    LAB_RULE_TCG_WORDS,     /* value: command-line words under TCG */
    LAB_RULE_ACPI_NOIRQ,    /* acpi=noirq may be used (MSI, a bus that needs no INTx) */
    LAB_RULE_MEMORY_FLOOR,  /* number: guest RAM floor in MiB */
    LAB_RULE_QBOOT,         /* value: "qboot" boots it, "asked" when LAB_FIRMWARE=qboot */
    LAB_RULE_UART_OPTION,   /* value: the .config option of the UART channel */
    LAB_RULE_EXT2_OPTIONS,  /* value: the .config options that mount ext2 */
    LAB_RULE_EXT3_OPTIONS,  /* value: the .config options that mount ext3 */
    LAB_RULE_SCHEDULER,     /* key: a scheduler's name; the row is when it exists */
    LAB_RULE_MODULES,       /* key: "ide-libata", "ide-legacy", another bus, "fs", "virtio-chan" */
    LAB_RULE_CONFIG_FRAGMENT, /* value: the lab's .config fragment (kernels/configs/) a build takes
                               */
    LAB_RULE_KCONFIG_BASE,    /* value: the make target a build's .config starts from */
    LAB_RULE_KCONFIG_UPDATE,  /* value: the make target that fills in the options not given */
    LAB_RULE_IDE_DMA_OPTIONS, /* mods: the .config options that turn PIIX DMA on at boot */
    LAB_RULE_IDE_DMA_KCONFIG_READ, /* the versions whose Kconfig was read for those options */
    LAB_RULE_LIBATA_DMA,   /* value: libata's boot parameter that limits DMA (libata.dma=) */
    LAB_RULE_LIBATA_FORCE, /* value: libata's boot parameter that forces a mode (libata.force=) */
    LAB_RULE_IDE_NOPROBE,  /* value: drivers/ide's words that skip a position (hdX=noprobe) */
};

struct lab_rule_row {
    enum lab_rule rule;
    const char *key; /* for rules with one row per thing (schedulers, modules), else NULL */
    lab_kver since, until;
    const char *value;
    unsigned number;
    const char *mods[4]; /* LAB_RULE_MODULES, in load order; LAB_RULE_IDE_DMA_OPTIONS */
    const char *why;
};

/* The first row of rule (with key, when key is not NULL) whose range
 * holds v, or NULL. */
const struct lab_rule_row *lab_rule_for(enum lab_rule rule, const char *key, lab_kver v);
/* The first row of rule with key, whatever the version (NULL: none). */
const struct lab_rule_row *lab_rule_named(enum lab_rule rule, const char *key);
/* The value of the rule's row for v, or dflt when no row holds v. */
const char *lab_rule_value(enum lab_rule rule, lab_kver v, const char *dflt);

/* What the table decides about running one kernel (the cell plan keeps
 * it; host/plan/celldomain.c reads it from there). The words are ""
 * where no row holds the version. */
struct lab_run_rules {
    const char *machine_pc;    /* the machine a "pc" bus runs it on, or NULL: pc itself */
    const char *noapic;        /* command-line words */
    const char *console_words; /* command-line words */
    const char *tcg_words;     /* command-line words, under TCG only */
    const char *acpi_noirq;    /* command-line words, where no device needs INTx routing */
    unsigned memory_floor_mib; /* guest RAM at least this (0: none) */
    const char *qboot;         /* "qboot": by default; "asked": on LAB_FIRMWARE=qboot; "": never */
    const char *libata_dma;    /* "libata.dma=", or "": the kernel has no such parameter */
    const char *libata_force;  /* "libata.force=", or "" */
    const char *ide_noprobe;   /* "hdX=noprobe": drivers/ide reads hdX= and ideN= words, or "" */
};
void lab_run_rules_for(lab_kver v, struct lab_run_rules *out);

size_t lab_rule_count(void);
const struct lab_rule_row *lab_rule_at(size_t i); /* NULL past the end */

#endif
