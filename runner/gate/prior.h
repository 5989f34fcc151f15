/* SPDX-License-Identifier: Apache-2.0 */
/* Borrowing strength across the cases of a suite: the
 * empirical-Bayes prior of the between-run variances, and each case's
 * variance moderated toward it.
 *
 * A baseline holds few run medians per case (k saves: d = k - 1 degrees of
 * freedom) but many cases. On its own, a case's sample variance s^2 of the
 * logs of its run medians is so unsure that Student's t with d = 2 puts the
 * 99% interval at 9.9 standard deviations. The model of limma's moderated
 * t statistic (G. K. Smyth, "Linear models and empirical Bayes methods for
 * assessing differential expression in microarray experiments", Stat. Appl.
 * Genet. Mol. Biol. 3(1), 2004, article 3) treats the cases' true variances
 * as drawn from a scaled inverse chi-square distribution,
 *
 *   1 / sigma^2 ~ chi^2(d0) / (d0 s0^2),   s^2 | sigma^2 ~ sigma^2 chi^2(d) / d,
 *
 * so that s^2 / s0^2 follows the F distribution F(d, d0), and moderates each
 * case's variance toward s0^2:
 *
 *   s~^2 = (d0 s0^2 + d s^2) / (d0 + d).
 *
 * Under the model a statistic built on s~^2 follows Student's t with d0 + d
 * degrees of freedom (Smyth 2004, section 3); a case with no spread of its
 * own (one save, d = 0) gets s0^2 on d0 degrees of freedom (the prior
 * predictive). d0 infinite means the variances do not scatter beyond
 * sampling: every case gets s0^2, on the normal distribution.
 *
 * How benchrun fits the prior (br_prior_fit), and why:
 *   - A trend in the covariate c = ln(median time), as limma's
 *     eBayes(trend = TRUE) fits s0^2 as a function of each gene's mean
 *     (C. W. Law, Y. Chen, W. Shi and G. K. Smyth, Genome Biology 15:R29,
 *     2014, "limma-trend"): a rerun moves a 5 us GPU kernel by 3-5% and a
 *     1 ms one by 0.1-0.5% (docs/baselines.md), so one s0^2 for both would
 *     pull the short kernels' spread down and break the false-alarm bound
 *     where it matters. ln s0^2(c) is a polynomial of degree 0, 1 or 2 in
 *     the standardized c, fitted by least squares to the bias-corrected
 *     ln s^2 - psi(d/2) + ln(d/2) (Smyth 2004, section 6.2; psi the
 *     digamma function, tdist.h), evaluated at c clamped to the fitted
 *     cases' range. A degree needs BR_PRIOR_CASES_PER_TERM cases per
 *     coefficient; the one with the least BIC (G. Schwarz, Ann. Statist.
 *     6(2), 1978) of the F likelihood below is kept.
 *   - d0 and the level of s0^2 by maximum likelihood of the scaled F
 *     distribution of the variances divided by the trend, as the random
 *     variance model of G. W. Wright and R. M. Simon (Bioinformatics
 *     19(18):2448-2455, 2003) fits its inverse-gamma prior: ln s0^2
 *     profiled out (the root of its score equation), ln d0 by golden-section
 *     search over [0.1, 10^4], and d0 infinite when that is likelier. In a
 *     simulation of 36 cases with one true spread the likelihood's d0
 *     loses 0.3 points of the power the threshold leaves (95.45% for a 3%
 *     step on 0.5% spread, 3 saves: 95.17% caught, tests/gate/test_prior.c),
 *     where Smyth's moment estimator lost 1.4.
 *   - A case whose s^2 is 0 (its run medians equal, as a coarse clock can
 *     give) counts as 1e-5 times the median s^2, as limma's fitFDist does
 *     (Bioconductor limma, R/fitFDist.R). */
#ifndef BR_PRIOR_H
#define BR_PRIOR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fewest cases with a spread of their own (d >= 1) that a prior is
 * fitted to: a scale and a shape need more than two. */
#define BR_PRIOR_MIN_CASES 3
/* Cases per coefficient of the trend before that degree is tried: a line
 * from 12 cases, a parabola from 18. */
#define BR_PRIOR_CASES_PER_TERM 6

/* A fitted prior. */
typedef struct br_prior {
    size_t n;             /* cases it was fitted to; 0: none (fewer than BR_PRIOR_MIN_CASES) */
    double d0;            /* prior degrees of freedom, > 0; INFINITY: the variances do not scatter
                             beyond sampling; 0 when n is 0 */
    int degree;           /* of the trend of ln s0^2 in the standardized covariate: 0, 1 or 2 */
    double coef[3];       /* its coefficients, constant first */
    double c_mean, c_sd;  /* the covariate is standardized as (c - c_mean) / c_sd */
    double c_lo, c_hi;    /* the fitted cases' covariate range; others are clamped to it */
    double xtx_inv[3][3]; /* (X'X)^-1 of the trend's least squares: the leverage of a covariate */
    double dbar, m;       /* the fitted cases' mean d, and their count */
} br_prior;

/* Fit the prior to n cases (method above): s2[i] the sample variance of
 * case i's log run medians on d[i] degrees of freedom, c[i] its covariate
 * (ln of its median time). Cases with d[i] < 1, s2[i] not a finite number
 * >= 0 or c[i] not finite are left out. Fewer than BR_PRIOR_MIN_CASES left,
 * or out of memory: p->n is 0 (no prior). Never fails. */
void br_prior_fit(br_prior *out, const double *s2, const double *d, const double *c, size_t n);

/* The pooled variance of the few cases that have one (fewer than
 * BR_PRIOR_MIN_CASES, too few for a fit): sum d[i] s2[i] / sum d[i] over
 * the cases with d[i] >= 1 and s2[i] finite and >= 0, as a prior of no
 * trend and infinite d0 (every case the same variance) whose
 * br_prior_df is sum d[i]: the textbook pooled variance, tested on its
 * summed degrees of freedom. p->n is 0 when no case has a variance. Pure. */
void br_prior_pooled(br_prior *out, const double *s2, const double *d, size_t n);

/* s0^2 of prior p at covariate c (clamped to the fitted range); NAN when
 * p->n is 0. Pure. */
double br_prior_s0sq(const br_prior *p, double c);

/* The degrees of freedom the prior is worth at covariate c: d0 combined
 * with the precision of s0^2(c) itself, which was estimated from a few
 * dozen cases, not known. The fitted ln s0^2(c) has variance h(c) tau2
 * (h the leverage x'(X'X)^-1 x of the least squares), and ln of a variance
 * on nu degrees of freedom has variance about 2/nu, so s0^2(c) is worth
 * nu(c) = 2 / (h(c) tau2) degrees of freedom (the approximation of F. E.
 * Satterthwaite, Biometrics Bulletin 2(6), 1946, on the log scale); with
 * no trend and d0 infinite that is the pooled variance's sum of d. The
 * two combine as 1 / (1/d0 + 1/nu(c)): the prior predictive's and the
 * estimate's variances of ln s0^2 add. 0 when p->n is 0. Pure. */
double br_prior_df(const br_prior *p, double c);

/* A case's variance s2 on d >= 0 degrees of freedom at covariate c,
 * moderated by prior p: with d0' = br_prior_df(p, c),
 * (d0' s0^2(c) + d s2) / (d0' + d) into *out_var and d0' + d into *out_df.
 * A case without a usable s2 (d < 1) gets s0^2(c) on d0'. Without a prior
 * (p->n == 0) the case's own: s2 on d (NAN and 0 when d < 1). Pure. */
void br_prior_moderate(double *out_var, double *out_df, const br_prior *p, double s2, double d,
                       double c);

#ifdef __cplusplus
}
#endif
#endif
