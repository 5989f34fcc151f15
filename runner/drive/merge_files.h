/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun merge` does: the parts of a sharded plan
 * (each written by benchrun --shard I/N --json PART.json) read, merged into
 * one results document (results/merge.h) and written. */
#ifndef BR_MERGE_FILES_H
#define BR_MERGE_FILES_H

#include <stddef.h>

/* Where the merged document goes (at least one of the two). */
typedef struct br_merge_opts {
    const char *output;      /* -o FILE: written atomically; NULL: not */
    const char *results_dir; /* --results-dir DIR: DIR/<date>-<commit>.json; NULL: not */
    int quiet;               /* only errors on stderr */
    int allow_mixed_hosts;   /* merge host shards of different CPU models (said, and recorded
                                in the merged file's shard record) */
} br_merge_opts;

/* Read the parts paths[0..n) (a path that does not exist is a shard that
 * gave nothing: said, unless quiet), merge them and write the merged
 * document where o says; say the cases missing (at most 10 named), shards
 * that gave nothing, suites lost, parts interrupted, and (unless quiet) a
 * summary line. Messages on stderr as "benchrun merge: ...". Returns the
 * exit status: 0 every case of the plan is there and none failed; 1 a case
 * is missing or failed, or the output could not be written (the merged
 * file is written whenever the parts agree); 2 bad input: a part that
 * cannot be read, parts of different plans, a case twice (nothing
 * written). */
int br_merge_files(const br_merge_opts *o, const char *const *paths, size_t n);

#endif
