/* SPDX-License-Identifier: Apache-2.0 */
/* Two-sided Mann-Whitney U test (see mannwhitney.h). */
#include "mannwhitney.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/sort.h"

/* Largest n_a + n_b for the exact null distribution; see mannwhitney.h. */
#define MWU_EXACT_MAX_N 50

#define MWU_SQRT2 1.41421356237309504880

/* What one merge walk over the two sorted samples finds. */
struct pooled {
    double u;        /* U of sample a, midranks (exact: a sum of half-integers) */
    double tie_sum;  /* sum over groups of tied values of t^3 - t */
    size_t n_groups; /* distinct values in the pooled sample */
    /* U of a when a holds the n_a smallest pooled values, and of b when b
     * holds the n_b smallest: half the a-b pairs tied in the group straddling
     * that boundary (0 when no group straddles it). */
    double u_a_low, u_b_low;
};

/* Half the pairs between the k pooled positions below `boundary` and the rest
 * of a group of t values starting at position `start` (0-based), when the
 * group straddles the boundary; else 0. */
static double straddle(size_t start, size_t t, size_t boundary) {
    if (start >= boundary || start + t <= boundary)
        return 0.0;
    double k = (double)(boundary - start);
    return 0.5 * k * ((double)t - k);
}

/* Walk sa[0 .. na) and sb[0 .. nb), both ascending, group by group. Each a
 * value scores the b values below it plus half those equal (Mann & Whitney's
 * U, which equals R1 - na (na + 1) / 2 with midranks). */
static void pool(struct pooled *out, const double *sa, size_t na, const double *sb, size_t nb) {
    struct pooled r = {0};
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        double v;
        if (i == na)
            v = sb[j];
        else if (j == nb)
            v = sa[i];
        else
            v = sa[i] < sb[j] ? sa[i] : sb[j];
        size_t ca = 0, cb = 0;
        while (i + ca < na && sa[i + ca] == v)
            ca++;
        while (j + cb < nb && sb[j + cb] == v)
            cb++;
        r.u += (double)ca * ((double)j + 0.5 * (double)cb);
        size_t t = ca + cb;
        double dt = (double)t;
        r.tie_sum += dt * (dt * dt - 1.0);
        r.u_a_low += straddle(i + j, t, na);
        r.u_b_low += straddle(i + j, t, nb);
        r.n_groups++;
        i += ca;
        j += cb;
    }
    *out = r;
}

/* Exact two-sided p of the integer u for sizes m, n (no ties), and the
 * smallest possible one. cnt[k][s] counts the arrangements of k a-values and
 * the b-values seen so far whose U is s; appending b-value number `nb` after
 * k a-values either puts an a last (it scores nb) or a b last (scores 0):
 *   c(k, nb, s) = c(k - 1, nb, s - nb) + c(k, nb - 1, s),
 * the recurrence of the Gaussian binomial coefficient [m + n choose m]_q.
 * The distribution of U is the same for (m, n) and (n, m), so k runs to
 * min(m, n). All counts are at most C(m + n, m) <= C(50, 25) < 2^53. Returns
 * 0, or -1 with the error set when memory runs out. */
static int exact_p(double *out_p, double *out_min_p, size_t m, size_t n, double u) {
    if (m > n) {
        size_t t = m;
        m = n;
        n = t;
    }
    const size_t smax = m * n;
    const size_t width = smax + 1;
    uint64_t *cnt = calloc((m + 1) * width, sizeof *cnt);
    if (!cnt)
        return br_error_set("out of memory for the exact Mann-Whitney distribution (%zu x %zu)", m,
                            n);
    for (size_t k = 0; k <= m; k++)
        cnt[k * width] = 1; /* no b-values yet: only U = 0 */
    for (size_t nb = 1; nb <= n; nb++) {
        for (size_t k = 1; k <= m; k++) {
            uint64_t *row = cnt + k * width;
            const uint64_t *prev = cnt + (k - 1) * width;
            /* Row k still holds nb - 1 b-values, row k - 1 already nb. */
            for (size_t s = nb; s <= k * nb; s++)
                row[s] += prev[s - nb];
        }
    }
    const uint64_t *dist = cnt + m * width;
    const size_t ui = (size_t)u;
    uint64_t total = 0, below = 0, above = 0;
    for (size_t s = 0; s <= smax; s++) {
        total += dist[s];
        if (s <= ui)
            below += dist[s];
        if (s >= ui)
            above += dist[s];
    }
    const uint64_t tail = below < above ? below : above;
    *out_p = fmin(1.0, 2.0 * (double)tail / (double)total);
    *out_min_p = fmin(1.0, 2.0 / (double)total);
    free(cnt);
    return 0;
}

/* Two-sided p of the normal approximation for a distance d = |u - mu| with
 * standard deviation sigma > 0, after the continuity correction; *out_z gets
 * the unsigned standardised statistic. */
static double normal_p(double d, double sigma, double *out_z) {
    double z = d > 0.5 ? (d - 0.5) / sigma : 0.0;
    if (out_z)
        *out_z = z;
    return fmin(1.0, erfc(z / MWU_SQRT2));
}

/* Two-sided Mann-Whitney U test; see mannwhitney.h for the method and its
 * sources. Inputs not modified; returns 0, or -1 with the error set (empty
 * sample, a sample not finite, out of memory); *out untouched on failure. */
int br_mwu_test(br_mwu *out, const double *a, size_t n_a, const double *b, size_t n_b) {
    int rc = -1;
    double *sorted = NULL;

    if (n_a == 0 || n_b == 0 || !a || !b) {
        br_error_set("Mann-Whitney test of an empty sample (%zu against %zu values)", n_a, n_b);
        goto done;
    }
    for (size_t i = 0; i < n_a; i++) {
        if (!isfinite(a[i])) {
            br_error_set("Mann-Whitney test: sample %zu of %zu in the first set is not a finite "
                         "number (%g)",
                         i, n_a, a[i]);
            goto done;
        }
    }
    for (size_t i = 0; i < n_b; i++) {
        if (!isfinite(b[i])) {
            br_error_set("Mann-Whitney test: sample %zu of %zu in the second set is not a finite "
                         "number (%g)",
                         i, n_b, b[i]);
            goto done;
        }
    }
    if (n_a > SIZE_MAX / sizeof *sorted - n_b || !(sorted = malloc((n_a + n_b) * sizeof *sorted))) {
        br_error_set("out of memory sorting %zu + %zu samples", n_a, n_b);
        goto done;
    }
    double *sa = sorted, *sb = sorted + n_a;
    memcpy(sa, a, n_a * sizeof *sa);
    memcpy(sb, b, n_b * sizeof *sb);
    qsort(sa, n_a, sizeof *sa, br_cmp_double);
    qsort(sb, n_b, sizeof *sb, br_cmp_double);

    struct pooled pl;
    pool(&pl, sa, n_a, sb, n_b);

    const double na = (double)n_a, nb = (double)n_b;
    const size_t n = n_a + n_b;
    const double dn = (double)n;
    const double mu = 0.5 * na * nb;
    br_mwu r = {.u = pl.u};

    if (pl.n_groups == n && n <= MWU_EXACT_MAX_N) {
        /* No ties, few samples: the exact null distribution. */
        r.exact = 1;
        r.z = NAN;
        if (exact_p(&r.p, &r.min_p, n_a, n_b, pl.u) != 0)
            goto done;
    } else if (pl.n_groups == 1) {
        /* Every value tied: U = mu in every arrangement, sigma = 0. */
        r.z = 0.0;
        r.p = 1.0;
        r.min_p = 1.0;
    } else {
        /* Normal approximation with the tie-corrected variance (Lehmann
         * 1975, ch. 1) and a continuity correction of 1/2, as SciPy's
         * method='asymptotic', use_continuity=True. */
        const double sigma = sqrt(na * nb / 12.0 * ((dn + 1.0) - pl.tie_sum / (dn * (dn - 1.0))));
        const double d = pl.u - mu;
        double z;
        r.p = normal_p(fabs(d), sigma, &z);
        r.z = d < 0 ? -z : z;
        /* The most extreme labelling of the same pooled values: a (or b)
         * holding the smallest values; its U is the least possible. */
        const double u_min = fmin(pl.u_a_low, pl.u_b_low);
        r.min_p = normal_p(mu - u_min, sigma, NULL);
    }
    *out = r;
    rc = 0;
done:
    free(sorted);
    return rc;
}
