/* SPDX-License-Identifier: Apache-2.0 */
/* A run's place in a sharded plan (`benchrun --shard I/N`):
 * which part of how many it is, the identity of the plan it is a part of,
 * and the suite's whole plan with the shard of every case, so that a merge
 * of the parts (merge.h) knows every case that should be there even when a
 * part is missing. A merged run keeps the identity and says which parts
 * were merged and which were missing. Written into and read from a run's
 * "shard" member of the results document (run_write.c, run_read.c). */
#ifndef BR_SHARDINFO_H
#define BR_SHARDINFO_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "case_json.h"
#include "json_checked.h"
#include "model/run.h"
#include "model/shard_record.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 * integer per param. Returns 0, or -1 with the error set (json_checked.h: the
 * JSON path of the bad value). */
int br_shard_json_read(br_json_ctx *c, const json_t *run, br_run *r);

#ifdef __cplusplus
}
#endif
#endif
