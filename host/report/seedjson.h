/* The JSON document's "reported" object: the seed thread's figures and
 * findings beside the run's (host/stats/agreement.h; schema in
 * docs/seeds.md). */
#ifndef LAB_SEEDJSON_H
#define LAB_SEEDJSON_H

#include "host/stats/runmodel.h"

struct json_object;

/* NULL when the run stored no reported figures. */
struct json_object *lab_seed_json(const struct lab_model *m);

#endif
