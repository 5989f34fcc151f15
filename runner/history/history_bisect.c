/* SPDX-License-Identifier: Apache-2.0 */
/* From a change point of `benchrun history --changes`
 * to the `benchrun bisect` command that finds its commit (history.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "history.h"
#include "results/gitlog.h"

/* Commits on the first-parent line from run a's commit (exclusive) to run
 * b's (inclusive), read in the repository at `where`; 0 when it cannot be
 * read there or a is not on b's line. */
static size_t span_in(const char *where, const br_run *a, const br_run *b) {
    br_gitlog log;
    size_t n = 0;
    if (br_gitlog_first_parents(&log, where, a->git.sha, b->git.sha) == 0)
        n = log.n - 1;
    br_gitlog_dispose(&log);
    br_error_clear();
    return n;
}

/* " -p NAME=VALUE" for each param of case c of run r, appended to *cmd. */
static int add_params(char **cmd, const br_run *r, const br_case_result *c) {
    for (size_t p = 0; p < r->n_params; p++) {
        char val[32];
        br_format_param(val, sizeof val, c->params[p]);
        char *next = br_strfmt("%s -p %s=%s", *cmd, r->param_names[p], val);
        free(*cmd);
        if (!(*cmd = next))
            return -1;
    }
    return 0;
}

int br_history_bisect_command(char **out, size_t *span, const br_history_view *v,
                              const br_history_change *c) {
    *out = NULL;
    *span = 0;
    const br_run *a = br_history_view_run(v, c->prev), *b = br_history_view_run(v, c->run);
    if (!br_history_has_commit(a) || !br_history_has_commit(b) || a->git.dirty || b->git.dirty ||
        strcmp(a->git.sha, b->git.sha) == 0)
        return 0;
    /* Results files do not record the work tree: the repository is the
     * current directory's, or the one holding the results directory. */
    size_t n = span_in(".", a, b);
    if (n == 0 && v->h->dir)
        n = span_in(v->h->dir, a, b);
    *span = n;
    if (n < 2)
        return 0;
    size_t ci = br_history_view_cell(v, c->row, c->run)->ci;
    if (ci == BR_HISTORY_NONE)
        return 0;
    const br_case_result *cr = &b->cases[ci];
    char *cmd =
        br_strfmt("benchrun bisect %s %s %s -k %s", a->git.short_sha, b->git.short_sha,
                  b->suite_path ? b->suite_path : "SUITE.yaml", br_history_kernel_of(b, cr));
    if (!cmd || add_params(&cmd, b, cr) != 0)
        return br_error_nomem();
    *out = cmd;
    return 0;
}
