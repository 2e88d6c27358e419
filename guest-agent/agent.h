/* Shared declarations of the guest agent's syscall-using parts. */
#ifndef LAB_AGENT_AGENT_H
#define LAB_AGENT_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"
#include "fmt.h"

#define LAB_AGENT_VERSION "0.1"

/* Largest read block size the agent accepts (its static buffer). */
#define LAB_AGENT_MAX_BS (4u << 20)

/* util.c */
void con_puts(const char *s);                            /* to the console (fd 2) */
long read_file(const char *path, char *buf, size_t cap); /* NUL-terminates; -errno */
void note(const char *msg); /* console now, log record once the channel is up */
size_t notes_count(void);
const char *notes_get(size_t i);
int is_pid1(void);
__attribute__((noreturn)) void finish(void); /* sync, power off (or exit if not PID 1) */

/* report.c: the protocol writer. */
void report_init(int fd);
struct agent_line *report_start(const char *type);
int report_send(void); /* one write() per record; 0 or -errno */
void report_log(const char *msg);
void report_error(const char *msg, const char *test, int64_t rep);

/* setup.c: PID 1 duties. */
void setup_proc(void);
void setup_mounts(const struct agent_config *c);
void setup_modules(const char *list_path);
int setup_channel(const struct agent_config *c, char *why, size_t whycap);
int setup_block_device(const struct agent_config *c, char *why, size_t whycap);

/* seqread.c */
uint64_t seqread_run(const struct agent_config *c);

#endif
