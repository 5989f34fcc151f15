/* SPDX-License-Identifier: Apache-2.0 */
/* The settings of one invocation that the stages read: what
 * the plan selects (-k, -p), the command line's measurement settings laid
 * over each suite's, and how the session builds and measures. Filled by the
 * command line; read by plan/job.c, compile/ and measure/. */
#ifndef BR_RUN_OPTS_H
#define BR_RUN_OPTS_H

#include <stddef.h>

#include "model/settings.h"
#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_param_override; /* plan/plan.h: -p settings, passed through untouched */

/* Where the host cases of a run with GPU cases are measured (--host-lane;
 * drive/devices.h): beside the GPU cases on a lane of their own, when
 * their CPU can be kept to them, or after them. */
typedef enum br_host_lane { BR_HOST_LANE_BESIDE = 0, BR_HOST_LANE_AFTER = 1 } br_host_lane;

typedef struct br_run_opts {
    const char *cache_dir;       /* compile cache; NULL: br_build_default_cache_dir() */
    const char *const *patterns; /* -k globs over kernel names; may be NULL */
    size_t n_patterns;
    int jobs;  /* parallel compiles; <= 0: number of CPUs */
    int quiet; /* 1: no progress lines on stderr */
    /* command-line measurement settings, laid over each suite's (a zeroed
     * layer, or br_measure_layer_init, sets nothing) */
    br_measure_layer measure;
    /* The clock of GPU headline times: 0 (the default) the kernel clock
     * when CUPTI can be used, else CUDA events (said once on stderr);
     * BR_CLOCK_EVENTS or BR_CLOCK_KERNEL as asked (kernel still falls back
     * to events, saying why, where CUPTI cannot be used). */
    int gpu_clock;
    int no_cupti; /* 1: collect no CUPTI activity at all (GPU times are CUDA events only) */
    int no_nvtx;  /* 1: no NVTX ranges around GPU cases and samples (measure/nvtx.h) */
    /* -p settings: replace (or, for zipped params, select) parameter values
     * of every suite that has the parameter (br_plan_apply_overrides). */
    const struct br_param_override *params;
    size_t n_params;
    double budget_ns;   /* --budget: bound on the whole invocation's measuring, ns; 0: none */
    size_t total_cases; /* cases of every job of the invocation, for the progress line and the
                           budget (0: each job counts its own) */
    int progress;       /* 1: an updating progress line on stderr (a terminal, not quiet) */
    int energy;         /* 1: measure energy per execution of GPU cases (--energy;
                           platform/energy.h) */
    /* --cpu: where host cases are measured (platform/cpupin.h): 0 (the
     * default) a CPU benchrun chooses, N + 1 CPU N, -1 no pinning (off). */
    int cpu;
    int host_lane;       /* --host-lane (br_host_lane): where host cases run beside GPU cases */
    const char *devices; /* --devices: "all" or "0,2,5" (drive/devices.h); NULL: one GPU,
                            the single-worker path */
    const char *const *device_times; /* results files whose measured times order the cases
                                        of --devices (--shard-times); may be NULL */
    size_t n_device_times;
} br_run_opts;

#ifdef __cplusplus
}
#endif
#endif
