/* Checking a bundle before anything of it is trusted: the manifest, each
 * file's size and SHA-256, and the store itself. */
#include "host/run/bundle.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST_MAX (1u << 20)

static int get_str(struct json_object *o, const char *key, char *dst, size_t size)
{
    struct json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string) ||
        (size_t)json_object_get_string_len(v) >= size)
        return -1;
    snprintf(dst, size, "%s", json_object_get_string(v));
    return 0;
}

static int get_i64(struct json_object *o, const char *key, int64_t *dst)
{
    struct json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return -1;
    *dst = json_object_get_int64(v);
    return 0;
}

static int parse_files(struct json_object *files, struct lab_bundle_manifest *m)
{
    if (!files || !json_object_is_type(files, json_type_array) ||
        json_object_array_length(files) > LAB_BUNDLE_MAX_FILES)
        return -1;
    m->nfiles = json_object_array_length(files);
    for (size_t i = 0; i < m->nfiles; i++) {
        struct json_object *f = json_object_array_get_idx(files, i);
        int64_t size;
        if (get_str(f, "name", m->files[i].name, sizeof m->files[i].name) < 0 ||
            get_str(f, "sha256", m->files[i].sha256, sizeof m->files[i].sha256) < 0 ||
            get_i64(f, "size", &size) < 0 || size < 0 || strchr(m->files[i].name, '/') ||
            m->files[i].name[0] == '.')
            return -1;
        m->files[i].size = (uint64_t)size;
    }
    return 0;
}

static int parse_manifest(const char *text, struct lab_bundle_manifest *m)
{
    struct json_object *o = json_tokener_parse(text), *files = NULL;
    int64_t format = 0, attempt = 0, index = 0, samples = 0, flagged = 0;
    int bad = !o || get_i64(o, "format", &format) < 0 || format != LAB_BUNDLE_FORMAT ||
              get_str(o, "key", m->key, sizeof m->key) < 0 || !m->key[0] ||
              get_str(o, "host", m->host, sizeof m->host) < 0 ||
              get_str(o, "status", m->status, sizeof m->status) < 0 ||
              get_str(o, "kernel", m->kernel, sizeof m->kernel) < 0 ||
              get_str(o, "reason", m->reason, sizeof m->reason) < 0 ||
              get_str(o, "dir", m->dir, sizeof m->dir) < 0 ||
              get_str(o, "plan", m->plan, sizeof m->plan) < 0 ||
              get_i64(o, "attempt", &attempt) < 0 || attempt < 1 || attempt > 1000 ||
              get_i64(o, "run", &m->run) < 0 || get_i64(o, "index", &index) < 0 ||
              get_i64(o, "samples", &samples) < 0 || get_i64(o, "flagged", &flagged) < 0 ||
              get_i64(o, "hello_ns", &m->hello_ns) < 0 ||
              get_i64(o, "total_ns", &m->total_ns) < 0 ||
              !json_object_object_get_ex(o, "files", &files) || parse_files(files, m) < 0;
    m->attempt = (unsigned)attempt;
    m->index = (int)index;
    m->samples = (unsigned)samples;
    m->flagged = (unsigned)flagged;
    json_object_put(o);
    return bad ? -1 : 0;
}

static int check_file(const char *dir, const struct lab_bundle_manifest *m, size_t i, char *why,
                      size_t len)
{
    char *path = lab_asprintf("%s/%s", dir, m->files[i].name);
    struct stat sb;
    int rc = -1;
    if (stat(path, &sb) < 0) {
        snprintf(why, len, "%s is missing (the manifest lists it)", m->files[i].name);
    } else if ((uint64_t)sb.st_size != m->files[i].size) {
        snprintf(why, len, "%s is %lld bytes, the manifest says %llu: truncated or changed",
                 m->files[i].name, (long long)sb.st_size, (unsigned long long)m->files[i].size);
    } else {
        char hex[LAB_HASH_HEX_LEN + 1] = "";
        uint64_t size;
        int got = lab_bundle_file_sha256(path, hex, &size);
        if (got < 0)
            snprintf(why, len, "%s cannot be read: %s", m->files[i].name, strerror(errno));
        else if (strcmp(hex, m->files[i].sha256) != 0)
            snprintf(why, len, "%s does not match its SHA-256 in the manifest: corrupt",
                     m->files[i].name);
        else
            rc = 0;
    }
    free(path);
    return rc;
}

/* The store: SQLite's own check, and one cell. */
static int check_store(const char *path, char *why, size_t len)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = -1;
    char *uri = sqlite3_mprintf("file:%s?mode=ro&immutable=1", path);
    if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db,
                           "SELECT (SELECT group_concat(quick_check) FROM pragma_quick_check),"
                           " (SELECT count(*) FROM cells)",
                           -1, &s, NULL) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW) {
        const char *qc = (const char *)sqlite3_column_text(s, 0);
        if (!qc || strcmp(qc, "ok") != 0)
            snprintf(why, len, "%s fails SQLite's check: %.200s", LAB_BUNDLE_DB, qc ? qc : "?");
        else if (sqlite3_column_int(s, 1) != 1)
            snprintf(why, len, "%s holds %d cells, not one", LAB_BUNDLE_DB,
                     sqlite3_column_int(s, 1));
        else
            rc = 0;
    } else {
        snprintf(why, len, "%s is not a result store: %s", LAB_BUNDLE_DB,
                 db ? sqlite3_errmsg(db) : "cannot open");
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    sqlite3_free(uri);
    return rc;
}

int lab_bundle_verify(const char *dir, struct lab_bundle_manifest *m, char *why, size_t len)
{
    memset(m, 0, sizeof *m);
    char *path = lab_asprintf("%s/%s", dir, LAB_BUNDLE_MANIFEST);
    char *text = lab_read_text(path, MANIFEST_MAX, NULL);
    int have_db = 0, rc = -1;
    if (!text && errno == ENOENT)
        snprintf(why, len, "partial: no %s (the cell did not finish writing it)",
                 LAB_BUNDLE_MANIFEST);
    else if (!text)
        snprintf(why, len, "%s cannot be read", LAB_BUNDLE_MANIFEST);
    else if (parse_manifest(text, m) < 0)
        snprintf(why, len, "%s is not a bundle manifest of format %d", LAB_BUNDLE_MANIFEST,
                 LAB_BUNDLE_FORMAT);
    else
        rc = 0;
    for (size_t i = 0; rc == 0 && i < m->nfiles; i++) {
        have_db |= strcmp(m->files[i].name, LAB_BUNDLE_DB) == 0;
        rc = check_file(dir, m, i, why, len);
    }
    if (rc == 0 && !have_db) {
        snprintf(why, len, "the manifest lists no %s", LAB_BUNDLE_DB);
        rc = -1;
    }
    free(text);
    free(path);
    if (rc == 0) {
        char *db = lab_asprintf("%s/%s", dir, LAB_BUNDLE_DB);
        rc = check_store(db, why, len);
        free(db);
    }
    return rc;
}
