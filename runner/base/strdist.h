/* SPDX-License-Identifier: Apache-2.0 */
/* How far apart two names are, for "did you mean" suggestions
 * (unknown suite keys, unknown options). */
#ifndef BR_STRDIST_H
#define BR_STRDIST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest name compared; longer ones are BR_STRDIST_FAR apart from anything. */
#define BR_STRDIST_MAX 64
#define BR_STRDIST_FAR 1000

/* The Levenshtein distance (insertions, deletions, substitutions; Wagner and
 * Fischer's dynamic programme, one row of O(lb) memory) of a[0..la) and
 * b[0..lb); BR_STRDIST_FAR when either is longer than BR_STRDIST_MAX. */
size_t br_strdist(const char *a, size_t la, const char *b, size_t lb);

#ifdef __cplusplus
}
#endif
#endif
