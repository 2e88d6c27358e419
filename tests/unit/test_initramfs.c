/* The initramfs builder: contents read back with libarchive, determinism,
 * cache keying. Runs in a temporary LAB_HOME with fake agent and modules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>
#include <lzma.h>

#include "images/initramfs.h"
#include "guest-agent/protocol.h"
#include "common/file.h"
#include "common/paths.h"
#include "common/str.h"

static char *home, *agent, *moddir;
static const char agent_bytes[] = "\177ELF fake agent v1";
static const char xz_plain[] = "\177ELF decompressed libthing";

static void put(const char *path, const void *data, size_t len)
{
    char *dir = lab_xstrdup(path);
    *strrchr(dir, '/') = '\0';
    assert_int_equal(lab_mkdir_p(dir, 0755), 0);
    assert_int_equal(lab_write_file(path, data, len), 0);
    free(dir);
}

static int setup(void **state)
{
    char tmpl[] = "/tmp/lab-test-initramfs-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    home = lab_asprintf("%s/home", tmpl);
    setenv("LAB_HOME", home, 1); /* before the first lab_home() */
    assert_string_equal(lab_home(), home);
    agent = lab_asprintf("%s/agent", tmpl);
    put(agent, agent_bytes, sizeof agent_bytes - 1);
    moddir = lab_asprintf("%s/lib/modules/9.9.9-test", tmpl);

    char *p = lab_asprintf("%s/modules.dep", moddir);
    const char *dep = "kernel/drivers/ata/ata_piix.ko: kernel/drivers/ata/libata.ko "
                      "kernel/lib/lib-thing.ko.xz\n"
                      "kernel/drivers/ata/libata.ko: kernel/lib/lib-thing.ko.xz\n"
                      "kernel/lib/lib-thing.ko.xz:\n";
    put(p, dep, strlen(dep));
    free(p);
    p = lab_asprintf("%s/modules.builtin", moddir);
    put(p, "kernel/drivers/virtio/virtio_pci.ko\n", 36);
    free(p);
    p = lab_asprintf("%s/kernel/drivers/ata/ata_piix.ko", moddir);
    put(p, "\177ELF piix", 9);
    free(p);
    p = lab_asprintf("%s/kernel/drivers/ata/libata.ko", moddir);
    put(p, "\177ELF libata", 11);
    free(p);
    size_t cap = lzma_stream_buffer_bound(sizeof xz_plain), n = 0;
    unsigned char *xz = malloc(cap);
    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)xz_plain,
                                             sizeof xz_plain, xz, &n, cap),
                     LZMA_OK);
    p = lab_asprintf("%s/kernel/lib/lib-thing.ko.xz", moddir);
    put(p, xz, n);
    free(p);
    free(xz);
    *state = lab_xstrdup(tmpl);
    return 0;
}

static int teardown(void **state)
{
    lab_rm_rf(*state);
    free(*state);
    free(home);
    free(agent);
    free(moddir);
    return 0;
}

static const char *const wanted[] = {"ata_piix", "virtio_pci", "libata"};

struct entry {
    const char *name;
    unsigned type, perm;
};

static void test_contents(void **state)
{
    struct lab_initramfs_spec spec = {agent, moddir, wanted, 3, "lab.test=seqread lab.reps=3\n"};
    char *path;
    assert_int_equal(lab_initramfs_get(&spec, &path), 0);
    char *prefix = lab_asprintf("%s/images/initramfs-", home);
    assert_true(strncmp(path, prefix, strlen(prefix)) == 0);
    assert_int_equal(strlen(path), strlen(prefix) + 16 + strlen(".cpio"));
    free(prefix);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    const struct entry expect[] = {
        {"dev", AE_IFDIR, 0755},
        {"dev/console", AE_IFCHR, 0600},
        {"dev/null", AE_IFCHR, 0666},
        {"dev/ttyS0", AE_IFCHR, 0600},
        {"dev/ttyS1", AE_IFCHR, 0600},
        {"dev/hda", AE_IFBLK, 0600},
        {"dev/hdb", AE_IFBLK, 0600},
        {"dev/hdc", AE_IFBLK, 0600},
        {"dev/hdd", AE_IFBLK, 0600},
        {"dev/sda", AE_IFBLK, 0600},
        {"dev/sdb", AE_IFBLK, 0600},
        {"etc", AE_IFDIR, 0755},
        {"etc/lab", AE_IFDIR, 0755},
        {"etc/lab/modules", AE_IFREG, 0644},
        {"etc/lab/params", AE_IFREG, 0644},
        {"init", AE_IFREG, 0755},
        {"lib", AE_IFDIR, 0755},
        {"lib/modules", AE_IFDIR, 0755},
        {"lib/modules/lib-thing.ko", AE_IFREG, 0644},
        {"lib/modules/libata.ko", AE_IFREG, 0644},
        {"lib/modules/ata_piix.ko", AE_IFREG, 0644},
        {"mnt", AE_IFDIR, 0755},
        {"proc", AE_IFDIR, 0755},
        {"sys", AE_IFDIR, 0755},
    };
    size_t nexpect = sizeof expect / sizeof expect[0], i = 0;

    struct archive *a = archive_read_new();
    struct archive_entry *e;
    archive_read_support_format_cpio(a);
    assert_int_equal(archive_read_open_filename(a, path, 10240), ARCHIVE_OK);
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        assert_true(i < nexpect);
        assert_string_equal(archive_entry_pathname(e), expect[i].name);
        assert_int_equal(archive_entry_filetype(e), expect[i].type);
        assert_int_equal(archive_entry_perm(e), expect[i].perm);
        assert_int_equal(archive_entry_uid(e), 0);
        assert_int_equal(archive_entry_gid(e), 0);
        assert_int_equal(archive_entry_mtime(e), 0);
        char buf[256] = {0};
        la_ssize_t n = archive_read_data(a, buf, sizeof buf - 1);
        const char *name = expect[i].name;
        if (strcmp(name, "dev/console") == 0) {
            assert_int_equal(archive_entry_rdevmajor(e), 5);
            assert_int_equal(archive_entry_rdevminor(e), 1);
        } else if (strcmp(name, "dev/hdc") == 0) {
            assert_int_equal(archive_entry_rdevmajor(e), 22);
            assert_int_equal(archive_entry_rdevminor(e), 0);
        } else if (strcmp(name, "dev/ttyS1") == 0) {
            assert_int_equal(archive_entry_rdevmajor(e), 4);
            assert_int_equal(archive_entry_rdevminor(e), 65);
        } else if (strcmp(name, "etc/lab/params") == 0) {
            assert_string_equal(buf, "lab.test=seqread lab.reps=3\n");
        } else if (strcmp(name, "etc/lab/modules") == 0) {
            assert_string_equal(buf, "/lib/modules/lib-thing.ko\n"
                                     "/lib/modules/libata.ko\n"
                                     "/lib/modules/ata_piix.ko\n");
        } else if (strcmp(name, "init") == 0) {
            assert_int_equal(n, sizeof agent_bytes - 1);
            assert_memory_equal(buf, agent_bytes, n);
        } else if (strcmp(name, "lib/modules/lib-thing.ko") == 0) {
            assert_int_equal(n, sizeof xz_plain); /* decompressed */
            assert_memory_equal(buf, xz_plain, n);
        } else if (strcmp(name, "lib/modules/ata_piix.ko") == 0) {
            assert_int_equal(n, 9);
            assert_memory_equal(buf, "\177ELF piix", 9);
        }
        i++;
    }
    assert_int_equal(i, nexpect);
    assert_int_equal(archive_format(a), ARCHIVE_FORMAT_CPIO_SVR4_NOCRC);
    archive_read_free(a);
    free(path);
}

static void test_deterministic(void **state)
{
    struct lab_initramfs_spec spec = {agent, moddir, wanted, 3, NULL};
    char *p1, *p2;
    size_t n1, n2;
    assert_int_equal(lab_initramfs_get(&spec, &p1), 0);
    char *b1 = lab_read_file(p1, &n1);
    assert_non_null(b1);
    /* rebuild from scratch: same path, same bytes */
    assert_int_equal(unlink(p1), 0);
    assert_int_equal(lab_initramfs_get(&spec, &p2), 0);
    assert_string_equal(p1, p2);
    char *b2 = lab_read_file(p2, &n2);
    assert_non_null(b2);
    assert_int_equal(n1, n2);
    assert_memory_equal(b1, b2, n1);
    /* and a cached call returns the same file */
    free(p2);
    assert_int_equal(lab_initramfs_get(&spec, &p2), 0);
    assert_string_equal(p1, p2);
    free(b1);
    free(b2);
    free(p1);
    free(p2);
}

static void test_keyed_by_inputs(void **state)
{
    struct lab_initramfs_spec spec = {agent, moddir, wanted, 3, NULL};
    char *p1, *p2, *p3;
    assert_int_equal(lab_initramfs_get(&spec, &p1), 0);
    /* a changed agent: a different image */
    put(agent, "\177ELF fake agent v2", 18);
    assert_int_equal(lab_initramfs_get(&spec, &p2), 0);
    assert_string_not_equal(p1, p2);
    assert_true(lab_file_exists(p1));
    assert_true(lab_file_exists(p2));
    /* fewer modules: different again */
    spec.nmodules = 1;
    spec.modules = wanted + 2; /* libata only */
    assert_int_equal(lab_initramfs_get(&spec, &p3), 0);
    assert_string_not_equal(p3, p1);
    assert_string_not_equal(p3, p2);
    /* other agent parameters: another image (they live in it) */
    char *p4;
    spec.params = "lab.test=devread\n";
    assert_int_equal(lab_initramfs_get(&spec, &p4), 0);
    assert_string_not_equal(p4, p3);
    /* parameters over the agent's bound are refused, not cut */
    char *huge = calloc(LAB_PARAMS_MAX + 2, 1);
    memset(huge, 'x', LAB_PARAMS_MAX + 1);
    spec.params = huge;
    char *p5 = NULL;
    assert_int_equal(lab_initramfs_get(&spec, &p5), -1);
    assert_null(p5);
    free(huge);
    put(agent, agent_bytes, sizeof agent_bytes - 1);
    free(p1);
    free(p2);
    free(p3);
    free(p4);
}

static void test_errors(void **state)
{
    const char *bad[] = {"ata_piix", "nonexistent_mod"};
    struct lab_initramfs_spec spec = {agent, moddir, bad, 2, NULL};
    char *p = (char *)1;
    assert_int_equal(lab_initramfs_get(&spec, &p), -1);
    assert_null(p);
    spec = (struct lab_initramfs_spec){"/nonexistent/agent", moddir, wanted, 1, NULL};
    assert_int_equal(lab_initramfs_get(&spec, &p), -1);
    assert_null(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contents),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_keyed_by_inputs),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
