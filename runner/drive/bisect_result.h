/* SPDX-License-Identifier: Apache-2.0 */
/* What a search of `benchrun bisect` found (drive/bisect.h
 * makes it; drive/bisect_report.h writes it): the line of commits, each
 * one's class, the steps with their blocks' medians, and the answer. */
#ifndef BR_BISECT_RESULT_H
#define BR_BISECT_RESULT_H

#include <stddef.h>

#include "gate/abstats.h"
#include "gate/bisectstats.h"
#include "results/gitlog.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One step of the search. */
typedef struct br_bisect_step {
    size_t good, mid, bad; /* indices into the line; mid SIZE_MAX for step 0 (BAD vs GOOD) */
    br_bisect_class cls;   /* the midpoint's class; step 0: UNTESTED */
    br_bisect_verdict v;   /* the statistics (step 0: span alone, at the threshold) */
    double *med[3];        /* owned: per round, the medians (ns) of good end, mid, bad end
                              (step 0: med[1] NULL) */
    size_t blocks;         /* rounds measured */
    int partial;           /* 1: an interrupt stopped the step after `blocks` rounds; v holds what
                              they gave (ratios; step 0 its span), cls stays UNTESTED */
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

/* Release what *r owns and zero it; accepts a zeroed result. */
void br_bisect_result_dispose(br_bisect_result *r);

#ifdef __cplusplus
}
#endif
#endif
