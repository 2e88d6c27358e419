/* The kernel catalog: lookups, the known-names message, no duplicates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kernels/catalog.h"
#include "kernels/era.h"
#include "kernels/fetch.h"
#include "kernels/user.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* A private LAB_HOME for the whole test (set before the first lab_home()). */
static char home[] = "/tmp/lab-catalog-XXXXXX";

static void test_find_known(void **state)
{
    const struct lab_kernel *k = lab_kernel_find("6.1.0-47");
    assert_non_null(k);
    assert_string_equal(k->name, "6.1.0-47");
    assert_string_equal(k->package, "linux-image-6.1.0-47-amd64-unsigned");
    assert_string_equal(k->release, "6.1.0-47-amd64");
    assert_string_equal(k->arch, "x86_64");
    assert_string_equal(k->source, "debian");
    assert_string_equal(k->version, "6.1.170");
    assert_string_equal(k->deb_arch, "amd64");

    k = lab_kernel_find("6.12.113");
    assert_non_null(k);
    assert_string_equal(k->package, "linux-image-6.12.113+deb12-amd64-unsigned");
    assert_string_equal(k->release, "6.12.113+deb12-amd64");
    assert_string_equal(k->version, "6.12.113");
}

/* Debian's 32-bit kernels (i386 architecture, 686 flavour). */
static void test_find_i386(void **state)
{
    const struct lab_kernel *k = lab_kernel_find("6.1.0-50-i386");
    assert_non_null(k);
    assert_string_equal(k->package, "linux-image-6.1.0-50-686-unsigned");
    assert_string_equal(k->release, "6.1.0-50-686");
    assert_string_equal(k->arch, "i686");
    assert_string_equal(k->deb_arch, "i386");
    assert_string_equal(k->version, "6.1.176");
    k = lab_kernel_find("6.1.0-47-i386");
    assert_non_null(k);
    assert_string_equal(k->package, "linux-image-6.1.0-47-686-unsigned");
    assert_null(lab_kernel_find("6.1.0-50-686"));
}

static void test_find_unknown(void **state)
{
    assert_null(lab_kernel_find("foo"));
    assert_null(lab_kernel_find(""));
    assert_null(lab_kernel_find(NULL));
    assert_null(lab_kernel_find("6.1.0-4")); /* no prefix matching */
    assert_null(lab_kernel_find("6.1.0-47-amd64"));
    assert_null(lab_kernel_at(lab_kernel_count()));
}

static void test_entries_consistent(void **state)
{
    assert_true(lab_kernel_count() >= 2);
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const struct lab_kernel *k = lab_kernel_at(i);
        assert_non_null(k);
        if (k->dir)
            continue; /* a user kernel (test_user_registry) */
        assert_ptr_equal(lab_kernel_find(k->name), k);
        /* the package carries the release: linux-image-<release>-unsigned */
        char *pkg = malloc(strlen(k->release) + 32);
        strcpy(pkg, "linux-image-");
        strcat(pkg, k->release);
        strcat(pkg, "-unsigned");
        assert_string_equal(k->package, pkg);
        free(pkg);
        /* name: the release without its flavour; i386 kernels end in -i386 */
        if (strcmp(k->deb_arch, "i386") == 0) {
            assert_string_equal(k->arch, "i686");
            size_t n = strlen(k->name);
            assert_true(n > 5 && strcmp(k->name + n - 5, "-i386") == 0);
            assert_true(strncmp(k->release, k->name, n - 5) == 0);
            assert_string_equal(k->release + n - 5, "-686");
        } else {
            assert_string_equal(k->deb_arch, "amd64");
            assert_string_equal(k->arch, "x86_64");
            assert_true(strncmp(k->release, k->name, strlen(k->name)) == 0);
            assert_string_equal(k->release + strlen(k->name),
                                strstr(k->release, "+deb12") ? "+deb12-amd64" : "-amd64");
        }
        /* the upstream version shares major.minor with the name */
        const char *dot = strchr(k->version, '.');
        assert_non_null(dot);
        dot = strchr(dot + 1, '.');
        assert_non_null(dot);
        size_t mm = (size_t)(dot - k->version) + 1; /* "6.1." */
        assert_true(strncmp(k->version, k->name, mm) == 0);
        assert_string_equal(k->source, "debian");
    }
}

static void test_no_duplicates(void **state)
{
    for (size_t i = 0; i < lab_kernel_count(); i++)
        for (size_t j = i + 1; j < lab_kernel_count(); j++) {
            assert_string_not_equal(lab_kernel_at(i)->name, lab_kernel_at(j)->name);
            assert_string_not_equal(lab_kernel_at(i)->package, lab_kernel_at(j)->package);
        }
}

static void test_known_names(void **state)
{
    char *s = lab_kernel_known_names();
    assert_non_null(s);
    assert_true(strncmp(s, "6.1.0-47, ", 10) == 0);
    size_t len = 0;
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const char *name = lab_kernel_at(i)->name;
        /* each name appears as a whole item */
        char *item = malloc(strlen(name) + 3);
        strcpy(item, name);
        strcat(item, i + 1 < lab_kernel_count() ? ", " : "");
        assert_non_null(strstr(s, item));
        free(item);
        len += strlen(name) + (i ? 2 : 0);
    }
    assert_int_equal(strlen(s), len);
    free(s);
}

/* A synthetic bzImage: "HdrS", protocol 2.15, 64-bit, version string. */
static void write_image(const char *path, const char *version)
{
    static unsigned char buf[0x3300];
    memset(buf, 0, sizeof buf);
    memcpy(buf + 0x202, "HdrS", 4);
    buf[0x206] = 0x0f;
    buf[0x207] = 0x02;
    buf[0x20f] = 0x2e; /* string at 0x3000 */
    buf[0x236] = 0x7f;
    buf[0x1f1] = 0x18;       /* 25 sectors with the boot sector: 0x3200 bytes */
    buf[0x1f4] = 0x100 / 16; /* then 0x100 bytes of "kernel" */
    strcpy((char *)buf + 0x3000, version);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, sizeof buf, f), sizeof buf);
    fclose(f);
}

/* User kernels in a temp LAB_HOME: add, list, find, fetch without
 * download, the bus check from its .config, remove. */
static void test_user_registry(void **state)
{
    char img[256], cfg[256], reason[200];
    size_t debian = lab_kernel_count();
    snprintf(img, sizeof img, "%s/bz", home);
    snprintf(cfg, sizeof cfg, "%s/cfg", home);
    write_image(img, "6.1.192 (lab@lab) #1 SMP Sat Nov 29 2026");
    FILE *f = fopen(cfg, "w");
    fputs("CONFIG_64BIT=y\nCONFIG_BLK_DEV_INITRD=y\nCONFIG_ATA_PIIX=y\nCONFIG_BLK_DEV_SD=y\n"
          "CONFIG_VIRTIO_PCI=y\nCONFIG_VIRTIO_CONSOLE=y\nCONFIG_EXT4_FS=y\n"
          "CONFIG_EXT4_USE_FOR_EXT2=y\n",
          f);
    fclose(f);

    struct lab_user_kernel_spec s = {.name = "6.1-mine", .image = img, .config = cfg};
    assert_int_equal(lab_user_kernel_add(&s), 0);
    assert_int_equal(lab_kernel_count(), debian + 1);
    const struct lab_kernel *k = lab_kernel_find("6.1-mine");
    assert_non_null(k);
    assert_ptr_equal(lab_kernel_at(debian), k);
    assert_string_equal(k->version, "6.1.192");
    assert_string_equal(k->release, "6.1.192");
    assert_string_equal(k->arch, "x86_64");
    assert_string_equal(k->source, "user");
    assert_true(k->builtin_drivers);
    assert_false(k->has_modules);
    assert_non_null(k->config_path);
    char *names = lab_kernel_known_names();
    assert_non_null(strstr(names, ", 6.1-mine"));
    free(names);

    /* files: readable by others (QEMU as libvirt-qemu), no download */
    struct lab_kernel_files kf;
    assert_int_equal(lab_kernel_fetch(k, &kf), 0);
    struct stat st;
    assert_int_equal(stat(kf.bzimage, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(stat(kf.dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0755);
    lab_kernel_files_free(&kf);
    assert_true(lab_kernel_is_cached(k));

    /* bus checks from the .config, before anything boots */
    struct lab_era era;
    assert_int_equal(lab_era_for(k->version, k->arch, &era), 0);
    assert_int_equal(lab_kernel_cell_ok(k, &era, "ide", LAB_AGENT_CHAN_VIRTIO_PORT, "ext2", reason,
                                        sizeof reason),
                     1);
    assert_int_equal(lab_kernel_cell_ok(k, &era, "sata", LAB_AGENT_CHAN_VIRTIO_PORT, "ext2", reason,
                                        sizeof reason),
                     0);
    assert_string_equal(reason, "kernel 6.1-mine lacks CONFIG_SATA_AHCI (needed for bus sata); "
                                "looked for CONFIG_SATA_AHCI + CONFIG_BLK_DEV_SD or "
                                "CONFIG_SCSI_SATA_AHCI + CONFIG_BLK_DEV_SD");
    assert_int_equal(
        lab_kernel_cell_ok(k, &era, "ide", LAB_AGENT_CHAN_UART, "ext2", reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "CONFIG_SERIAL_8250"));

    /* the registry is read back from disk */
    lab_user_kernels_reload();
    k = lab_kernel_find("6.1-mine");
    assert_non_null(k);
    assert_string_equal(k->version, "6.1.192");

    /* refused: a Debian name, a bad name, a duplicate, not a bzImage */
    s.name = "6.1.0-47";
    assert_int_equal(lab_user_kernel_add(&s), -1);
    s.name = "../evil";
    assert_int_equal(lab_user_kernel_add(&s), -1);
    s.name = "6.1-mine";
    assert_int_equal(lab_user_kernel_add(&s), -1);
    s.name = "other";
    s.image = cfg;
    assert_int_equal(lab_user_kernel_add(&s), -1);
    assert_null(lab_kernel_find("other"));

    assert_int_equal(lab_user_kernel_remove("6.1-mine"), 0);
    assert_null(lab_kernel_find("6.1-mine"));
    assert_int_equal(lab_kernel_count(), debian);
    assert_int_equal(lab_user_kernel_remove("6.1-mine"), -1);
    unlink(img);
    unlink(cfg);
}

int main(void)
{
    assert_non_null(mkdtemp(home));
    setenv("LAB_HOME", home, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_known),    cmocka_unit_test(test_find_i386),
        cmocka_unit_test(test_find_unknown),  cmocka_unit_test(test_entries_consistent),
        cmocka_unit_test(test_no_duplicates), cmocka_unit_test(test_known_names),
        cmocka_unit_test(test_user_registry),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", home);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
