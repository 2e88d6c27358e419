/* SHA-256 content hashing for the image caches. */
#include "common/hash.h"

#include "common/msg.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

int lab_hash_init(struct lab_hash *h)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    h->ctx = NULL;
    if (!ctx)
        return lab_error("EVP_MD_CTX_new failed");
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        return lab_error("EVP_DigestInit_ex(sha256) failed");
    }
    h->ctx = ctx;
    return 0;
}

void lab_hash_update(struct lab_hash *h, const void *data, size_t len)
{
    if (h->ctx && len)
        EVP_DigestUpdate(h->ctx, data, len);
}

void lab_hash_u64(struct lab_hash *h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    lab_hash_update(h, b, sizeof b);
}

void lab_hash_str(struct lab_hash *h, const char *s)
{
    if (!s) {
        lab_hash_u64(h, UINT64_MAX);
        return;
    }
    size_t n = strlen(s);
    lab_hash_u64(h, n);
    lab_hash_update(h, s, n);
}

int lab_hash_file(struct lab_hash *h, const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return lab_error("cannot read %s: %s", path, strerror(errno));
    off_t size = lseek(fd, 0, SEEK_END);
    if (size < 0 || lseek(fd, 0, SEEK_SET) < 0) {
        int e = errno;
        close(fd);
        return lab_error("cannot seek %s: %s", path, strerror(e));
    }
    lab_hash_u64(h, (uint64_t)size);
    unsigned char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            return lab_error("cannot read %s: %s", path, strerror(e));
        }
        if (n == 0)
            break;
        lab_hash_update(h, buf, (size_t)n);
    }
    close(fd);
    return 0;
}

int lab_hash_final(struct lab_hash *h, char hex[LAB_HASH_HEX_LEN + 1])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    int ok = h->ctx && EVP_DigestFinal_ex(h->ctx, md, &n) == 1 && n == LAB_HASH_HEX_LEN / 2;
    lab_hash_abort(h);
    hex[0] = '\0';
    if (!ok)
        return lab_error("SHA-256 finalisation failed");
    for (unsigned i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    return 0;
}

void lab_hash_abort(struct lab_hash *h)
{
    if (h->ctx)
        EVP_MD_CTX_free(h->ctx);
    h->ctx = NULL;
}
