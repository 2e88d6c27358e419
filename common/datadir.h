/* Where the lab's own files are: its experiments, hardware profiles, kernel
 * config fragments, and the files it built (guest agents, the nbdkit
 * filter). One table decides for all of them, in this order:
 *   1. the file's environment variable ($LAB_EXPERIMENTS, ...), if set;
 *   2. an installed lab: the running binary is PREFIX/bin/lab and
 *      PREFIX/share/lab exists, so data comes from PREFIX/share/lab and
 *      built files from PREFIX/lib/lab (make install, the Debian package);
 *   3. the build tree it was compiled in (make run, make check).
 * So an installed copy keeps working with its checkout moved away, and a
 * build tree works uninstalled. */
#ifndef LAB_COMMON_DATADIR_H
#define LAB_COMMON_DATADIR_H

enum lab_data {
    LAB_DATA_EXPERIMENTS,    /* *.exp */
    LAB_DATA_PROFILES,       /* *.profile */
    LAB_DATA_KERNEL_CONFIGS, /* config fragments for the builder */
    LAB_DATA_BUILT,          /* lab-agent, lab-agent-i386, nbdkit-hdd-filter.so */
    LAB_DATA_DOCS,           /* the manual's topics, docs/TOPIC.md (lab help TOPIC) */
};

/* The directory for what (never NULL; not checked to exist). */
const char *lab_data_dir(enum lab_data what);

/* PREFIX when this binary runs installed, NULL from a build tree. */
const char *lab_install_prefix(void);

#endif
