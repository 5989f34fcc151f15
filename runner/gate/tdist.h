/* SPDX-License-Identifier: Apache-2.0 */
/* tdist.h - Student's t and the standard normal distribution: the CDF and
 * quantiles the regression gate's prediction interval needs (drift.h). */
#ifndef BR_TDIST_H
#define BR_TDIST_H

#ifdef __cplusplus
extern "C" {
#endif

/* P(T <= t) for Student's t with df > 0 degrees of freedom (df need not be
 * an integer): 1 - I_x(df/2, 1/2) / 2 for t >= 0 with x = df / (df + t^2),
 * I the regularized incomplete beta function (Abramowitz & Stegun 26.7.1 and
 * 26.5.27), evaluated by its continued fraction with the modified Lentz
 * method (Press et al., Numerical Recipes, 3rd ed., 2007, section 6.4;
 * DLMF 8.17.22). Accurate to about 1e-13 absolute. t = +-inf gives 1 or 0;
 * NAN for NAN t or df <= 0. */
double br_tdist_cdf(double t, double df);

/* The p-quantile of Student's t with df > 0 degrees of freedom: the t with
 * br_tdist_cdf(t, df) = p, found by bracketing and bisection on the CDF (to
 * a relative 1e-12). NAN unless 0 < p < 1 and df > 0. Checked against
 * SciPy's scipy.stats.t.ppf in tests/results/test_tdist.c. */
double br_tdist_quantile(double p, double df);

/* The p-quantile of the standard normal distribution (0 < p < 1; NAN
 * otherwise), by bisection on 0.5 erfc(-x / sqrt 2) to a relative 1e-12. */
double br_normal_quantile(double p);

#ifdef __cplusplus
}
#endif
#endif
