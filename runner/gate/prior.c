/* SPDX-License-Identifier: Apache-2.0 */
/* The empirical-Bayes prior of the between-run variances and
 * the moderated variance (method and sources in prior.h). */
#include "prior.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/stats.h"
#include "tdist.h"

/* Search range of ln d0 for the maximum likelihood (d0 from 0.1 to 10^4;
 * past 10^4 the scaled F is the scaled chi-square to 1e-4, and infinity is
 * tried on its own). */
#define LN_D0_LO (-2.302585092994046) /* ln 0.1 */
#define LN_D0_HI 9.210340371976184    /* ln 1e4 */

/* One usable case: variance s2 (> 0 after the floor), degrees of freedom d
 * (>= 1), covariate z (standardized). */
typedef struct obs {
    double s2, d, z;
} obs;

/* Case i's variance is usable: at least one degree of freedom, finite, >= 0,
 * and a finite covariate. */
static int usable(const double *s2, const double *d, const double *c, size_t i) {
    return d[i] >= 1 && isfinite(s2[i]) && s2[i] >= 0 && isfinite(c[i]);
}

/* ---- the likelihood of the scaled F distribution ---------------------------------- */

/* Under the prior, s2 / s0^2 ~ F(d, d0) (Smyth 2004, section 3; Wright and
 * Simon 2003, section 2). The log-likelihood of the variances r[i] (already
 * divided by the trend) at d0 (INFINITY: the scaled chi-square) and ln s0^2. */
static double loglik(const obs *o, const double *r, size_t m, double d0, double ls0) {
    double l = 0, s0 = exp(ls0), lg_half_d0 = isinf(d0) ? 0 : lgamma(0.5 * d0);
    /* The lgamma terms depend on d_i alone, and the cases share a few d_i (the
     * saves less one): kept from the case before while its d_i repeats. */
    double last_d = NAN, lg_terms = 0;
    for (size_t i = 0; i < m; i++) {
        double h = 0.5 * o[i].d, y = r[i] / s0;
        if (o[i].d != last_d) {
            last_d = o[i].d;
            lg_terms = isinf(d0)
                           ? h * log(h) - lgamma(h)
                           : lgamma(h + 0.5 * d0) - lgamma(h) - lg_half_d0 + h * log(o[i].d / d0);
        }
        if (isinf(d0))
            l += lg_terms + (h - 1) * log(y) - h * y - ls0;
        else
            l += lg_terms + (h - 1) * log(y) - (h + 0.5 * d0) * log1p(o[i].d * y / d0) - ls0;
    }
    return l;
}

/* The score of ln s0^2 at L for d0 (finite), into *f, and its derivative
 * into *df: f = sum_i (h_i + d0/2) u_i - h_i, u_i = q_i / (1 + q_i), q_i =
 * d_i r_i e^-L / d0, so df = -sum_i (h_i + d0/2) u_i (1 - u_i) < 0. */
static void score_ls0(double *f, double *df, const obs *o, const double *r, size_t m, double d0,
                      double L) {
    double s0 = exp(L), sf = 0, sdf = 0;
    for (size_t i = 0; i < m; i++) {
        double q = o[i].d * r[i] / s0 / d0, u = q / (1.0 + q), w = 0.5 * o[i].d + 0.5 * d0;
        sf += w * u - 0.5 * o[i].d;
        sdf -= w * u * (1.0 - u);
    }
    *f = sf;
    *df = sdf;
}

/* The ln s0^2 that maximizes the likelihood at d0: the root of the score
 * (score_ls0), which falls as ln s0^2 grows; by Newton's steps from the
 * pooled variance sum h_i r_i / sum h_i (the root when d0 is infinite), kept
 * inside a bracket the score's sign narrows and bisecting when a step leaves
 * it (as t_upper in tdist.c), to 1e-9 in ln s0^2: some 4-8 passes over the
 * cases where bisection took some 35. */
static double best_ls0(const obs *o, const double *r, size_t m, double d0) {
    double hr = 0, hs = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        hr += 0.5 * o[i].d * r[i];
        hs += 0.5 * o[i].d;
        lo = fmin(lo, log(r[i]));
        hi = fmax(hi, log(r[i]));
    }
    double x = log(hr / hs);
    if (isinf(d0))
        return x;
    lo -= 1.0; /* the root lies within the variances' range, widened */
    hi += 1.0;
    if (!(x > lo && x < hi))
        x = 0.5 * (lo + hi);
    for (int it = 0; it < 100 && hi - lo > 1e-9; it++) {
        double f, df;
        score_ls0(&f, &df, o, r, m, d0, x);
        if (f > 0)
            lo = x;
        else
            hi = x;
        double next = df < 0 ? x - f / df : NAN;
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - x) <= 1e-10)
            return next;
        x = next;
    }
    return x;
}

/* The maximum likelihood (d0, ln s0^2) of the variances r[0..m) into *d0 and
 * *ls0: golden-section search on ln d0 with ln s0^2 profiled out, and d0 =
 * infinity when that is likelier. Returns the log-likelihood. */
static double fit_f(const obs *o, const double *r, size_t m, double *d0, double *ls0) {
    const double g = 0.6180339887498949;
    double a = LN_D0_LO, b = LN_D0_HI;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    double f1 = loglik(o, r, m, exp(x1), best_ls0(o, r, m, exp(x1)));
    double f2 = loglik(o, r, m, exp(x2), best_ls0(o, r, m, exp(x2)));
    for (int it = 0; it < 48 && b - a > 1e-4; it++) {
        if (f1 > f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - g * (b - a);
            f1 = loglik(o, r, m, exp(x1), best_ls0(o, r, m, exp(x1)));
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + g * (b - a);
            f2 = loglik(o, r, m, exp(x2), best_ls0(o, r, m, exp(x2)));
        }
    }
    double x = f1 > f2 ? x1 : x2, fx = fmax(f1, f2);
    double inf_ls0 = best_ls0(o, r, m, INFINITY), finf = loglik(o, r, m, INFINITY, inf_ls0);
    if (finf >= fx) {
        *d0 = INFINITY;
        *ls0 = inf_ls0;
        return finf;
    }
    *d0 = exp(x);
    *ls0 = best_ls0(o, r, m, *d0);
    return loglik(o, r, m, *d0, *ls0);
}

/* ---- the trend ---------------------------------------------------------------------- */

/* Least squares of y on 1, z, ..., z^deg (deg <= 2): the inverse of the
 * normal equations' matrix X'X into inv (by Gauss-Jordan elimination with
 * partial pivoting; its leading deg + 1 rows and columns) and the
 * coefficients into coef[0..deg]. Returns 0, or -1 when X'X is singular
 * (fewer distinct z than coefficients). */
static int least_squares(double *coef, double inv[3][3], const obs *o, const double *y, size_t m,
                         int deg) {
    int p = deg + 1;
    double a[3][7] = {{0}}; /* [X'X | I | X'y] */
    for (size_t i = 0; i < m; i++) {
        double pw[3] = {1.0, o[i].z, o[i].z * o[i].z};
        for (int r = 0; r < p; r++) {
            for (int c = 0; c < p; c++)
                a[r][c] += pw[r] * pw[c];
            a[r][2 * p] += pw[r] * y[i];
        }
    }
    for (int r = 0; r < p; r++)
        a[r][p + r] = 1.0;
    for (int c = 0; c < p; c++) {
        int piv = c;
        for (int r = c + 1; r < p; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c]))
                piv = r;
        if (!(fabs(a[piv][c]) > 1e-9 * (double)m))
            return -1;
        for (int k = 0; k <= 2 * p; k++) {
            double t = a[c][k];
            a[c][k] = a[piv][k];
            a[piv][k] = t;
        }
        double d = a[c][c];
        for (int k = 0; k <= 2 * p; k++)
            a[c][k] /= d;
        for (int r = 0; r < p; r++) {
            double f = r == c ? 0 : a[r][c];
            for (int k = 0; k <= 2 * p; k++)
                a[r][k] -= f * a[c][k];
        }
    }
    for (int r = 0; r < p; r++) {
        coef[r] = a[r][2 * p];
        for (int c = 0; c < p; c++)
            inv[r][c] = a[r][p + c];
    }
    return 0;
}

static double poly(const double *coef, int deg, double z) {
    return coef[0] + (deg >= 1 ? coef[1] * z : 0) + (deg >= 2 ? coef[2] * z * z : 0);
}

/* ---- fitting -------------------------------------------------------------------------- */

/* The usable cases as observations (variances floored, covariate
 * standardized into p->c_mean, p->c_sd, p->c_lo, p->c_hi). Returns the
 * count; NULL *out when out of memory. */
static size_t gather(obs **out, br_prior *p, const double *s2, const double *d, const double *c,
                     size_t n) {
    size_t m = 0;
    obs *o = malloc((n ? n : 1) * sizeof *o);
    double *v = malloc((n ? n : 1) * sizeof *v);
    *out = NULL;
    if (!o || !v) {
        free(o);
        free(v);
        return 0;
    }
    double sum = 0, ss = 0;
    p->c_lo = INFINITY;
    p->c_hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (!usable(s2, d, c, i))
            continue;
        o[m] = (obs){s2[i], d[i], c[i]};
        v[m++] = s2[i];
        sum += c[i];
        p->c_lo = fmin(p->c_lo, c[i]);
        p->c_hi = fmax(p->c_hi, c[i]);
    }
    /* limma's floor: zero variances count as 1e-5 of the median. */
    double med = m ? br_stats_finite_median(v, m) : NAN;
    double lowest = 1e-5 * (med > 0 ? med : 1.0);
    p->c_mean = m ? sum / (double)m : 0;
    for (size_t i = 0; i < m; i++) {
        o[i].s2 = fmax(o[i].s2, lowest);
        ss += (o[i].z - p->c_mean) * (o[i].z - p->c_mean);
    }
    p->c_sd = m > 1 && ss > 0 ? sqrt(ss / (double)(m - 1)) : 1.0;
    for (size_t i = 0; i < m; i++)
        o[i].z = (o[i].z - p->c_mean) / p->c_sd;
    free(v);
    *out = o;
    return m;
}

/* The prior with a trend of degree deg into *cand (its fields but n), and
 * the BIC of that fit; INFINITY when it cannot be fitted. y and r are
 * scratch of m values. */
static double fit_degree(br_prior *cand, const obs *o, size_t m, int deg, double *y, double *r) {
    for (size_t i = 0; i < m; i++) {
        double h = 0.5 * o[i].d; /* E ln s^2 = ln sigma^2 + psi(h) - ln h */
        y[i] = log(o[i].s2) - br_digamma(h) + log(h);
    }
    memset(cand->coef, 0, sizeof cand->coef);
    memset(cand->xtx_inv, 0, sizeof cand->xtx_inv);
    if (least_squares(cand->coef, cand->xtx_inv, o, y, m, deg) != 0)
        return INFINITY;
    for (size_t i = 0; i < m; i++)
        r[i] = o[i].s2 / exp(poly(cand->coef, deg, o[i].z));
    double ls0;
    double l = fit_f(o, r, m, &cand->d0, &ls0);
    cand->coef[0] += ls0; /* s0^2 at z: exp(poly(z)) */
    cand->degree = deg;
    double sd = 0;
    for (size_t i = 0; i < m; i++)
        sd += o[i].d;
    cand->dbar = sd / (double)m;
    cand->m = (double)m;
    return -2.0 * l + (double)(deg + 2) * log((double)m);
}

void br_prior_fit(br_prior *out, const double *s2, const double *d, const double *c, size_t n) {
    memset(out, 0, sizeof *out);
    out->d0 = 0;
    obs *o;
    size_t m = gather(&o, out, s2, d, c, n);
    double *y = malloc((m ? m : 1) * sizeof *y), *r = malloc((m ? m : 1) * sizeof *r);
    if (o && y && r && m >= BR_PRIOR_MIN_CASES) {
        double best = INFINITY;
        for (int deg = 0;
             deg <= 2 && (deg == 0 || (size_t)(deg + 1) * BR_PRIOR_CASES_PER_TERM <= m); deg++) {
            br_prior cand = *out;
            double bic = fit_degree(&cand, o, m, deg, y, r);
            if (bic < best) {
                best = bic;
                *out = cand;
            }
        }
        if (isfinite(best))
            out->n = m;
    }
    if (out->n == 0)
        out->d0 = 0;
    free(o);
    free(y);
    free(r);
}

void br_prior_pooled(br_prior *out, const double *s2, const double *d, size_t n) {
    memset(out, 0, sizeof *out);
    double ss = 0, sd = 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(d[i] >= 1) || !isfinite(s2[i]) || !(s2[i] >= 0))
            continue;
        ss += d[i] * s2[i];
        sd += d[i];
        m++;
    }
    if (m == 0 || !(ss > 0))
        return;
    out->n = m;
    out->d0 = INFINITY;
    out->coef[0] = log(ss / sd);
    out->c_sd = 1.0; /* no trend: every covariate is z = 0 */
    out->xtx_inv[0][0] = 1.0 / (double)m;
    out->dbar = sd / (double)m; /* br_prior_df: 2 / (2 / (dbar m)) = sum d */
    out->m = (double)m;
}

/* The standardized covariate of c, clamped to the fitted range. */
static double zof(const br_prior *p, double c) {
    double z = (fmin(fmax(c, p->c_lo), p->c_hi) - p->c_mean) / p->c_sd;
    return isfinite(z) ? z : 0;
}

double br_prior_s0sq(const br_prior *p, double c) {
    return p->n ? exp(poly(p->coef, p->degree, zof(p, c))) : NAN;
}

double br_prior_df(const br_prior *p, double c) {
    if (p->n == 0)
        return 0;
    double z = zof(p, c), x[3] = {1.0, z, z * z}, h = 0;
    for (int r = 0; r <= p->degree; r++)
        for (int k = 0; k <= p->degree; k++)
            h += x[r] * p->xtx_inv[r][k] * x[k];
    /* The variance of the fitted ln s0^2(c): its level is the likelihood's
     * pooled estimate (2 / sum d), its shape the least squares' (leverage
     * beyond the mean's, h - 1/m, times the variance psi'(d/2) of ln s^2),
     * and the prior's own scatter psi'(d0/2) enters through all of it. */
    double v = 2.0 / (p->dbar * p->m) + fmax(h - 1.0 / p->m, 0) * br_trigamma(0.5 * p->dbar);
    if (!isinf(p->d0))
        v += h * br_trigamma(0.5 * p->d0);
    double nu = v > 0 ? 2.0 / v : INFINITY;
    return isinf(p->d0) ? nu : 1.0 / (1.0 / p->d0 + 1.0 / nu);
}

void br_prior_moderate(double *out_var, double *out_df, const br_prior *p, double s2, double d,
                       double c) {
    int own = d >= 1 && isfinite(s2) && s2 >= 0;
    if (p->n == 0) {
        *out_var = own ? s2 : NAN;
        *out_df = own ? d : 0;
        return;
    }
    if (!own)
        d = 0;
    double s0sq = br_prior_s0sq(p, c), d0 = br_prior_df(p, c);
    *out_var = (d0 * s0sq + (own ? d * s2 : 0)) / (d0 + d);
    *out_df = d0 + d;
}
