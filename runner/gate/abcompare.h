/* SPDX-License-Identifier: Apache-2.0 */
/* The comparison of `benchrun ab`: NEW's run against OLD's,
 * case by case, from the interleaved blocks' medians, with the statistics
 * and rules of abstats.h, as a br_comparison that the reporters show. */
#ifndef BR_ABCOMPARE_H
#define BR_ABCOMPARE_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One case of OLD's run paired with the same case (kernel and parameter
 * values) of NEW's, and what its blocks came to. */
typedef struct br_ab_case {
    size_t old_case, new_case; /* indices into the jobs' plans and the runs' cases */
    /* Per block pair k < n_pairs, the headline median (ns) of OLD's block
     * and of NEW's (drive/ab.h fills them); owned: free both. */
    double *old_med, *new_med;
    size_t n_pairs;
    /* An interrupt stopped the case's blocks: the block pairs asked for (more
     * than n_pairs, the pairs finished, which are compared and marked
     * partial); 0 for a case whose blocks all ran. */
    size_t partial_of;
} br_ab_case;

/* Compare cur (NEW) with old (OLD) into *out (dispose with
 * br_comparison_dispose, also after a failure): one entry per case of cur in
 * run order, then one per case of old that has no partner. A paired case
 * measured on both sides is decided by br_ab_stats_compute with `threshold`
 * and `alpha`; its medians are the sides' pooled headline medians, its
 * change ratio - 1, its p-value the paired t test's; a case whose blocks an
 * interrupt cut short (partial_of) says so in its why ("partial, 2 of 6
 * block pairs (interrupted)", then the test's own reason). A case skipped for
 * want of a GPU is not compared (br_compare_skipped_no_gpu, as the gate
 * does); another paired case not measured on both sides is unknown (why:
 * failed or skipped, and where); a case of cur without a partner is new,
 * one of old missing. info (moved
 * into out->ab; NULL leaves it unset) says what the sides were;
 * old_label names OLD in out->baseline_path (its revision as given).
 * Returns 0, or -1 with the error set (out of memory, rules out of range). */
int br_ab_compare(br_comparison *out, const br_run *old, const br_run *cur, const br_ab_case *cases,
                  size_t n, double threshold, double alpha, const char *old_label,
                  br_ab_info *info);

#ifdef __cplusplus
}
#endif
#endif
