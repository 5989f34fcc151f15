/* SPDX-License-Identifier: Apache-2.0 */
/* The measurement loop of the timing core, the same for every
 * timer backend: warmup by a time budget, then samples until the stopping
 * criterion holds, with throttled samples discarded.
 *
 * The stopping criterion (br_stopper) is checked after every kept sample:
 *   1. once at least cfg.min_samples samples (and never fewer than 6, the
 *      fewest for which a distribution-free 95% confidence interval of the
 *      median exists) and cfg.min_time_ns of measured (timed) time are in:
 *        "ci"       the 95% confidence interval of the median (Conover 1999,
 *                   stats.h: order statistics, no assumption on the
 *                   distribution) is within +-max_ci of the median, or
 *                   within one tick of the clock where that is wider:
 *                   max(median - low, high - median) <= max(max_ci x median,
 *                   tick), with max_ci = cfg.max_noise / BR_CI_PER_NOISE
 *                   (0.5% at the default max_noise of 10%) and the three
 *                   values rounded to the tick first. The tick is the
 *                   clock's resolution per execution (br_timer_ops.tick over
 *                   the executions per sample): a GPU clock reads in steps
 *                   of 32 ns on an H100, which is 1% of a 3 us kernel, so
 *                   an interval of +-0.5% would ask for a median known
 *                   more finely than the clock can tell;
 *      When the interval cannot get there in time (at the pace so far and
 *      with the interval narrowing as 1/sqrt(n), reaching max_ci would take
 *      longer than the timeout left: a long kernel with a few % of noise, or
 *      samples made long by a flush):
 *        "noise"    the relative standard deviation (stddev / mean) is at
 *                   most cfg.max_noise (the rule before the interval);
 *        "plateau"  the noise has settled above it: over the last
 *                   BR_PLATEAU_WINDOW samples its estimate moved by less than
 *                   BR_PLATEAU_TOL of its value;
 *   1b. "ci_t"      a slow, steady case, by Stein's (1945) two-stage
 *                   procedure on the log times (checked after "ci", before
 *                   the fallbacks). Stage 1: the first BR_CI_T_MIN_N kept
 *                   samples give s0, the standard deviation of their logs;
 *                   it sets the count N = max(BR_CI_T_MIN_N, min_samples
 *                   where that is above its default of 6, ceil((t(0.975,
 *                   BR_CI_T_MIN_N - 1) s0 / ln(1 + ci_goal))^2)). At N kept
 *                   samples, and at N only, stop when
 *                     (s) slow: at the pace so far (wall time per kept
 *                         sample), the max(6, min_samples) samples the
 *                         distribution-free interval needs would take
 *                         longer than min(cfg.timeout_ns, BR_CI_T_CAP_NS),
 *                         and min_time is in;
 *                     (a) spread check: every kept sample lies within the
 *                         goal of their median: max(median - min, max -
 *                         median) <= ci_goal x median (what "ci" asks of
 *                         the first 6 samples, whose interval is their
 *                         range).
 *                   The interval is exp(ybar +- t s0 / sqrt(N)), ybar the
 *                   mean log of the N samples (br_stats_log_t_ci), within
 *                   +-ci_goal by the choice of N. Under the log-normal model
 *                   of a steady kernel's times the median is exp(mu)
 *                   (Olsson 2005, stats.h) and Stein's interval covers it
 *                   with probability 95% exactly, whatever sigma; the rule
 *                   states it only on some of the runs where the procedure
 *                   ends, so the chance that a run stops on "ci_t" with an
 *                   interval that misses the median is at most 5%. A "ci_t"
 *                   median is known to the same max_ci as a "ci" one. With 3
 *                   to 5 samples no test of the model has power; (a) is the
 *                   check: a sample off by more than the goal (an outlier,
 *                   a second mode) refuses the rule, and the case goes on
 *                   to the distribution-free rule (as does one that is not
 *                   slow at N). The JSON states the interval ("ci_method":
 *                   "log-t");
 *   2. "max_samples" cfg.max_samples samples are kept;
 *   3. "timeout"     cfg.timeout_ns of wall time has passed since sampling
 *                    began (checked after every sample, kept or not).
 * So a slow kernel that repeats to 0.1% stops after 6 samples (once
 * min_time is in), or after 3 when its 6 would take over a second, a fast noisy one keeps sampling
 * until its median is known to max_ci, and a heavy-tailed stream (a trivial host kernel, whose rare
 * long samples keep the standard deviation high) stops as soon as its median
 * is pinned, however large its stddev. NVBench's stdrel criterion
 * (nvbench/detail/stdrel_criterion.cxx) stops on the relative standard
 * deviation and a settled noise; its entropy criterion
 * (entropy_criterion.cxx) on a settled entropy of the sample histogram;
 * ours asks for what the report shows, the median, to be known to max_ci,
 * and falls back to theirs only where that would outlast the timeout. */
#ifndef BR_MEASURE_H
#define BR_MEASURE_H

#include <stddef.h>

#include "model/run.h"
#include "model/stats.h"
#include "timer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Plateau test: the window (samples) and the relative spread of the noise
 * estimate over it below which the noise counts as settled. */
#define BR_PLATEAU_WINDOW 64
#define BR_PLATEAU_TOL    0.02

/* A batch sample lasts about this long (it sets the batch size), ns. */
#define BR_BATCH_TARGET_NS 1e6
/* With the headline cold, the batch of a kernel whose one execution takes
 * this long or more is not taken, ns: its batch samples would be single
 * executions, the cold samples without the flush, and what a flush changes
 * (re-reading an L2 of 50 MB at 3 TB/s: about 17 us) is under 0.2% of it.
 * Between BR_BATCH_TARGET_NS and this, a batch sample is one execution. */
#define BR_BATCH_SKIP_NS 10e6
/* Most executions in one batch sample when they run as a CUDA graph or on
 * the host, and when they are plain launches held behind the blocking kernel
 * (CUDA's launch queue holds about 1000 entries; past it a launch would wait
 * for the held GPU). */
#define BR_BATCH_MAX_REPS       4096
#define BR_BATCH_MAX_PLAIN_REPS 256

/* Deferred GPU samples (kernel clock) are resolved in groups of at most this
 * many samples, and of at most this many executions, so a group's records
 * stay well inside CUPTI's device buffer (100,000 operations by default). */
#define BR_GROUP_MAX            64
#define BR_GROUP_MAX_EXECUTIONS 32768
/* ... and of at most this much wall time (from its first sample's start to
 * its last sample's end, so a sample this long is resolved alone), ns: a
 * CUPTI flush costs about 0.5 ms on an H100, 5% of it. */
#define BR_GROUP_MAX_WALL_NS 10e6

/* max_ci = max_noise / BR_CI_PER_NOISE: the default max_noise of 10% asks
 * for the median within +-0.5% at 95% confidence, half the 1% that two runs
 * of the reduction suite must agree within. */
#define BR_CI_PER_NOISE 20.0
/* ci_t (above): the first stage's samples (two degrees of freedom: t(0.975,
 * 2) = 4.30, so three samples with a log spread s0 up to 0.2% stop at N =
 * 3 at +-0.5%), and the cost cap, ns: a case
 * whose 6 samples would take over a second (a sample of over 167 ms) may
 * stop on it. The reduction suite's reduce_naive at 2^28, 0.47 s an
 * execution repeating to 0.1% on an H100, stops after 3 samples instead of
 * 6 (1.4 s less). */
#define BR_CI_T_MIN_N  BR_STATS_T_FIRST
#define BR_CI_T_CAP_NS 1e9
/* ci_t's spread check: every kept sample within this many goals of their
 * median (measure.h, (a)). */
#define BR_CI_T_SPREAD 2.0

/* The interval is recomputed after every sample up to this many samples,
 * then each time the count has grown by 1/BR_CI_EVERY (a sort each time:
 * O(log n) amortised per sample), and once more before a stale interval
 * that met the target stops the run: a "ci" stop is always on the interval
 * of every kept sample. */
#define BR_CI_DENSE 64
#define BR_CI_EVERY 32

/* Running state of the stopping criterion. */
typedef struct br_stopper {
    br_measure_cfg cfg;
    double max_ci;                  /* target relative half-width of the median's 95% CI */
    double tick_ns;                 /* the values' resolution, ns (0: exact) */
    size_t n;                       /* kept samples */
    double measured_ns;             /* summed measured time of the kept samples, ns */
    double mean, m2;                /* Welford (1962) running mean and sum of squared deviations */
    double noise;                   /* stddev / mean of the kept samples (0 while n < 2) */
    double hist[BR_PLATEAU_WINDOW]; /* noise after each of the last samples (ring) */
    size_t hist_n;
    double *values; /* owned: the kept samples (sorted at each CI update) */
    size_t cap;     /* of values */
    size_t ci_next; /* n at which the CI is next recomputed */
    double ci_rel;  /* max(median - low, high - median) / median at the last update
                       (the three rounded to tick_ns); INFINITY before the first (n < 6) */
    double ci_goal; /* the half-width it must reach, relative: max(max_ci, tick / median) */
    size_t ci_n;    /* n at the last update */
    int oom;        /* values could not grow: the CI stays where it was */
    /* ci_t: Welford over the logs of the first BR_CI_T_MIN_N samples, and
     * Stein's N from them (0: not yet, or never: a sample was not positive) */
    double t_mean, t_m2;
    size_t t_n;
} br_stopper;

/* Start a criterion for cfg (max_ci derived from cfg->max_noise) on values
 * that the clock resolves to tick_ns (ns per execution; 0 or less: exact).
 * Owns memory: release with br_stopper_dispose. */
void br_stopper_init(br_stopper *s, const br_measure_cfg *cfg, double tick_ns);

/* Release what *s owns; accepts NULL. */
void br_stopper_dispose(br_stopper *s);

/* Add a kept sample: `value` is what the statistics see (ns per execution),
 * `measured_ns` the timed duration it took (all its executions). */
void br_stopper_add(br_stopper *s, double value, double measured_ns);

/* Whether to stop, `elapsed_ns` of wall time after sampling began. May
 * reorder s->values (a set to the stopper). */
br_stop br_stopper_check(br_stopper *s, double elapsed_ns);

/* Whether rule ci_t (above) would stop *s now, `elapsed_ns` of wall time
 * after sampling began (the slow-case test, the floors, the spread check
 * and the log-t interval; not the other rules). May reorder s->values. */
int br_stopper_ci_t(br_stopper *s, double elapsed_ns);

typedef struct br_measure_params {
    br_measure_cfg cfg;  /* stopping criterion, throttle threshold, hold */
    double warmup_ns;    /* warmup time budget, ns */
    br_flush_kind flush; /* cold samples: cache policy before each sample */
    int batch;           /* 0: cold samples (one execution each); 1: batch samples */
    int probe;           /* measure the SM clock of each sample (GPU) */
    double max_mhz;      /* the device's maximum SM clock, MHz (throttle reference; 0: none) */
    double (*now)(void); /* wall clock, ns; NULL: br_now_ns (tests pass a fake) */
    const br_mem_range *ranges; /* host: the case's memory, for the flush (timer.h) */
    size_t n_ranges;
    /* What the samples (and so the statistics and the stopping criterion)
     * measure: BR_CLOCK_MONOTONIC on the host; BR_CLOCK_EVENTS or
     * BR_CLOCK_KERNEL on a GPU (kernel needs a timer that collects it). */
    br_clock clock;
    /* 1: each sample's timed span is an NVTX range (nvtx.h): "warmup" for the
     * warmup's samples, "sample" for the rest (GPU timers only). */
    int nvtx;
    /* Wall time of executions of the case run just before (the checked
     * execution), ns: it counts toward warmup_ns, so a kernel longer than
     * the warmup is not run once more to warm up. 0: none. */
    double prewarm_ns;
    /* The clock's resolution, ns per sample (br_timer_ops.tick); 0:
     * unknown, taken as exact. */
    double tick_ns;
    /* Batch: the time of one execution when already known (the cold
     * median), ns; 0: unknown. At BR_BATCH_TARGET_NS or more a batch sample
     * is one execution, without the sizing execution. */
    double exec_ns;
} br_measure_params;

/* Measure `run(ctx)` with the timer (ops, state) into *out (a zeroed
 * br_timing; its stats are left for the caller to compute).
 *  1. Warmup: samples (discarded) until p->warmup_ns (less p->prewarm_ns)
 *     of wall time has passed, so module load, JIT and clock ramp-up stay
 *     out of the samples. A batch measurement first times one execution to
 *     choose the batch size (BR_BATCH_TARGET_NS per sample; skipped when
 *     p->exec_ns already says one execution fills a sample) and, when that
 *     is more than one, warms up with at least one batch (which captures
 *     the CUDA graph).
 *  2. Samples until the stopping criterion above holds. A GPU sample whose SM
 *     clock is below cfg.throttle x max_mhz is discarded and counted. A host
 *     sample (p->clock monotonic) that was disturbed (disturb.h: an
 *     involuntary context switch during it, or the CPU's frequency below
 *     cfg.throttle x the median of the recent samples') is discarded and
 *     counted (n_switched, n_slow), and the kept samples' frequencies go to
 *     out->cpu_mhz. When every host sample was disturbed, they are kept
 *     all the same and out->disturbed_kept is set.
 * Cold samples apply p->flush before each execution; batch samples never
 * flush.
 *  3. GPU (p->clock events or kernel): every kept sample's event time goes to
 *     out->event_ns and, when the timer collects the kernel clock, its
 *     kernel time, span and operation count (per execution) to kernel_ns,
 *     span_ns and ops, and its operations to out->breakdown. With the kernel
 *     clock as headline, a sample whose records CUPTI lost is discarded and
 *     counted (n_incomplete), and a sample that enqueued no GPU operation is
 *     an error (the kernel clock cannot time it). Returns 0, or -1 with the error set when a sample
 * failed (*out is then disposed). A measurement whose every sample was throttled (or
 * disturbed) returns 0 with n_samples == 0 and stop BR_STOP_TIMEOUT. */
int br_measure(br_timing *out, const br_timer_ops *ops, void *state, const br_measure_params *p,
               br_exec_fn run, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
