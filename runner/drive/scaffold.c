/* SPDX-License-Identifier: Apache-2.0 */
/* The files of a new kernel repository written, never over
 * anything (scaffold.h). */
#include "scaffold.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"

#define PROG "benchrun init"

enum { EXIT_OK = 0, EXIT_BAD_INPUT = 2 };

/* More files and folders than the scaffold has. */
#define MAX_MADE 64

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
        br_log(BR_LOG_ERROR, PROG ": %.64s...: path too long\n", path);
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
        br_log(BR_LOG_ERROR, PROG ": %s exists and is not a directory\n", dir);
        *(int *)ctx += 1;
        return 1;
    }
    return 0;
}

/* Check every target before writing anything: each that exists (a file, a
 * folder or a link, even a dangling one) is named. Returns how many are in
 * the way. */
static int check_targets(char *const *paths, size_t n_files) {
    int in_way = 0;
    for (size_t i = 0; i < n_files; i++) {
        struct stat st;
        if (lstat(paths[i], &st) == 0) {
            br_log(BR_LOG_ERROR, PROG ": %s already exists\n", paths[i]);
            in_way++;
        } else if (errno != ENOENT && errno != ENOTDIR) {
            br_log(BR_LOG_ERROR, PROG ": %s: %s\n", paths[i], strerror(errno));
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
    br_log(BR_LOG_ERROR, PROG ": cannot create %s: %s\n", dir, strerror(errno));
    return 1;
}

static int write_template(FILE *f, void *ctx) {
    const br_scaffold_file *t = ctx;
    return fwrite(t->data, 1, t->len, f) == t->len ? 0 : br_error_set("write failed");
}

/* Make the folders and write every file, each new (never replacing one that
 * appeared since the check). Returns 0, or -1 after a message with what
 * was made taken back. */
static int write_all(char *const *paths, const br_scaffold_file *files, size_t n_files) {
    made m = {.n = 0};
    for (size_t i = 0; i < n_files; i++) {
        if (each_dir(paths[i], make_dir, &m) != 0)
            goto fail;
        int rc = br_write_new(paths[i], write_template, (void *)&files[i]);
        if (rc != 0) {
            br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
            goto fail;
        }
        made_add(&m, br_strdup(paths[i]), 0);
    }
    made_dispose(&m, 0);
    return 0;
fail:
    made_dispose(&m, 1);
    br_log(BR_LOG_ERROR, PROG ": nothing written\n");
    return -1;
}

/* What was made and what to do next, on standard output. */
static void report(const char *dir, char *const *paths, size_t n_files) {
    printf("benchrun init: created\n");
    for (size_t i = 0; i < n_files; i++)
        printf("  %s\n", paths[i]);
    const char *prefix = strcmp(dir, ".") == 0 ? "" : dir;
    const char *sep = prefix[0] && !br_has_suffix(prefix, "/") ? "/" : "";
    printf("next:\n"
           "  benchrun check %s%ssuites/example.yaml            # compile, find the kernels\n"
           "  benchrun %s%ssuites/example.yaml                  # measure\n"
           "  benchrun --save-baseline %s%ssuites/example.yaml  # then commit baselines/\n",
           prefix, sep, prefix, sep, prefix, sep);
}

int br_scaffold_write(const char *dir, const br_scaffold_file *files, size_t n_files) {
    char *paths[MAX_MADE] = {NULL};
    if (n_files > MAX_MADE) {
        br_log(BR_LOG_ERROR, PROG ": too many templates\n");
        return EXIT_BAD_INPUT;
    }
    int status = EXIT_BAD_INPUT;
    for (size_t i = 0; i < n_files; i++)
        if (!(paths[i] = strcmp(dir, ".") == 0 ? br_strdup(files[i].path)
                                               : br_path_join(dir, files[i].path))) {
            br_log(BR_LOG_ERROR, PROG ": out of memory\n");
            goto done;
        }
    int in_way = 0;
    if (dir_is_not_one(dir, &in_way) != 0)
        goto done;
    in_way = check_targets(paths, n_files);
    if (in_way > 0) {
        br_log(BR_LOG_ERROR,
               PROG ": %d file(s) in the way: nothing written (init never overwrites)\n", in_way);
        goto done;
    }
    if (write_all(paths, files, n_files) == 0) {
        report(dir, paths, n_files);
        status = EXIT_OK;
    }
done:
    for (size_t i = 0; i < n_files; i++)
        free(paths[i]);
    return status;
}
