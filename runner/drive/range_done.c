/* SPDX-License-Identifier: Apache-2.0 */
/* What a results directory already holds for `benchrun run-range`
 * (range_done.h). */
#include "range_done.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "model/run.h"
#include "results/run_read.h"

/* Append (sha, the normalised form of suite) to d. Returns 0 or -1. */
static int add_pair(br_range_done *d, const char *sha, const char *suite) {
    char(*s)[41] = realloc(d->sha, (d->n + 1) * sizeof *d->sha);
    if (s)
        d->sha = s;
    char **p = s ? realloc(d->suite, (d->n + 1) * sizeof *d->suite) : NULL;
    if (p)
        d->suite = p;
    char *norm = p ? br_path_normalize(suite) : NULL;
    if (!norm)
        return s && p ? -1 : br_error_nomem();
    snprintf(d->sha[d->n], sizeof d->sha[d->n], "%s", sha);
    d->suite[d->n++] = norm;
    return 0;
}

/* The clean runs of the results file at path into d; a file that is not a
 * results document adds nothing. Returns 0 or -1 (out of memory). */
static int read_file(br_range_done *d, const char *path) {
    br_run *runs = NULL;
    size_t n = 0;
    if (br_results_load(&runs, &n, path) != 0)
        return 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const br_gitinfo *g = &runs[i].git;
        if (g->present && !g->unborn && !g->dirty && strlen(g->sha) == 40 && runs[i].suite_path)
            rc = add_pair(d, g->sha, runs[i].suite_path);
    }
    br_results_free(runs, n);
    return rc;
}

int br_range_done_read(br_range_done *out, const char *dir) {
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT
                   ? 0
                   : br_error_set("%s: cannot open directory: %s", dir, strerror(errno));
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !br_has_suffix(e->d_name, ".json"))
            continue;
        char *path = br_path_join(dir, e->d_name);
        rc = path ? read_file(out, path) : br_error_nomem();
        free(path);
    }
    closedir(d);
    return rc;
}

/* Whether d holds the pair (sha, suite normalised). */
static int has_pair(const br_range_done *d, const char *sha, const char *suite) {
    char *norm = br_path_normalize(suite);
    int found = 0;
    for (size_t i = 0; norm && i < d->n && !found; i++)
        found = strcmp(d->sha[i], sha) == 0 && strcmp(d->suite[i], norm) == 0;
    free(norm);
    return found;
}

int br_range_done_has(const br_range_done *d, const char *sha, const char *const *suites,
                      size_t n) {
    for (size_t k = 0; k < n; k++)
        if (!has_pair(d, sha, suites[k]))
            return 0;
    return n > 0;
}

int br_range_done_add(br_range_done *d, const char *sha, const char *const *suites, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (add_pair(d, sha, suites[k]) != 0)
            return -1;
    return 0;
}

void br_range_done_dispose(br_range_done *d) {
    for (size_t i = 0; i < d->n; i++)
        free(d->suite[i]);
    free(d->suite);
    free(d->sha);
    memset(d, 0, sizeof *d);
}
