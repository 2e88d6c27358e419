/* Files: making, removing, bounded reading and writing, keeping copies. */
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *lab_keep_copy(const char *src, const char *dir, const char *name)
{
    size_t len;
    char *text = lab_read_file(src, &len), *dst = NULL;
    if (text && lab_mkdir_p(dir, 0755) == 0) {
        dst = lab_asprintf("%s/%s", dir, name);
        if (lab_write_file(dst, text, len) < 0) {
            free(dst);
            dst = NULL;
        }
    }
    free(text);
    return dst;
}

int lab_mkdir_p(const char *path, unsigned mode)
{
    char *p = lab_xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, mode) < 0 && errno != EEXIST) {
            int e = errno;
            free(p);
            return lab_error("cannot create %s: %s", path, strerror(e));
        }
        *s = '/';
    }
    if (mkdir(p, mode) < 0 && errno != EEXIST) {
        free(p);
        return lab_error("cannot create %s: %s", path, strerror(errno));
    }
    free(p);
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

int lab_rm_rf(const char *path)
{
    if (access(path, F_OK) < 0)
        return 0;
    return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int lab_file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* Reads up to max + 1 bytes of fd into a buffer grown as needed. */
static char *read_bounded(int fd, size_t max, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            if (cap > max + 1)
                cap = max + 1;
            char *nb = realloc(buf, cap + 1);
            if (!nb)
                abort();
            buf = nb;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(buf);
            return NULL;
        }
        n += (size_t)got;
        if (got == 0)
            break;
        if (n > max) {
            free(buf);
            errno = EFBIG;
            return NULL;
        }
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *lab_read_file_max(const char *path, size_t max, size_t *len)
{
    struct stat st;
    size_t n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    char *buf = read_bounded(fd, max, &n);
    int e = errno;
    close(fd);
    errno = e;
    if (buf && len)
        *len = n;
    return buf;
}

char *lab_read_file(const char *path, size_t *len)
{
    return lab_read_file_max(path, LAB_READ_MAX, len);
}

char *lab_read_text(const char *path, size_t max, size_t *len)
{
    size_t n;
    char *text = lab_read_file_max(path, max, &n);
    if (!text) {
        if (errno == EFBIG)
            lab_error("%s: larger than %zu bytes: not a file the lab reads", path, max);
        else if (errno != ENOENT)
            lab_error("cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    const char *nul = memchr(text, '\0', n);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        lab_error("%s:%d: a NUL byte (at byte %zu): not a text file", path, line,
                  (size_t)(nul - text));
        free(text);
        errno = EINVAL;
        return NULL;
    }
    if (len)
        *len = n;
    return text;
}

int lab_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return lab_error("cannot write %s: %s", path, strerror(errno));
    if (fwrite(data, 1, len, f) != len || fclose(f) != 0)
        return lab_error("cannot write %s: %s", path, strerror(errno));
    return 0;
}

void lab_log_tail(const char *path, int lines, const char *prefix)
{
    size_t len;
    char *s = lab_read_file(path, &len);
    if (!s)
        return;
    while (len && s[len - 1] == '\n')
        s[--len] = '\0';
    size_t start = len;
    for (int n = 0; start > 0; start--)
        if (s[start - 1] == '\n' && ++n == lines)
            break;
    for (char *line = s + start, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        fprintf(stderr, "%s%s\n", prefix, line);
    }
    free(s);
}
