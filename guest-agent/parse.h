/* Pure parsers of /proc and /sys text the agent reads. */
#ifndef LAB_AGENT_PARSE_H
#define LAB_AGENT_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Finds `name` in /proc/partitions text ("major minor #blocks name" lines).
 * Returns 0 and sets *maj, *min, or -1 if absent. */
int agent_partitions_find(const char *buf, size_t n, const char *name, unsigned *maj,
                          unsigned *min);

/* Calls fn(name, maj, min, arg) for every entry of /proc/partitions text. */
void agent_partitions_each(const char *buf, size_t n,
                           void (*fn)(const char *name, unsigned maj, unsigned min, void *arg),
                           void *arg);

/* Finds the major of `name` in the "Character devices:" part of /proc/devices
 * text. Returns the major, or -1. */
int agent_devices_char_major(const char *buf, size_t n, const char *name);

/* Parses "MAJ:MIN\n" (a sysfs dev attribute). Returns 0 or -1. */
int agent_parse_majmin(const char *buf, size_t n, unsigned *maj, unsigned *min);

/* Iterates lines: returns the next line's start and sets *len (no '\n'), or
 * NULL at the end. *pos is the cursor, start it at 0. Leading and trailing
 * blanks are trimmed. */
const char *agent_next_line(const char *buf, size_t n, size_t *pos, size_t *len);

/* Sectors read so far by block device `name`, from /sys/block/<name>/stat
 * text (name NULL: the third field) or /proc/diskstats text (name given:
 * the sixth field of its line). Returns 0 and sets *sectors, or -1. */
int agent_blockstat_sectors_read(const char *buf, size_t n, const char *name, uint64_t *sectors);

/* The aggregate "cpu" line of /proc/stat, in USER_HZ ticks: 4 fields in 2.4
 * (user nice system idle), 7 from 2.6.0 (+ iowait irq softirq), 8 from 2.6.11
 * (+ steal), 9 from 2.6.24 (+ guest), 10 from 2.6.33 (+ guest_nice). Fields a
 * kernel does not have are 0; `fields` says how many it had. */
enum {
    AGENT_CPU_USER,
    AGENT_CPU_NICE,
    AGENT_CPU_SYSTEM,
    AGENT_CPU_IDLE,
    AGENT_CPU_IOWAIT,
    AGENT_CPU_IRQ,
    AGENT_CPU_SOFTIRQ,
    AGENT_CPU_STEAL,
    AGENT_CPU_GUEST,
    AGENT_CPU_GUEST_NICE,
    AGENT_CPUSTAT_MAX
};
struct agent_cpustat {
    uint64_t v[AGENT_CPUSTAT_MAX];
    unsigned fields;
};

/* Parses the first line that is exactly "cpu" then numbers (fields past the
 * tenth are ignored). Returns 0, or -1 (no such line, fewer than 4 numbers,
 * or a field that is not a number). */
int agent_procstat_cpu(const char *buf, size_t n, struct agent_cpustat *out);

/* d = b - a, field by field, clamped at 0 (counters that step back); d->fields
 * is the smaller count. */
void agent_cpustat_delta(const struct agent_cpustat *a, const struct agent_cpustat *b,
                         struct agent_cpustat *d);
#endif
