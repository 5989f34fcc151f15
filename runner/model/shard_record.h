/* SPDX-License-Identifier: Apache-2.0 */
/* A run's place in a sharded plan (`benchrun --shard I/N`): the
 * types of the shard record that a run carries (br_run.shard) and their
 * memory. Its identity, JSON and merge live in results/ (shardinfo.h,
 * merge.h); the cut of a plan into shards in plan/shard.h. */
#ifndef BR_MODEL_SHARD_RECORD_H
#define BR_MODEL_SHARD_RECORD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most shards a plan is cut into. */
#define BR_SHARD_MAX 10000u

/* What every part of one plan shares: the same invocation on the same
 * tree. With the run's own benchrun_version, git commit, device and
 * measurement settings, it is what `benchrun merge` checks. */
typedef struct br_shard_plan {
    char id[41];   /* git blob id (SHA-1) of the identity text: br_shard_plan_digest */
    char **suites; /* owned: "NAME@BLOBID" of every suite of the invocation, sorted */
    size_t n_suites;
    char **kernels; /* owned: the -k globs, in the order given */
    size_t n_kernels;
    char **params; /* owned: the -p settings as "NAME=[V,V,...]", in the order given */
    size_t n_params;
    int by_cost;  /* 1: balanced by measured cost (LPT); 0: by count */
    char **times; /* owned: blob ids of the files the costs came from (--shard-times) */
    size_t n_times;
} br_shard_plan;

/* A run's shard record (br_run.shard). */
typedef struct br_run_shard {
    unsigned index; /* 1..count: the part this run is; 0: a merge of the parts */
    unsigned count; /* N, the number of parts of the plan */
    br_shard_plan plan;
    /* A part: the suite's whole plan (every shard's cases), in plan order. */
    size_t n_plan;
    size_t *plan_kernel;  /* owned: per plan case, index into the run's kernels */
    unsigned *plan_shard; /* owned: per plan case, its shard (1..count) */
    int64_t *plan_params; /* owned: n_plan x the run's n_params values, row-major */
    /* A merge: the parts merged and the parts that gave no results, ascending. */
    unsigned *merged;
    size_t n_merged;
    unsigned *missing;
    size_t n_missing;
    /* A merge of host shards run on different CPU models (merged only when
     * asked, --allow-mixed-hosts): the models, in the order met; owned. */
    char **mixed_hosts;
    size_t n_mixed_hosts;
} br_run_shard;

/* Free what *s owns and s itself; accepts NULL. */
void br_run_shard_free(br_run_shard *s);

/* Release what *p owns and zero it; accepts NULL. */
void br_shard_plan_dispose(br_shard_plan *p);

/* A deep copy of *p into *out. Returns 0, or -1 (out of memory; *out
 * disposed). */
int br_shard_plan_copy(br_shard_plan *out, const br_shard_plan *p);

#ifdef __cplusplus
}
#endif
#endif
