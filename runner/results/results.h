/* results.h - what one run of one suite measured: self-contained (it owns
 * copies of every string it needs), so reporters read nothing but this and a
 * result can later be rebuilt from its JSON without the suite. */
#ifndef BR_RESULTS_H
#define BR_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "gitinfo.h"
#include "stats.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the JSON results schema (json_write.c). */
#define BR_SCHEMA_VERSION 4
/* The oldest schema br_results_load still reads. */
#define BR_SCHEMA_VERSION_MIN 2

/* One measurement of a case: cold (one execution per sample) or batch (many
 * back-to-back executions per sample, reported per execution). */
typedef struct br_timing {
    int present;              /* 1 when this measurement was taken */
    br_stats stats;           /* ns per execution, over the kept samples */
    br_clock clock;           /* what `samples` (and so stats) measure */
    double *samples;          /* owned; the kept samples, ns per execution, in the order taken */
    double *sm_mhz;           /* owned; SM clock over each kept sample, MHz (NAN when not measured),
                                 parallel to samples; NULL for host cases */
    size_t n_samples;         /* kept samples */
    size_t n_throttled;       /* samples discarded because the SM clock was below the threshold */
    double throttled_min_mhz; /* lowest SM clock among the discarded samples, MHz; NAN if none */
    size_t reps;              /* executions per sample: 1 for cold, the batch size for batch */
    int graph;                /* batch on a GPU: 1 when the executions ran as one CUDA graph */
    size_t warmup_runs;       /* executions during warmup */
    double warmup_ns;         /* wall time of the warmup, ns */
    double measure_ns;        /* wall time of the sampling phase, ns */
    const char *stop_reason;  /* static: "noise", "plateau", "timeout" or "max_samples" */
    double sm_mhz_median; /* median SM clock over the kept samples, MHz; NAN when not measured */
    /* GPU cases, parallel to samples, per execution (owned; NULL for host
     * cases; all but event_ns NULL when CUPTI did not collect):
     *   event_ns   CUDA event time, ns (equal to samples when clock is events)
     *   kernel_ns  kernel time: summed durations of the GPU operations, ns; NAN for a sample
     *              whose records CUPTI lost (kept only when clock is events)
     *   span_ns    first operation's start to the last one's end, ns; NAN likewise
     *   ops        GPU operations (kernels, memcpys, memsets); NAN likewise */
    double *event_ns;
    double *kernel_ns;
    double *span_ns;
    double *ops;
    /* Medians of the finite values of the arrays above (NAN when none is
     * finite); meaningful only when the array is not NULL. */
    double event_median_ns, kernel_median_ns, span_median_ns, ops_median;
    size_t n_incomplete;   /* kernel clock: samples discarded because CUPTI lost records in them */
    br_op_stat *breakdown; /* owned; each distinct GPU operation (activity.h), by share; NULL
                              without CUPTI */
    size_t n_breakdown;
    /* Baselines only: the medians (ns per execution) of this timing in each
     * save of the baseline at one commit, oldest first, the last being this
     * timing's own; at most BR_RUN_MEDIANS_MAX. Their spread is how far a
     * rerun moves the case (baseline.h). NULL / 0 elsewhere. Owned. */
    double *run_medians;
    size_t n_run_medians;
    /* Host cases (measure/disturb.h): the CPU's effective frequency over
     * each kept sample, MHz (NAN when not measured; owned, parallel to
     * samples; NULL for GPU cases and where no sample's was measured), its
     * median over the kept samples (NAN when none), and the samples
     * discarded as disturbed: n_switched for an involuntary context switch
     * during the sample, n_slow for a CPU frequency below throttle x the
     * median of the case's recent samples (slow_min_mhz the lowest; NAN if
     * none). */
    double *cpu_mhz;
    /* Host cases: the involuntary context switches during each kept sample
     * (a kept sample may have had some: its thread was off the CPU for at
     * most 1% of it); NAN when not measured. Owned, parallel to samples;
     * NULL for GPU cases. */
    double *switches;
    double cpu_mhz_median;
    size_t n_switched, n_slow;
    double slow_min_mhz;
    int disturbed_kept; /* 1: every sample was disturbed; they were kept all the same (so the
                           case has a time), and n_switched / n_slow count them */
} br_timing;

/* Most medians a baseline keeps per timing (br_timing.run_medians). */
#define BR_RUN_MEDIANS_MAX 8

typedef struct br_case_result {
    size_t kernel;   /* index into br_run.kernels */
    size_t combo;    /* index of the parameter combination */
    int64_t *params; /* owned copy: br_run.n_params values */
    br_case_status status;
    char *stage;   /* owned; where it failed or why skipped: "compile", "load", "setup", "verify",
                      "run", "no-gpu"; NULL when OK */
    char *message; /* owned; the reason, NULL when OK */

    br_timing cold;  /* present when the suite's mode is cold or both */
    br_timing batch; /* present when the suite's mode is batch or both */
    /* The headline measurement: &cold or &batch as br_run.measure.headline
     * says (see br_case_headline). */

    double bytes;    /* bytes per execution from the suite's `bytes`; NAN when absent */
    double flops;    /* FLOP per execution from `flops`; NAN when absent */
    double gbps;     /* bytes / headline median time, GB/s (1e9 B/s); NAN when absent */
    double gflops;   /* flops / headline median time, GFLOP/s; NAN when absent */
    double pct_peak; /* % of peak, GPU cases only: 100 gbps / br_run.peak_gbps (GB/s metric) or
                        100 gflops / br_run.peak_gflops (GFLOP/s metric); NAN otherwise */
    double speedup;  /* headline median of the suite's first kernel at the same params / this
                        one's; NAN when either has no time */

    /* Where the case was measured when that differs from its run (a baseline
     * updated by a partial run keeps each case's own): the full commit SHA
     * (with "-dirty" appended for a dirty work tree, or "unknown" outside
     * git) and the UTC date (ISO 8601). NULL / "" mean the run's git.sha /
     * date. */
    char *commit; /* owned; may be NULL */
    char date[32];
} br_case_result;

/* One case of a comparison. */
typedef struct br_compare_entry {
    char *kernel;      /* owned */
    char *params;      /* owned; "n=2^20 b=256" as reports show params ("" for none) */
    size_t case_index; /* index into the compared run's cases; SIZE_MAX for a missing case */
    br_change status;
    const char *why;      /* static; for unknown: the reason ("too few samples", ...); else NULL */
    double base_median;   /* ns per execution; NAN when absent */
    double cur_median;    /* ns per execution; NAN when absent */
    size_t base_n, cur_n; /* samples on each side (0 when absent) */
    double change;        /* cur_median / base_median - 1, a fraction; NAN when either is absent */
    double p_value;       /* two-sided Mann-Whitney U p-value; NAN when not computed */
    double spread;        /* the baseline's rerun spread: max / min - 1 of its run medians (a
                             fraction); NAN when it has fewer than two */
    int p_exact;          /* 1: exact distribution; 0: normal approximation */
} br_compare_entry;

/* A run compared with its baseline. */
typedef struct br_comparison {
    char *baseline_path;   /* owned; the file compared against */
    char *baseline_commit; /* owned; short SHA the baseline run was measured at; may be NULL */
    char baseline_date[32];
    char *baseline_device; /* owned; the device the baseline names */
    int device_forced;     /* 1: the devices differ and the user forced the comparison */
    br_regression_cfg rules;
    br_mode clock;             /* which timing was compared: cold or batch (the headline) */
    br_compare_entry *entries; /* owned: the run's cases in run order, then missing ones */
    size_t n_entries;
    size_t count[BR_CHANGE_COUNT]; /* entries per status */
} br_comparison;

/* A kernel of the suite as the run saw it. */
typedef struct br_run_kernel {
    char *name;   /* owned */
    char *source; /* owned; the source file (path as resolved from the suite) */
    br_backend backend;
} br_run_kernel;

typedef struct br_run {
    char *benchrun_version; /* owned */
    /* The clock of GPU cases' headline samples (events or kernel) and, when
     * the kernel clock was asked for but not available, why (owned; NULL
     * otherwise). Host cases use BR_CLOCK_MONOTONIC. */
    br_clock gpu_clock;
    char *clock_note;
    char date[32]; /* UTC start of the run, ISO 8601 ("2026-11-22T10:00:00Z") */

    char *suite_name;        /* owned */
    char *suite_description; /* owned; may be NULL */
    char *suite_path;        /* owned; as given on the command line */
    char suite_hash[41];     /* git blob id of the suite file */
    br_metric metric;
    br_cache_policy cache;
    double warmup_ns;
    br_measure_cfg measure; /* as used: the suite's, with command-line overrides */
    br_peak_kind peak_kind;
    double peak_gbps;   /* what pct_peak is relative to, GB/s: device.peak_gbps (theoretical) or
                           device.measured_peak_gbps (measured); NAN without a device */
    double peak_gflops; /* what pct_peak is relative to for the GFLOP/s metric, GFLOP/s: the FP32
                           theoretical peak device.peak_gflops, whatever peak_kind says (a measured
                           peak is GB/s only); NAN without a device. br_run_derive fills it from
                           the device when it is not a positive number. */

    char **param_names; /* owned: n_params names */
    size_t n_params;
    br_run_kernel *kernels; /* owned: n_kernels, suite order */
    size_t n_kernels;

    br_gitinfo git;
    int has_device; /* 1 when `device` describes the GPU used */
    br_device device;
    char *gpu_skip_reason; /* owned; why GPU cases were skipped, NULL when none were */
    br_host host;

    br_case_result *cases; /* owned: n_cases, plan order (combo-major, kernel-minor) */
    size_t n_cases;
    /* The signal that interrupted the run ("SIGINT", "SIGTERM"; owned), its
     * unfinished cases being skipped with stage "interrupted"; NULL for a
     * run that went to its end. */
    char *interrupted;

    /* A part of a sharded plan (--shard I/N) or a merge of the parts
     * (shardinfo.h; owned); NULL for a run of a whole plan. */
    struct br_run_shard *shard;

    br_regression_cfg regression; /* the rules a comparison of this run uses */
    br_comparison *comparison;    /* owned; this run against its baseline; NULL when not compared */
} br_run;

/* A parameter value as reports show it: "2^k" for exact powers of two >= 2^10
 * (1024 -> "2^10"), else the decimal integer. */
void br_format_param(char *buf, size_t len, int64_t v);

/* The headline measurement of case c in run r (&c->cold or &c->batch, as
 * r->measure.headline says; a NULL run reads as headline cold). Borrowed from
 * c; NULL only when c is NULL. */
const br_timing *br_case_headline(const br_run *r, const br_case_result *c);

/* Free what case *c owns (params, stage, message, commit, its timings) and
 * zero it; accepts NULL and a zeroed case. */
void br_case_dispose(br_case_result *c);

/* Release what *c owns and zero it; accepts NULL. */
void br_comparison_dispose(br_comparison *c);

/* Free an array of operation stats (br_timing.breakdown, as activity.h's
 * br_breakdown_finish makes it): each name and the array; accepts NULL. */
void br_op_stats_free(br_op_stat *v, size_t n);

/* Release what *t owns and zero it; accepts NULL. */
void br_timing_dispose(br_timing *t);

/* A deep copy of *t into *out (every array and the breakdown duplicated).
 * Returns 0, or -1 with the error set (out of memory; *out is then
 * disposed). */
int br_timing_copy(br_timing *out, const br_timing *t);

/* Counts of cases by status. */
void br_run_count(const br_run *r, size_t *n_ok, size_t *n_failed, size_t *n_skipped);

/* Fill the derived figures of every case (gbps, gflops, pct_peak, speedup)
 * from the headline timing's median (br_case_headline), bytes, flops and the
 * run's peak: pct_peak = 100 gbps / r->peak_gbps for the GB/s metric, 100
 * gflops / r->peak_gflops for GFLOP/s. First, when r->peak_gflops is not a
 * positive number it is set to r->device.peak_gflops (has_device) or NAN, so
 * a run whose builder left it unset (zeroed) still gets the FP32 peak.
 * pct_peak is NAN for host cases, when has_device is 0, when the metric is
 * none, or when that peak or figure is not a positive number. */
void br_run_derive(br_run *r);

/* Release what *r owns; accepts NULL and a zeroed run. */
void br_run_dispose(br_run *r);

#ifdef __cplusplus
}
#endif
#endif
