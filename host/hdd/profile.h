/* Hardware profile files (lab/profiles/NAME.profile): `key = value` lines,
 * `#` comments, every value with a source comment on the line above or at
 * the end of its line. See host/hdd/README.md for the keys. */
#ifndef LAB_HDD_PROFILE_H
#define LAB_HDD_PROFILE_H

#include <stddef.h>

#include "host/hdd/model.h"

/* Parses text (name is the file name used in messages). Returns 0, or -1
 * with "NAME:LINE: reason" in err. */
int hdd_profile_parse(const char *name, const char *text, struct hdd_params *p, char *err,
                      size_t errlen);
#define HDD_PROFILE_MAX_BYTES (64u << 10)

/* Reads the file at path (at most HDD_PROFILE_MAX_BYTES, no NUL byte) and
 * parses it. */
int hdd_profile_load(const char *path, struct hdd_params *p, char *err, size_t errlen);
/* One line of key figures for `lab profiles`; returns snprintf's result. */
int hdd_profile_summary(const struct hdd_params *p, char *buf, size_t len);
const char *hdd_bus_name(int bus);

#endif
