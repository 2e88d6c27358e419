/* TCG or KVM, decided by a cached probe boot. */
#include "host/cell/accel.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PROBE_SECONDS 20

static char *cache_path(void)
{
    struct utsname u;
    uname(&u);
    return lab_asprintf("%s/accel-%s", lab_home(), u.release);
}

const char *lab_accel_choose(const char *requested, const struct lab_cell_env *env,
                             const struct lab_cell_spec *probe)
{
    if (!requested || strcmp(requested, "auto") == 0) {
        const char *env_accel = getenv("LAB_ACCEL");
        requested = env_accel && *env_accel ? env_accel : "auto";
    }
    if (strcmp(requested, "tcg") == 0)
        return "qemu";
    if (strcmp(requested, "kvm") == 0)
        return "kvm";
    if (strcmp(requested, "auto") != 0) {
        lab_error("unknown accelerator '%s' (use auto, tcg or kvm)", requested);
        return NULL;
    }
    if (access("/dev/kvm", R_OK | W_OK) != 0)
        return "qemu";

    char *path = cache_path();
    char *cached = lab_read_file_max(path, 64, NULL); /* "kvm" or "qemu" */
    if (cached) {
        const char *verdict = strncmp(cached, "kvm", 3) == 0 ? "kvm" : "qemu";
        free(cached);
        free(path);
        return verdict;
    }
    fprintf(stderr, "lab: probing KVM (a guest must reach its agent within %d s)...\n",
            PROBE_SECONDS);
    struct lab_cell_spec spec = *probe;
    struct lab_cell_result res;
    struct lab_cell_env quiet = *env;
    spec.virt_type = "kvm";
    spec.hello_only = 1;
    spec.timeout_s = PROBE_SECONDS;
    quiet.store = NULL;
    quiet.log_dir = NULL;
    int ok = lab_cell_run(&quiet, &spec, &res) == 0;
    if (res.status == LAB_CELL_INTERRUPTED) {
        free(path);
        return NULL;
    }
    const char *verdict = ok ? "kvm" : "qemu";
    fprintf(stderr, "lab: KVM %s; using %s (cached in %s)\n", ok ? "works" : "guests do not boot",
            ok ? "KVM" : "TCG", path);
    lab_mkdir_p(lab_home(), 0755);
    lab_write_file(path, verdict, strlen(verdict));
    free(path);
    return verdict;
}
