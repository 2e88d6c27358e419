/* A kernel source for the builder: tarball, directory or git ref; see
 * source.h. */
#include "kernels/source.h"

#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"
#include "common/file.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Directory trees: a hash of every file's path, size and mtime (.git and
 * the kernel's own build outputs are skipped: O= keeps the tree clean). */
static struct lab_hash *walk_hash;
static size_t walk_root;
static int walk_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    const char *base = path + ftw->base;
    if (flag == FTW_D && strcmp(base, ".git") == 0)
        return FTW_SKIP_SUBTREE;
    if (flag != FTW_F)
        return FTW_CONTINUE;
    lab_hash_str(walk_hash, path + walk_root);
    lab_hash_u64(walk_hash, (uint64_t)st->st_size);
    lab_hash_u64(walk_hash,
                 (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec);
    return FTW_CONTINUE;
}

static int dir_tree_id(const char *dir, char hex[LAB_HASH_HEX_LEN + 1])
{
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    walk_hash = &h;
    walk_root = strlen(dir);
    if (nftw(dir, walk_one, 64, FTW_PHYS | FTW_ACTIONRETVAL) != 0) {
        lab_hash_abort(&h);
        return lab_error("cannot walk %s: %s", dir, strerror(errno));
    }
    return lab_hash_final(&h, hex);
}

void lab_build_source_free(struct lab_build_source *s)
{
    free(s->path);
    free(s->ref);
    free(s->makefile);
}

int lab_build_source_open(const struct lab_build_spec *b, struct lab_build_source *s)
{
    memset(s, 0, sizeof *s);
    struct stat st;
    char *cmd;
    if (b->repo || b->ref) {
        if (!b->repo || !b->ref)
            return lab_error("--repo and --ref go together");
        s->kind = SRC_GIT;
        s->path = lab_xstrdup(b->repo);
        s->ref = lab_xstrdup(b->ref);
    } else if (!b->src) {
        return lab_error("no source: give a tarball, a directory, REPO:REF or --repo/--ref");
    } else if (stat(b->src, &st) == 0 && S_ISDIR(st.st_mode)) {
        s->kind = SRC_DIR;
        s->path = realpath(b->src, NULL);
    } else if (stat(b->src, &st) == 0 && S_ISREG(st.st_mode)) {
        if (!ends_with(b->src, ".tar.xz") && !ends_with(b->src, ".tar.gz") &&
            !ends_with(b->src, ".tgz") && !ends_with(b->src, ".tar.bz2") &&
            !ends_with(b->src, ".tar"))
            return lab_error("%s: not a source tarball (.tar.xz, .tar.gz, .tar.bz2, .tar)", b->src);
        s->kind = SRC_TARBALL;
        s->path = realpath(b->src, NULL);
    } else {
        const char *colon = strrchr(b->src, ':');
        if (!colon)
            return lab_error("%s: no such file or directory (nor REPO:REF)", b->src);
        s->kind = SRC_GIT;
        s->path = strndup(b->src, (size_t)(colon - b->src));
        s->ref = lab_xstrdup(colon + 1);
    }
    if (!s->path)
        return lab_error("%s: %s", b->src, strerror(errno));

    if (s->kind == SRC_GIT) {
        char *qp = lab_shell_quote(s->path), *qr = lab_shell_quote(s->ref), *tree = NULL;
        cmd = lab_asprintf("git -C %s rev-parse --verify -q %s^{tree}", qp, qr);
        tree = lab_capture(cmd);
        int rc = tree ? 0 : -1;
        free(cmd);
        if (rc == 0) {
            snprintf(s->tree_id, sizeof s->tree_id, "%.*s", (int)strcspn(tree, "\n"), tree);
            cmd = lab_asprintf("git -C %s show %s:Makefile", qp, qr);
            s->makefile = lab_capture(cmd);
            rc = s->makefile ? 0 : -1;
            free(cmd);
        }
        free(tree);
        free(qp);
        free(qr);
        if (rc < 0)
            return lab_error("%s is not a git ref in %s with a Makefile", s->ref, s->path);
    } else if (s->kind == SRC_DIR) {
        char *mk = lab_asprintf("%s/Makefile", s->path);
        size_t len;
        s->makefile = lab_read_file(mk, &len);
        free(mk);
        if (!s->makefile)
            return lab_error("%s has no Makefile: not a kernel tree", s->path);
    } else {
        /* Only the top directory's Makefile; tar stops at the first. */
        char *qp = lab_shell_quote(s->path);
        cmd = lab_asprintf("tar -xOf %s --wildcards --no-wildcards-match-slash --occurrence=1 "
                           "'*/Makefile' 2>/dev/null",
                           qp);
        s->makefile = lab_capture(cmd);
        int rc = s->makefile ? 0 : -1;
        free(cmd);
        free(qp);
        if (rc < 0 || !s->makefile[0])
            return lab_error("%s: no top-level Makefile in the tarball", s->path);
    }
    return 0;
}

int lab_build_source_tree_id(struct lab_build_source *s)
{
    if (s->kind == SRC_GIT)
        return 0;
    if (s->kind == SRC_DIR)
        return dir_tree_id(s->path, s->tree_id);
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    if (lab_hash_file(&h, s->path) < 0) {
        lab_hash_abort(&h);
        return -1;
    }
    return lab_hash_final(&h, s->tree_id);
}
