/* The era compat layer's function-name pasting; see compat_paste.h. */
#include "kernels/compat_paste.h"

#include "common/str.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tok { T_END, T_IDENT, T_STRING, T_OTHER };

struct token {
    enum tok kind;
    size_t start, len; /* in the text; the literal's quotes included */
    char c;            /* T_OTHER: the punctuator's first character */
};

static int ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The end of the literal opened by s[i] (a quote), past its closing quote;
 * an unterminated one ends at its line. */
static size_t literal_end(const char *s, size_t i)
{
    char q = s[i++];
    while (s[i] && s[i] != q && s[i] != '\n')
        i += s[i] == '\\' && s[i + 1] ? 2 : 1;
    return s[i] == q ? i + 1 : i;
}

/* Past whitespace, comments and backslash-newlines from i. In a directive
 * a newline that is not escaped ends it: *eol is set and i stops there. */
static size_t skip_space(const char *s, size_t i, int directive, int *eol)
{
    *eol = 0;
    for (;;) {
        if (s[i] == '\\' && s[i + 1] == '\n')
            i += 2;
        else if (s[i] == '\n' && directive) {
            *eol = 1;
            return i;
        } else if (isspace((unsigned char)s[i]))
            i++;
        else if (s[i] == '/' && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e ? (size_t)(e - s) + 2 : strlen(s);
        } else if (s[i] == '/' && s[i + 1] == '/') {
            while (s[i] && s[i] != '\n')
                i++;
        } else
            return i;
    }
}

/* The token at i (after skip_space). */
static struct token token_at(const char *s, size_t i)
{
    struct token t = {T_END, i, 0, 0};
    if (!s[i])
        return t;
    if (s[i] == '"' || s[i] == '\'') {
        t.kind = s[i] == '"' ? T_STRING : T_OTHER;
        t.len = literal_end(s, i) - i;
        t.c = s[i];
        return t;
    }
    if (ident_start(s[i])) {
        t.kind = T_IDENT;
        while (ident_char(s[i + t.len]))
            t.len++;
        return t;
    }
    t.kind = T_OTHER;
    t.c = s[i];
    t.len = 1;
    while (isalnum((unsigned char)s[i]) && isalnum((unsigned char)s[i + t.len]))
        t.len++; /* a number: one token */
    return t;
}

static int is_name(const char *s, const struct token *t, const char *name)
{
    return t->kind == T_IDENT && t->len == strlen(name) && memcmp(s + t->start, name, t->len) == 0;
}

/* KERN_ERR, PFX, DRV_NAME: macros that stand for a literal in 2.4 code. */
static int capitals_macro(const char *s, const struct token *t)
{
    if (t->kind != T_IDENT)
        return 0;
    int upper = 0;
    for (size_t k = 0; k < t->len; k++) {
        char c = s[t->start + k];
        if (islower((unsigned char)c))
            return 0;
        upper |= isupper((unsigned char)c);
    }
    return upper;
}

/* Words followed by "(" that do not name the function a body belongs to. */
static int not_a_function(const char *s, const struct token *t)
{
    static const char *const words[] = {"__attribute__", "__attribute", "__asm__", "asm",
                                        "__typeof__",    "typeof",      "sizeof"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (is_name(s, t, words[k]))
            return 1;
    return 0;
}

struct scan {
    const char *s;
    int directive; /* inside a preprocessor line */
    int dtokens;   /* its tokens so far, the current one counted */
    int bol;       /* only whitespace since the last newline */
    int depth;     /* braces, outside directives */
    int parens;    /* parentheses at brace depth 0 */
    struct token prev;
    struct token candidate; /* the last "NAME (" at depth 0 */
    struct token function;  /* the body's function, kind T_END when none */
};

static int pasted(struct scan *sc, size_t after)
{
    int eol;
    size_t j = skip_space(sc->s, after, sc->directive, &eol);
    struct token next = eol ? (struct token){T_END, j, 0, 0} : token_at(sc->s, j);
    /* The name a #define defines is a capitals word before it, not a paste. */
    int defined_name = sc->directive && sc->dtokens == 4; /* this one is the 4th */
    return next.kind == T_STRING || next.kind == T_IDENT || sc->prev.kind == T_STRING ||
           (capitals_macro(sc->s, &sc->prev) && !defined_name);
}

/* Keeps the depth, the directive state and the function being defined. */
static void track(struct scan *sc, const struct token *t)
{
    const char *s = sc->s;
    if (sc->directive)
        return;
    if (t->kind == T_IDENT && sc->depth == 0 && sc->parens == 0 && !not_a_function(s, t)) {
        int eol;
        size_t j = skip_space(s, t->start + t->len, 0, &eol);
        if (s[j] == '(')
            sc->candidate = *t;
    }
    if (t->kind != T_OTHER || t->c == '\'')
        return;
    switch (t->c) {
    case '{':
        if (sc->depth++ == 0)
            sc->function = sc->candidate;
        break;
    case '}':
        if (sc->depth > 0 && --sc->depth == 0)
            sc->function.kind = sc->candidate.kind = T_END;
        break;
    case '(':
        sc->parens += sc->depth == 0;
        break;
    case ')':
        sc->parens -= sc->depth == 0 && sc->parens > 0;
        break;
    case ';':
        if (sc->depth == 0)
            sc->candidate.kind = T_END;
        break;
    }
}

int lab_compat_paste_function_names(const char *in, char **out)
{
    struct scan sc = {.s = in, .bol = 1};
    char *buf = NULL;
    size_t buflen = 0, copied = 0, i = 0;
    FILE *o = open_memstream(&buf, &buflen);
    if (!o)
        abort();
    int changed = 0;
    while (in[i]) {
        int eol;
        size_t j = skip_space(in, i, sc.directive, &eol);
        for (size_t k = i; k < j; k++)
            sc.bol = in[k] == '\n' ? 1 : sc.bol && isspace((unsigned char)in[k]);
        if (eol) { /* the directive's line ends */
            sc.directive = 0;
            sc.bol = 1;
            i = j + 1;
            continue;
        }
        struct token t = token_at(in, j);
        if (t.kind == T_END)
            break;
        if (t.kind == T_OTHER && t.c == '#' && sc.bol)
            sc.directive = 1, sc.dtokens = 0;
        sc.dtokens += sc.directive;
        sc.bol = 0;
        if ((is_name(in, &t, "__FUNCTION__") || is_name(in, &t, "__PRETTY_FUNCTION__")) &&
            pasted(&sc, t.start + t.len)) {
            fwrite(in + copied, 1, t.start - copied, o);
            if (sc.directive || sc.function.kind != T_IDENT)
                fputs("__FILE__", o);
            else
                fprintf(o, "\"%.*s\"", (int)sc.function.len, in + sc.function.start);
            copied = t.start + t.len;
            changed++;
        }
        track(&sc, &t);
        sc.prev = t;
        i = t.start + t.len;
    }
    fputs(in + copied, o);
    fclose(o);
    *out = buf;
    return changed;
}
