/* SPDX-License-Identifier: Apache-2.0 */
/* What a results directory already holds for `benchrun run-range`:
 * the commits each suite was run at, read from the results files there
 * (results/run_read.h), so that a range that was interrupted, or run again
 * with another step, measures only the commits it lacks. A run counts for
 * its commit when its work tree was clean (a dirty run measured other
 * code) and its suite path is the one asked for (as given, normalised). */
#ifndef BR_RANGE_DONE_H
#define BR_RANGE_DONE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The (commit, suite) pairs of a directory's results files. */
typedef struct br_range_done {
    char (*sha)[41]; /* owned: full SHAs */
    char **suite;    /* owned: the runs' suite paths, normalised */
    size_t n;
} br_range_done;

/* Read every *.json file directly in `dir` into *out (dispose with
 * br_range_done_dispose, also after a failure). A directory that does not
 * exist yet holds nothing; a file that is not a results document is passed
 * over (benchrun history names it). Returns 0, or -1 with the error set
 * (a directory that cannot be read, out of memory). */
int br_range_done_read(br_range_done *out, const char *dir);

/* Whether d holds a run of every suite of suites[0..n) (paths as given) at
 * commit `sha` (40 hex digits). Returns 1 or 0. */
int br_range_done_has(const br_range_done *d, const char *sha, const char *const *suites, size_t n);

/* Note in d that every suite of suites[0..n) was run at `sha`. Returns 0,
 * or -1 with the error set (out of memory). */
int br_range_done_add(br_range_done *d, const char *sha, const char *const *suites, size_t n);

/* Release what *d owns and zero it; accepts a zeroed one. */
void br_range_done_dispose(br_range_done *d);

#ifdef __cplusplus
}
#endif
#endif
