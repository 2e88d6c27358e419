/* Build-once image cache: temp directory, build, rename. */
#include "images/cache.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lab_image_cached(const char *prefix, const char *hash, const char *suffix,
                     lab_image_build_fn build, void *ctx, char **path_out)
{
    char *dir = lab_asprintf("%s/images", lab_home());
    char *out = lab_asprintf("%s/%s-%s.%s", dir, prefix, hash, suffix);
    char *tmp = NULL, *img = NULL;
    int rc = -1;
    *path_out = NULL;
    if (lab_file_exists(out)) {
        rc = 0;
        goto done;
    }
    if (lab_mkdir_p(dir, 0755) < 0)
        goto done;
    tmp = lab_asprintf("%s/.%s-%s.XXXXXX", dir, prefix, hash);
    if (!mkdtemp(tmp)) {
        lab_error("cannot create a temporary directory in %s: %s", dir, strerror(errno));
        free(tmp);
        tmp = NULL;
        goto done;
    }
    img = lab_asprintf("%s/image", tmp);
    if (build(tmp, img, ctx) < 0)
        goto done;
    if (rename(img, out) < 0) {
        lab_error("cannot rename %s to %s: %s", img, out, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (tmp)
        lab_rm_rf(tmp);
    free(tmp);
    free(img);
    free(dir);
    if (rc == 0)
        *path_out = out;
    else
        free(out);
    return rc;
}

void lab_image_show_log(const char *log)
{
    char *s = lab_read_file(log, NULL);
    if (!s)
        return;
    int n = 0;
    for (char *line = strtok(s, "\n"); line && n < 40; line = strtok(NULL, "\n"), n++)
        fprintf(stderr, "    %s\n", line);
    free(s);
}
