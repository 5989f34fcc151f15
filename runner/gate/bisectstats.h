/* SPDX-License-Identifier: Apache-2.0 */
/* The statistics of `benchrun bisect`: is a commit between
 * a good and a bad one (times G and B, B the slower for a slowdown) good or
 * bad, from blocks measured interleaved in one session.
 *
 * Each round measures the three builds once each, in the order G M B, the
 * next round B M G, and so on (M the commit tested, the midpoint). Round k
 * gives three block medians g_k, m_k, b_k (ns; with several cases, the
 * geometric mean of the cases' medians) and one log-ratio of M against the
 * geometric middle of the ends:
 *   d_k = ln(m_k / sqrt(g_k b_k)) = (ln(m_k / g_k) - ln(b_k / m_k)) / 2,
 * half the difference of M's log-distance to G and to B. M is closer to G
 * (in log time) exactly when the mean of d is below 0 for a slowdown
 * (above 0 for a speedup). Because M is measured between G and B in every
 * round, drift that is linear over a round cancels from each d_k (its
 * effect on the middle block is the mean of its effect on the outer two).
 *
 * Rule: the paired t interval of the mean of d (Student 1908; the
 * geometric-mean ratio and interval of abstats.h, with old_med[k] =
 * sqrt(g_k b_k) and new_med[k] = m_k):
 *   slowdown (B > G):  interval wholly below 1 -> M is GOOD (closer to G)
 *                      interval wholly above 1 -> M is BAD  (closer to B)
 *                      interval holds 1        -> UNDECIDED
 *   speedup (B < G):   the same with the sides swapped.
 * d_k is a linear contrast (2 ln M - ln G - ln B) / 2 of the three
 * builds in a block design with one block per round (Montgomery, Design
 * and Analysis of Experiments, "The Randomized Complete Block Design" and
 * its contrasts), tested with the one-sample t of abstats.h; it asks
 * whether |ln(M/G)| and |ln(M/B)| are equal, paired by round. (Chromium's
 * Pinpoint, which repeats A/B runs at each commit of a bisection, compares
 * neighbouring commits for a difference instead.) When M is truly at one
 * end, the chance of classing it with the other is at most alpha/2, and
 * falls fast as the step grows against the noise.
 *
 * More blocks when undecided: the caller measures `blocks` rounds, looks,
 * and while the answer is UNDECIDED measures `blocks` more, up to
 * `max_blocks` rounds. Each look tests at alpha / looks, where looks =
 * ceil(max_blocks / blocks) (Bonferroni over the looks), so the chance of
 * a wrong class over every look of one step stays at most alpha/2. */
#ifndef BR_BISECTSTATS_H
#define BR_BISECTSTATS_H

#include <stddef.h>

#include "abstats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a commit of the search is. Names in drive/bisect_report.c. */
typedef enum br_bisect_class {
    BR_BISECT_UNTESTED = 0, /* not measured (yet) */
    BR_BISECT_GOOD,         /* closer to the good end */
    BR_BISECT_BAD,          /* closer to the bad end */
    BR_BISECT_UNDECIDED,    /* the blocks could not tell, up to the bound */
    BR_BISECT_SKIPPED       /* did not build, load or verify (git bisect skip) */
} br_bisect_class;

/* The statistics of one midpoint. */
typedef struct br_bisect_verdict {
    br_ab_stats span;    /* B / G */
    br_ab_stats to_good; /* M / G */
    br_ab_stats to_bad;  /* M / B */
    br_ab_stats middle;  /* M / sqrt(G B): the rule's test (at the look's alpha) */
    double position;     /* ln(M/G) / ln(B/G) over the rounds: 0 at G, 1 at B; NAN when
                            B/G is 1 */
    br_bisect_class cls; /* GOOD, BAD or UNDECIDED */
} br_bisect_verdict;

/* Class a midpoint from n rounds: good[k], mid[k], bad[k] the medians (ns,
 * > 0) of round k. slower: 1 when the bad end is the slower (a
 * slowdown is searched), 0 for a speedup. look_alpha: the level of this
 * look (br_bisect_look_alpha); the other intervals are at ci_alpha (0.05:
 * 95%). Returns 0, or -1 with the error set (a median that is not a
 * positive number, levels out of range). */
int br_bisect_classify(br_bisect_verdict *out, const double *good, const double *mid,
                       const double *bad, size_t n, int slower, double look_alpha, double ci_alpha);

/* The level of each look (rule above): alpha / ceil(max_blocks / blocks);
 * blocks >= 1, max_blocks >= blocks. NAN when out of range. */
double br_bisect_look_alpha(double alpha, size_t blocks, size_t max_blocks);

#ifdef __cplusplus
}
#endif
#endif
