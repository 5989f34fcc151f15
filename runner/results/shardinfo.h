/* SPDX-License-Identifier: Apache-2.0 */
/* shardinfo.h - a run's place in a sharded plan (`benchrun --shard I/N`):
 * which part of how many it is, the identity of the plan it is a part of,
 * and the suite's whole plan with the shard of every case, so that a merge
 * of the parts (merge.h) knows every case that should be there even when a
 * part is missing. A merged run keeps the identity and says which parts
 * were merged and which were missing. Written into and read from a run's
 * "shard" member of the results document (json_write.c, json_read.c). */
#ifndef BR_SHARDINFO_H
#define BR_SHARDINFO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "json_case.h"
#include "jsonread.h"
#include "results.h"

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
} br_run_shard;

/* Free what *s owns and s itself; accepts NULL. */
void br_run_shard_free(br_run_shard *s);

/* Release what *p owns and zero it; accepts NULL. */
void br_shard_plan_dispose(br_shard_plan *p);

/* A deep copy of *p into *out. Returns 0, or -1 (out of memory; *out
 * disposed). */
int br_shard_plan_copy(br_shard_plan *out, const br_shard_plan *p);

/* Set p->id to the git blob id of the plan's identity text: one line per
 * suite, -k glob, -p setting and times file, the rule, and "shards N".
 * Returns 0, or -1 (out of memory). */
int br_shard_plan_digest(br_shard_plan *p, unsigned count);

/* Whether a and b are the same plan; when not, *what names the first field
 * that differs ("suites", "-k", "-p", "rule", "times"). */
int br_shard_plan_same(const br_shard_plan *a, const br_shard_plan *b, const char **what);

/* Run r's "shard" member: a new object, or NULL (b->failed set) when out of
 * memory. Layout:
 *   {"index": I | null (a merge), "count": N,
 *    "plan": {"id", "suites": ["NAME@BLOBID"], "kernels": [glob], "params": ["N=[V]"],
 *             "rule": "count" | "cost", "times": [blob id]},
 *    "cases": [[kernel index, shard, param values...]] (a part: the suite's whole plan),
 *    "merged": [I...], "missing": [I...] (a merge)} */
json_t *br_shard_json_write(br_json_builder *b, const br_run *r);

/* The optional "shard" member of the run object `run` (whose kernels and
 * params are already read into r) into r->shard (newly allocated; left NULL
 * when the member is absent or null). Checked: index in 1..count or null,
 * count in 1..BR_SHARD_MAX, each plan case's kernel index, shard and one
 * integer per param. Returns 0, or -1 with the error set (jsonread.h: the
 * JSON path of the bad value). */
int br_shard_json_read(br_json_ctx *c, const json_t *run, br_run *r);

#ifdef __cplusplus
}
#endif
#endif
