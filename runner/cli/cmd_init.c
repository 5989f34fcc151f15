/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_init.c - `benchrun init [DIR]`: write the scaffold of a kernel
 * repository (a suite, a host and a GPU kernel module, baselines/, a GitHub
 * Actions workflow) from the templates embedded at build time
 * (init_templates.h). It never overwrites: every target is checked first,
 * and when one exists nothing is written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "commands.h"
#include "init_templates.h"
#include "msg.h"

#define PROG "benchrun init"

enum { EXIT_OK = 0, EXIT_BAD_INPUT = 2 };

/* More files and folders than the scaffold has. */
#define MAX_MADE 64

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec init_opts[] = {{BR_OPT_HELP, "help", 'h', 0, NULL, "show this help"},
                                        {BR_OPT_END}};
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_init_spec = {
    PROG,
    "usage: benchrun init [DIR]\n"
    "\n"
    "Write what a kernel repository needs into DIR (default: the current\n"
    "directory): suites/example.yaml, kernels/example_cpu.c (a host kernel),\n"
    "kernels/example.cu (a GPU kernel), baselines/README.md and\n"
    ".github/workflows/benchrun.yml (GitHub Actions on a self-hosted GPU\n"
    "runner). Nothing is overwritten: when any of these exists, init names it\n"
    "and writes nothing.\n"
    "\n"
    "options:\n",
    "\n"
    "exit status: 0 written; 2 a file exists, or bad usage.\n",
    init_opts, 0};

/* What init has made, to take back when a later step fails. */
typedef struct made {
    char *paths[MAX_MADE]; /* owned: files and folders in the order made */
    int is_dir[MAX_MADE];
    size_t n;
} made;

static void made_add(made *m, char *path, int is_dir) {
    if (path && m->n < MAX_MADE) {
        m->paths[m->n] = path;
        m->is_dir[m->n++] = is_dir;
    } else {
        free(path); /* out of memory, or more than init makes: not taken back */
    }
}

/* Remove what was made, newest first (folders only when empty), when undo. */
static void made_dispose(made *m, int undo) {
    for (size_t i = m->n; i-- > 0;) {
        if (undo)
            (void)(m->is_dir[i] ? rmdir(m->paths[i]) : unlink(m->paths[i]));
        free(m->paths[i]);
    }
    m->n = 0;
}

/* Each folder above the file `path`, from the top down ("a", "a/b" for
 * "a/b/c"); fn returns nonzero to stop. Returns fn's, or 1 after a message
 * when path is too long. */
static int each_dir(const char *path, int (*fn)(const char *dir, void *ctx), void *ctx) {
    char buf[4096];
    size_t len = strlen(path);
    if (len >= sizeof buf) {
        br_msg_error(PROG, "%.64s...: path too long", path);
        return 1;
    }
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i < len; i++) {
        if (buf[i] != '/' || buf[i - 1] == '/') /* "a//b" once */
            continue;
        buf[i] = '\0';
        int rc = fn(buf, ctx);
        buf[i] = '/';
        if (rc)
            return rc;
    }
    return 0;
}

/* each_dir callback of the checks: a folder on the way that is not one. */
static int dir_is_not_one(const char *dir, void *ctx) {
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
        br_msg_error(PROG, "%s exists and is not a directory", dir);
        *(int *)ctx += 1;
        return 1;
    }
    return 0;
}

/* Check every target before writing anything: each that exists (a file, a
 * folder or a link, even a dangling one) is named. Returns how many are in
 * the way. */
static int check_targets(char *const *paths) {
    int in_way = 0;
    for (size_t i = 0; i < br_init_n_templates; i++) {
        struct stat st;
        if (lstat(paths[i], &st) == 0) {
            br_msg_error(PROG, "%s already exists", paths[i]);
            in_way++;
        } else if (errno != ENOENT && errno != ENOTDIR) {
            br_msg_error(PROG, "%s: %s", paths[i], strerror(errno));
            in_way++;
        } else {
            int before = in_way;
            if (each_dir(paths[i], dir_is_not_one, &in_way) != 0 && in_way == before)
                in_way++; /* too long */
        }
    }
    return in_way;
}

/* each_dir callback of the writing: make a missing folder, noted in ctx. */
static int make_dir(const char *dir, void *ctx) {
    if (mkdir(dir, 0777) == 0) {
        made_add(ctx, br_strdup(dir), 1);
        return 0;
    }
    struct stat st;
    if (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        return 0;
    br_msg_error(PROG, "cannot create %s: %s", dir, strerror(errno));
    return 1;
}

static int write_template(FILE *f, void *ctx) {
    const br_init_template *t = ctx;
    return fwrite(t->data, 1, t->len, f) == t->len ? 0 : br_error_set("write failed");
}

/* Make the folders and write every file, each new (never replacing one that
 * appeared since the check). Returns 0, or -1 after a message with what
 * was made taken back. */
static int write_all(char *const *paths) {
    made m = {.n = 0};
    for (size_t i = 0; i < br_init_n_templates; i++) {
        if (each_dir(paths[i], make_dir, &m) != 0)
            goto fail;
        int rc = br_write_new(paths[i], write_template, (void *)&br_init_templates[i]);
        if (rc != 0) {
            br_msg_error(PROG, "%s", br_error_get());
            goto fail;
        }
        made_add(&m, br_strdup(paths[i]), 0);
    }
    made_dispose(&m, 0);
    return 0;
fail:
    made_dispose(&m, 1);
    br_msg_error(PROG, "nothing written");
    return -1;
}

/* What was made and what to do next, on standard output. */
static void report(const char *dir, char *const *paths) {
    printf("benchrun init: created\n");
    for (size_t i = 0; i < br_init_n_templates; i++)
        printf("  %s\n", paths[i]);
    const char *prefix = strcmp(dir, ".") == 0 ? "" : dir;
    const char *sep = prefix[0] && !br_has_suffix(prefix, "/") ? "/" : "";
    printf("next:\n"
           "  benchrun check %s%ssuites/example.yaml            # compile, find the kernels\n"
           "  benchrun %s%ssuites/example.yaml                  # measure\n"
           "  benchrun --save-baseline %s%ssuites/example.yaml  # then commit baselines/\n",
           prefix, sep, prefix, sep, prefix, sep);
}

/* Scaffold into dir. Returns the exit status. */
static int init_dir(const char *dir) {
    char *paths[MAX_MADE] = {NULL};
    if (br_init_n_templates > MAX_MADE) {
        br_msg_error(PROG, "too many templates");
        return EXIT_BAD_INPUT;
    }
    int status = EXIT_BAD_INPUT;
    for (size_t i = 0; i < br_init_n_templates; i++)
        if (!(paths[i] = strcmp(dir, ".") == 0 ? br_strdup(br_init_templates[i].path)
                                               : br_path_join(dir, br_init_templates[i].path))) {
            br_msg_error(PROG, "out of memory");
            goto done;
        }
    int in_way = 0;
    if (dir_is_not_one(dir, &in_way) != 0)
        goto done;
    in_way = check_targets(paths);
    if (in_way > 0) {
        br_msg_error(PROG, "%d file(s) in the way: nothing written (init never overwrites)",
                     in_way);
        goto done;
    }
    if (write_all(paths) == 0) {
        report(dir, paths);
        status = EXIT_OK;
    }
done:
    for (size_t i = 0; i < br_init_n_templates; i++)
        free(paths[i]);
    return status;
}

int br_cmd_init(int argc, char **argv) {
    br_opt_parsed a;
    int dummy = 0, status = EXIT_BAD_INPUT;
    switch (br_opt_parse(&a, &br_cmd_init_spec, &dummy, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_init_spec);
        status = EXIT_OK;
        break;
    case BR_PARSE_OK:
        if (a.n_args > 1)
            br_msg_error(PROG, "expected at most one directory, found %zu arguments", a.n_args);
        else if (a.n_args == 1 && !a.args[0][0])
            br_msg_error(PROG, "expected a directory name, found ''");
        else
            status = init_dir(a.n_args ? a.args[0] : ".");
        break;
    default:
        break;
    }
    free(a.args);
    return status;
}
