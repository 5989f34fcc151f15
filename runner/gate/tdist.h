/* SPDX-License-Identifier: Apache-2.0 */
/* Student's t and the standard normal distribution: the CDF and
 * quantiles the regression gate's prediction interval (drift.h) and
 * `benchrun ab`'s interval (abstats.h) need; and the digamma and trigamma
 * functions the empirical-Bayes prior of the between-run variances is
 * fitted with (prior.h). */
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
 * br_tdist_cdf(t, df) = p, found by bracketing and Newton's steps on the
 * CDF kept inside the bracket (to a relative 1e-12). NAN unless 0 < p < 1 and df > 0. Checked
 * against SciPy's scipy.stats.t.ppf in tests/gate/test_tdist.c. The last few (p, df) asked for on a
 * thread are remembered. */
double br_tdist_quantile(double p, double df);

/* The p-quantile of the standard normal distribution (0 < p < 1; NAN
 * otherwise), by Newton's steps on 0.5 erfc(-x / sqrt 2) kept inside a
 * bracket, to a relative 1e-12; the last few p asked for on a thread are
 * remembered (with br_tdist_quantile's). */
double br_normal_quantile(double p);

/* The digamma function psi(x) = d/dx ln Gamma(x), x > 0: the recurrence
 * psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic series
 * (Abramowitz & Stegun 6.3.18) to 1e-13 relative. NAN for x <= 0 or NAN. */
double br_digamma(double x);

/* The trigamma function psi'(x), x > 0: the recurrence psi'(x) =
 * psi'(x + 1) + 1/x^2 up to x >= 10, then the asymptotic series (Abramowitz
 * & Stegun 6.4.12). NAN for x <= 0 or NAN. */
double br_trigamma(double x);

/* The x > 0 with br_trigamma(x) = y, y > 0: Newton's method on 1/psi'(x)
 * from x = 0.5 + 1/y, as limma's trigammaInverse (G. K. Smyth, Stat. Appl.
 * Genet. Mol. Biol. 3(1), 2004, art. 3, appendix; Bioconductor limma,
 * R/fitFDist.R), to 1e-10 relative; 1/sqrt(y) for y > 1e7 and 1/y for
 * y < 1e-6, where psi'(x) is 1/x^2 or 1/x to double precision. NAN unless
 * y > 0. */
double br_trigamma_inverse(double y);

#ifdef __cplusplus
}
#endif
#endif
