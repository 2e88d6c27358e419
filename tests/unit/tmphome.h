/* A private $LAB_HOME for a unit test that builds images or kernels: made
 * under /tmp before the first lab_home() call, removed after the group. */
#ifndef LAB_TEST_TMPHOME_H
#define LAB_TEST_TMPHOME_H

#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/paths.h"
#include "common/str.h"

static char *tmpdir;

static inline int tmphome_setup(const char *name)
{
    char *tmpl = lab_asprintf("/tmp/lab-test-%s-XXXXXX", name);
    if (!mkdtemp(tmpl)) {
        free(tmpl);
        return -1;
    }
    tmpdir = tmpl;
    char *home = lab_asprintf("%s/home", tmpdir);
    setenv("LAB_HOME", home, 1); /* before the first lab_home() */
    int same = strcmp(lab_home(), home) == 0;
    free(home);
    return same ? 0 : -1;
}

static inline int tmphome_teardown(void)
{
    lab_rm_rf(tmpdir);
    free(tmpdir);
    return 0;
}

#endif
