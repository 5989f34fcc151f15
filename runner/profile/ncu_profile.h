/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun profile` found for one case: Nsight Compute's
 * launches summed up per kernel and per execution, beside the suite's
 * declared bytes and benchrun's own median of the same case; the check of
 * the declared bytes against what DRAM moved; the profile's JSON document.
 */
#ifndef BR_PROFILE_H
#define BR_PROFILE_H

#include <stddef.h>

#include "model/types.h"
#include "ncu_csv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A declared `bytes` that differs from DRAM's bytes by more than this
 * fraction of DRAM's gets a warning. */
#define BR_PROFILE_BYTES_TOLERANCE 0.10

/* A pipe active below this % of its peak is idle, above the second busy, for
 * the check of the declared precision (br_profile_precision_check). A
 * Tensor Core GEMM keeps its pipe well above 20% (cuBLAS at 50-90%), while a
 * CUDA-core kernel's Tensor pipe reads 0; between them the check says
 * nothing. */
#define BR_PROFILE_PIPE_IDLE_PCT 5.0
#define BR_PROFILE_PIPE_BUSY_PCT 20.0

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
    /* Pipes, median % of peak over the SMs' active cycles (NAN when ncu had
     * none): the busiest Tensor pipe and its name ("hmma", "gmma", "imma",
     * "dmma", "tensor"; NULL when none), the CUDA cores' FMA, FP16, FP64. */
    double tensor_pct;
    const char *tensor_pipe; /* static */
    double fma_pct, fp16_pct, fp64_pct;
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
    /* What the case's FLOPs are (`precision:`), BR_PRECISION_NONE when the
     * suite does not say; checked against the pipes ncu saw busy. */
    br_precision precision;
    /* benchrun's own cold measurement of the case (NAN when it was not
     * measured: no GPU, or it failed) */
    double median_ns;        /* the headline median, ns per execution */
    const char *clock;       /* its clock: "kernel" or "events" */
    double event_median_ns;  /* CUDA event median, ns */
    double kernel_median_ns; /* kernel-clock median, ns (NAN without CUPTI) */
    double pct_peak;         /* its % of peak (the run's metric's peak); NAN when none */
    const char *metric;      /* that metric's name ("GFLOP/s", "GB/s"); NULL when none */
    /* ncu */
    const char *range;          /* the NVTX filter ncu was given ("benchrun@sample/") */
    size_t executions;          /* executions profiled (samples of the run under ncu) */
    br_profile_kernel *kernels; /* owned: distinct kernels, in first-launch order */
    size_t n_kernels;
    size_t n_launches;
    double duration_ns;      /* all launches' durations summed, per execution, ns */
    double dram_read_bytes;  /* summed, per execution */
    double dram_write_bytes; /* summed, per execution */
    /* Pipes over all launches, each launch weighted by its duration, % of
     * peak (NAN when ncu had none): the busiest Tensor pipe of each launch,
     * and the busiest of the CUDA cores' FMA, FP16 and FP64 pipes. */
    double tensor_pct;
    double cuda_pct;
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

/* The check of the declared precision against the pipes ncu saw (tensor:
 * the Tensor pipe's %, cuda: the busiest CUDA-core pipe's %; NAN when not
 * known): a Tensor precision (fp64-tensor ... int8-tensor-sparse) whose
 * Tensor pipe was idle (< BR_PROFILE_PIPE_IDLE_PCT) while a CUDA-core pipe
 * was busy (> BR_PROFILE_PIPE_BUSY_PCT), or a CUDA-core precision (fp64,
 * fp32, fp16, bf16) whose Tensor pipe was busy, writes the warning into buf
 * ("the suite declares fp16-tensor, but the Tensor pipe was idle (0.0%)
 * and the CUDA cores busy (63.2%): the % of peak is against the wrong
 * ceiling") and returns 1; anything else (no precision declared, a pipe not
 * known, agreement) returns 0 (buf "" when len > 0). Pure. */
int br_profile_precision_check(char *buf, size_t len, br_precision declared, double tensor,
                               double cuda);

/* Write the profile as JSON to path ("-": standard output), atomically:
 * {"suite", "kernel", "params", "device", "declared_bytes", "flops",
 *  "benchrun": {"median_ns", "clock", "event_median_ns", "kernel_median_ns",
 *               "pct_peak", "metric"},
 *  "ncu": {"range", "executions", "launches", "duration_ns", "dram_read_bytes",
 *          "dram_write_bytes", "dram_bytes", "bytes_ratio" (declared / dram),
 *          "bytes_warning" (string or null), "tensor_pct", "cuda_pct",
 *          "precision" (the declared one's name, or null), "precision_warning"
 *          (string or null),
 *          "kernels": [{"name", "launches", "duration_ns", "dram_read_bytes",
 *                       "dram_write_bytes", "occupancy_pct", "sm_pct",
 *                       "mem_pct", "l2_hit_pct", "tensor_pct", "tensor_pipe",
 *                       "fma_pct", "fp16_pct", "fp64_pct"}]}}
 * (ns and bytes per execution or per launch as named; NAN as null; the
 * warning in ASCII). Returns
 * 0, or -1 with the error set (nothing written). */
int br_profile_write_json(const char *path, const br_profile *p);

#ifdef __cplusplus
}
#endif
#endif
