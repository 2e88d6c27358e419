/* The compat layer's version: a hash of every row of its tables, so a
 * report or a stored kernel says exactly which rules built it, with no
 * number for a person to remember to bump. See compat_id.h. */
#include "kernels/compat_id.h"
#include "kernels/compat.h"
#include "common/hash.h"

#include <string.h>

static void hash_range(struct lab_hash *h, const struct lab_compat_range *r)
{
    lab_hash_u64(h, (uint64_t)r->from);
    lab_hash_u64(h, (uint64_t)r->until);
    lab_hash_u64(h, r->arch);
}

/* NULL strings hash apart from empty ones. */
static void hash_opt(struct lab_hash *h, const char *s)
{
    lab_hash_u64(h, s != NULL);
    lab_hash_str(h, s ? s : "");
}

int lab_compat_layer_id(char out[LAB_COMPAT_ID_LEN + 1])
{
    char hex[LAB_HASH_HEX_LEN + 1];
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    lab_hash_str(&h, "lab-compat-layer-1");
    for (size_t i = 0; i < lab_compat_cover_count(); i++) {
        const struct lab_compat_cover *c = lab_compat_cover_at(i);
        hash_range(&h, &c->r);
        lab_hash_u64(&h, (uint64_t)c->gcc_min);
        lab_hash_u64(&h, (uint64_t)c->gcc_max);
    }
    for (size_t i = 0; i < lab_compat_flag_count(); i++) {
        const struct lab_compat_flag *f = lab_compat_flag_at(i);
        hash_range(&h, &f->r);
        lab_hash_u64(&h, f->where);
        hash_opt(&h, f->value);
    }
    for (size_t i = 0; i < lab_compat_fixup_count(); i++) {
        const struct lab_compat_fixup *x = lab_compat_fixup_at(i);
        hash_opt(&h, x->id);
        hash_range(&h, &x->r);
        hash_opt(&h, x->files);
        lab_hash_u64(&h, x->kind);
        hash_opt(&h, x->pattern);
        hash_opt(&h, x->replace);
    }
    if (lab_hash_final(&h, hex) < 0)
        return -1;
    memcpy(out, hex, LAB_COMPAT_ID_LEN);
    out[LAB_COMPAT_ID_LEN] = '\0';
    return 0;
}
