/* SPDX-License-Identifier: Apache-2.0 */
/* `--shard I/N`: the I-th of N parts of an invocation's plan (every
 * suite given), chosen by a rule that depends on nothing but the cases (and
 * their measured costs, when given), so that every machine that runs the
 * same invocation cuts it the same way, whatever order the suites are given
 * in and however the parts are launched.
 *
 * The rule. Every case of every suite gets a key: the FNV-1a 64-bit hash of
 * "suite name, kernel name, param=value..." (params in suite order), ties
 * broken by the suite name and the case's place in its suite's plan.
 *   - By count (no costs known): the cases sorted by key are dealt out in
 *     turn, shard 1, 2, ..., N, 1, ...: shard sizes differ by at most one.
 *   - By cost (a results file or baseline given with --shard-times measured
 *     some of the cases; a case's cost is its measured wall time, cost.h):
 *     longest processing time first (LPT; Graham 1969):
 *     the cases sorted by cost, largest first (ties by key), each to the
 *     shard with the least cost so far (ties: the lowest shard). The largest
 *     shard is within 4/3 - 1/(3N) of the best possible split. A case the
 *     files do not give costs the median of the costs they do give.
 * Shards are numbered 1 to N. */
#ifndef BR_PLAN_SHARD_H
#define BR_PLAN_SHARD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "job.h"
#include "results/shardinfo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What --shard and --shard-times ask for; a zeroed struct: no sharding. */
typedef struct br_shard_opts {
    unsigned index; /* 1..count; 0: the whole plan */
    unsigned count;
    const char **times; /* results files or baselines whose measured times are the costs */
    size_t n_times;
} br_shard_opts;

/* Parse "I/N" (1 <= I <= N <= BR_SHARD_MAX, decimal) into *index and
 * *count. Returns 0, or -1 with the error set ("--shard 0/4: shards are
 * numbered 1 to 4"). */
int br_shard_parse(unsigned *index, unsigned *count, const char *text);

/* The key of a case: FNV-1a 64 (Fowler, Noll, Vo) of the suite name, the
 * kernel name and "name=value" of each param, each followed by a NUL byte. */
uint64_t br_shard_key(const char *suite, const char *kernel, const char *const *param_names,
                      const int64_t *values, size_t n_params);

/* Cut n cases into `count` shards: shard[i] (1..count) for case i, from its
 * key keys[i] and, by cost (costs not NULL), its cost costs[i] (any unit, >=
 * 0; NAN: unknown, taken as the median of the known ones). `tie[i]` orders
 * cases of equal key (and cost): the suite name then the plan index, as
 * the caller ranks them (any distinct numbers). Pure: the same inputs in
 * any order give each case the same shard. Returns 0, or -1 (out of
 * memory). */
int br_shard_assign(unsigned *shard, const uint64_t *keys, const double *costs, const uint64_t *tie,
                    size_t n, unsigned count);

/* Apply o to the prepared jobs[0..n_jobs) (o->index 0: nothing): read the
 * cost files, give every case of every job its shard, keep in each job's
 * plan (and its bytes, flops and memory) only the cases of shard o->index,
 * and set each job's shard record (job->shard: the plan's identity, built
 * from the jobs and ro's -k and -p, and the job's whole plan with every
 * case's shard). Refused: two suites of one name (a merge matches runs by
 * name). Returns 0, or -1 with the error set (a cost file that cannot be
 * read names itself). */
int br_shard_select(br_job *jobs, size_t n_jobs, const br_shard_opts *o, const br_run_opts *ro);

/* For --list: one line on f after the plan of the shard, from the jobs'
 * shard records: "shard I/N (by count|cost, plan ID): X of Y case(s); per
 * shard: a b c ...". Nothing when the jobs are not sharded. */
void br_shard_list_summary(FILE *f, const br_job *jobs, size_t n_jobs);

/* The measured cost of each case of each job (ns, costs[j][0..jobs[j].plan.
 * n_cases); NAN for a case the files do not measure; plan/cost.h), read
 * once from results files or baselines files[0..n_files) as --shard-times
 * reads them: by suite name, kernel and parameters; a later file wins. For
 * --devices' order. Returns 0, or -1 with the error set (a file that
 * cannot be read names itself). */
int br_shard_jobs_costs(double *const *costs, const char *const *files, size_t n_files,
                        const br_job *jobs, size_t n_jobs);

#ifdef __cplusplus
}
#endif
#endif
