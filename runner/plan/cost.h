/* SPDX-License-Identifier: Apache-2.0 */
/* What a case costs to measure, for the longest-first orders of
 * --shard (shard.h) and --devices (drive/devices.h): one definition for
 * both.
 *
 *  - Measured: the case's wall time in an earlier results file or baseline,
 *    from its plan to its result (br_case_wall.total_ns: setup, verify,
 *    warmup, sampling, teardown and the exchange with the worker), else,
 *    in files written before that was recorded, the wall time of its
 *    warmup and sampling, else its samples' total time.
 *  - Estimated: its declared work, bytes + flops (1 when it declares none).
 *    Among measured cases, an unmeasured one costs its work times the
 *    median time per unit of work of the measured cases that declare work,
 *    else the median measured time.
 */
#ifndef BR_PLAN_COST_H
#define BR_PLAN_COST_H

#include <stddef.h>

#include "job.h"
#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The measured cost of case c, ns (see the header); NAN when c did not end
 * ok or holds no time. */
double br_cost_measured(const br_case_result *c);

/* The estimated cost of case i of job: bytes + flops per execution, 1 when
 * the case declares neither (any unit: only the order counts). */
double br_cost_declared(const struct br_job *job, size_t i);

/* Complete the costs of n cases: cost[i] a measured time (ns) or NAN
 * (unknown), work[i] the declared work (br_cost_declared, > 0). Unknown
 * costs become work[i] times the median of cost/work over the known ones
 * (ns per unit of work), or the median known cost when none declares work
 * (work 1 everywhere). With no known cost, cost[i] = work[i]. Returns the
 * number of known costs (0: the order is by declared work), or -1 with the
 * error set (out of memory). */
long br_cost_fill(double *cost, const double *work, size_t n);

#ifdef __cplusplus
}
#endif
#endif
