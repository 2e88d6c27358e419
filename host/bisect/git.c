/* Git plumbing through the git command line; see git.h. */
#include "host/bisect/git.h"

#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* git -C repo ARGS: its whole stdout (malloc'd), NULL if it failed. ARGS
 * is spliced in as it is: callers quote what they put in it. */
static char *git_out(const char *repo, const char *args)
{
    char *qr = lab_shell_quote(repo);
    char *cmd = lab_asprintf("git -C %s %s 2>/dev/null", qr, args);
    free(qr);
    char *out = lab_capture(cmd);
    free(cmd);
    return out;
}

int lab_git_repo_check(const char *repo)
{
    struct stat st;
    if (stat(repo, &st) < 0)
        return lab_error("--repo %s: %s", repo, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return lab_error("--repo %s: not a directory", repo);
    char *s = git_out(repo, "rev-parse --git-dir");
    free(s);
    if (!s)
        return lab_error("--repo %s: not a git repository (or git is missing)", repo);
    return 0;
}

/* git_out of "before WORD after", the word quoted. */
static char *git_word(const char *repo, const char *before, const char *word, const char *after)
{
    char *q = lab_shell_quote(word);
    char *args = lab_asprintf("%s%s%s", before, q, after);
    char *s = git_out(repo, args);
    free(args);
    free(q);
    return s;
}

int lab_git_commit(const char *repo, const char *ref, char out[41])
{
    char *s = git_word(repo, "rev-parse --verify -q ", ref, "^{commit}");
    if (!s || strlen(s) < 40) {
        free(s);
        return lab_error("'%s' is not a commit in %s", ref, repo);
    }
    snprintf(out, 41, "%.40s", s);
    free(s);
    return 0;
}

void lab_git_subject(const char *repo, const char *hash, char *out, size_t len)
{
    char *s = git_word(repo, "log -1 --format=%s ", hash, "");
    if (s)
        s[strcspn(s, "\n")] = '\0';
    snprintf(out, len, "%s", s ? s : "?");
    free(s);
}

/* The 40-character lines of s after good, appended to a new array. */
static size_t path_lines(char *s, const char *good, char (**out)[41])
{
    size_t n = 1, cap = 64;
    char(*c)[41] = lab_xcalloc(cap, sizeof *c);
    snprintf(c[0], 41, "%s", good);
    for (char *save, *line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strlen(line) != 40)
            continue;
        if (n == cap) {
            cap *= 2;
            c = realloc(c, cap * sizeof *c);
            if (!c)
                abort();
        }
        snprintf(c[n++], 41, "%s", line);
        if (n == LAB_GIT_MAX_COMMITS)
            break;
    }
    *out = c;
    return n;
}

size_t lab_git_path(const char *repo, const char *good, const char *bad, char (**out)[41])
{
    char *qr = lab_shell_quote(repo), *qg = lab_shell_quote(good), *qb = lab_shell_quote(bad);
    char *args = lab_asprintf("merge-base --is-ancestor %s %s && git -C %s rev-list --reverse "
                              "--ancestry-path %s..%s",
                              qg, qb, qr, qg, qb);
    char *s = git_out(repo, args);
    free(args);
    free(qr);
    free(qg);
    free(qb);
    if (!s) {
        lab_error("%.12s is not an ancestor of %.12s in %s", good, bad, repo);
        return 0;
    }
    char(*c)[41];
    size_t n = path_lines(s, good, &c);
    free(s);
    if (n < 2 || strcmp(c[n - 1], bad) != 0) {
        lab_error("no commits from %.12s to %.12s in %s", good, bad, repo);
        free(c);
        return 0;
    }
    *out = c;
    return n;
}

size_t lab_git_range(const char *repo, const char *good_ref, const char *bad_ref, char (**out)[41])
{
    char good[41], bad[41];
    if (lab_git_repo_check(repo) < 0 || lab_git_commit(repo, good_ref, good) < 0 ||
        lab_git_commit(repo, bad_ref, bad) < 0)
        return 0;
    return lab_git_path(repo, good, bad, out);
}
