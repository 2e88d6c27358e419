/* mke2fs -d and debugfs under a fixed clock; see e2fs.h. */
#include "images/e2fs.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/proc.h"
#include "images/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lab_e2fs_uuid(const char *hex, char out[37])
{
    snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
}

int lab_e2fs_make(const struct lab_e2fs *e)
{
    char mke2fs[64], fake[64], opts[128], bs[16], inodes[32], journal[32];
    char *argv[40];
    int n = 0;
    snprintf(fake, sizeof fake, "E2FSPROGS_FAKE_TIME=%lld", e->fake_time);
    snprintf(opts, sizeof opts, "hash_seed=%s,root_owner=0:0,nodiscard", e->hash_seed);
    snprintf(bs, sizeof bs, "%u", e->block_size);
    snprintf(inodes, sizeof inodes, "%llu", e->inodes);
    snprintf(journal, sizeof journal, "size=%llu", e->journal_mib);
    const char *head[] = {"env", fake, lab_tool_path("mke2fs", mke2fs, sizeof mke2fs), "-q", "-F",
                          "-t",  e->fs};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        argv[n++] = (char *)head[i];
    if (e->features) {
        argv[n++] = "-O";
        argv[n++] = (char *)e->features;
    }
    const char *mid[] = {"-b", bs, "-I", "128", "-m", "0", "-U", e->uuid, "-E", opts, "-d", e->src};
    for (size_t i = 0; i < sizeof mid / sizeof mid[0]; i++)
        argv[n++] = (char *)mid[i];
    if (e->inodes) {
        argv[n++] = "-N";
        argv[n++] = inodes;
    }
    if (e->journal_mib) {
        argv[n++] = "-J";
        argv[n++] = journal;
    }
    if (e->label) {
        argv[n++] = "-L";
        argv[n++] = (char *)e->label;
    }
    argv[n++] = (char *)e->img;
    argv[n++] = (char *)e->size;
    argv[n] = NULL;
    int st = lab_spawn_wait(argv, e->log);
    if (st != 0) {
        lab_error("mke2fs -t %s -d %s %s failed (exit %d)", e->fs, e->src, e->img, st);
        lab_image_show_log(e->log);
        return -1;
    }
    return 0;
}

int lab_e2fs_debugfs(const char *img, long long fake_time, enum lab_debugfs_input how,
                     const char *what, const char *log)
{
    char debugfs[64], fake[64];
    snprintf(fake, sizeof fake, "E2FSPROGS_FAKE_TIME=%lld", fake_time);
    const char *flag = how == LAB_DEBUGFS_SCRIPT ? "-f" : "-R";
    char *argv[] = {
        "env",       fake,         (char *)lab_tool_path("debugfs", debugfs, sizeof debugfs),
        "-w",        (char *)flag, (char *)what,
        (char *)img, NULL};
    int st = lab_spawn_wait(argv, log);
    char *out = lab_read_file(log, NULL);
    int complained =
        out && (strstr(out, "not found") || strstr(out, "Couldn't") || strstr(out, "rror"));
    free(out);
    if (st != 0 || complained) {
        lab_error("debugfs -w %s %s %s failed (exit %d)", flag, what, img, st);
        lab_image_show_log(log);
        return -1;
    }
    return 0;
}
