/* SPDX-License-Identifier: Apache-2.0 */
/* The orderings and the sort-then-scan search for repeats that the
 * modules share: one comparison of doubles for qsort, and the first item
 * that repeats an earlier one in O(n log n) rather than by comparing every
 * pair. */
#ifndef BR_SORT_H
#define BR_SORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* qsort comparison of two doubles: ascending, every NaN after every number
 * (so the order is total and a sort of data with NaNs is well defined). */
int br_cmp_double(const void *a, const void *b);

/* Compares items i and j of a collection the caller knows (through ctx):
 * <0, 0 or >0 as qsort's comparison. */
typedef int (*br_item_cmp)(size_t i, size_t j, void *ctx);

/* The first item of 0..n-1, in that order, equal (cmp == 0) to an earlier
 * one: its index in *out_again and the earliest equal item's in *out_first.
 * Sorts an array of n indices (O(n log n) comparisons; small n compare every
 * pair, without memory). Returns 1 when one is found, 0 when all differ, -1
 * when out of memory (error set). */
int br_find_repeat(size_t *out_again, size_t *out_first, size_t n, br_item_cmp cmp, void *ctx);

/* The indices 0..n-1 sorted by cmp (ties by index): for a binary search
 * with br_sorted_find. Caller frees; NULL (error set) when out of memory or
 * n is 0. */
size_t *br_sorted_index(size_t n, br_item_cmp cmp, void *ctx);

/* Compares a key (ctx's) with item i: <0, 0 or >0 as the key sorts before,
 * equal to or after item i. */
typedef int (*br_key_cmp)(const void *key, size_t i, void *ctx);

/* The first item (lowest index) of the sorted index idx[0..n) equal to
 * `key`, or (size_t)-1 when none is. O(log n). */
size_t br_sorted_find(const size_t *idx, size_t n, const void *key, br_key_cmp cmp, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
