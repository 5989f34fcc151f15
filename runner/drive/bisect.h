/* SPDX-License-Identifier: Apache-2.0 */
/* bisect.h - the driver of `benchrun bisect GOOD BAD SUITE.yaml`: find the
 * first commit on BAD's first-parent line after GOOD where the selected
 * cases got slower (or faster), by a binary search whose every step
 * measures the commit tested against the two ends of the range left, in
 * one worker session, interleaved (gate/bisectstats.h has the rule).
 *
 * Flow: the line GOOD..BAD (results/gitlog.h); both ends checked out
 * (results/gittree.h, into <cache>/bisect/<sha>), loaded, built into the
 * compile cache and their common cases chosen; step 0 measures BAD against
 * GOOD as `benchrun ab` does (abstats.h, threshold and alpha): no change,
 * and the search stops there. Then each step checks out, builds and
 * measures the commit nearest the middle of the range left against the
 * range's ends, and classes it good, bad or undecided; a commit that does
 * not build, load or verify is skipped (git bisect skip), as is one
 * still undecided after max_blocks. The answer is the first bad commit, or
 * the range of commits the skipped ones leave. Every commit's module stays
 * in the compile cache under its own key, so a second search compiles
 * nothing. */
#ifndef BR_BISECT_H
#define BR_BISECT_H

#include <stddef.h>
#include <stdio.h>

#include "gate/abstats.h"
#include "gate/bisectstats.h"
#include "plan/run_opts.h"
#include "results/gitlog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What `benchrun bisect` asks for. */
typedef struct br_bisect_opts {
    const char *good_rev, *bad_rev; /* any revisions git understands */
    const char *suite;              /* the suite file, a path in the work tree */
    size_t blocks;                  /* rounds per look (>= 2) */
    size_t max_blocks;              /* rounds per step at most (>= blocks) */
    double threshold;               /* step 0: smallest change searched (NAN: ab's 0.5%) */
    double alpha;                   /* 1 - confidence (NAN: 0.05) */
    br_run_opts run;                /* -k, -p, the measurement overlay, jobs, cache dir, quiet */
    const char *json, *markdown;    /* outputs (NULL, a path, or "-": stdout) */
    int ascii;                      /* plain ASCII table */
    void (*before_measure)(void);   /* called once before measuring (signal handlers); or NULL */
} br_bisect_opts;

/* One step of the search. */
typedef struct br_bisect_step {
    size_t good, mid, bad; /* indices into the line; mid SIZE_MAX for step 0 (BAD vs GOOD) */
    br_bisect_class cls;   /* the midpoint's class; step 0: UNTESTED */
    br_bisect_verdict v;   /* the statistics (step 0: span alone, at the threshold) */
    double *med[3];        /* owned: per round, the medians (ns) of good end, mid, bad end
                              (step 0: med[1] NULL) */
    size_t blocks;         /* rounds measured */
    size_t left;           /* candidates for the first bad commit after the step */
    char *why;             /* owned: why skipped (the build's or block's message), or NULL */
    double wall_ns;        /* the step's wall time: checkout, build, blocks */
} br_bisect_step;

/* What a search came to. */
typedef struct br_bisect_result {
    br_gitlog log;          /* the line, GOOD first */
    br_bisect_class *state; /* per commit of the line */
    char **cases;           /* labels of the cases measured ("copy n=2^24"), owned */
    size_t n_cases;
    const char *suite;              /* as given (borrowed) */
    const char *good_rev, *bad_rev; /* as given (borrowed) */
    br_change change;               /* step 0: SLOWER or FASTER (searched), else no change */
    br_bisect_step *steps;          /* steps[0] the ends */
    size_t n_steps;
    size_t last_good, first_bad; /* the final range: found when first_bad = last_good + 1 */
    br_ab_stats answer;          /* first_bad against last_good, from the blocks of answer_step */
    size_t answer_step;          /* SIZE_MAX: none measured both */
    double threshold, alpha, look_alpha;
    size_t blocks, max_blocks;
    double wall_ns;
    int stopped; /* the signal that interrupted the search, or 0 */
} br_bisect_result;

/* What an invocation came to, for the exit status. */
typedef struct br_bisect_outcome {
    int error;        /* bad input or a failure before any answer (said on stderr): exit 2 */
    int failed;       /* an end did not build or a case failed there: exit 1 */
    int stopped;      /* the interrupting signal, or 0 */
    int write_failed; /* an output could not be written (said) */
} br_bisect_outcome;

/* Run `benchrun bisect` as o says. Bad input before anything is measured
 * (an unknown commit, GOOD not an ancestor of BAD on its first-parent line,
 * the suite or a source missing or not loading at an end, no case selected
 * at both ends, an output that cannot be written) says why on stderr,
 * writes nothing and sets out->error; an end whose case does not build or
 * fails sets out->failed, writes nothing. Otherwise prints progress on
 * stderr (unless quiet), the answer and the steps on stdout (unless an
 * output takes it) and writes --json and --markdown (atomically). The
 * scratch directories are removed in every case. Returns 0, or -1 when
 * out->error or out->failed was set. */
int br_bisect_run(br_bisect_outcome *out, const br_bisect_opts *o);

/* Release what *r owns; accepts a zeroed result. */
void br_bisect_result_dispose(br_bisect_result *r);

/* The outputs of a search (drive/bisect_report.c). Each writes r whole to
 * f and returns 0, or -1 with the error set (a write failed). */
int br_bisect_print(FILE *f, const br_bisect_result *r, int ascii);
int br_bisect_write_json(FILE *f, const br_bisect_result *r);
int br_bisect_write_markdown(FILE *f, const br_bisect_result *r);

/* The name of a class ("good", "bad", "undecided", "skipped", "untested"). */
const char *br_bisect_class_name(br_bisect_class c);

#ifdef __cplusplus
}
#endif
#endif
