/* SPDX-License-Identifier: Apache-2.0 */
/* One commit of `benchrun bisect` made ready to
 * measure: its files checked out (results/gittree.h), its suite loaded and
 * planned (plan/job.h), the searched cases found in its plan. */
#ifndef BR_BISECT_COMMIT_H
#define BR_BISECT_COMMIT_H

#include <stddef.h>

#include "plan/job.h"
#include "results/gittree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A commit's build. */
typedef struct br_bisect_commit {
    br_gittree tree; /* the checkout (lock_fd -1 and dir NULL before) */
    char *file;      /* owned: the suite file in the checkout */
    br_job job;      /* prepared (and built, when built) */
    int prepared;    /* job was prepared (dispose it) */
    int built;       /* the session built it */
    size_t *case_of; /* owned: per searched case, its index in job's plan */
} br_bisect_commit;

/* Check out commit `sha` of the repository holding `suite` under
 * scratch_root, find the suite there and prepare its job with `run`.
 * Returns 0, or -1 with the error set, its paths in the checkout written as
 * "LABEL:PATH" ("1a2b3c4:suite.yaml:2:9: source 'k.c' does not exist";
 * "1a2b3c4:suite.yaml: no such file at this commit"). Dispose *c with
 * br_bisect_commit_dispose in either case. */
int br_bisect_commit_prepare(br_bisect_commit *c, const char *suite, const char *sha,
                             const char *label, const char *scratch_root, const br_run_opts *run);

/* The identity of case i of a prepared job: the kernel and its parameter
 * values, names sorted ("copy\x1fn=1024"), so the same case matches across
 * commits whatever the params' order. Caller frees; NULL out of memory. */
char *br_bisect_case_key(const br_job *job, size_t i);

/* The label of case i as reports show it: "copy n=2^24 b=256" in the
 * suite's param order. Caller frees; NULL out of memory. */
char *br_bisect_case_label(const br_job *job, size_t i);

/* Find each of keys[0..n) in c's plan: c->case_of. Returns 0, or -1 with
 * the error set ("case 'LABEL' is not planned at this commit"). */
int br_bisect_commit_match(br_bisect_commit *c, char *const *keys, size_t n);

/* Release what *c owns, remove its checkout, and zero it; accepts a
 * zeroed commit (whose tree's lock_fd is 0: set -1 first, or use
 * br_bisect_commit_init). */
void br_bisect_commit_dispose(br_bisect_commit *c);

/* *c with nothing in it. */
void br_bisect_commit_init(br_bisect_commit *c);

#ifdef __cplusplus
}
#endif
#endif
