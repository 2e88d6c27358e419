/* The JSON outputs' value makers (json.c, seedjson.c), one home: numbers
 * at ten significant digits (every figure the lab measures, and stable
 * across libm versions where %.17g would not be; NaN and infinities become
 * null), strings that may be NULL, and adding a member. */
#ifndef LAB_REPORT_JSONVAL_H
#define LAB_REPORT_JSONVAL_H

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>

static inline struct json_object *num(double d)
{
    char buf[32];
    if (!isfinite(d))
        return NULL;
    snprintf(buf, sizeof buf, "%.10g", d);
    return json_object_new_double_s(d, buf);
}

static inline struct json_object *str(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

static inline void put(struct json_object *o, const char *key, struct json_object *v)
{
    json_object_object_add(o, key, v);
}

#endif
