/* SPDX-License-Identifier: Apache-2.0 */
/* What one run of one suite measured: self-contained (it owns
 * copies of every string it needs), so reporters read nothing but this and a
 * result can later be rebuilt from its JSON without the suite. */
#ifndef BR_RESULTS_H
#define BR_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the JSON results schema (results/run_write.c). */
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
    br_stop stop;             /* why sampling stopped (measure.h); BR_STOP_NONE when not recorded
                                 (files that do not say); br_timing_converged reads it */
    double tick_ns;           /* the clock's resolution, ns per execution (its tick over reps):
                                 the stopping rule's finest interval; 0 when unknown */
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
    size_t n_incomplete; /* kernel clock: samples discarded because CUPTI lost records in them */
    /* Work that escapes the clock (CUPTI collected only): operations of the
     * kept samples that ran on a stream other than the case's, or in another
     * CUDA context; CUDA events on the case's stream do not see them (flag S,
     * suspect.h). 0 without CUPTI (kernel_ns NULL). */
    size_t n_other_stream;
    size_t n_other_context;
    char *escaped_op;      /* owned; the name of the first such operation; NULL when none */
    br_op_stat *breakdown; /* owned; each distinct GPU operation (activity.h), by share; NULL
                              without CUPTI */
    size_t n_breakdown;
    /* Baselines only: the medians (ns per execution) of this timing in the
     * last saves of the baseline (regression.keep of them), oldest first,
     * the last being this timing's own; at most BR_RUN_MEDIANS_MAX. Their
     * spread is how far a rerun moves the case (gate/baseline.h). NULL / 0
     * elsewhere. Owned. */
    double *run_medians;
    size_t n_run_medians;
    /* Host cases (platform/disturb.h): the CPU's effective frequency over
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
#define BR_RUN_MEDIANS_MAX BR_REGRESSION_KEEP_MAX

/* Energy per execution of a GPU case, from NVML's total energy counter
 * (platform/energy.h has the method): several windows of back-to-back
 * executions, each at least BR_ENERGY_WINDOW_NS long and bounded by two
 * updates of the counter. */
typedef struct br_energy {
    int present;       /* 1 when measured */
    double j_per_exec; /* joules per execution, the median over the windows */
    double watts;      /* mean power, W (J/s), the median over the windows */
    double spread;     /* (max - min) / median of the windows' J per execution, a fraction */
    size_t windows;    /* windows measured */
    double window_ns;  /* mean length of a window, ns */
    double executions; /* mean executions per window */
} br_energy;

/* Work per joule: `amount` (FLOP or bytes per execution) / e->j_per_exec /
 * 1e9, i.e. GFLOP/J or GB/J; NAN when e is not present or either figure is
 * not a positive number. Pure. */
double br_energy_per_joule(double amount, const br_energy *e);

/* Where one case's wall time went, ns (docs/measurement.md, "Where the time
 * goes"). The worker times each step of the case's life; the parent adds
 * the worker's start and the case's whole wall time. The phases plus
 * other_ns make total_ns. Absent (present 0) in files written before it and
 * for a case never sent to a worker (skipped, failed to compile). */
typedef struct br_case_wall {
    int present;
    double start_ns;     /* a fresh worker's fork, and the backend's timer opened by the
                            worker's first case of that backend (a GPU: the CUDA context,
                            CUPTI); about 0 for a case that reused a healthy worker */
    double setup_ns;     /* the module's setup: allocations, inputs, a reference computed there */
    double first_run_ns; /* the one execution checked before anything is timed */
    double verify_ns;    /* both verifications (after the first run and after the samples) */
    double warmup_ns;    /* warmup of the cold and batch measurements (batch sizing included) */
    double cold_ns;      /* cold sampling (flushes included) */
    double batch_ns;     /* batch sampling */
    double teardown_ns;  /* the module's teardown and the runner's frees */
    double other_ns;     /* the rest: budget, request and reply between the processes, the
                            results' statistics */
    double total_ns;     /* the case's wall time in the parent, from its plan to its result */
    double began_ns;     /* when the case began, ns after the invocation's first case began
                            (the cases of --devices run at once: their spans tell which
                            overlapped); NAN when unknown (older files) */
} br_case_wall;

/* The phases of br_case_wall (all but total_ns), in order, for tables and
 * the codec: br_wall_phase_names[i] is phase i's name ("start", "setup",
 * "first_run", "verify", "warmup", "cold", "batch", "teardown", "other"; the
 * JSON key is the name + "_ns"). */
#define BR_WALL_PHASES 9
extern const char *const br_wall_phase_names[BR_WALL_PHASES];
/* Phase i of *w, ns; 0 for i out of range. */
double br_wall_phase(const br_case_wall *w, size_t i);
/* The field of phase i of *w; NULL for i out of range. */
double *br_wall_phase_ptr(br_case_wall *w, size_t i);

typedef struct br_case_result {
    size_t kernel;   /* index into br_run.kernels */
    size_t combo;    /* index of the parameter combination */
    int64_t *params; /* owned copy: br_run.n_params values */
    br_case_status status;
    br_stage stage; /* where it failed or why it was skipped; BR_STAGE_NONE when OK */
    char *message;  /* owned; the reason, NULL when OK */

    br_timing cold;  /* present when the suite's mode is cold or both */
    br_timing batch; /* present when the suite's mode is batch or both */
    /* The headline measurement: &cold or &batch as br_run.measure.headline
     * says (see br_case_headline). */

    /* What the case's FLOPs are (the suite's `precision` for its kernel):
     * its % of peak, roofline ceiling and physics check use that
     * precision's compute peak (br_run_case_peak). BR_PRECISION_NONE when
     * not declared (and in older files): FP32 on the CUDA cores. */
    br_precision precision;
    double bytes;     /* bytes per execution from the suite's `bytes`; NAN when absent */
    double flops;     /* FLOP per execution from `flops`; NAN when absent */
    double gbps;      /* bytes / headline median time, GB/s (1e9 B/s); NAN when absent */
    double gflops;    /* flops / headline median time, GFLOP/s; NAN when absent */
    double pct_peak;  /* % of peak, GPU cases only: 100 gbps / br_run.peak_gbps (a bandwidth
                         metric) or 100 gflops / br_run_case_peak (a compute metric:
                         br_run_metric_peak); NAN otherwise */
    double speedup;   /* headline median of the suite's first kernel at the same params / this
                         one's; NAN when either has no time */
    br_energy energy; /* GPU cases measured with --energy; present 0 otherwise */

    /* Where the case was measured when that differs from its run (a baseline
     * updated by a partial run keeps each case's own): the full commit SHA
     * (with "-dirty" appended for a dirty work tree, or "unknown" outside
     * git) and the UTC date (ISO 8601). NULL / "" mean the run's git.sha /
     * date. */
    char *commit; /* owned; may be NULL */
    char date[32];
    br_case_wall wall; /* where the case's wall time went */
    /* The device that measured the case in a run over several (--devices):
     * its CUDA index on the host and its UUID ("GPU-..."); device_present 0
     * in a one-device run (the run's device measured every case) and in
     * older files. */
    int device_present;
    int device_index;
    char device_uuid[48];
} br_case_result;

/* One case of a comparison (the decision: drift.h). */
typedef struct br_compare_entry {
    char *kernel;      /* owned */
    char *params;      /* owned; "n=2^20 b=256" as reports show params ("" for none) */
    size_t case_index; /* index into the compared run's cases; SIZE_MAX for a missing case */
    size_t base_index; /* index into the baseline's cases; SIZE_MAX for a new case */
    br_change status;
    const char *why;      /* static; the reason of an unknown status ("too few samples", ...),
                             or what qualifies another one ("within the between-run spread");
                             NULL when there is nothing to add */
    double base_median;   /* ns per execution: the geometric mean of the baseline's run medians
                             when it has two or more, else its median; NAN when absent */
    double cur_median;    /* ns per execution; NAN when absent */
    size_t base_n, cur_n; /* samples on each side (0 when absent) */
    double change;        /* cur_median / base_median - 1, a fraction; NAN when either is absent */
    double p_value;       /* two-sided Mann-Whitney U p-value of the two sample sets (within-run
                             evidence); NAN when not computed */
    int p_exact;          /* 1: exact distribution; 0: normal approximation */
    double p_runs;        /* two-sided p of the change against the baseline's run medians (the
                             prediction interval of drift.h; the larger of time's and cycles'
                             when both decided); NAN when the spread is unknown */
    double spread;        /* the between-run spread the decision used: a standard deviation of
                             the natural logs of run medians (about the relative spread, a
                             fraction), as spread_from says (gate/drift.h); NAN when none */
    size_t spread_runs;   /* run medians of the baseline (0 when it has no timing) */
    double spread_df;     /* its degrees of freedom (INFINITY: known, or assumed); 0 when none */
    const char *spread_from;  /* static: what the spread borrowed (gate/drift.h, "Power"):
                                 "assumed" or "pooled" for a case with one run
                                 median; "moderated" or "assumed+runs" for one
                                 with its own; NULL when not judged */
    double mde;               /* minimum detectable effect: the smallest slowdown (a fraction of
                                 base_median) this comparison could have called slower; NAN when no
                                 change could be (too few samples, flagged too noisy) */
    const char *decided_by;   /* static: "time", "cycles" or "time+cycles" (drift.h); NULL when
                                 not judged */
    double base_mhz, cur_mhz; /* median SM clock of each side, MHz; NAN when not measured */
    double cycles_change;     /* change in cycles (time x SM clock), a fraction; NAN unless the
                                 clocks of the two sides differ */
    /* Why the case was not compared at all, or NULL: "no GPU" (skipped in
     * this run for want of one), "-k" or "-p" (a baseline case the run's
     * kernel patterns or parameter values left out). Such entries are not in
     * br_comparison.count; reports sum them up in one line. Static. */
    const char *not_compared;
    /* Which stage of the gate decided the case (gate/confirm.h): the screen alone,
     * or its flag confirmed or not by the A/B against the baseline's commit. */
    br_gate_stage stage;
    char *why_owned; /* owned; the text `why` points to when it is made per case (the A/B's
                        figures), else NULL */
    /* benchrun ab, and a baseline comparison's A/B confirmation (stage not screen;
     * else unset, 0 and NULL): the ratio NEW/OLD (the geometric mean of the block
     * pairs' ratios), its confidence interval, the block pairs, and each pair's block
     * medians (ns; owned, `pairs` each) */
    double ratio, ratio_low, ratio_high;
    size_t pairs;
    double *old_blocks, *new_blocks;
} br_compare_entry;

/* A kernel module built for one side of `benchrun ab`. */
typedef struct br_ab_module {
    char *source; /* owned; the source as its run's kernels name it */
    char key[41]; /* its key in the compile cache (compile/build.h): the object's name */
} br_ab_module;

/* One side of `benchrun ab`. */
typedef struct br_ab_side {
    char *rev;             /* owned; the revision as given ("HEAD~1"); NULL: the work tree */
    char sha[41];          /* the commit; for the work tree, HEAD's ("" outside git) */
    int dirty;             /* the work tree: tracked files differed from HEAD */
    br_ab_module *modules; /* owned: the modules built, suite order */
    size_t n_modules;
} br_ab_side;

/* What `benchrun ab` compared and how (abstats.h). */
typedef struct br_ab_info {
    br_ab_side old_side, new_side;
    size_t blocks;   /* blocks of each side per case (= block pairs) */
    double ci_level; /* of every interval: 1 - alpha */
} br_ab_info;

/* What the A/B confirmation of a baseline comparison did (gate/confirm.h). */
typedef struct br_confirm_info {
    br_confirm_mode mode;
    int ran;           /* 1: the flagged cases were measured against the baseline's commit */
    double alpha;      /* the decision's level (the suite's alpha) before the family's */
    double level;      /* the level each A/B was judged at (Benjamini-Hochberg over the
                          flagged cases); NAN when not run */
    double threshold;  /* the suite's threshold */
    char commit[41];   /* the commit measured against (full SHA); "" when none */
    size_t blocks;     /* block pairs asked per flagged case */
    size_t flagged;    /* cases the screen found slower or faster */
    size_t confirmed;  /* of which the A/B confirmed */
    size_t measured;   /* of which the A/B measured (the others ran out of time or failed) */
    double ns;         /* wall time of the confirmation: checkout, build, blocks, ns */
    double timeout_ns; /* its bound, ns */
    char *note;        /* owned; why it did not run, or the shift of the whole run; NULL */
} br_confirm_info;

/* A run compared with its baseline. */
typedef struct br_comparison {
    char *baseline_path;   /* owned; the file compared against */
    char *baseline_commit; /* owned; short SHA the baseline run was measured at; may be NULL */
    char baseline_sha[41]; /* its full SHA; "" when not known */
    int baseline_dirty;    /* 1: the baseline was measured in a modified work tree */
    char baseline_date[32];
    char *baseline_device; /* owned; the device the baseline names */
    int device_forced;     /* 1: the devices differ and the user forced the comparison */
    br_regression_cfg rules;
    /* A baseline comparison: the level each case was judged at, rules.alpha spread over
     * the cases_tested cases that have a p-value by the Benjamini-Hochberg procedure
     * (gate/family.h), so that unchanged code has any slower or faster case in this
     * comparison (one suite) with probability at most rules.alpha; 0 and 0 for
     * benchrun ab. */
    double case_alpha;
    size_t cases_tested;
    br_mode clock;             /* which timing was compared: cold or batch (the headline) */
    br_compare_entry *entries; /* owned: the run's cases in run order, then missing ones */
    size_t n_entries;
    size_t count[BR_CHANGE_COUNT]; /* entries per status, not counting those not compared */
    size_t n_no_gpu;               /* entries not compared: skipped in this run for want of a GPU */
    size_t n_left_out_k;           /* baseline cases the run's -k patterns left out */
    size_t n_left_out_p;           /* baseline cases the run's -p values left out */
    /* benchrun ab: the two sides and the blocks (owned); NULL for a baseline comparison.
     * Then baseline_path is OLD's revision as given, baseline_commit its short SHA, and
     * the entries carry the ratios; p_value is the paired t test's. */
    br_ab_info *ab;
    /* A baseline comparison whose flags were confirmed by A/B, or that says why not
     * (owned); NULL when no confirmation was asked for (--confirm never, a save). */
    br_confirm_info *confirm;
} br_comparison;

/* A kernel of the suite as the run saw it. */
typedef struct br_run_kernel {
    char *name;   /* owned */
    char *source; /* owned; the source file (path as resolved from the suite) */
    br_backend backend;
    /* The git blob id of the source file's bytes when the run measured it ("" when
     * not known: older files, a source that could not be read): a baseline's record of
     * a case restarts when it changes (gate/baseline.h). */
    char source_sha[41];
} br_run_kernel;

/* The compute peak of one precision a run's cases used (br_run.compute_peaks). */
typedef struct br_compute_peak {
    int present;             /* 1: recorded (a GPU run that used the precision, its rate known) */
    double ops_per_sm_clock; /* FLOP (OP for INT8) per SM per clock, dense or 2:4 sparse as the
                                precision says */
    double gflops;    /* ops_per_sm_clock x device.sm_count x clock_mhz, GFLOP/s (GOP/s for INT8):
                         the peak at the device's maximum SM clock */
    double clock_mhz; /* that clock, MHz (device.sm_clock_khz / 1000) */
    char source[16];  /* where the rate came from: "table" (the datasheet table of
                         platform/flops.h) */
} br_compute_peak;

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
    double peak_gflops; /* what pct_peak is relative to for a compute metric, GFLOP/s: the FP32
                           theoretical peak device.peak_gflops, whatever peak_kind says (a measured
                           peak is GB/s only); NAN without a device. br_run_derive fills it from
                           the device when it is not a positive number. */
    /* The compute peaks benchrun measured for this run (`peak: measured`;
     * worker/session.h's br_session_measured_compute), by precision (index: a
     * br_precision), 1e9 operations/s (GFLOP/s; GOP/s for int8-tensor): a
     * positive number where measured or read from the cache; anything else
     * (NAN; 0 in a zeroed run; older files) where not. Which peak a case used
     * for a precision: br_run_measured_compute. */
    double measured_gops[BR_PRECISION_COUNT];

    /* The compute peak of each precision the run's GPU cases used, indexed
     * by br_precision (BR_PRECISION_NONE's slot unused: it reads as FP32);
     * present 0 elsewhere and in older files. */
    br_compute_peak compute_peaks[BR_PRECISION_COUNT];

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
     * unfinished cases being skipped with stage BR_STAGE_INTERRUPTED; NULL for a
     * run that went to its end. */
    char *interrupted;

    /* A part of a sharded plan (--shard I/N) or a merge of the parts
     * (shardinfo.h; owned); NULL for a run of a whole plan. */
    struct br_run_shard *shard;

    /* Wall time of building this suite's kernels (compile or cache, load,
     * resolve), ns; NAN when unknown (files written before it). */
    double compile_ns;

    br_regression_cfg regression; /* the rules a comparison of this run uses */
    br_comparison *comparison;    /* owned; this run against its baseline; NULL when not compared */
    /* Read back from a results file: the path of the baseline the run was
     * compared with when it was measured (owned); NULL when none was. */
    char *compared_with;
} br_run;

/* A parameter value as reports show it: "2^k" for exact powers of two >= 2^10
 * (1024 -> "2^10"), else the decimal integer. */
void br_format_param(char *buf, size_t len, int64_t v);

/* A case as messages, progress lines, NVTX ranges and reports name it:
 * "reduce n=2^20 b=256", the kernel (NULL: left out, "n=2^20 b=256") then
 * each parameter's name and value (br_format_param), into buf[0..len) (cut
 * to fit; NUL-terminated when len >= 1; buf may be NULL when len is 0).
 * Returns the length of the whole label, as snprintf does. */
size_t br_case_label(char *buf, size_t len, const char *kernel, const char *const *names,
                     const int64_t *values, size_t n_params);

/* br_case_label of case c of run r: its kernel's name ("?" when r has no
 * such kernel) and r's parameters. */
size_t br_run_case_label(char *buf, size_t len, const br_run *r, const br_case_result *c);

/* The headline measurement of case c in run r (&c->cold or &c->batch, as
 * r->measure.headline says; a NULL run reads as headline cold). Borrowed from
 * c; NULL only when c is NULL. */
const br_timing *br_case_headline(const br_run *r, const br_case_result *c);

/* Free what case *c owns (params, message, commit, its timings) and
 * zero it; accepts NULL and a zeroed case. */
void br_case_dispose(br_case_result *c);

/* Move what measuring case *from found (status, stage, message, the cold and
 * batch timings, the wall-time breakdown, the energy) into *to, which keeps
 * its identity (kernel, combo, params, bytes, flops, commit); *to's own
 * message and timings are replaced without being freed (a case not
 * measured yet has none). *from keeps only what it owned besides; dispose
 * of it as usual. The one place that lists a measurement's fields: a field
 * added to br_case_result that the worker measures goes here. */
void br_case_take_outcome(br_case_result *to, br_case_result *from);

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

/* t->stats from t->samples (br_stats_compute), its interval of the median
 * the log-t one when t stopped on ci_t (br_stats_set_log_t_ci, measure.h):
 * the interval the stopping rule judged. Returns 0, or -1 with the error
 * set (no samples, a sample not finite or, for ci_t, not positive). */
int br_timing_stats(br_timing *t);

/* Counts of cases by status. */
void br_run_count(const br_run *r, size_t *n_ok, size_t *n_failed, size_t *n_skipped);

/* Case c's figures under metric m (model/metric.h), from its derived
 * figures (br_run_derive) and energy; NAN for none and where the figure is
 * NAN. Pure:
 *   rate    its rate of m's amount per ns: gbps (GB/s) or gflops (GFLOP/s);
 *           % of peak divides it by br_run_metric_peak
 *   value   that rate in m's unit (br_metric_in_unit): exactly gbps for GB/s
 *           and gflops for GFLOP/s, gflops / 1000 for TFLOP/s and TOP/s
 *   amount  m's amount per execution: bytes or flops
 *   per_joule  its amount per joule in m's energy unit (br_energy_per_joule /
 *           (scale / 1e9)); bytes per joule (GB/J) for none; NAN without
 *           energy */
double br_case_metric_rate(const br_case_result *c, br_metric m);
double br_case_metric_value(const br_case_result *c, br_metric m);
double br_case_metric_amount(const br_case_result *c, br_metric m);
double br_case_per_joule(const br_case_result *c, br_metric m);

/* The peak that case c's % of peak is relative to under r's metric, in the
 * per-ns unit of the metric's amount (GB/s or GFLOP/s), as the metric
 * table's peak kind says (metric.h): bandwidth, r->peak_gbps; compute,
 * br_run_case_peak (the case's precision's peak); NAN for a metric without
 * a peak. Pure. */
double br_run_metric_peak(const br_run *r, const br_case_result *c);

/* Fill the derived figures of every case (gbps, gflops, pct_peak, speedup)
 * from the headline timing's median (br_case_headline), bytes, flops and the
 * run's peak: pct_peak = 100 x the case's rate of its metric's amount (gbps
 * or gflops, br_case_metric_rate) / br_run_metric_peak. First, when r->peak_gflops is not a
 * positive number it is set to r->device.peak_gflops (has_device) or NAN, so
 * a run whose builder left it unset (zeroed) still gets the FP32 peak.
 * pct_peak is NAN for host cases, when has_device is 0, when the metric is
 * none, or when that peak or figure is not a positive number. */
/* Whether run r measured its compute peak in precision p: returns 1 and sets
 * *gops (1e9 operations/s) to r->measured_gops[p] when r->peak_kind is
 * BR_PEAK_MEASURED and that figure is finite and positive (the peak a case
 * declared as p is then relative to); else returns 0 (*gops NAN): the
 * datasheet peak applies. p outside the enum returns 0. Pure. */
int br_run_measured_compute(const br_run *r, br_precision p, double *gops);

void br_run_derive(br_run *r);

/* br_run_derive for case i of r alone (its reference case searched for:
 * O(n_cases)), for a case shown as it finishes; out of range: nothing. */
void br_run_derive_case(br_run *r, size_t i);

/* Release what *r owns; accepts NULL and a zeroed run. */
void br_run_dispose(br_run *r);

/* The compute peak case c of run r is measured against, GFLOP/s (GOP/s for
 * INT8), for its % of peak and its roofline ceiling: under `peak: measured`
 * the peak benchrun measured for c's precision (br_run_measured_compute;
 * *clock_mhz NAN), else c's precision's
 * ops_per_sm_clock (r->compute_peaks; BR_PRECISION_NONE reads as FP32) x
 * r->device.sm_count x the SM clock the GPU held while c ran (the median
 * over its headline timing's kept samples, sm_mhz_median: the clock the
 * timing core's SM clock probe measured over each sample, clock64() against
 * %globaltimer); that precision's peak at the maximum clock when the held clock
 * was not measured; and for an FP32 case of a run that recorded no
 * compute peaks (older files), r->peak_gflops. *clock_mhz (may be NULL)
 * gets the clock used (NAN when unknown). NAN when the peak is unknown (no
 * device, a precision whose rate the table lacks). Pure. */
double br_run_case_peak(const br_run *r, const br_case_result *c, double *clock_mhz);

/* c's precision's peak at the device's maximum SM clock (the physics
 * check's "faster than the hardware can go"), with the same fallbacks as
 * br_run_case_peak but no held clock. NAN when unknown. Pure. */
double br_run_case_peak_max(const br_run *r, const br_case_result *c);

#ifdef __cplusplus
}
#endif
#endif
