/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler keys of a suite: cflags, nvcc_flags, include_dirs
 * (see flags.h). */
#include "flags.h"

#include "base/util.h"
#include "scalar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A flag benchrun refuses, and why. `exact`: only the flag itself; else
 * also the flag with its value attached (-ofile, --output-file=x). */
typedef struct refused_flag {
    const char *flag;
    int exact;
    int nvcc_only;
    const char *why;
} refused_flag;

#define OUTPUT_WHY "benchrun names the output itself (an object in its compile cache)"
#define STAGE_WHY  "benchrun needs a shared object, and this flag stops the compiler before one"
#define DEPS_WHY   "benchrun reads the compiler's dependency list from a file of its own"

static const refused_flag refused[] = {
    {"-o", 0, 0, OUTPUT_WHY},
    {"--output-file", 0, 1, OUTPUT_WHY},
    {"-c", 1, 0, STAGE_WHY},
    {"--compile", 1, 1, STAGE_WHY},
    {"-E", 1, 0, STAGE_WHY},
    {"--preprocess", 1, 1, STAGE_WHY},
    {"-S", 1, 0, STAGE_WHY},
    {"-M", 1, 0, STAGE_WHY},
    {"-MM", 1, 0, STAGE_WHY},
    {"-ptx", 1, 1, STAGE_WHY},
    {"--ptx", 1, 1, STAGE_WHY},
    {"-cubin", 1, 1, STAGE_WHY},
    {"--cubin", 1, 1, STAGE_WHY},
    {"-fatbin", 1, 1, STAGE_WHY},
    {"--fatbin", 1, 1, STAGE_WHY},
    {"-MF", 0, 0, DEPS_WHY},
    {"--dependency-output", 0, 1, DEPS_WHY},
};

/* The entry of `refused` that flag f matches for `nvcc` (1: nvcc_flags,
 * 0: cflags), or NULL. Attached values: -ofile, -MFfile for the host
 * compiler (nvcc's -o<x> options, such as -optf, are other options), and
 * --long=value for both. */
static const refused_flag *find_refused(const char *f, int nvcc) {
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        const refused_flag *r = &refused[i];
        size_t n = strlen(r->flag);
        if (r->nvcc_only && !nvcc)
            continue;
        if (strcmp(f, r->flag) == 0)
            return r;
        if (r->exact || strncmp(f, r->flag, n) != 0)
            continue;
        if (f[n] == '=' || (!nvcc && r->flag[1] != '-'))
            return r;
    }
    return NULL;
}

static int check_flag(const br_located *l, const br_node *item, const char *key) {
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, item->text, item->len);
    if (l->text[0] == '\0')
        return br_error_at(item->pos, "expected a compiler flag in %s, found an empty string", key);
    const refused_flag *r = find_refused(l->text, strcmp(key, "nvcc_flags") == 0);
    if (r)
        return br_error_at(item->pos, "%s: flag %s is not accepted: %s", key, q, r->why);
    return 0;
}

/* The items of v (a scalar or a list of scalars) into a new array *out[0..*n);
 * `what` says what one item is. Returns 0 or -1 with the error set. */
static int load_strings(br_located **out, size_t *n, const br_node *v, const char *what,
                        const char *expected) {
    if (v->kind == BR_NODE_MAP || br_is_null(v))
        return br_expected(v, expected);
    size_t count = v->kind == BR_NODE_SEQ ? v->n_items : 1;
    *out = calloc(count ? count : 1, sizeof **out);
    if (!*out)
        return br_error_at(v->pos, "out of memory");
    *n = count;
    for (size_t i = 0; i < count; i++) {
        const br_node *item = v->kind == BR_NODE_SEQ ? v->items[i] : v;
        if (br_check_one_line(item, what) < 0 || br_get_located(&(*out)[i], item, what) < 0)
            return -1;
    }
    return 0;
}

int br_flags_load(br_located **out, size_t *n, const br_node *v, const char *key) {
    char expected[128];
    snprintf(expected, sizeof expected, "a compiler flag or a list of flags (%s: [-O2, -DNDEBUG])",
             key);
    if (load_strings(out, n, v, "a compiler flag (a string)", expected) < 0)
        return -1;
    for (size_t i = 0; i < *n; i++)
        if (check_flag(&(*out)[i], v->kind == BR_NODE_SEQ ? v->items[i] : v, key) < 0)
            return -1;
    return 0;
}

/* Resolve include directory l (given as item) against s->dir, in place,
 * and check that it is a directory. */
static int resolve_dir(br_suite *s, br_located *l, const br_node *item) {
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, item->text, item->len);
    if (l->text[0] == '\0')
        return br_error_at(item->pos, "expected an include directory, found an empty string");
    char *joined = br_path_join(s->dir, l->text);
    char *norm = joined ? br_path_normalize(joined) : NULL;
    if (!norm) {
        free(joined);
        return br_error_at(item->pos, "out of memory");
    }
    /* The plain join when normalizing names another place ("link/.."). */
    struct stat st, nst;
    int found = stat(joined, &st) == 0;
    int err = errno;
    free(l->text);
    if (found && stat(norm, &nst) == 0 && nst.st_dev == st.st_dev && nst.st_ino == st.st_ino) {
        l->text = norm;
        free(joined);
    } else {
        l->text = joined;
        free(norm);
    }
    if (!found) {
        if (err == ENOENT || err == ENOTDIR)
            return br_error_at(item->pos, "include directory %s does not exist", q);
        return br_error_at(item->pos, "cannot access include directory %s: %s", q, strerror(err));
    }
    if (!S_ISDIR(st.st_mode))
        return br_error_at(item->pos, "include directory %s is not a directory", q);
    return 0;
}

int br_include_dirs_load(br_suite *s, const br_node *v) {
    const char *expected =
        "an include directory or a list of directories (include_dirs: [include])";
    if (load_strings(&s->include_dirs, &s->n_include_dirs, v, "an include directory (a string)",
                     expected) < 0)
        return -1;
    for (size_t i = 0; i < s->n_include_dirs; i++) {
        const br_node *item = v->kind == BR_NODE_SEQ ? v->items[i] : v;
        if (resolve_dir(s, &s->include_dirs[i], item) < 0)
            return -1;
        for (size_t j = 0; j < i; j++)
            if (strcmp(s->include_dirs[j].text, s->include_dirs[i].text) == 0) {
                char q[BR_SHOW_MAX + 16];
                br_show(q, sizeof q, item->text, item->len);
                return br_error_at(item->pos, "duplicate include directory %s (first at %d:%d)", q,
                                   v->items[j]->pos.line, v->items[j]->pos.column);
            }
    }
    return 0;
}
