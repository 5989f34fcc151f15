/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun profile` does: exactly one GPU case,
 * measured once as benchrun does, then run under Nsight Compute (ncu) with
 * the NVTX range of the timed launches selected; ncu's figures printed
 * beside benchrun's in a box (and as JSON). */
#ifndef BR_PROFILE_CASE_H
#define BR_PROFILE_CASE_H

#include <stddef.h>

#include "model/types.h"

/* What `benchrun profile` asks for; every pointer borrowed. */
typedef struct br_profile_opts {
    const char *suite;           /* the suite file */
    const char *const *patterns; /* -k globs: with params, they must select one case */
    size_t n_patterns;
    const br_param_override *params; /* -p */
    size_t n_params;
    const char *set;       /* --set: ncu's section set (basic, full), or NULL: ncu's default */
    const char *json;      /* --json FILE ("-": stdout, which is then the JSON's alone) */
    const char *raw;       /* --raw FILE: ncu's output as it printed it, or NULL */
    const char *cache_dir; /* --cache-dir, or NULL */
    int samples;           /* executions to profile (1..100) */
    int ascii, quiet;
    char *const *extra; /* arguments for ncu (after --) */
    size_t n_extra;     /* at most 128 */
} br_profile_opts;

/* Plan o->suite with -k and -p; exactly one case of a suite with a GPU
 * source must match (more are listed, at most 20). Find ncu
 * (br_profile_find_ncu), run this benchrun (/proc/self/exe) on the case as
 * it measures it, then under ncu (cold samples, no warmup, no launch hold,
 * no CUPTI, the NVTX range of the timed launches; ncu's clocks left
 * unlocked unless o->extra says otherwise), in a scratch directory under
 * $TMPDIR that is removed after; read ncu's CSV and print the box on stdout
 * (unless --json -), write o->json and o->raw. Messages on stderr as
 * "benchrun profile: ...". Returns the exit status: 0 profiled; 1 the case
 * failed (in benchrun's own run or under ncu) or an output could not be
 * written; 2 not exactly one case, a suite without a GPU source, a host
 * kernel, no ncu, or ncu failed (no permission for the GPU's counters:
 * said with the fix). */
int br_profile_case(const br_profile_opts *o);

#endif
