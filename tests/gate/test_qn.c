/* SPDX-License-Identifier: Apache-2.0 */
/* test_qn.c - Qn by Croux and Rousseeuw's O(n log n) selection
 * (scatter.h) against the definition: every pairwise distance built and
 * sorted (the implementation before issue 43, kept here as the oracle),
 * to the last bit, on random samples of many sizes with and without ties,
 * with NANs and infinities among them; and against R's robustbase::Qn on
 * a few of R's data sets. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sort.h"
#include "changepoint_series.h"
#include "gate/scatter.h"

/* Croux and Rousseeuw's small-sample factors d_n, as scatter.h states them. */
static double oracle_factor(size_t n) {
    static const double small[] = {0, 0, 0.399, 0.994, 0.512, 0.844, 0.611, 0.857, 0.669, 0.872};
    if (n < 10)
        return small[n];
    return n % 2 ? (double)n / ((double)n + 1.4) : (double)n / ((double)n + 3.8);
}

/* Qn by its definition: the k-th smallest of all n(n-1)/2 distances of the
 * finite values, O(n^2) memory (the code before issue 43). */
static double oracle_qn(const double *x, size_t n) {
    size_t m = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    cr_assert_not_null(v);
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            v[m++] = x[i];
    double q = NAN;
    size_t pairs = m * (m - (m > 0)) / 2;
    double *dist = m >= 2 ? malloc(pairs * sizeof *dist) : NULL;
    if (dist) {
        size_t p = 0, h = m / 2 + 1, k = h * (h - 1) / 2;
        for (size_t i = 0; i < m; i++)
            for (size_t j = i + 1; j < m; j++)
                dist[p++] = fabs(v[i] - v[j]);
        qsort(dist, pairs, sizeof *dist, br_cmp_double);
        q = 2.2219 * oracle_factor(m) * dist[k - 1];
    }
    free(dist);
    free(v);
    return q;
}

/* Same bits, or both NAN. */
static void assert_same(const double *x, size_t n, const char *what) {
    double got = br_scatter_qn(x, n), want = oracle_qn(x, n);
    if (isnan(want)) {
        cr_assert(isnan(got), "%s n %zu: %.17g, want NAN", what, n, got);
        return;
    }
    cr_assert(memcmp(&got, &want, sizeof got) == 0, "%s n %zu: %.17g, want %.17g", what, n, got,
              want);
}

static series_rng rng = {0x51ED270B27B4A2C1ull};

/* A sample of n: normal (kind 0), rounded to few distinct values (1: many
 * ties), all equal but a few (2), or heavy-tailed with outliers (3). */
static void sample(double *x, size_t n, int kind) {
    for (size_t i = 0; i < n; i++) {
        double z = series_normal(&rng);
        switch (kind) {
        case 0:
            x[i] = 0.01 * z;
            break;
        case 1:
            x[i] = round(2 * z) / 8;
            break;
        case 2:
            x[i] = series_next(&rng) % 7 == 0 ? z : 1.0;
            break;
        default:
            x[i] = series_next(&rng) % 5 == 0 ? 1e3 * z : z / (0.1 + fabs(z));
            break;
        }
    }
}

Test(qn, matches_the_definition_to_the_bit_on_random_samples) {
    double *x = malloc(3001 * sizeof *x);
    cr_assert_not_null(x);
    for (size_t n = 0; n <= 80; n++)
        for (int kind = 0; kind < 4; kind++)
            for (int r = 0; r < 6; r++) {
                sample(x, n, kind);
                assert_same(x, n, "small");
            }
    const size_t big[] = {97, 128, 255, 256, 511, 1000, 1001, 2047, 3001};
    for (size_t b = 0; b < sizeof big / sizeof *big; b++)
        for (int kind = 0; kind < 4; kind++) {
            sample(x, big[b], kind);
            assert_same(x, big[b], "large");
        }
    free(x);
}

Test(qn, the_smallest_samples_and_the_values_it_skips) {
    double one[] = {3.5}, two[] = {1.0, 1.25}, three[] = {4.0, 1.0, 2.0};
    cr_assert(isnan(br_scatter_qn(one, 1)), "one value has no scale");
    cr_assert(isnan(br_scatter_qn(NULL, 0)));
    /* n = 2, 3: k = 1, the smallest distance, times d_2 = 0.399, d_3 = 0.994. */
    cr_assert_eq(br_scatter_qn(two, 2), 2.2219 * 0.399 * 0.25);
    cr_assert_eq(br_scatter_qn(three, 3), 2.2219 * 0.994 * 1.0);
    double same[40];
    for (int i = 0; i < 40; i++)
        same[i] = 7.25;
    cr_assert_eq(br_scatter_qn(same, 40), 0.0, "no scatter at all");
    double holes[] = {NAN, 4.0, INFINITY, 1.0, -INFINITY, 2.0, NAN};
    cr_assert_eq(br_scatter_qn(holes, 7), br_scatter_qn(three, 3), "non-finite values skipped");
    for (size_t n = 0; n <= 12; n++) { /* NANs mixed in, at every small size */
        double x[24];
        for (size_t i = 0; i < 2 * n; i++)
            x[i] = i % 2 ? NAN : series_normal(&rng);
        assert_same(x, 2 * n, "with NANs");
    }
}

/* R 4.2.2, robustbase 0.95-0 (Debian's r-cran-robustbase): the order
 * statistic of Qn without its factors, Qn(x, constant = 1, finite.corr =
 * FALSE), on data sets of R's `datasets` package. Qn here is that times
 * 2.2219 d_n. R's C code compares in single precision, hence precip's
 * 5.9000000953674316 and the tolerance. */
static const double women_weight[] = {115, 117, 120, 123, 126, 129, 132, 135,
                                      139, 142, 146, 150, 154, 159, 164};
static const double stack_loss[] = {42, 37, 37, 28, 18, 18, 19, 20, 15, 14, 14,
                                    13, 11, 12, 8,  7,  8,  8,  9,  15, 15};
static const double islands[] = {11506, 5500, 16988, 2968, 16, 184, 23,  280, 84, 73, 25,   43,
                                 21,    82,   3745,  840,  13, 30,  30,  89,  40, 33, 49,   14,
                                 42,    227,  16,    36,   29, 15,  306, 44,  58, 43, 9390, 32,
                                 13,    29,   6795,  16,   15, 183, 14,  26,  19, 13, 12,   82};
static const double precip[] = {
    67,   54.7, 7,    48.5, 14,   17.2, 20.7, 13,   43.4, 40.2, 38.9, 54.5, 59.8, 48.3,
    22.9, 11.5, 34.4, 35.1, 38.7, 30.8, 30.6, 43.1, 56.8, 40.8, 41.8, 42.5, 31,   31.7,
    30.2, 25.9, 49.2, 37,   35.9, 15,   30.2, 7.2,  36.2, 45.5, 7.8,  33.4, 36.1, 40.2,
    42.7, 42.5, 16.2, 39,   35,   37,   31.4, 37.6, 39.9, 36.2, 42.8, 46.4, 24.7, 49.1,
    46,   35.9, 7.8,  48.2, 15.2, 32.5, 44.7, 42.6, 38.8, 17.4, 40.8, 29.1, 14.6, 59.2};

Test(qn, agrees_with_robustbase_on_r_data_sets) {
    const struct {
        const char *name;
        const double *x;
        size_t n;
        double r_raw; /* robustbase::Qn(x, constant = 1, finite.corr = FALSE) */
    } sets[] = {
        {"women$weight", women_weight, 15, 9},
        {"stackloss$stack.loss", stack_loss, 21, 4},
        {"islands", islands, 48, 17},
        {"precip", precip, 70, 5.9000000953674316},
    };
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        double got = br_scatter_qn(sets[s].x, sets[s].n) / (2.2219 * oracle_factor(sets[s].n));
        cr_assert(fabs(got - sets[s].r_raw) <= 1e-7 * sets[s].r_raw, "%s: %.17g, R %.17g",
                  sets[s].name, got, sets[s].r_raw);
    }
}
