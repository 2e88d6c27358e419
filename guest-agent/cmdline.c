/* Pure parser of lab.* kernel command-line parameters (see cmdline.h): words
 * split here, each key's value parsed by its row of the key table (keys.c). */
#include "cmdline.h"
#include "fmt.h"
#include "keys.h"
#include "protocol.h"
#include "str.h"

void agent_config_defaults(struct agent_config *c)
{
    char *p = (char *)c;
    for (size_t i = 0; i < sizeof(*c); i++)
        p[i] = 0;
    for (size_t i = 0; i < AGENT_KEY_COUNT; i++)
        if (agent_keys[i].def)
            agent_key_set(&agent_keys[i], c, agent_keys[i].def, agent_strlen(agent_keys[i].def));
    c->given = 0;
}

static void reject(struct agent_config *c, const char *why, const char *k, size_t kn)
{
    if (c->errors++ == 0) {
        size_t at = agent_cat(c->err, sizeof(c->err), 0, why);
        at = agent_cat(c->err, sizeof(c->err), at, " lab.");
        char key[AGENT_CFG_NAME_MAX];
        agent_strlcpy(key, k, kn, sizeof(key));
        agent_cat(c->err, sizeof(c->err), at, key);
    }
}

static void apply(struct agent_config *c, const char *k, size_t kn, const char *v, size_t vn)
{
    const struct agent_key *key = agent_key_find(k, kn);
    if (!key) {
        /* A key of a newer host, or a typo: refused, not guessed at. */
        if (c->unknown++ == 0)
            agent_strlcpy(c->unknown_key, k, kn, sizeof(c->unknown_key));
        reject(c, "unknown key:", k, kn);
        return;
    }
    const char *why = agent_key_set(key, c, v, vn);
    if (why)
        reject(c, why, k, kn);
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == 0;
}

unsigned agent_config_parse(struct agent_config *c, const char *buf, size_t n)
{
    const size_t plen = sizeof(LAB_CMDLINE_PREFIX) - 1;
    size_t i = 0;
    while (i < n) {
        while (i < n && is_space(buf[i]))
            i++;
        size_t w = i;
        while (i < n && !is_space(buf[i]))
            i++;
        const char *word = buf + w;
        size_t wn = i - w;
        if (wn <= plen || !agent_memeq(word, LAB_CMDLINE_PREFIX, plen))
            continue;
        const char *k = word + plen;
        size_t rest = wn - plen, kn = 0;
        while (kn < rest && k[kn] != '=')
            kn++;
        if (kn == rest || kn == 0)
            continue; /* "lab.key" without '=': not ours to judge */
        apply(c, k, kn, k + kn + 1, rest - kn - 1);
    }
    if (agent_streq(c->test, "randread") || agent_streq(c->test, "overwrite")) {
        if (!(c->given & AGENT_GIVEN_BS))
            c->bs = AGENT_RANDREAD_BS_DEFAULT;
        if (!(c->given & AGENT_GIVEN_DIRECT))
            c->direct = 1;
    }
    if (!(c->given & AGENT_GIVEN_RW))
        c->rw = c->load != AGENT_LOAD_NONE || agent_streq(c->test, "overwrite");
    return c->errors;
}

static int same_mod_char(char a, char b)
{
    return a == b || ((a == '-' || a == '_') && (b == '-' || b == '_'));
}

long agent_module_params(const char *cmdline, size_t n, const char *mod, char *out, size_t cap)
{
    size_t ml = agent_strlen(mod), at = 0;
    out[0] = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && (cmdline[i] == ' ' || cmdline[i] == '\t' || cmdline[i] == '\n'))
            i++;
        size_t w = i;
        while (i < n && cmdline[i] != ' ' && cmdline[i] != '\t' && cmdline[i] != '\n')
            i++;
        size_t k = 0;
        while (k < ml && w + k < i && same_mod_char(cmdline[w + k], mod[k]))
            k++;
        if (k != ml || w + k >= i || cmdline[w + k] != '.')
            continue;
        size_t len = i - (w + k + 1);
        if (len == 0)
            continue;
        if (at + (at ? 1 : 0) + len + 1 > cap) {
            out[0] = 0;
            return -1;
        }
        if (at)
            out[at++] = ' ';
        for (size_t j = 0; j < len; j++)
            out[at++] = cmdline[w + k + 1 + j];
        out[at] = 0;
    }
    return (long)at;
}
