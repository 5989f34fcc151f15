/* run_opts.h - the settings of one invocation that the stages read: what
 * the plan selects (-k, -p), the command line's measurement settings laid
 * over each suite's, and how the session builds and measures. Filled by the
 * command line; read by plan/job.c, build/ and measure/. */
#ifndef BR_RUN_OPTS_H
#define BR_RUN_OPTS_H

#include <stddef.h>

#include "results/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_param_override; /* plan/plan.h: -p settings, passed through untouched */

/* Command-line settings that replace the suite's (a negative or zero value,
 * as noted, leaves the suite's). */
typedef struct br_measure_overrides {
    size_t min_samples; /* 0: suite */
    double min_time_ns; /* < 0: suite */
    double max_noise;   /* < 0: suite */
    double timeout_ns;  /* < 0: suite */
    size_t max_samples; /* 0: suite */
    double throttle;    /* < 0: suite; 0 turns the check off */
    int hold;           /* < 0: suite; 0 off, 1 on */
    br_mode mode;       /* 0: suite */
    br_mode headline;   /* 0: suite */
    double warmup_ns;   /* < 0: suite */
    int cache;          /* < 0: suite; else a br_cache_policy */
    double watchdog_ns; /* < 0: suite */
} br_measure_overrides;

/* Overrides that change nothing. */
void br_measure_overrides_init(br_measure_overrides *o);

typedef struct br_run_opts {
    const char *cache_dir;       /* compile cache; NULL: br_build_default_cache_dir() */
    const char *const *patterns; /* -k globs over kernel names; may be NULL */
    size_t n_patterns;
    int jobs;                     /* parallel compiles; <= 0: number of CPUs */
    int quiet;                    /* 1: no progress lines on stderr */
    br_measure_overrides measure; /* command-line measurement settings */
    /* The clock of GPU headline times: 0 (the default) the kernel clock
     * when CUPTI can be used, else CUDA events (said once on stderr);
     * BR_CLOCK_EVENTS or BR_CLOCK_KERNEL as asked (kernel still falls back
     * to events, saying why, where CUPTI cannot be used). */
    int gpu_clock;
    int no_cupti; /* 1: collect no CUPTI activity at all (GPU times are CUDA events only) */
    /* -p settings: replace (or, for zipped params, select) parameter values
     * of every suite that has the parameter (br_plan_apply_overrides). */
    const struct br_param_override *params;
    size_t n_params;
    double budget_ns;   /* --budget: bound on the whole invocation's measuring, ns; 0: none */
    size_t total_cases; /* cases of every job of the invocation, for the progress line and the
                           budget (0: each job counts its own) */
    int progress;       /* 1: an updating progress line on stderr (a terminal, not quiet) */
} br_run_opts;

#ifdef __cplusplus
}
#endif
#endif
