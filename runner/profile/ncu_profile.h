/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun profile` found for one case: Nsight Compute's
 * launches summed up per kernel and per execution, beside the suite's
 * declared bytes and benchrun's own median of the same case; the check of
 * the declared bytes against what DRAM moved; the profile's JSON document.
 */
#ifndef BR_PROFILE_H
#define BR_PROFILE_H

#include <stddef.h>

#include "ncu_csv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A declared `bytes` that differs from DRAM's bytes by more than this
 * fraction of DRAM's gets a warning. */
#define BR_PROFILE_BYTES_TOLERANCE 0.10

/* One distinct kernel of the profiled executions: medians over its launches. */
typedef struct br_profile_kernel {
    const char *name;        /* borrowed from the report */
    size_t launches;         /* how many the report has */
    double duration_ns;      /* median gpu__time_duration.sum, ns */
    double dram_read_bytes;  /* median per launch, bytes */
    double dram_write_bytes; /* median per launch, bytes */
    double occupancy_pct;    /* median achieved occupancy, % */
    double sm_pct;           /* median SM throughput, % of peak */
    double mem_pct;          /* median memory throughput, % of peak */
    double l2_hit_pct;       /* median L2 hit rate, % */
} br_profile_kernel;

/* The profile of one case. */
typedef struct br_profile {
    /* the case (borrowed strings) */
    const char *suite;     /* suite name */
    const char *kernel;    /* kernel name as the suite names it */
    const char *params;    /* "n=2^28" */
    const char *device;    /* GPU name, or NULL when unknown */
    double declared_bytes; /* the suite's `bytes` per execution; NAN when it has none */
    double flops;          /* the suite's `flops` per execution; NAN when none */
    /* benchrun's own cold measurement of the case (NAN when it was not
     * measured: no GPU, or it failed) */
    double median_ns;        /* the headline median, ns per execution */
    const char *clock;       /* its clock: "kernel" or "events" */
    double event_median_ns;  /* CUDA event median, ns */
    double kernel_median_ns; /* kernel-clock median, ns (NAN without CUPTI) */
    /* ncu */
    const char *range;          /* the NVTX filter ncu was given ("benchrun@sample/") */
    size_t executions;          /* executions profiled (samples of the run under ncu) */
    br_profile_kernel *kernels; /* owned: distinct kernels, in first-launch order */
    size_t n_kernels;
    size_t n_launches;
    double duration_ns;      /* all launches' durations summed, per execution, ns */
    double dram_read_bytes;  /* summed, per execution */
    double dram_write_bytes; /* summed, per execution */
} br_profile;

/* Fill p's ncu fields from report r (borrowed by p: keep it alive while p
 * is used), whose launches came from `executions` executions (> 0) of the
 * case: per kernel the medians over its launches, per execution the sums
 * over every launch divided by executions. The case fields are left alone.
 * Returns 0, or -1 with the error set (out of memory, no launch, no
 * execution). Dispose with br_profile_dispose. */
int br_profile_summarise(br_profile *p, const br_ncu_report *r, size_t executions);

/* Release what p owns (the kernels); accepts NULL. */
void br_profile_dispose(br_profile *p);

/* The check of the suite's bytes against DRAM's: when both are known and
 * |declared / dram - 1| > BR_PROFILE_BYTES_TOLERANCE, writes the warning
 * into buf ("the suite's bytes (2.15 GB) is 2.0× what the DRAM moved (1.07
 * GB)"; ascii: "x" for "×") and returns 1; else returns 0 (buf "" when
 * len > 0). */
int br_profile_bytes_check(char *buf, size_t len, double declared, double dram, int ascii);

/* Write the profile as JSON to path ("-": standard output), atomically:
 * {"suite", "kernel", "params", "device", "declared_bytes", "flops",
 *  "benchrun": {"median_ns", "clock", "event_median_ns", "kernel_median_ns"},
 *  "ncu": {"range", "executions", "launches", "duration_ns", "dram_read_bytes",
 *          "dram_write_bytes", "dram_bytes", "bytes_ratio" (declared / dram),
 *          "bytes_warning" (string or null),
 *          "kernels": [{"name", "launches", "duration_ns", "dram_read_bytes",
 *                       "dram_write_bytes", "occupancy_pct", "sm_pct",
 *                       "mem_pct", "l2_hit_pct"}]}}
 * (ns and bytes per execution or per launch as named; NAN as null; the
 * warning in ASCII). Returns
 * 0, or -1 with the error set (nothing written). */
int br_profile_write_json(const char *path, const br_profile *p);

#ifdef __cplusplus
}
#endif
#endif
