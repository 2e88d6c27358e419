/* --help for the commands without an option table of their own, `lab help`,
 * `lab --version`, and the parse-only check of a command line. */
#include "lab/commands.h"
#include "common/datadir.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"
#include "guest-agent/protocol.h"
#include "kernels/compat_id.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* From the Makefile: the release (VERSION) and `git describe` at build. */
#ifndef LAB_VERSION
#define LAB_VERSION "unknown"
#endif
#ifndef LAB_GIT_DESCRIBE
#define LAB_GIT_DESCRIBE "unknown"
#endif

int lab_help_asked(int argc, char **argv)
{
    return argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
}

void lab_command_usage(FILE *out, const struct lab_command *cmd)
{
    fprintf(out, "usage: lab %s%s%s\n\n%s.\n", cmd->name, *cmd->args ? " " : "", cmd->args,
            cmd->what);
}

int lab_print_version(FILE *out)
{
    char compat[LAB_COMPAT_ID_LEN + 1];
    if (lab_compat_layer_id(compat) < 0)
        return lab_error("cannot compute the compat layer's version (SHA-256 failed)");
    fprintf(out,
            "lab %s\n"
            "  source:            %s\n"
            "  agent protocol:    %d\n"
            "  era compat layer:  %s\n",
            LAB_VERSION, LAB_GIT_DESCRIBE, LAB_PROTO_VERSION, compat);
    return 0;
}

/* The topics: docs/NAME.md, sorted by name; returns how many it printed. */
static int list_topics(FILE *out)
{
    struct dirent **names;
    int n = scandir(lab_data_dir(LAB_DATA_DOCS), &names, NULL, alphasort), shown = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]->d_name);
        if (len > 3 && strcmp(names[i]->d_name + len - 3, ".md") == 0) {
            fprintf(out, "%s  %.*s", shown++ % 6 ? "" : "\n ", (int)(len - 3), names[i]->d_name);
        }
        free(names[i]);
    }
    if (n > 0)
        free(names);
    if (shown)
        fputc('\n', out);
    return shown;
}

static int show_topic(const char *topic)
{
    char *path, *text;
    size_t len;
    if (!*topic || strchr(topic, '/') || topic[0] == '.') {
        lab_error("not a topic: '%s' (lab help lists them)", topic);
        return 2;
    }
    path = lab_asprintf("%s/%s.md", lab_data_dir(LAB_DATA_DOCS), topic);
    text = lab_read_file_max(path, 1 << 20, &len);
    if (!text) {
        free(path);
        lab_error("no command or topic '%s' (lab help lists them)", topic);
        return 2;
    }
    fwrite(text, 1, len, stdout);
    free(text);
    free(path);
    return 0;
}

int cmd_help(int argc, char **argv)
{
    if (argc > 2) {
        lab_error("usage: lab help [COMMAND|TOPIC]");
        return 2;
    }
    if (argc == 2) {
        for (size_t i = 0; i < lab_ncommands; i++) {
            if (strcmp(argv[1], lab_commands[i].name) != 0)
                continue;
            if (!lab_commands[i].own_help)
                return lab_command_usage(stdout, &lab_commands[i]), 0;
            char *args[] = {argv[1], "--help", NULL};
            return lab_commands[i].fn(2, args);
        }
        return show_topic(argv[1]);
    }
    printf("usage: lab help COMMAND   a command's usage and options (as lab COMMAND --help)\n"
           "       lab help TOPIC     a topic of the manual\n\ncommands:\n");
    for (size_t i = 0; i < lab_ncommands; i++)
        printf("  %-12s %s\n", lab_commands[i].name, lab_commands[i].what);
    printf("\ntopics (%s):", lab_data_dir(LAB_DATA_DOCS));
    if (!list_topics(stdout))
        printf(" none found\n");
    return 0;
}

/* Parse-only mode: does a command line parse (the command exists, every
 * option on it is one the command lists) without running anything? The
 * docs' `lab ...` lines are checked with it. The options come from the
 * command's own usage, the text its --help prints from its option table,
 * so an option the parser gained or lost shows here too. Values and
 * positional arguments are not checked: the kernel and experiment names
 * of an example need not resolve on this machine. */
int lab_parse_only_asked(void)
{
    const char *v = getenv("LAB_PARSE_ONLY");
    return v && strcmp(v, "1") == 0;
}

/* The commands whose first argument names a subcommand with a usage of
 * its own (`lab kernels build --help`). */
static const char *const with_subcommands[] = {"kernels"};

static int has_subcommands(const struct lab_command *cmd)
{
    for (size_t i = 0; i < sizeof with_subcommands / sizeof with_subcommands[0]; i++)
        if (strcmp(cmd->name, with_subcommands[i]) == 0)
            return 1;
    return 0;
}

/* All of fd, NUL-terminated (a usage: a few KiB); NULL on a read error. */
static char *read_all(int fd)
{
    char chunk[4096], *text = NULL;
    size_t len = 0;
    ssize_t got;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    while ((got = read(fd, chunk, sizeof chunk)) != 0) {
        if (got < 0 && errno != EINTR)
            break;
        if (got > 0)
            fwrite(chunk, 1, (size_t)got, f);
    }
    fclose(f);
    if (got < 0)
        return free(text), NULL;
    return text;
}

/* The usage of a command that prints its own: its --help, run in a child
 * whose stdout is a pipe (the --help path prints and returns before the
 * command does anything). NULL when it failed, said by the child (an
 * unknown subcommand) or here. */
static char *own_usage(const struct lab_command *cmd, char *sub)
{
    char *hargv[] = {(char *)cmd->name, sub ? sub : "--help", sub ? "--help" : NULL, NULL};
    int fd[2], status;
    if (pipe(fd) < 0)
        return lab_error("parse-only: pipe: %s", strerror(errno)), NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return close(fd[0]), close(fd[1]), lab_error("parse-only: fork: %s", strerror(errno)), NULL;
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], STDOUT_FILENO);
        close(fd[1]);
        int rc = cmd->fn(sub ? 3 : 2, hargv);
        fflush(stdout);
        _exit(rc); /* no atexit work of the parent's in the child */
    }
    close(fd[1]);
    char *text = read_all(fd[0]);
    close(fd[0]);
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Is opt (`--name` or `-x`) a word of the usage: between a start, a space,
 * `[`, `(`, `|` or `,` and an end, a space, `,`, `]`, `)`, `|` or `=`? */
static int option_listed(const char *usage, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = strstr(usage, opt); p; p = strstr(p + 1, opt)) {
        int before = p == usage || strchr(" \n[(|,", p[-1]);
        int after = p[n] == '\0' || strchr(" \n,])|=", p[n]);
        if (before && after)
            return 1;
    }
    return 0;
}

int lab_parse_only(const struct lab_command *cmd, int argc, char **argv)
{
    int first = 1;
    char *usage;
    if (!cmd->own_help) {
        size_t len;
        FILE *f = open_memstream(&usage, &len);
        if (!f)
            return lab_error("parse-only: open_memstream: %s", strerror(errno)), 1;
        lab_command_usage(f, cmd);
        fclose(f);
    } else {
        char *sub = has_subcommands(cmd) && argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
        first += sub != NULL;
        if (!(usage = own_usage(cmd, sub)))
            return 2;
    }
    int rc = 0;
    for (int i = first; i < argc && strcmp(argv[i], "--") != 0 && !rc; i++) {
        if (argv[i][0] != '-' || argv[i][1] == '\0' || lab_help_asked(2, argv + i - 1))
            continue; /* a value, a positional argument, or -h and --help (every command's) */
        char *opt = lab_xstrdup(argv[i]);
        opt[argv[i][1] == '-' ? strcspn(opt, "=") : 2] = '\0'; /* --name=V, -xV */
        if (!option_listed(usage, opt)) {
            lab_error("unknown option '%s' of lab %s%s%s (its --help lists them)", opt, cmd->name,
                      first > 1 ? " " : "", first > 1 ? argv[1] : "");
            rc = 2;
        }
        free(opt);
    }
    free(usage);
    return rc;
}
