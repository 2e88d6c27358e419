/* Kernel names as the commands take them; see kernelnames.h. */
#include "lab/kernelnames.h"

#include "kernels/byname.h"
#include "kernels/catalog.h"
#include "kernels/mirror.h"
#include "kernels/patch.h"
#include "common/file.h"
#include "lab/session.h"
#include "host/cell/smoke.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lab_kernel_smoke_and_mark(const char *name, int argc, char **argv)
{
    struct lab_session s;
    char note[1024];
    if (!lab_kernel_find(name)) {
        lab_error("unknown kernel '%s'", name);
        return 2;
    }
    if (lab_session_open(&s, argc, argv, "smoke", "fast") < 0)
        return 2;
    fprintf(stderr, "lab: %s: IO smoke test (%d MiB read %d times on ide, every word checked)\n",
            name, LAB_SMOKE_FILE_MIB, LAB_SMOKE_REPS);
    int v = lab_kernel_verify(&s.env, name, "auto", 1, note, sizeof note);
    lab_store_run_end(s.env.store, s.env.run_id,
                      lab_interrupted ? "interrupted"
                      : v == 1        ? "ok"
                                      : "failed");
    lab_session_close(&s);
    if (lab_interrupted)
        return 130; /* no verdict on an interrupted test */
    if (v < 0) {
        lab_error("%s: the smoke test could not run: %s", name, note);
        return 2;
    }
    if (v == 1) {
        printf("%s: passed the IO smoke test: %s\n", name, note);
        return 0;
    }
    lab_error("%s failed the IO smoke test: %s; cells will not use it", name, note);
    return 1;
}

static int unknown(const char *name, const char *why)
{
    char *known = lab_kernel_known_names();
    lab_error("unknown kernel '%s' (%s); known kernels: %s; or a kernel.org release name "
              "(2.4.20, 2.6.12-rc2, 2.6.11.7, 6.1) or a variant of one (2.6.11+FILE.diff)",
              name, why, known);
    free(known);
    return 2;
}

/* A kernel built here from a name is used once it passed the smoke test. */
static int smoke_if_needed(const char *name, const struct lab_kernel_names_opts *o)
{
    const struct lab_kernel *k = lab_kernel_find(name);
    if (k && k->verified && strcmp(k->verified, "passed") == 0)
        return 0;
    fprintf(stderr, "lab: %s: built; booting it for the IO smoke test before any cell uses it\n",
            name);
    return lab_kernel_smoke_and_mark(name, o ? o->argc : 0, o ? o->argv : NULL);
}

int lab_kernel_name_prepare(const char *name, const struct lab_kernel_names_opts *o,
                            char **name_out)
{
    const struct lab_kernel *k = lab_kernel_find(name);
    char why[256] = "";
    /* a catalog name is used as it is: Debian's, a user's own kernel (it
     * wins over the release of that name), or a release built here before;
     * a variant is looked at again (its patch files may have changed), and
     * anything on request (the caches make it cheap) */
    int again = o && o->refresh;
    if (k && (!lab_byname_made(k) || (!strchr(name, LAB_VARIANT_SEP) && !again))) {
        *name_out = lab_xstrdup(k->name);
        return lab_byname_made(k) ? smoke_if_needed(k->name, o) : 0;
    }
    if (!lab_byname_valid(name, why, sizeof why))
        return unknown(name, why);
    /* Ctrl-C stops a download or build cleanly: nothing half-cached */
    lab_install_signal_handlers();
    struct lab_byname_opts bo = {.arch = o ? o->arch : NULL, .jobs = o ? o->jobs : 0};
    int rc = lab_byname_prepare(name, &bo, name_out);
    if (lab_interrupted)
        return 130;
    if (rc < 0)
        return rc == -2 ? 2 : 1;
    return smoke_if_needed(*name_out, o);
}

int lab_kernel_list_resolve(const char *list, const struct lab_kernel_names_opts *o,
                            const struct lab_kernel **out, size_t max, size_t *n)
{
    char *copy = lab_xstrdup(list), *names[64];
    size_t nn = 0;
    int rc = 0;
    *n = 0;
    for (char *save, *name = strtok_r(copy, ",", &save); name && rc == 0;
         name = strtok_r(NULL, ",", &save)) {
        if (nn == max || nn == sizeof names / sizeof names[0]) {
            lab_error("at most %zu kernels per run", max);
            rc = 2;
            break;
        }
        rc = lab_kernel_name_prepare(name, o, &names[nn]);
        if (rc == 0)
            nn++;
    }
    if (rc == 0 && nn == 0) {
        lab_error("--kernels names no kernel");
        rc = 2;
    }
    /* the pointers last: a build or a verdict reloads the registry */
    for (size_t i = 0; i < nn; i++) {
        if (rc == 0 && !(out[i] = lab_kernel_find(names[i]))) {
            lab_error("kernel %s vanished from the registry", names[i]);
            rc = 1;
        }
        free(names[i]);
    }
    if (rc == 0)
        *n = nn;
    free(copy);
    return rc;
}

/* The value of KEY= in kernel.conf text (malloc'd), or NULL. */
static char *conf_value(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *l = text; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        if (n > kl && strncmp(l, key, kl) == 0 && l[kl] == '=')
            return lab_asprintf("%.*s", (int)(n - kl - 1), l + kl + 1);
        l = end ? end + 1 : NULL;
    }
    return NULL;
}

/* Patch i (1..) of a kernel: its text unless it is the release's own
 * kernel.org patch, which its URL and sha256 name. */
static int record_patch(struct lab_store *st, int64_t run, const char *kernel, const char *conf,
                        int i)
{
    char key[64];
    snprintf(key, sizeof key, "build_patch_%d", i);
    char *path = conf_value(conf, key);
    if (!path)
        return 1; /* no more */
    snprintf(key, sizeof key, "build_patch_%d_sha256", i);
    char *sha = conf_value(conf, key), *url = conf_value(conf, "origin_patch_url");
    char *url_sha = conf_value(conf, "origin_patch_sha256"), now[LAB_HASH_HEX_LEN + 1] = "";
    char *text = NULL;
    int rc = -1;
    size_t len;
    int from_mirror = url && url_sha && sha && strcmp(url_sha, sha) == 0;
    if (!sha)
        lab_error("kernel %s: no sha256 for its patch %s", kernel, path);
    else if (from_mirror)
        rc = lab_store_add_kernel_patch(st, run, kernel, i, url, sha, NULL);
    else if (lab_mirror_file_sha256(path, now) < 0 || strcmp(now, sha) != 0)
        lab_error("kernel %s was built with %s at sha256 %.16s...; the file %s now: lab kernels "
                  "fetch %s builds it again",
                  kernel, path, sha, now[0] ? "differs" : "is gone", kernel);
    else if ((text = lab_patch_text(path, &len)))
        rc = lab_store_add_kernel_patch(st, run, kernel, i, path, sha, text);
    free(text);
    free(path);
    free(sha);
    free(url);
    free(url_sha);
    return rc;
}

int lab_kernel_patches_record(struct lab_store *st, int64_t run, const struct lab_kernel *const *ks,
                              size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (!ks[k]->dir || !ks[k]->build_hash)
            continue;
        char *path = lab_asprintf("%s/kernel.conf", ks[k]->dir);
        size_t len;
        char *conf = lab_read_file(path, &len);
        free(path);
        int rc = 0;
        for (int i = 1; conf && rc == 0; i++)
            rc = record_patch(st, run, ks[k]->name, conf, i);
        free(conf);
        if (rc < 0)
            return -1;
    }
    return 0;
}
