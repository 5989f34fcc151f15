/* SPDX-License-Identifier: Apache-2.0 */
/* A job's kernels built and found (resolve.h): the compile of
 * every source per compile-time variant, the suite's kernel names matched
 * to the loaded modules, and the memory check before anything runs. */
#include "resolve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"

void br_job_build_free(struct br_job_build *b) {
    if (!b)
        return;
    for (size_t i = 0; i < b->n_mods && b->mods; i++)
        br_module_handle_dispose(&b->mods[i]);
    free(b->mods);
    free(b->refs);
    free(b);
}

/* Match the suite's kernels to the loaded modules' tables. Kernels of GPU
 * modules are SKIPPED when there is no usable GPU. A name no module defines is
 * bad input, unless a module that could define it failed or was skipped. */
static int resolve_kernels(br_kernel_ref *refs, const br_suite *suite, br_module_handle *mods,
                           size_t n_mods, int gpu_ok) {
    br_module_handle *failed = NULL, *skipped = NULL;
    for (size_t m = 0; m < n_mods; m++) {
        if (mods[m].state == BR_MODULE_FAILED && !failed)
            failed = &mods[m];
        if (mods[m].state == BR_MODULE_SKIPPED && !skipped)
            skipped = &mods[m];
    }
    for (size_t i = 0; i < suite->n_kernels; i++) {
        const char *name = suite->kernels[i].text;
        br_kernel_ref *ref = &refs[i];
        for (size_t m = 0; m < n_mods; m++) {
            const br_module *mod = mods[m].module;
            for (uint32_t t = 0; mod && t < mod->n_kernels; t++) {
                if (!mod->kernels[t].name || strcmp(mod->kernels[t].name, name) != 0)
                    continue;
                if (ref->k)
                    return br_error_at(suite->kernels[i].pos,
                                       "kernel '%s' is defined in both %s and %s", name,
                                       ref->mh->source, mods[m].source);
                if (!mod->kernels[t].run)
                    return br_error_at(suite->kernels[i].pos,
                                       "kernel '%s' in %s has no run function", name,
                                       mods[m].source);
                ref->k = &mod->kernels[t];
                ref->mh = &mods[m];
                ref->status = mods[m].is_gpu && !gpu_ok ? BR_STATUS_SKIPPED : BR_STATUS_OK;
            }
        }
        if (ref->k)
            continue;
        if (failed) {
            ref->mh = failed;
            ref->status = BR_STATUS_FAILED;
        } else if (skipped) {
            ref->mh = skipped;
            ref->status = BR_STATUS_SKIPPED;
        } else {
            char have[1024] = "";
            size_t off = 0;
            for (size_t m = 0; m < n_mods; m++)
                for (uint32_t t = 0; mods[m].module && t < mods[m].module->n_kernels; t++)
                    if (off < sizeof have && mods[m].module->kernels[t].name)
                        off += (size_t)snprintf(have + off, sizeof have - off, "%s%s",
                                                off ? ", " : "", mods[m].module->kernels[t].name);
            return br_error_at(suite->kernels[i].pos,
                               "kernel '%s' is not defined in any source of the suite (found: %s)",
                               name, have[0] ? have : "none");
        }
    }
    return 0;
}

/* A compiler's log, whole, with a newline at the end: in pieces under
 * br_log's limit, which the sink writes one after the other. */
static void log_text(const char *text) {
    size_t n = strlen(text);
    for (size_t off = 0; off < n; off += 4096)
        br_log(BR_LOG_ERROR, "%.4096s", text + off);
    if (n && text[n - 1] != '\n')
        br_log(BR_LOG_ERROR, "\n");
}

static void report_modules(const br_module_handle *mods, size_t n, int quiet) {
    size_t cached = 0, compiled = 0;
    for (size_t i = 0; i < n; i++) {
        const br_module_handle *h = &mods[i];
        if (h->state == BR_MODULE_FAILED) {
            br_log(BR_LOG_ERROR, "benchrun: %s: %s\n", h->source, h->message);
            if (h->command)
                br_log(BR_LOG_ERROR, "  command: %s\n", h->command);
            if (h->log)
                log_text(h->log);
        } else if (h->state == BR_MODULE_LOADED) {
            if (h->from_cache)
                cached++;
            else
                compiled++;
            if (!quiet && !h->from_cache)
                br_log(BR_LOG_NOTE, "benchrun: compiled %s in %.1f s\n", h->source,
                       h->compile_ns / 1e9);
        }
    }
    if (!quiet)
        br_log(BR_LOG_NOTE, "benchrun: kernel modules: %zu compiled, %zu from cache\n", compiled,
               cached);
}

/* The extra compiler flags of variant x: -DNAME=VALUE per `defines` param,
 * then -lNAME per `link` library, into flags[] (owned strings, freed by the
 * caller). Returns the count, or -1 (out of memory). */
static int variant_flags(char **flags, const br_job *job, size_t x) {
    const br_suite *s = &job->suite;
    const int64_t *v = br_plan_params(&job->plan, job->variant_combo[x]);
    int n = 0;
    for (size_t p = 0; p < s->n_params; p++)
        if (s->params[p].define &&
            !(flags[n++] = br_strfmt("-D%s=%lld", s->params[p].name, (long long)v[p])))
            return -1;
    for (size_t l = 0; l < s->n_libs; l++)
        if (!(flags[n++] = br_strfmt("-l%s", s->libs[l].text)))
            return -1;
    return n;
}

_Static_assert(BR_SUITE_MAX_USER_FLAGS <= BR_BUILD_MAX_USER_FLAGS,
               "the suite's user flags fit a build's");

/* The suite's cflags, nvcc_flags and include_dirs as the build takes them
 * (borrowed from the suite). */
typedef struct user_flags {
    const char *cc[BR_SUITE_MAX_USER_FLAGS], *nvcc[BR_SUITE_MAX_USER_FLAGS];
    const char *inc[BR_SUITE_MAX_USER_FLAGS];
} user_flags;

static void user_flags_of(user_flags *u, const br_suite *s) {
    for (size_t i = 0; i < s->n_cflags && i < BR_SUITE_MAX_USER_FLAGS; i++)
        u->cc[i] = s->cflags[i].text;
    for (size_t i = 0; i < s->n_nvcc_flags && i < BR_SUITE_MAX_USER_FLAGS; i++)
        u->nvcc[i] = s->nvcc_flags[i].text;
    for (size_t i = 0; i < s->n_include_dirs && i < BR_SUITE_MAX_USER_FLAGS; i++)
        u->inc[i] = s->include_dirs[i].text;
}

/* The kernel of case i of a built job. */
const br_kernel_ref *br_job_case_ref(const br_job *job, size_t i) {
    const br_plan_case *pc = &job->plan.cases[i];
    return &job->built->refs[job->variant_of[pc->combo] * job->suite.n_kernels + pc->kernel];
}

void br_job_skip_kernel(br_job *job, size_t kernel, br_stage why) {
    if (!job || !job->built || kernel >= job->suite.n_kernels)
        return;
    for (size_t v = 0; v < job->n_variants; v++) {
        br_kernel_ref *ref = &job->built->refs[v * job->suite.n_kernels + kernel];
        if (ref->status == BR_STATUS_OK && br_kernel_ref_backend(ref) == BR_BACKEND_GPU) {
            ref->status = BR_STATUS_SKIPPED;
            ref->skip = why;
        }
    }
}

br_backend br_kernel_ref_backend(const br_kernel_ref *ref) {
    return ref->mh && ref->mh->is_gpu ? BR_BACKEND_GPU : BR_BACKEND_HOST;
}

/* Refuse, before anything runs, a case whose footprint (`memory`) is more
 * than the memory where it would run: the device's for a GPU kernel (when a
 * GPU is usable), the host's physical memory for a host kernel. Returns 0,
 * or -1 with a file:line:column error naming the case. */
static int check_memory(const br_job *job, const br_build_target *t) {
    const br_suite *suite = &job->suite;
    if (!br_work_present(&suite->memory))
        return 0;
    double host = br_host_memory();
    for (size_t i = 0; i < job->plan.n_cases; i++) {
        const br_plan_case *pc = &job->plan.cases[i];
        int gpu = br_kernel_ref_backend(br_job_case_ref(job, i)) == BR_BACKEND_GPU;
        double need = job->memory[i], have = gpu ? t->gpu_mem_bytes : host;
        if (isnan(need) || (gpu && !t->gpu_arch) || need <= have)
            continue;
        char where[512], a[32], b[32];
        br_plan_describe(where, sizeof where, suite, br_plan_params(&job->plan, pc->combo));
        br_format_bytes(a, sizeof a, need);
        br_format_bytes(b, sizeof b, have);
        return br_error_at(br_work_expr(&suite->memory, pc->kernel)->pos,
                           "'memory' is %s for %s%s%s: more than the %s of %s", a,
                           suite->kernels[pc->kernel].text, suite->n_params ? " at " : "", where, b,
                           gpu ? t->gpu_name : "host memory");
    }
    return 0;
}

int br_job_needs_gpu(const br_job *job) {
    for (size_t i = 0; i < job->suite.n_sources; i++)
        if (br_has_suffix(job->suite.sources[i].text, ".cu"))
            return 1;
    return 0;
}

int br_job_build(br_job *job, const br_build_target *t) {
    const br_suite *suite = &job->suite;
    size_t n_src = suite->n_sources, n_var = job->n_variants ? job->n_variants : 1;
    /* The suite keeps defines + link within BR_BUILD_MAX_EXTRA_FLAGS. */
    size_t n_mods = n_src * n_var, n_flags_each = BR_BUILD_MAX_EXTRA_FLAGS;
    int rc = -1;
    user_flags uf;
    br_build_src *srcs = calloc(n_mods ? n_mods : 1, sizeof *srcs);
    char **flags = calloc(n_var * n_flags_each, sizeof *flags);
    struct br_job_build *b = calloc(1, sizeof *b);
    if (b) {
        b->mods = calloc(n_mods ? n_mods : 1, sizeof *b->mods);
        b->refs = calloc(suite->n_kernels ? suite->n_kernels * n_var : 1, sizeof *b->refs);
        b->n_mods = n_mods;
    }
    if (!srcs || !flags || !b || !b->mods || !b->refs) {
        br_error_nomem();
        goto done;
    }
    user_flags_of(&uf, suite);
    for (size_t x = 0; x < n_var; x++) {
        char **f = flags + x * n_flags_each;
        int nf = job->variant_combo ? variant_flags(f, job, x) : 0;
        if (nf < 0) {
            br_error_nomem();
            goto done;
        }
        for (size_t i = 0; i < n_src; i++) {
            int gpu = br_has_suffix(suite->sources[i].text, ".cu");
            srcs[x * n_src + i] = (br_build_src){
                .path = suite->sources[i].text,
                .flags = (const char *const *)f,
                .n_flags = (size_t)nf,
                .user_flags = gpu ? uf.nvcc : uf.cc,
                .n_user_flags = gpu ? suite->n_nvcc_flags : suite->n_cflags,
                .include_dirs = uf.inc,
                .n_include_dirs = suite->n_include_dirs,
            };
        }
    }
    br_build_opts bo = {
        .cache_dir = t->cache_dir,
        .gpu_arch = t->gpu_arch,
        .compile_without_gpu = t->compile_without_gpu,
        .gpu_skip_reason = t->gpu_why,
        .jobs = t->jobs,
        .progress = t->progress,
    };
    /* The sources built: without a GPU (but for a check) not the GPU ones. */
    size_t n_built_src = n_src;
    for (size_t i = 0; i < n_src && !t->gpu_arch && !t->compile_without_gpu; i++)
        n_built_src -= br_has_suffix(suite->sources[i].text, ".cu") != 0;
    if (!t->quiet && n_built_src > 0) {
        if (n_var > 1)
            br_log(BR_LOG_NOTE,
                   "benchrun: %s: building %zu kernel module(s): %zu source(s) x %zu "
                   "compile-time variants (cache %s)\n",
                   suite->path, n_built_src * n_var, n_built_src, n_var, t->cache_dir);
        else
            br_log(BR_LOG_NOTE, "benchrun: %s: building %zu kernel module(s) (cache %s)\n",
                   suite->path, n_built_src, t->cache_dir);
    }
    if (br_build_modules(b->mods, srcs, n_mods, &bo) < 0)
        goto done;
    report_modules(b->mods, n_mods, t->quiet);
    for (size_t x = 0; x < n_var; x++)
        if (resolve_kernels(b->refs + x * suite->n_kernels, suite, b->mods + x * n_src, n_src,
                            t->gpu_arch != NULL) != 0)
            goto done;
    if (job->built_free)
        job->built_free(job->built);
    job->built = b;
    job->built_free = br_job_build_free;
    b = NULL;
    if (check_memory(job, t) != 0)
        goto done;
    rc = 0;
done:
    br_job_build_free(b);
    for (size_t i = 0; flags && i < n_var * n_flags_each; i++)
        free(flags[i]);
    free(flags);
    free(srcs);
    return rc;
}
