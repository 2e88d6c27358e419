/* The era compat layer's version, as `lab --version` and `lab kernels show`
 * print it: the first 12 hex digits of a SHA-256 over every rule (what it
 * covers, its flags, its fixups). Notes and explanations are left out, so
 * only a change to what the layer does changes it. */
#ifndef LAB_KERNELS_COMPAT_ID_H
#define LAB_KERNELS_COMPAT_ID_H

#define LAB_COMPAT_ID_LEN 12

/* 0, or -1 (no SHA-256: libcrypto failed). */
int lab_compat_layer_id(char out[LAB_COMPAT_ID_LEN + 1]);

#endif
