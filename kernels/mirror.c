/* Fetching from a kernel.org mirror with libcurl; see mirror.h. */
#include "kernels/mirror.h"

#include "common/clock.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <curl/curl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SUMS_MAX (16u << 20)

char *lab_mirror_base(void)
{
    const char *m = getenv(LAB_MIRROR_ENV);
    if (!m || !*m)
        m = LAB_MIRROR_DEFAULT;
    size_t n = strlen(m);
    const char *slash = n && m[n - 1] == '/' ? "" : "/";
    if (strncmp(m, "https://", 8) == 0 || strncmp(m, "http://", 7) == 0 ||
        strncmp(m, "file://", 7) == 0)
        return lab_asprintf("%s%s", m, slash);
    if (strstr(m, "://")) {
        lab_error("%s=%s: the lab fetches over https, http, file:// or from a directory",
                  LAB_MIRROR_ENV, m);
        return NULL;
    }
    char abs[PATH_MAX];
    struct stat st;
    if (!realpath(m, abs) || stat(abs, &st) < 0 || !S_ISDIR(st.st_mode)) {
        lab_error("%s=%s: not a directory, nor an https, http or file:// URL", LAB_MIRROR_ENV, m);
        return NULL;
    }
    return lab_asprintf("file://%s/", abs);
}

/* One transfer: to a file (hashed on the way) or into memory. */
struct xfer {
    FILE *f;
    struct lab_hash h;
    char *mem;
    size_t memlen, cap;
    curl_off_t got;
    int64_t started, last_print;
    const char *url;
    int tty, said;
};

static size_t on_data(char *p, size_t size, size_t nmemb, void *arg)
{
    struct xfer *x = arg;
    size_t n = size * nmemb;
    if ((size_t)x->got + n > x->cap)
        return 0; /* past the cap: curl fails with a write error */
    x->got += (curl_off_t)n;
    if (x->f) {
        lab_hash_update(&x->h, p, n);
        return fwrite(p, 1, n, x->f);
    }
    char *m = realloc(x->mem, x->memlen + n + 1);
    if (!m)
        return 0;
    x->mem = m;
    memcpy(x->mem + x->memlen, p, n);
    x->memlen += n;
    x->mem[x->memlen] = '\0';
    return n;
}

/* The live line: where the download is, four times a second on a
 * terminal; a start line elsewhere (logs stay short). Ctrl-C stops it. */
static int on_progress(void *arg, curl_off_t total, curl_off_t now, curl_off_t ut, curl_off_t un)
{
    struct xfer *x = arg;
    if (lab_interrupted)
        return 1;
    if (!x->f)
        return 0;
    int64_t t = lab_now_ns();
    if (!x->tty) {
        if (!x->said && total > 0) {
            fprintf(stderr, "lab: fetching %s (%.1f MiB)\n", x->url, (double)total / 1048576.0);
            x->said = 1;
        }
        return 0;
    }
    if (t - x->last_print < 250000000LL)
        return 0;
    x->last_print = t;
    fprintf(stderr, "\rlab: fetching %s: %.1f of %.1f MiB\033[K", x->url, (double)now / 1048576.0,
            (double)total / 1048576.0);
    x->said = 1;
    return 0;
}

/* The live line as host/progress.c draws it: on a terminal unless
 * LAB_PROGRESS says plain or off. */
static int live_line(void)
{
    const char *p = getenv("LAB_PROGRESS");
    if (p && (strcmp(p, "plain") == 0 || strcmp(p, "off") == 0))
        return 0;
    return (p && strcmp(p, "tty") == 0) || isatty(2);
}

static long connect_timeout(void)
{
    const char *e = getenv("LAB_KERNEL_CONNECT_TIMEOUT");
    long v = e ? strtol(e, NULL, 10) : 0;
    return v > 0 && v <= 600 ? v : LAB_MIRROR_CONNECT_S;
}

static CURLcode transfer(struct xfer *x, long *code)
{
    static int inited;
    if (!inited && curl_global_init(CURL_GLOBAL_DEFAULT) == 0)
        inited = 1;
    CURL *c = curl_easy_init();
    if (!c)
        return CURLE_OUT_OF_MEMORY;
    curl_easy_setopt(c, CURLOPT_URL, x->url);
    curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http,file");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https,http");
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, connect_timeout());
    /* a stalled mirror: under 1 KiB/s for a minute */
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->cap);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, x);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, x);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "lab (kernel fetch)");
    x->started = x->last_print = lab_now_ns();
    CURLcode rc = curl_easy_perform(c);
    *code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, code);
    curl_easy_cleanup(c);
    if (x->tty && x->said)
        fprintf(stderr, "\r\033[K");
    return rc;
}

static int absent(CURLcode rc, long code)
{
    return rc == CURLE_FILE_COULDNT_READ_FILE || rc == CURLE_REMOTE_FILE_NOT_FOUND ||
           (rc == CURLE_HTTP_RETURNED_ERROR && (code == 404 || code == 410));
}

static int unreachable(CURLcode rc, curl_off_t got)
{
    return rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY ||
           rc == CURLE_COULDNT_CONNECT || rc == CURLE_SSL_CONNECT_ERROR ||
           (rc == CURLE_OPERATION_TIMEDOUT && got == 0);
}

/* What a failed transfer means, said; the enum. */
static enum lab_mirror_rc judge(CURLcode rc, long code, const struct xfer *x)
{
    if (rc == CURLE_OK)
        return LAB_MIRROR_OK;
    if (absent(rc, code))
        return LAB_MIRROR_ABSENT;
    if (unreachable(rc, x->got)) {
        lab_error("cannot reach %s: %s (within %ld s); point %s at a reachable mirror: an https or "
                  "http URL, file:// or a directory laid out like kernel.org's pub/linux/kernel/",
                  x->url, curl_easy_strerror(rc), connect_timeout(), LAB_MIRROR_ENV);
        return LAB_MIRROR_UNREACHABLE;
    }
    if (rc == CURLE_ABORTED_BY_CALLBACK && lab_interrupted)
        lab_error("fetching %s: interrupted; nothing kept", x->url);
    else if (rc == CURLE_FILESIZE_EXCEEDED || (rc == CURLE_WRITE_ERROR && (size_t)x->got >= x->cap))
        lab_error("fetching %s: larger than the lab's cap of %zu MiB; refused", x->url,
                  x->cap >> 20);
    else if (code)
        lab_error("fetching %s failed: %s (HTTP %ld)", x->url, curl_easy_strerror(rc), code);
    else
        lab_error("fetching %s failed: %s", x->url, curl_easy_strerror(rc));
    return LAB_MIRROR_FAILED;
}

/* The directory's sha256sums.asc, fetched once per directory and process:
 * NULL when the mirror has none (or it could not be read). */
static const char *dir_sums(const char *base, const char *dir)
{
    static char *cached_url, *cached_text;
    static int cached_none;
    char *url = lab_asprintf("%s%s%ssha256sums.asc", base, dir, *dir ? "/" : "");
    if (cached_url && strcmp(cached_url, url) == 0) {
        free(url);
        return cached_none ? NULL : cached_text;
    }
    free(cached_url);
    free(cached_text);
    cached_url = url;
    struct xfer x = {.url = url, .cap = SUMS_MAX};
    long code;
    CURLcode rc = transfer(&x, &code);
    cached_none = rc != CURLE_OK;
    cached_text = x.mem;
    return cached_none ? NULL : cached_text;
}

int lab_mirror_sums_lookup(const char *sums, const char *file, char hex[LAB_HASH_HEX_LEN + 1])
{
    size_t fl = strlen(file);
    for (const char *l = sums; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        while (n && (l[n - 1] == '\r' || l[n - 1] == ' '))
            n--;
        /* "HEX  NAME" (sha256sum's text mode) or "HEX *NAME" (binary) */
        if (n == LAB_HASH_HEX_LEN + 2 + fl && l[LAB_HASH_HEX_LEN] == ' ' &&
            (l[LAB_HASH_HEX_LEN + 1] == ' ' || l[LAB_HASH_HEX_LEN + 1] == '*') &&
            memcmp(l + LAB_HASH_HEX_LEN + 2, file, fl) == 0 &&
            strspn(l, "0123456789abcdef") == LAB_HASH_HEX_LEN) {
            memcpy(hex, l, LAB_HASH_HEX_LEN);
            hex[LAB_HASH_HEX_LEN] = '\0';
            return 1;
        }
        l = end ? end + 1 : NULL;
    }
    return 0;
}

/* The sha256 against the directory's list, where there is one. */
static int check_sums(const char *base, const char *rel, struct lab_mirror_file *out)
{
    const char *slash = strrchr(rel, '/');
    char *dir = lab_asprintf("%.*s", slash ? (int)(slash - rel) : 0, rel);
    const char *file = slash ? slash + 1 : rel;
    const char *sums = dir_sums(base, dir);
    char want[LAB_HASH_HEX_LEN + 1];
    int rc = 0;
    if (!sums) {
        snprintf(out->checked, sizeof out->checked, "no sha256sums.asc in %s/ on the mirror", dir);
    } else if (!lab_mirror_sums_lookup(sums, file, want)) {
        snprintf(out->checked, sizeof out->checked, "not listed in %s/sha256sums.asc", dir);
    } else if (strcmp(want, out->sha256) != 0) {
        rc = lab_error("%s: sha256 %s, but %s/sha256sums.asc on the mirror says %s: refused, "
                       "nothing cached",
                       out->url, out->sha256, dir, want);
    } else {
        snprintf(out->checked, sizeof out->checked, "matches %s/sha256sums.asc", dir);
    }
    free(dir);
    return rc;
}

/* A compressed file must decompress to its end: a truncated download or
 * patch is caught here even where no sha256sums.asc vouches for it. */
static int check_whole(const char *path, const char *url)
{
    static const struct {
        const char *ext, *tool;
    } tools[] = {{".xz", "xz"}, {".bz2", "bzip2"}, {".gz", "gzip"}};
    size_t pl = strlen(url);
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        size_t el = strlen(tools[i].ext);
        if (pl <= el || strcmp(url + pl - el, tools[i].ext) != 0)
            continue;
        char *argv[] = {(char *)tools[i].tool, "-t", (char *)path, NULL};
        if (lab_spawn_wait(argv, "/dev/null") != 0)
            return lab_error("%s is truncated or damaged (%s -t fails): refused, nothing cached",
                             url, tools[i].tool);
    }
    return 0;
}

enum lab_mirror_rc lab_mirror_get(const char *base, const char *rel, const char *dest,
                                  struct lab_mirror_file *out)
{
    *out = (struct lab_mirror_file){0};
    snprintf(out->url, sizeof out->url, "%s%s", base, rel);
    char *tmp = lab_asprintf("%s.part-XXXXXX", dest);
    int fd = mkstemp(tmp);
    struct xfer x = {.url = out->url, .cap = LAB_MIRROR_MAX_BYTES, .tty = live_line()};
    enum lab_mirror_rc rc = LAB_MIRROR_FAILED;
    if (fd < 0 || !(x.f = fdopen(fd, "w")) || lab_hash_init(&x.h) < 0) {
        lab_error("cannot write %s: %s", tmp, strerror(errno));
        if (fd >= 0)
            close(fd);
        goto out;
    }
    long code;
    CURLcode cr = transfer(&x, &code);
    int closed = fclose(x.f);
    if ((rc = judge(cr, code, &x)) != LAB_MIRROR_OK) {
        lab_hash_abort(&x.h);
        goto out;
    }
    rc = LAB_MIRROR_FAILED;
    if (lab_hash_final(&x.h, out->sha256) < 0 || closed != 0) {
        lab_error("cannot write %s", tmp);
        goto out;
    }
    if (check_sums(base, rel, out) < 0 || check_whole(tmp, out->url) < 0)
        goto out;
    chmod(tmp, 0644);
    if (rename(tmp, dest) < 0) {
        lab_error("cannot rename %s to %s: %s", tmp, dest, strerror(errno));
        goto out;
    }
    fprintf(stderr, "lab: fetched %s (%.1f MiB in %.1f s; sha256 %.16s..., %s)\n", out->url,
            (double)x.got / 1048576.0, (double)(lab_now_ns() - x.started) / 1e9, out->sha256,
            out->checked);
    rc = LAB_MIRROR_OK;
out:
    unlink(tmp); /* nothing half-cached: the temp goes unless renamed */
    free(tmp);
    return rc;
}

int lab_mirror_file_sha256(const char *path, char hex[LAB_HASH_HEX_LEN + 1])
{
    struct lab_hash h;
    FILE *f = fopen(path, "rb");
    if (!f)
        return lab_error("cannot read %s: %s", path, strerror(errno));
    if (lab_hash_init(&h) < 0) {
        fclose(f);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        lab_hash_update(&h, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        lab_hash_abort(&h);
        return lab_error("cannot read %s", path);
    }
    return lab_hash_final(&h, hex);
}
