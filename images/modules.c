/* modules.dep resolution and module decompression. */
#include "images/modules.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

struct mod {
    char *name; /* normalised */
    char *path; /* relative to modules_dir */
    char **deps;
    size_t ndeps;
    int state; /* 0 unvisited, 1 visiting, 2 done */
};

struct moddb {
    struct mod *mods;
    size_t n;
    char **builtin; /* normalised names, sorted */
    size_t nbuiltin;
};

char *lab_module_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *name = lab_xstrdup(base);
    char *ko = strstr(name, ".ko");
    while (ko && ko[3] != '\0' && ko[3] != '.') /* ".ko" must end the name or precede ".xz" */
        ko = strstr(ko + 1, ".ko");
    if (ko)
        *ko = '\0';
    for (char *p = name; *p; p++)
        if (*p == '-')
            *p = '_';
    return name;
}

static int cmp_mod(const void *a, const void *b)
{
    return strcmp(((const struct mod *)a)->name, ((const struct mod *)b)->name);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct mod *db_find(struct moddb *db, const char *name)
{
    struct mod key = {.name = (char *)name};
    return bsearch(&key, db->mods, db->n, sizeof key, cmp_mod);
}

static int db_builtin(struct moddb *db, const char *name)
{
    return db->nbuiltin &&
           bsearch(&name, db->builtin, db->nbuiltin, sizeof(char *), cmp_str) != NULL;
}

static void db_free(struct moddb *db)
{
    for (size_t i = 0; i < db->n; i++) {
        free(db->mods[i].name);
        free(db->mods[i].path);
        for (size_t j = 0; j < db->mods[i].ndeps; j++)
            free(db->mods[i].deps[j]);
        free(db->mods[i].deps);
    }
    free(db->mods);
    for (size_t i = 0; i < db->nbuiltin; i++)
        free(db->builtin[i]);
    free(db->builtin);
    memset(db, 0, sizeof *db);
}

static int db_load(struct moddb *db, const char *modules_dir)
{
    char *path = lab_asprintf("%s/modules.dep", modules_dir);
    char *text = lab_read_file(path, NULL);
    size_t cap = 0;
    memset(db, 0, sizeof *db);
    if (!text) {
        lab_error("cannot read %s: %s (run depmod for this kernel)", path, strerror(errno));
        free(path);
        return -1;
    }
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        if (db->n == cap) {
            cap = cap ? cap * 2 : 256;
            db->mods = realloc(db->mods, cap * sizeof *db->mods);
            if (!db->mods)
                abort();
        }
        struct mod *m = &db->mods[db->n++];
        memset(m, 0, sizeof *m);
        m->path = lab_xstrdup(line);
        m->name = lab_module_name(line);
        size_t dcap = 0;
        char *dsave = NULL;
        for (char *d = strtok_r(colon + 1, " \t", &dsave); d; d = strtok_r(NULL, " \t", &dsave)) {
            if (m->ndeps == dcap) {
                dcap = dcap ? dcap * 2 : 4;
                m->deps = realloc(m->deps, dcap * sizeof *m->deps);
                if (!m->deps)
                    abort();
            }
            m->deps[m->ndeps++] = lab_module_name(d);
        }
    }
    free(text);
    free(path);
    qsort(db->mods, db->n, sizeof *db->mods, cmp_mod);

    /* modules.builtin is optional (old kernels, hand-made trees). */
    path = lab_asprintf("%s/modules.builtin", modules_dir);
    text = lab_read_file(path, NULL);
    free(path);
    if (text) {
        cap = 0;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            if (db->nbuiltin == cap) {
                cap = cap ? cap * 2 : 256;
                db->builtin = realloc(db->builtin, cap * sizeof *db->builtin);
                if (!db->builtin)
                    abort();
            }
            db->builtin[db->nbuiltin++] = lab_module_name(line);
        }
        free(text);
        qsort(db->builtin, db->nbuiltin, sizeof *db->builtin, cmp_str);
    }
    return 0;
}

struct order {
    char **paths;
    size_t n, cap;
};

/* Depth-first: dependencies (each resolved through its own modules.dep line)
 * before the module. The deps on a line are listed outermost first, so they
 * are visited last to first, as modprobe loads them. */
static int visit(struct moddb *db, struct mod *m, const char *modules_dir, struct order *o)
{
    if (m->state == 2)
        return 0;
    if (m->state == 1)
        return lab_error("dependency cycle through module %s in %s/modules.dep", m->name,
                         modules_dir);
    m->state = 1;
    for (size_t i = m->ndeps; i-- > 0;) {
        struct mod *d = db_find(db, m->deps[i]);
        if (!d)
            return lab_error("module %s needs %s, which is not in %s/modules.dep", m->name,
                             m->deps[i], modules_dir);
        if (visit(db, d, modules_dir, o) < 0)
            return -1;
    }
    m->state = 2;
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 16;
        o->paths = realloc(o->paths, o->cap * sizeof *o->paths);
        if (!o->paths)
            abort();
    }
    o->paths[o->n++] = lab_xstrdup(m->path);
    return 0;
}

int lab_modules_resolve(const char *modules_dir, const char *const *wanted, size_t nwanted,
                        char ***paths_out, size_t *n_out)
{
    struct moddb db;
    struct order o = {0};
    *paths_out = NULL;
    *n_out = 0;
    if (db_load(&db, modules_dir) < 0)
        return -1;
    for (size_t i = 0; i < nwanted; i++) {
        char *name = lab_module_name(wanted[i]);
        struct mod *m = db_find(&db, name);
        int rc = 0;
        if (db_builtin(&db, name))
            rc = 0;
        else if (!m)
            rc = lab_error("unknown module '%s': not in %s/modules.dep nor modules.builtin",
                           wanted[i], modules_dir);
        else
            rc = visit(&db, m, modules_dir, &o);
        free(name);
        if (rc < 0) {
            lab_modules_free(o.paths, o.n);
            db_free(&db);
            return -1;
        }
    }
    db_free(&db);
    *paths_out = o.paths;
    *n_out = o.n;
    return 0;
}

void lab_modules_free(char **paths, size_t n)
{
    if (!paths)
        return;
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

static int unxz(const char *path, const unsigned char *in, size_t in_len, unsigned char **out,
                size_t *out_len)
{
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_ret r = lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED);
    if (r != LZMA_OK)
        return lab_error("%s: cannot start the xz decoder (lzma error %d)", path, (int)r);
    size_t cap = in_len * 4 + 65536, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf)
        abort();
    s.next_in = in;
    s.avail_in = in_len;
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        s.next_out = buf + n;
        s.avail_out = cap - n;
        r = lzma_code(&s, LZMA_FINISH);
        n = cap - s.avail_out;
        if (r == LZMA_STREAM_END)
            break;
        if (r != LZMA_OK) {
            lzma_end(&s);
            free(buf);
            return lab_error("%s: corrupt xz data (lzma error %d)", path, (int)r);
        }
        if (s.avail_in == 0 && s.avail_out != 0) {
            lzma_end(&s);
            free(buf);
            return lab_error("%s: truncated xz data", path);
        }
    }
    lzma_end(&s);
    *out = buf;
    *out_len = n;
    return 0;
}

int lab_module_load_bytes(const char *path, unsigned char **data, size_t *len)
{
    size_t n;
    unsigned char *raw = (unsigned char *)lab_read_file(path, &n);
    static const unsigned char xz_magic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
    static const unsigned char zstd_magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    *data = NULL;
    *len = 0;
    if (!raw)
        return lab_error("cannot read module %s: %s", path, strerror(errno));
    if (n >= 6 && memcmp(raw, xz_magic, 6) == 0) {
        int rc = unxz(path, raw, n, data, len);
        free(raw);
        return rc;
    }
    if (n >= 4 && memcmp(raw, zstd_magic, 4) == 0) {
        free(raw);
        return lab_error("module %s is zstd-compressed; this lab build reads only xz and plain "
                         "modules",
                         path);
    }
    if (n >= 2 && raw[0] == 0x1F && raw[1] == 0x8B) {
        free(raw);
        return lab_error("module %s is gzip-compressed; this lab build reads only xz and plain "
                         "modules",
                         path);
    }
    *data = raw;
    *len = n;
    return 0;
}
