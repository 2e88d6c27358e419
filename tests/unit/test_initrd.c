/* The 2.4 boot image: an ext2 filesystem with the initramfs's files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "images/initrd.h"
#include "common/file.h"
#include "common/str.h"

static char home[] = "/tmp/lab-test-initrd.XXXXXX";

static char *debugfs(const char *img, const char *request)
{
    char *cmd = lab_asprintf("/sbin/debugfs -R '%s' %s 2>/dev/null", request, img);
    FILE *p = popen(cmd, "r");
    static char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    pclose(p);
    free(cmd);
    return out;
}

static void test_ext2_initrd(void **state)
{
    char *agent = lab_asprintf("%s/agent", home), *img, *again;
    assert_int_equal(lab_write_file(agent, "\177ELF fake agent", 15), 0);
    struct lab_initramfs_spec spec = {.agent_path = agent, .params = "lab.chan=ttyS1\n"};
    assert_int_equal(lab_ext2_initrd_get(&spec, &img), 0);
    assert_non_null(strstr(img, "/images/initrd-"));
    /* 2.4 copies all of it into the RAM disk at boot: no bigger than asked,
     * and within the RAM disk the command line sets up. */
    struct stat sb;
    assert_int_equal(stat(img, &sb), 0);
    assert_int_equal(sb.st_size, (off_t)LAB_INITRD_IMAGE_KIB * 1024);
    assert_true(LAB_INITRD_IMAGE_KIB <= LAB_INITRD_KIB);
    /* /init is the agent, executable; /dev/console is char 5,1. */
    assert_non_null(strstr(debugfs(img, "stat /init"), "Mode:  0755"));
    assert_non_null(strstr(debugfs(img, "cat /init"), "fake agent"));
    char *console = debugfs(img, "stat /dev/console");
    assert_non_null(strstr(console, "Type: character special"));
    assert_non_null(strstr(console, "Device major/minor number: 05:01"));
    assert_non_null(strstr(debugfs(img, "ls /"), "mnt"));
    /* 2.4 may mount it read-only: the disks' and UARTs' nodes are in it,
     * and so are the agent's parameters. */
    char *hda = debugfs(img, "stat /dev/hda");
    assert_non_null(strstr(hda, "Type: block special"));
    assert_non_null(strstr(hda, "Device major/minor number: 03:00"));
    assert_non_null(strstr(debugfs(img, "stat /dev/ttyS1"), "Device major/minor number: 04:65"));
    assert_non_null(strstr(debugfs(img, "cat /etc/lab/params"), "lab.chan=ttyS1"));
    /* The features a 2.4 kernel's ext2 understands, and nothing newer. */
    char *features = debugfs(img, "features");
    assert_non_null(strstr(features, "filetype"));
    assert_null(strstr(features, "dir_index"));
    assert_null(strstr(features, "ext_attr"));
    /* Rebuilt from scratch, the same inputs give the same bytes. */
    size_t len1, len2;
    char *a = lab_read_file(img, &len1);
    unlink(img);
    assert_int_equal(lab_ext2_initrd_get(&spec, &again), 0);
    char *b = lab_read_file(again, &len2);
    assert_int_equal(len1, len2);
    assert_memory_equal(a, b, len1);
    free(a);
    free(b);
    free(img);
    free(again);
    free(agent);
}

static int setup(void **state)
{
    if (!mkdtemp(home))
        return -1;
    setenv("LAB_HOME", home, 1);
    return 0;
}

static int teardown(void **state)
{
    return lab_rm_rf(home);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_ext2_initrd)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
