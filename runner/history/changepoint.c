/* SPDX-License-Identifier: Apache-2.0 */
/* changepoint.c - E-divisive means over one series: the q-statistic of
 * every split in O(m^2), the permutation test, recursive bisection and the
 * step floor (the method and its sources are in changepoint.h). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"

void br_changepoint_defaults(br_changepoint_cfg *cfg) {
    cfg->alpha = BR_CHANGEPOINT_ALPHA;
    cfg->permutations = BR_CHANGEPOINT_PERMUTATIONS;
    cfg->min_size = BR_CHANGEPOINT_MIN_SIZE;
    cfg->min_step = BR_CHANGEPOINT_MIN_STEP;
    cfg->seed = BR_CHANGEPOINT_SEED;
}

/* ---- the PRNG: splitmix64 (Steele, Lea & Flood, "Fast Splittable
 * Pseudorandom Number Generators", OOPSLA 2014) ------------------------------- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A uniform integer in [0, bound) (bound >= 1), by rejection: no modulo bias. */
static size_t rng_below(uint64_t *s, size_t bound) {
    uint64_t b = (uint64_t)bound, floor = (UINT64_MAX - b + 1) % b, r;
    do
        r = rng_next(s);
    while (r < floor);
    return (size_t)(r % b);
}

/* Fisher-Yates shuffle of v[0..n). */
static void shuffle(double *v, size_t n, uint64_t *s) {
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(s, i);
        double t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* ---- the q-statistic ------------------------------------------------------------------- */

/* With D(i, j) = |y_i - y_j|, local indices and X = [0, tau), Y = [tau, kappa):
 *   sxx[t]  = sum over i < j < t of D          (the pairs within [0, t))
 *   h[t]    = sum over t < j < kappa of D(t, j), kept up to date as kappa grows
 *             (the same pass adds column kappa - 1 to sxx)
 *   syy     = sum over tau <= i < j < kappa of D, built as tau falls: syy += h[tau]
 *   sxy     = sxx[kappa] - sxx[tau] - syy        (every other pair of [0, kappa))
 * and, with n = tau and m = kappa - tau, Q = n m / (n + m) E is
 *   2 / (n + m) * (sxy - m sxx[tau] / (n - 1) - n syy / (m - 1))
 * (a within term is 0 for one value: inv[0] = 0), so that every (tau,
 * kappa) costs a few multiplications after O(m) per kappa. */
double br_changepoint_best_split(size_t *tau, const double *y, size_t m, size_t min_size,
                                 double *scratch) {
    double best = -INFINITY;
    *tau = 0;
    if (min_size < 1 || m < 2 * min_size)
        return best;
    double *sxx = scratch, *h = scratch + m + 1, *inv = scratch + 2 * m + 1;
    inv[0] = 0.0;
    for (size_t k = 1; k <= m; k++)
        inv[k] = 1.0 / (double)k;
    sxx[0] = 0.0;
    for (size_t kappa = 1; kappa <= m; kappa++) {
        double col = 0.0, yk = y[kappa - 1];
        for (size_t t = 0; t + 1 < kappa; t++) {
            double d = fabs(y[t] - yk);
            h[t] += d;
            col += d;
        }
        h[kappa - 1] = 0.0;
        sxx[kappa] = sxx[kappa - 1] + col;
        if (kappa < 2 * min_size)
            continue;
        double syy = 0.0, all = sxx[kappa];
        for (size_t t = kappa - 1; t >= min_size; t--) {
            syy += h[t];
            size_t nx = t, ny = kappa - t;
            if (ny < min_size)
                continue;
            double sx = sxx[t], nxd = (double)nx, nyd = (double)ny;
            double q = 2.0 * inv[kappa] *
                       (all - sx - syy - nyd * sx * inv[nx - 1] - nxd * syy * inv[ny - 1]);
            if (q > best) {
                best = q;
                *tau = t;
            }
        }
    }
    return best;
}

/* ---- the search -------------------------------------------------------------------------- */

/* The state of one search: the finite values, scaled, and the segments. */
typedef struct search {
    const br_changepoint_cfg *cfg;
    double *y;      /* the finite values, scaled (compact) */
    size_t m;       /* their number */
    size_t *cut;    /* segment starts: cut[0] = 0 < cut[1] < ... < cut[n_cut - 1]; owned */
    double *cand_q; /* per segment: its best q (NAN: not computed yet) */
    size_t *cand_t; /* per segment: its best tau, relative to the segment */
    double *pv;     /* per cut: the p-value of its split (cut[0]: unused) */
    double *qv;     /* per cut: its q (scaled) */
    size_t n_cut;
    double *work;    /* m: a permuted copy of y */
    double *scratch; /* 3 m + 2 */
    uint64_t rng;
} search;

static size_t seg_end(const search *s, size_t k) {
    return k + 1 < s->n_cut ? s->cut[k + 1] : s->m;
}

/* The segment whose candidate has the largest q into *best; 0 when no
 * segment can be split. */
static int best_candidate(size_t *best, search *s) {
    int any = 0;
    for (size_t k = 0; k < s->n_cut; k++) {
        if (isnan(s->cand_q[k]))
            s->cand_q[k] =
                br_changepoint_best_split(&s->cand_t[k], s->y + s->cut[k],
                                          seg_end(s, k) - s->cut[k], s->cfg->min_size, s->scratch);
        if (!isfinite(s->cand_q[k]))
            continue;
        if (!any || s->cand_q[k] > s->cand_q[*best])
            *best = k;
        any = 1;
    }
    return any;
}

/* The permutation p-value of q_obs under the current segments. Stops early
 * once the p-value cannot reach alpha (then it is a lower bound > alpha). */
static double permutation_p(search *s, double q_obs) {
    const br_changepoint_cfg *cfg = s->cfg;
    size_t r = cfg->permutations, hits = 0;
    double tol = 1e-12 * (fabs(q_obs) + 1.0);
    memcpy(s->work, s->y, s->m * sizeof *s->work);
    size_t done = 0;
    while (done < r) {
        double q_max = -INFINITY;
        for (size_t k = 0; k < s->n_cut; k++) {
            size_t a = s->cut[k], len = seg_end(s, k) - a, t;
            shuffle(s->work + a, len, &s->rng);
            double q = br_changepoint_best_split(&t, s->work + a, len, cfg->min_size, s->scratch);
            q_max = q > q_max ? q : q_max;
        }
        done++;
        hits += q_max >= q_obs - tol;
        if ((double)(1 + hits) / (double)(r + 1) > cfg->alpha)
            break;
    }
    return (double)(1 + hits) / (double)(r + 1);
}

/* Split segment k at its candidate: insert the cut with its p and q. */
static void split_segment(search *s, size_t k, double p) {
    size_t at = k + 1, c = s->cut[k] + s->cand_t[k];
    size_t move = s->n_cut - at;
    memmove(&s->cut[at + 1], &s->cut[at], move * sizeof *s->cut);
    memmove(&s->cand_q[at + 1], &s->cand_q[at], move * sizeof *s->cand_q);
    memmove(&s->cand_t[at + 1], &s->cand_t[at], move * sizeof *s->cand_t);
    memmove(&s->pv[at + 1], &s->pv[at], move * sizeof *s->pv);
    memmove(&s->qv[at + 1], &s->qv[at], move * sizeof *s->qv);
    s->qv[at] = s->cand_q[k];
    s->cut[at] = c;
    s->pv[at] = p;
    s->cand_q[k] = NAN;
    s->cand_q[at] = NAN;
    s->n_cut++;
}

/* Recursive bisection: split while the best candidate is significant. */
static void bisect(search *s) {
    size_t k = 0;
    while (best_candidate(&k, s)) {
        double p = permutation_p(s, s->cand_q[k]);
        if (p > s->cfg->alpha)
            break;
        split_segment(s, k, p);
    }
}

/* ---- levels, the step floor, the result -------------------------------------------- */

/* The median of v[0..n) (n >= 1, finite; sorted in place); the mean of the
 * two middle values, halved first so that it cannot overflow. */
static double median_of(double *v, size_t n) {
    qsort(v, n, sizeof *v, br_cmp_double);
    return n % 2 ? v[n / 2] : v[n / 2 - 1] / 2 + v[n / 2] / 2;
}

/* The median of the x values with compacted indices [a, b) (a < b). */
static double level(const double *x, const size_t *idx, size_t a, size_t b, double *tmp) {
    for (size_t i = a; i < b; i++)
        tmp[i - a] = x[idx[i]];
    return median_of(tmp, b - a);
}

/* The levels and steps of cps[0..n) (compacted indices in .index). */
static void levels(br_changepoint *cps, size_t n, const double *x, const size_t *idx, size_t m,
                   double *tmp) {
    for (size_t k = 0; k < n; k++) {
        size_t a = k ? cps[k - 1].index : 0, c = cps[k].index, b = k + 1 < n ? cps[k + 1].index : m;
        cps[k].before = level(x, idx, a, c, tmp);
        cps[k].after = level(x, idx, c, b, tmp);
        double lv = cps[k].before; /* (after - before) / |before|, without overflow */
        cps[k].step = lv != 0 ? cps[k].after / fabs(lv) - (lv > 0 ? 1.0 : -1.0) : NAN;
    }
}

/* Drop the change point of smallest |step| under min_step until none is left. */
static size_t floor_steps(br_changepoint *cps, size_t n, double min_step, const double *x,
                          const size_t *idx, size_t m, double *tmp) {
    for (;;) {
        levels(cps, n, x, idx, m, tmp);
        size_t weakest = n;
        for (size_t k = 0; k < n; k++) {
            if (isnan(cps[k].step) || fabs(cps[k].step) >= min_step)
                continue;
            if (weakest == n || fabs(cps[k].step) < fabs(cps[weakest].step))
                weakest = k;
        }
        if (weakest == n)
            return n;
        memmove(&cps[weakest], &cps[weakest + 1], (n - weakest - 1) * sizeof *cps);
        n--;
    }
}

static int cfg_check(const br_changepoint_cfg *c) {
    if (!(c->alpha > 0 && c->alpha < 1))
        return br_error_set("change points: the significance level must be in (0, 1), got %g",
                            c->alpha);
    if (c->permutations < 1 || c->permutations > 1000000)
        return br_error_set("change points: permutations must be in [1, 1000000], got %zu",
                            c->permutations);
    if (c->min_size < 1 || c->min_size > 1000000)
        return br_error_set("change points: the minimum segment must be 1 to 1000000 values, got "
                            "%zu",
                            c->min_size);
    if (!(c->min_step >= 0) || !isfinite(c->min_step))
        return br_error_set("change points: the minimum step must be >= 0, got %g", c->min_step);
    return 0;
}

/* The finite values of x into s->y, scaled into [-2, 2]: divided by the
 * largest |value|, then less their median (no difference can overflow);
 * their indices into idx. Returns the scale (the largest |value|), or 0
 * for a constant series or none. */
static double compact(search *s, size_t *idx, const double *x, size_t n) {
    double scale = 0;
    s->m = 0;
    for (size_t i = 0; i < n; i++) {
        if (isfinite(x[i])) {
            idx[s->m] = i;
            s->y[s->m++] = x[i];
            scale = fmax(scale, fabs(x[i]));
        }
    }
    if (!(scale > 0))
        return 0;
    int constant = 1;
    for (size_t i = 0; i < s->m; i++) {
        s->y[i] /= scale;
        s->work[i] = s->y[i];
        constant &= x[idx[i]] == x[idx[0]];
    }
    if (constant)
        return 0;
    double med = median_of(s->work, s->m);
    for (size_t i = 0; i < s->m; i++)
        s->y[i] -= med;
    return scale;
}

/* The cuts of s (after cut[0]) as change points into *out. */
static int collect(br_changepoint **out, size_t *n_out, const search *s, const double *x,
                   const size_t *idx, double scale) {
    size_t n = s->n_cut - 1;
    br_changepoint *cps = calloc(n + 1, sizeof *cps);
    if (!cps)
        return br_error_nomem();
    for (size_t k = 0; k < n; k++) {
        cps[k].index = s->cut[k + 1];
        cps[k].p = s->pv[k + 1];
        cps[k].q = s->qv[k + 1] * scale;
    }
    n = floor_steps(cps, n, s->cfg->min_step, x, idx, s->m, s->work);
    for (size_t k = 0; k < n; k++) {
        cps[k].last = idx[cps[k].index - 1];
        cps[k].index = idx[cps[k].index];
    }
    if (n == 0) {
        free(cps);
        cps = NULL;
    }
    *out = cps;
    *n_out = n;
    return 0;
}

int br_changepoint_find(br_changepoint **out, size_t *n_out, const double *x, size_t n,
                        const br_changepoint_cfg *cfg) {
    br_changepoint_cfg defaults;
    *out = NULL;
    *n_out = 0;
    if (!cfg) {
        br_changepoint_defaults(&defaults);
        cfg = &defaults;
    }
    if (cfg_check(cfg) != 0)
        return -1;
    if (n < 2 * cfg->min_size)
        return 0;
    search s = {.cfg = cfg, .rng = cfg->seed};
    size_t *idx = malloc(n * sizeof *idx);
    s.y = malloc(n * sizeof *s.y);
    s.work = malloc(n * sizeof *s.work);
    s.scratch = malloc((3 * n + 2) * sizeof *s.scratch);
    s.cut = malloc((n + 1) * sizeof *s.cut);
    s.cand_q = malloc((n + 1) * sizeof *s.cand_q);
    s.cand_t = malloc((n + 1) * sizeof *s.cand_t);
    s.pv = malloc((n + 1) * sizeof *s.pv);
    s.qv = malloc((n + 1) * sizeof *s.qv);
    int rc = -1;
    if (!idx || !s.y || !s.work || !s.scratch || !s.cut || !s.cand_q || !s.cand_t || !s.pv ||
        !s.qv) {
        br_error_nomem();
        goto done;
    }
    double scale = compact(&s, idx, x, n);
    s.cut[0] = 0;
    s.cand_q[0] = NAN;
    s.n_cut = 1;
    if (scale > 0 && s.m >= 2 * cfg->min_size)
        bisect(&s);
    rc = collect(out, n_out, &s, x, idx, scale);
done:
    free(idx);
    free(s.y);
    free(s.work);
    free(s.scratch);
    free(s.cut);
    free(s.cand_q);
    free(s.cand_t);
    free(s.pv);
    free(s.qv);
    return rc;
}
