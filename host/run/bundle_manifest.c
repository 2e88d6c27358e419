/* MANIFEST.json: written last and renamed into place; checked before the
 * importer trusts a byte of the bundle. */
#include "host/run/bundle.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/msg.h"
#include "common/str.h"

#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

const char *lab_bundle_host(void)
{
    static char name[256];
    static const char *const vars[] = {"LAB_HOST", "SLURMD_NODENAME"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]) && *getenv(vars[i]))
            return getenv(vars[i]);
    struct utsname u;
    snprintf(name, sizeof name, "%s", uname(&u) == 0 ? u.nodename : "unknown");
    return name;
}

int lab_bundle_file_sha256(const char *path, char hex[LAB_HASH_HEX_LEN + 1], uint64_t *size)
{
    struct stat sb;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &sb) < 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct lab_hash h;
    char buf[1 << 16];
    ssize_t n;
    lab_hash_init(&h);
    while ((n = read(fd, buf, sizeof buf)) > 0)
        lab_hash_update(&h, buf, (size_t)n);
    close(fd);
    *size = (uint64_t)sb.st_size;
    if (n < 0) {
        lab_hash_abort(&h);
        return -1;
    }
    return lab_hash_final(&h, hex);
}

/* What a manifest lists: the bundle's regular files but itself, the job
 * and the live store. */
static int listed(const struct dirent *d)
{
    static const char *const skip[] = {LAB_BUNDLE_MANIFEST,
                                       LAB_BUNDLE_MANIFEST ".tmp",
                                       LAB_BUNDLE_LIVE_DB,
                                       LAB_BUNDLE_LIVE_DB "-wal",
                                       LAB_BUNDLE_LIVE_DB "-shm",
                                       LAB_BUNDLE_JOB,
                                       ".",
                                       ".."};
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strcmp(d->d_name, skip[i]) == 0)
            return 0;
    return d->d_type == DT_REG || d->d_type == DT_UNKNOWN;
}

static int list_files(const char *dir, struct lab_bundle_manifest *m)
{
    struct dirent **names;
    int n = scandir(dir, &names, listed, alphasort);
    if (n < 0)
        return lab_error("bundle %s: cannot list it", dir);
    int rc = 0;
    m->nfiles = 0;
    for (int i = 0; i < n; i++) {
        if (rc == 0 && m->nfiles == LAB_BUNDLE_MAX_FILES)
            rc = lab_error("bundle %s: more than %d files", dir, LAB_BUNDLE_MAX_FILES);
        if (rc == 0) {
            char *path = lab_asprintf("%s/%s", dir, names[i]->d_name);
            snprintf(m->files[m->nfiles].name, sizeof m->files[0].name, "%s", names[i]->d_name);
            if (lab_bundle_file_sha256(path, m->files[m->nfiles].sha256,
                                       &m->files[m->nfiles].size) < 0)
                rc = lab_error("bundle %s: cannot read %s", dir, path);
            free(path);
            m->nfiles++;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

static struct json_object *manifest_json(const struct lab_bundle_manifest *m)
{
    struct json_object *o = json_object_new_object(), *files = json_object_new_array();
    json_object_object_add(o, "format", json_object_new_int(LAB_BUNDLE_FORMAT));
    const struct {
        const char *k, *v;
    } strs[] = {{"key", m->key},       {"host", m->host},     {"status", m->status},
                {"kernel", m->kernel}, {"reason", m->reason}, {"dir", m->dir},
                {"plan", m->plan}};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        json_object_object_add(o, strs[i].k, json_object_new_string(strs[i].v));
    const struct {
        const char *k;
        int64_t v;
    } nums[] = {{"attempt", m->attempt},  {"run", m->run},         {"index", m->index},
                {"samples", m->samples},  {"flagged", m->flagged}, {"hello_ns", m->hello_ns},
                {"total_ns", m->total_ns}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        json_object_object_add(o, nums[i].k, json_object_new_int64(nums[i].v));
    for (size_t i = 0; i < m->nfiles; i++) {
        struct json_object *f = json_object_new_object();
        json_object_object_add(f, "name", json_object_new_string(m->files[i].name));
        json_object_object_add(f, "size", json_object_new_int64((int64_t)m->files[i].size));
        json_object_object_add(f, "sha256", json_object_new_string(m->files[i].sha256));
        json_object_array_add(files, f);
    }
    json_object_object_add(o, "files", files);
    return o;
}

int lab_bundle_write_manifest(const char *dir, struct lab_bundle_manifest *m)
{
    if (list_files(dir, m) < 0)
        return -1;
    struct json_object *o = manifest_json(m);
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
    char *tmp = lab_asprintf("%s/%s.tmp", dir, LAB_BUNDLE_MANIFEST);
    char *final = lab_asprintf("%s/%s", dir, LAB_BUNDLE_MANIFEST);
    int rc = -1, fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    size_t len = strlen(text);
    if (fd >= 0 && write(fd, text, len) == (ssize_t)len && fsync(fd) == 0 && close(fd) == 0) {
        fd = -1;
        rc = rename(tmp, final) == 0 ? 0 : -1;
    }
    if (fd >= 0)
        close(fd);
    if (rc < 0)
        lab_error("bundle %s: cannot write its manifest", dir);
    json_object_put(o);
    free(tmp);
    free(final);
    return rc;
}
