/* Files of the lab's deterministic content. */
#include "images/content.h"

#include "guest-agent/protocol.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void lab_content_bytes(uint64_t seed, uint64_t off, unsigned char *buf, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        unsigned long long w = lab_content_word(seed, (off + j) / 8);
        buf[j] = (unsigned char)(w >> (8 * ((off + j) % 8)));
    }
}

int lab_content_file_write(const char *path, uint64_t size, uint64_t seed, int64_t mtime)
{
    enum { CHUNK = 1 << 20 };
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return lab_error("cannot create %s: %s", path, strerror(errno));
    unsigned char *buf = lab_xcalloc(CHUNK, 1);
    int rc = 0;
    for (uint64_t off = 0; off < size && rc == 0;) {
        size_t n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
        lab_content_bytes(seed, off, buf, n);
        for (size_t done = 0; done < n && rc == 0;) {
            ssize_t k = write(fd, buf + done, n - done);
            if (k < 0 && errno != EINTR)
                rc = lab_error("cannot write %s: %s", path, strerror(errno));
            else if (k > 0)
                done += (size_t)k;
        }
        off += n;
    }
    free(buf);
    struct timespec t[2] = {{mtime, 0}, {mtime, 0}};
    if (rc == 0 && (fchmod(fd, 0644) < 0 || (mtime >= 0 && futimens(fd, t) < 0)))
        rc = lab_error("cannot set the mode or times of %s: %s", path, strerror(errno));
    if (close(fd) < 0 && rc == 0)
        rc = lab_error("cannot write %s: %s", path, strerror(errno));
    return rc;
}
