/* Content hashing for the image caches: SHA-256 (OpenSSL EVP) over bytes,
 * strings, integers and files, finished as a lowercase hex string. */
#ifndef LAB_IMAGES_HASH_H
#define LAB_IMAGES_HASH_H

#include <stddef.h>
#include <stdint.h>

#define LAB_HASH_HEX_LEN 64 /* full SHA-256 in hex */
#define LAB_HASH_SHORT   16 /* hex chars used in cache file names */

struct lab_hash {
    void *ctx; /* EVP_MD_CTX */
};

int lab_hash_init(struct lab_hash *h);
void lab_hash_update(struct lab_hash *h, const void *data, size_t len);
/* Length-prefixed, so ("ab","c") and ("a","bc") hash differently; NULL is
 * distinct from "". */
void lab_hash_str(struct lab_hash *h, const char *s);
void lab_hash_u64(struct lab_hash *h, uint64_t v); /* 8 bytes little-endian */
/* Hashes the file's length and bytes; -1 with a message if it cannot be read. */
int lab_hash_file(struct lab_hash *h, const char *path);
/* Finishes: writes LAB_HASH_HEX_LEN hex chars + NUL into hex[65] and frees
 * the context. Returns -1 on an OpenSSL failure. */
int lab_hash_final(struct lab_hash *h, char hex[LAB_HASH_HEX_LEN + 1]);
/* Frees the context without a result (error paths). Safe after final. */
void lab_hash_abort(struct lab_hash *h);

#endif
