/* SPDX-License-Identifier: Apache-2.0 */
/* The centred squared log ratios of the current run: what its
 * scatter says of each case's between-run variance (method and sources in
 * scatter.h). */
#include "scatter.h"

#include <math.h>
#include <stdlib.h>

#include "base/sort.h"

/* The median of the sorted v[0..m) without its element r: of the m - 1
 * left, the mean of those at ranks floor((m - 2) / 2) and floor((m - 1) / 2),
 * a rank j of the rest being v's j below r and j + 1 from r on. */
static double median_without(const double *v, size_t m, size_t r) {
    size_t lo = (m - 2) / 2, hi = (m - 1) / 2;
    double a = v[lo < r ? lo : lo + 1], b = v[hi < r ? hi : hi + 1];
    return 0.5 * (a + b);
}

/* The rank of x in the sorted v[0..m) (one of its positions). */
static size_t rank_of(const double *v, size_t m, double x) {
    size_t lo = 0, hi = m - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void br_scatter_variances(br_scatter *out, double *e, const double *x, const double *k, size_t n) {
    out->n = out->left_out = 0;
    out->centre = NAN;
    size_t m = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        e[i] = NAN;
        if (v && isfinite(x[i]) && k[i] >= 1)
            v[m++] = x[i];
    }
    if (v && m >= BR_SCATTER_MIN_CASES) {
        qsort(v, m, sizeof *v, br_cmp_double);
        out->centre = 0.5 * (v[(m - 1) / 2] + v[m / 2]);
        for (size_t i = 0; i < n; i++) {
            if (!isfinite(x[i]) || !(k[i] >= 1))
                continue;
            double r = x[i] - median_without(v, m, rank_of(v, m, x[i]));
            e[i] = r * r * k[i] / (k[i] + 1.0);
        }
        out->n = m;
    }
    free(v);
}

void br_scatter_combine(double *out_s2, double *out_d, double s2, double d, double e) {
    int own = d >= 1 && isfinite(s2);
    if (!isfinite(e)) {
        *out_s2 = own ? s2 : NAN;
        *out_d = own ? d : 0;
        return;
    }
    *out_s2 = ((own ? d * s2 : 0.0) + e) / ((own ? d : 0.0) + 1.0);
    *out_d = (own ? d : 0.0) + 1.0;
}
