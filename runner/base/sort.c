/* SPDX-License-Identifier: Apache-2.0 */
/* Shared orderings and repeats by sorting (sort.h). */
#define _GNU_SOURCE /* qsort_r */
#include "sort.h"

#include <math.h>
#include <stdlib.h>

#include "error.h"

int br_cmp_double(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

/* Below this many items, every pair is compared (no memory, no sort). */
#define PAIRWISE_MAX 16

typedef struct by_item {
    br_item_cmp cmp;
    void *ctx;
} by_item;

static int cmp_index(const void *pa, const void *pb, void *p) {
    const by_item *b = p;
    size_t i = *(const size_t *)pa, j = *(const size_t *)pb;
    int c = b->cmp(i, j, b->ctx);
    return c ? c : (i > j) - (i < j);
}

size_t *br_sorted_index(size_t n, br_item_cmp cmp, void *ctx) {
    size_t *idx = n ? malloc(n * sizeof *idx) : NULL;
    if (!idx) {
        br_error_nomem();
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    by_item b = {cmp, ctx};
    qsort_r(idx, n, sizeof *idx, cmp_index, &b);
    return idx;
}

int br_find_repeat(size_t *out_again, size_t *out_first, size_t n, br_item_cmp cmp, void *ctx) {
    if (n <= PAIRWISE_MAX) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (cmp(i, j, ctx) == 0) {
                    *out_again = i;
                    *out_first = j;
                    return 1;
                }
        return 0;
    }
    size_t *idx = br_sorted_index(n, cmp, ctx);
    if (!idx)
        return -1;
    /* Equal items sit together, in index order: in each run, the second is
     * the first repeat of the run's first. The answer is the earliest such
     * second. */
    int found = 0;
    for (size_t k = 1, run = 0; k < n; k++) {
        if (cmp(idx[k], idx[run], ctx) != 0) {
            run = k;
            continue;
        }
        if (k == run + 1 && (!found || idx[k] < *out_again)) {
            *out_again = idx[k];
            *out_first = idx[run];
            found = 1;
        }
    }
    free(idx);
    return found;
}

size_t br_sorted_find(const size_t *idx, size_t n, const void *key, br_key_cmp cmp, void *ctx) {
    size_t lo = 0, hi = n; /* the first position whose item is not before key */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp(key, idx[mid], ctx) > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && cmp(key, idx[lo], ctx) == 0 ? idx[lo] : (size_t)-1;
}
