/* SPDX-License-Identifier: Apache-2.0 */
/* The parts of a sharded plan (results documents written with
 * `benchrun --shard I/N`, shardinfo.h) merged into one results document, as
 * if one machine had run the whole plan: `benchrun merge`.
 *
 * Checked, and refused with an error naming the file(s): every run of every
 * part is a part (has a "shard" record with an index); the parts have the
 * same number of shards, the same plan identity (suites and their blob ids,
 * -k, -p, the rule and the cost files), the same benchrun version, the same
 * commit (and dirty state), the same device model (the GPU's name, or none),
 * for runs with host kernels the same CPU model (unless allowed: see
 * BR_MERGE_ALLOW_MIXED_HOSTS) and, per suite, the same measurement settings, kernels, params and
 * whole plan; no two parts are the same shard; no case appears twice in a part or in a part that is
 * not its shard.
 *
 * Not refused: a missing part, a part that lacks a suite (it was stopped
 * before building it), a part that lacks a case. Such cases are in the merged
 * run, in plan order, as skipped with stage "missing" and a message naming
 * their shard; the merge says how many. */
#ifndef BR_MERGE_H
#define BR_MERGE_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One part: a results document read back (run_read.h). */
typedef struct br_merge_part {
    const char *path; /* for messages */
    br_run *runs;     /* br_merge moves cases and headers out of them; free with
                         br_results_free after the merge */
    size_t n_runs;
} br_merge_part;

/* What a merge came to. */
typedef struct br_merge_report {
    unsigned count;    /* N, shards of the plan */
    size_t n_parts;    /* parts merged */
    unsigned *missing; /* owned: shards that gave no part, ascending */
    size_t n_missing_shards;
    size_t n_cases;       /* cases of the merged runs */
    size_t n_missing;     /* of them, marked missing */
    size_t n_interrupted; /* parts stopped by a signal (their unfinished cases skipped) */
    size_t n_lost_suites; /* suites of the plan that no part has a run of: their cases
                             cannot be listed (the plan's suites name them) */
    char *lost_suite;     /* owned: the first of them, or NULL */
} br_merge_report;

/* Merge parts[0..n_parts) into a new array of runs (*out_runs, *out_n: one
 * per suite of the plan that any part has, in the order of the first part
 * that has them; release with br_results_free). Each merged run has the
 * cases of its suite's whole plan in plan order, moved from the parts (each
 * keeping its part's date when that differs from the run's, the earliest),
 * and the missing ones marked (see above); its shard record has index 0, the
 * plan's identity, the parts merged and the shards missing; figures are
 * derived again (br_run_derive); comparisons the parts carried are dropped.
 * *rep says what was missing (dispose with br_merge_report_dispose).
 * Returns 0 (also with cases missing), or -1 with the error set, kind
 * BR_E_INPUT, and nothing returned, when the parts do not belong to one plan
 * or a case appears twice. */
int br_merge_parts(br_run **out_runs, size_t *out_n, br_merge_report *rep, br_merge_part *parts,
                   size_t n_parts, unsigned flags);

/* br_merge_parts' flags: host shards (runs with host kernels) of different
 * CPU models are merged (the merged runs' shard records name the models,
 * "mixed_hosts"), where otherwise they are refused. */
#define BR_MERGE_ALLOW_MIXED_HOSTS 1u

/* Release what *rep owns and zero it; accepts NULL. */
void br_merge_report_dispose(br_merge_report *rep);

/* Whether case c of run r was marked missing by a merge. */
int br_merge_case_missing(const br_case_result *c);

#ifdef __cplusplus
}
#endif
#endif
