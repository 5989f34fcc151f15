/* SPDX-License-Identifier: Apache-2.0 */
/* Figures that cannot be trusted, decided from the results
 * alone (pure functions, shared by every reporter and unit-tested on
 * synthetic records):
 *
 *  S  work that escapes the clock. CUDA events are recorded on the case's
 *     stream and see only the work of that stream. A `run` that launches
 *     on another stream (one of its own, the legacy default stream from a
 *     non-blocking one) or in another context, without making the case's
 *     stream wait for it, finishes "before" its work did: the event time
 *     is too short, and the GB/s and GFLOP/s built on it too high. This is
 *     how generated kernels have fooled benchmark harnesses (the Sakana "AI
 *     CUDA Engineer" results, KernelBench's reported exploits). CUPTI's
 *     operation records carry the stream and context each operation ran on
 *     (CUpti_ActivityKernel*.streamId / contextId, the same in the memcpy and
 *     memset records); the collector counts, per sample, those it attributed
 *     to the sample that ran elsewhere than the case's stream
 *     (measure/activity.h), and the timing keeps the sums
 *     (br_timing.n_other_stream, n_other_context).
 *
 *  P  faster than physics. A GB/s above the device's theoretical DRAM
 *     bandwidth is possible only from a cache: when one execution's bytes fit
 *     in L2 (br_device.l2_bytes; writes land in L2, which writes them back
 *     later, so even a flushed cold sample can beat DRAM) and the rate is
 *     under what L2 can deliver. benchrun bounds L2 bandwidth generously by
 *     BR_L2_BYTES_PER_CLK_PER_SM bytes per SM per clock at the maximum SM
 *     clock: NVIDIA's A100 whitepaper gives 5120 bytes/clk of L2 read
 *     bandwidth for 108 SMs (47.4 per SM), so 64 leaves headroom and a case
 *     above it is beyond any L2 too. GFLOP/s above the FP32 peak has no cache
 *     to explain it (a tensor-core kernel does exceed it: its FLOP are not
 *     FP32 FMA). Either way the figure is not a measurement of the work the
 *     suite declares: a wrong `bytes` or `flops`, skipped work, or S.
 *
 *  N  not converged: sampling stopped before the median was known as
 *     precisely as asked (br_timing_converged), so its figures carry more
 *     uncertainty than the run promised. The regression gate reads the same
 *     predicate (gate/drift.h): only a timing flagged N in the table is
 *     "too noisy to tell (N)" in the comparison.
 */
#ifndef BR_SUSPECT_H
#define BR_SUSPECT_H

#include <stddef.h>

#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when timing t's sampling converged: it stopped because the median was
 * known as precisely as asked: BR_STOP_CI (the median's 95% CI within
 * +-max_noise/20, measure.h), BR_STOP_CI_T (a slow steady case: the
 * t-interval of its log times within as much, and every sample too) or BR_STOP_NOISE (the CI out of
 * reach before the timeout, but stddev/mean within max_noise; also every converged stop of files
 * written before the CI rule), or BR_STOP_NONE (a file that does not say: not flagged). 0 for
 * BR_STOP_PLATEAU (the noise settled above max_noise), BR_STOP_TIMEOUT and BR_STOP_MAX_SAMPLES: the
 * N flag. A timing not taken (present 0) counts as converged (nothing to flag). The one place this
 * is decided: flags, notes and the gate read it. Pure. */
int br_timing_converged(const br_timing *t);

/* Bytes per SM per SM clock that bound L2 bandwidth (see above). */
#define BR_L2_BYTES_PER_CLK_PER_SM 64.0

/* 1 when timing t saw work that escaped its clock: operations on another
 * stream or context (t->n_other_stream + t->n_other_context > 0); 0 for a
 * timing not taken or without CUPTI (kernel_ns NULL). Pure. */
int br_suspect_escaped(const br_timing *t);

/* The L2 bandwidth bound of device d, GB/s: sm_count x
 * BR_L2_BYTES_PER_CLK_PER_SM x the maximum SM clock; NAN when either is
 * unknown. An H100 SXM (132 SMs, 1980 MHz) gives 16727 GB/s. Pure. */
double br_suspect_l2_gbps(const br_device *d);

/* What the P check found. */
typedef enum br_physics_kind {
    BR_PHYSICS_OK = 0,
    BR_PHYSICS_BANDWIDTH = 1, /* GB/s above DRAM that L2 cannot explain */
    BR_PHYSICS_COMPUTE = 2    /* GFLOP/s above the FP32 peak */
} br_physics_kind;

typedef struct br_physics {
    br_physics_kind kind;
    double achieved; /* GB/s or GFLOP/s, as kind says */
    double peak;     /* the device's theoretical DRAM GB/s, or the compute peak (GFLOP/s) of
                        the case's precision */
    double l2_gbps;  /* BANDWIDTH: br_suspect_l2_gbps (NAN when unknown) */
    int fits_l2;     /* BANDWIDTH: 1 when bytes per execution <= l2_bytes */
} br_physics;

/* The P check of a kernel moving `bytes` and doing `flops` per execution at
 * `gbps` and `gflops` (NAN when not known) on device d: BANDWIDTH when gbps
 * > d->peak_gbps and not (bytes <= d->l2_bytes and gbps <= the L2 bound);
 * else COMPUTE when gflops > d->peak_gflops; else OK. A peak that is not a
 * positive number checks nothing. Pure. */
br_physics br_suspect_physics(double bytes, double gbps, double gflops, const br_device *d);

/* The P check of case c of run r: OK unless c is a verified GPU case of a
 * run with a device (br_suspect_physics with c's figures, the compute peak
 * being c's precision's at the maximum clock, br_run_case_peak_max; the
 * device's FP32 peak for an FP32 case without one; a precision whose peak
 * is unknown checks no compute). Pure. */
br_physics br_suspect_case_physics(const br_run *r, const br_case_result *c);

#ifdef __cplusplus
}
#endif
#endif
