/* libFuzzer harness: the bzImage boot-protocol header reader
 * (kernels/bzimage.c); the input is the start of the file and its size. */
#include <stddef.h>
#include <stdint.h>

#include "kernels/bzimage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lab_bzimage bz;
    char err[256];
    if (lab_bzimage_parse(data, size, &bz, err, sizeof err) == 0) {
        lab_bzimage_arch(&bz);
        lab_bzimage_check_size(&bz, size, err, sizeof err); /* the input is the whole file */
    }
    return 0;
}
