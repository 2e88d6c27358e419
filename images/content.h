/* Files of the lab's deterministic content (guest-agent/protocol.h): the
 * 8-byte little-endian word at offset 8*i is lab_content_word(seed, i). The
 * agent can check every word it reads against it. */
#ifndef LAB_IMAGES_CONTENT_H
#define LAB_IMAGES_CONTENT_H

#include <stddef.h>
#include <stdint.h>

/* Bytes [off, off + n) of a content file made with `seed`. */
void lab_content_bytes(uint64_t seed, uint64_t off, unsigned char *buf, size_t n);

/* Writes a content file of `size` bytes, mode 0644; with mtime >= 0 its
 * access and modification times are set to it (seconds since the epoch). */
int lab_content_file_write(const char *path, uint64_t size, uint64_t seed, int64_t mtime);

#endif
