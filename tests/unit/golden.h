/* Golden-file comparison, libvirt style: the expected output lives in
 * tests/golden/NAME; LAB_REGENERATE_GOLDEN=1 rewrites it from the actual
 * output instead of comparing (then review the diff before committing). */
#ifndef LAB_TEST_GOLDEN_H
#define LAB_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/str.h"

static inline void assert_golden(const char *name, const char *actual)
{
    const char *dir = getenv("LAB_GOLDEN_DIR") ? getenv("LAB_GOLDEN_DIR") : "tests/golden";
    char *path = lab_asprintf("%s/%s", dir, name);
    const char *regen = getenv("LAB_REGENERATE_GOLDEN");

    if (regen && *regen && strcmp(regen, "0") != 0) {
        assert_int_equal(lab_write_file(path, actual, strlen(actual)), 0);
        fprintf(stderr, "regenerated %s\n", path);
        free(path);
        return;
    }
    char *expected = lab_read_file(path, NULL);
    if (!expected)
        fail_msg("golden file %s is missing; run `make golden-regen`", path);
    if (strcmp(expected, actual) != 0) {
        fprintf(stderr, "--- expected %s\n%s--- actual\n%s", path, expected, actual);
        fail_msg("output differs from golden file %s (LAB_REGENERATE_GOLDEN=1 to update)", path);
    }
    free(expected);
    free(path);
}

#endif
