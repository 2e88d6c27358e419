/* The kernel catalog table. Every Debian entry was checked with
 * `apt-cache policy <package>` on Debian 12 (bookworm + security/updates). */
#include "kernels/catalog.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

#define DEB61(abi)                                                                                 \
    {                                                                                              \
        "6.1.0-" #abi, "linux-image-6.1.0-" #abi "-amd64-unsigned", "6.1.0-" #abi "-amd64",        \
            "x86_64", "debian"                                                                     \
    }
#define DEB612(v)                                                                                  \
    {                                                                                              \
        "6.12." #v, "linux-image-6.12." #v "+deb12-amd64-unsigned", "6.12." #v "+deb12-amd64",     \
            "x86_64", "debian"                                                                     \
    }

static const struct lab_kernel kernels[] = {
    DEB61(47), DEB61(50), DEB61(53),   DEB61(54),   DEB61(55),
    DEB61(56), DEB61(57), DEB612(107), DEB612(111), DEB612(113),
};

size_t lab_kernel_count(void)
{
    return sizeof kernels / sizeof kernels[0];
}

const struct lab_kernel *lab_kernel_at(size_t i)
{
    return i < lab_kernel_count() ? &kernels[i] : NULL;
}

const struct lab_kernel *lab_kernel_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < lab_kernel_count(); i++)
        if (strcmp(kernels[i].name, name) == 0)
            return &kernels[i];
    return NULL;
}

char *lab_kernel_known_names(void)
{
    size_t len = 1;
    for (size_t i = 0; i < lab_kernel_count(); i++)
        len += strlen(kernels[i].name) + 2;
    char *s = lab_xcalloc(len, 1);
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, kernels[i].name);
    }
    return s;
}
