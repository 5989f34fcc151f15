/* SPDX-License-Identifier: Apache-2.0 */
/* A job's kernels: its sources compiled (or taken from the
 * cache) and loaded once per compile-time variant, and each kernel of the
 * suite found in them.
 */
#ifndef BR_RESOLVE_H
#define BR_RESOLVE_H

#include <stddef.h>

#include "build.h"
#include "plan/job.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One suite kernel of one variant, resolved. */
typedef struct br_kernel_ref {
    const br_kernel *k;   /* NULL when not resolved */
    br_module_handle *mh; /* module that defines it, or the failed/skipped one */
    br_case_status status;
    br_stage skip; /* why a SKIPPED kernel is: BR_STAGE_NO_GPU (0 reads so too) or
                      BR_STAGE_PRECISION (br_job_skip_kernel) */
} br_kernel_ref;

/* What br_job_build made for a job (br_job.built, owned by the job). */
struct br_job_build {
    br_module_handle *mods; /* variant-major: n_variants x n_sources, sources in suite order */
    size_t n_mods;
    br_kernel_ref *refs; /* variant-major: n_variants x n_kernels */
};

/* Release a build result; accepts NULL. */
void br_job_build_free(struct br_job_build *b);

/* The kernel of case i of a built job (job->built set). */
const br_kernel_ref *br_job_case_ref(const br_job *job, size_t i);

/* Skip GPU kernel `kernel` (index into the suite's kernels) of a built job
 * in every compile-time variant where it would run, for reason `why` (a
 * skip's br_stage, e.g. BR_STAGE_PRECISION: the GPU lacks its declared
 * precision); a kernel that failed or is skipped already, and a host
 * kernel, stay as they are. Out of range or an unbuilt job: nothing. */
void br_job_skip_kernel(br_job *job, size_t kernel, br_stage why);

/* Where a resolved kernel runs: the GPU when its module is a GPU module. */
br_backend br_kernel_ref_backend(const br_kernel_ref *ref);

/* Where and how a job is built: what the session found out about the
 * machine, handed down so the build stage knows nothing of the session. */
typedef struct br_build_target {
    const char *cache_dir; /* the compile cache */
    const char *gpu_arch;  /* "sm_90" etc.; NULL without a usable GPU */
    const char *gpu_why;   /* why GPU kernels cannot run (gpu_arch NULL); may be NULL */
    /* 1 (benchrun check): GPU sources are compiled without a usable GPU too;
     * 0 (a run): they are not, their cases skipped (br_build_opts) */
    int compile_without_gpu;
    int jobs;             /* parallel compiles, >= 1 */
    int quiet;            /* 1: no build notes through br_log */
    int progress;         /* 1: a progress line while compilers run (br_build_opts) */
    double gpu_mem_bytes; /* the GPU's memory, bytes (0 without a usable GPU) */
    const char *gpu_name; /* the GPU's name, for messages; "" without one */
} br_build_target;

/* 1 when the job has a GPU (.cu) source, so its build needs the GPU's
 * architecture (br_build_target.gpu_arch). */
int br_job_needs_gpu(const br_job *job);

/* Compile (or take from the cache) and load the job's kernel sources, once
 * per compile-time variant (in parallel, each a cache entry of its own:
 * `-DNAME=VALUE` for each `defines` param, `-lNAME` for each `link`
 * library), and find each suite kernel in them. Diagnostics of failed compiles go to
 * br_log; those kernels' cases will be reported failed. Without a
 * usable GPU, GPU sources are not compiled and their kernels' cases will be
 * skipped, unless t->compile_without_gpu (benchrun check: then they are
 * built when nvcc can run, so compile errors and unknown names show). A
 * kernel name no built module defines is then taken for one of the GPU
 * sources not compiled (skipped). Returns 0,
 * or -1 with the error set: bad input (a kernel that no source defines, or
 * that two define: file:line:column) or an unusable cache. Call for every job
 * before executing any, so bad input runs nothing. */
int br_job_build(br_job *job, const br_build_target *t);

#ifdef __cplusplus
}
#endif
#endif
