/* The kernel catalog table. Every Debian entry was checked with
 * `apt-cache policy <package>` on Debian 12 (bookworm + security/updates);
 * the upstream version is the Debian package version without its Debian
 * revision (linux-image-6.1.0-47-amd64-unsigned 6.1.170-3 -> "6.1.170").
 * The i386 entries need `dpkg --add-architecture i386 && apt-get update`. */
#include "kernels/catalog.h"
#include "kernels/user.h"

#include "common/str.h"

#include <stdlib.h>
#include <string.h>

/* Debian 6.1 (bookworm), amd64 flavour: name "6.1.0-<abi>". */
#define DEB61(abi, upstream)                                                                       \
    {                                                                                              \
        "6.1.0-" #abi, "linux-image-6.1.0-" #abi "-amd64-unsigned", "6.1.0-" #abi "-amd64",        \
            "x86_64", "debian", upstream, "amd64", NULL, NULL, NULL, 0, 0, NULL, NULL, NULL        \
    }
/* Debian 6.12 (bookworm updates), amd64 flavour: name "6.12.<v>". */
#define DEB612(v)                                                                                  \
    {                                                                                              \
        "6.12." #v, "linux-image-6.12." #v "+deb12-amd64-unsigned", "6.12." #v "+deb12-amd64",     \
            "x86_64", "debian", "6.12." #v, "amd64", NULL, NULL, NULL, 0, 0, NULL, NULL, NULL      \
    }
/* Debian 6.1, i386 architecture, 686 flavour (no PAE: runs on any i686
 * QEMU CPU): name "6.1.0-<abi>-i386". */
#define DEB61_I386(abi, upstream)                                                                  \
    {                                                                                              \
        "6.1.0-" #abi "-i386", "linux-image-6.1.0-" #abi "-686-unsigned", "6.1.0-" #abi "-686",    \
            "i686", "debian", upstream, "i386", NULL, NULL, NULL, 0, 0, NULL, NULL, NULL           \
    }

static const struct lab_kernel kernels[] = {
    DEB61(47, "6.1.170"),
    DEB61(50, "6.1.176"),
    DEB61(53, "6.1.187"),
    DEB61(54, "6.1.190"),
    DEB61(55, "6.1.192"),
    DEB61(56, "6.1.192"),
    DEB61(57, "6.1.192"),
    DEB612(107),
    DEB612(111),
    DEB612(113),
    /* bookworm main has 686 kernels -47 and -50; later ABIs would come from
     * bookworm-security's i386 index. */
    DEB61_I386(47, "6.1.170"),
    DEB61_I386(50, "6.1.176"),
};

#define NDEBIAN (sizeof kernels / sizeof kernels[0])

int lab_kernel_is_debian_name(const char *name)
{
    for (size_t i = 0; name && i < NDEBIAN; i++)
        if (strcmp(kernels[i].name, name) == 0)
            return 1;
    return 0;
}

size_t lab_kernel_count(void)
{
    return NDEBIAN + lab_user_kernel_count();
}

const struct lab_kernel *lab_kernel_at(size_t i)
{
    if (i < NDEBIAN)
        return &kernels[i];
    return lab_user_kernel_at(i - NDEBIAN);
}

const struct lab_kernel *lab_kernel_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const struct lab_kernel *k = lab_kernel_at(i);
        if (strcmp(k->name, name) == 0)
            return k;
    }
    return NULL;
}

char *lab_kernel_known_names(void)
{
    size_t len = 1;
    for (size_t i = 0; i < lab_kernel_count(); i++)
        len += strlen(lab_kernel_at(i)->name) + 2;
    char *s = lab_xcalloc(len, 1);
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, lab_kernel_at(i)->name);
    }
    return s;
}
