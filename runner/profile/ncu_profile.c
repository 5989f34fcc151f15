/* SPDX-License-Identifier: Apache-2.0 */
/* One case's Nsight Compute profile summed up (ncu_profile.h). */
#include "ncu_profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/error.h"
#include "base/util.h"
#include "model/stats.h"

/* The median of field `off` (a double of br_ncu_launch) over the launches
 * of kernel `name`; tmp has room for r->n values. */
static double kernel_median(const br_ncu_report *r, const char *name, size_t off, double *tmp) {
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->launches[i].kernel, name) == 0)
            tmp[n++] = *(const double *)((const char *)&r->launches[i] + off);
    return br_stats_finite_median(tmp, n);
}

/* The Tensor pipes of a launch, in the order their names are reported. */
static const struct {
    const char *name;
    size_t offset;
} tensor_pipes[] = {
    {"hmma", offsetof(br_ncu_launch, hmma_pct)}, {"gmma", offsetof(br_ncu_launch, gmma_pct)},
    {"imma", offsetof(br_ncu_launch, imma_pct)}, {"imma", offsetof(br_ncu_launch, imma_inst_pct)},
    {"dmma", offsetof(br_ncu_launch, dmma_pct)}, {"tensor", offsetof(br_ncu_launch, tensor_pct)},
};
#define N_TENSOR_PIPES (sizeof tensor_pipes / sizeof *tensor_pipes)

/* The largest finite value of a and b (NAN when neither is). */
static double max_finite(double a, double b) {
    return !isfinite(a) ? b : !isfinite(b) ? a : a > b ? a : b;
}

/* The busiest Tensor pipe of launch l, %, and its name (*pipe; NULL with
 * NAN when ncu gave none). */
static double launch_tensor(const br_ncu_launch *l, const char **pipe) {
    double best = NAN;
    *pipe = NULL;
    for (size_t i = 0; i < N_TENSOR_PIPES; i++) {
        double v = *(const double *)((const char *)l + tensor_pipes[i].offset);
        if (isfinite(v) && !(v <= best)) {
            best = v;
            *pipe = tensor_pipes[i].name;
        }
    }
    return best;
}

/* The busiest CUDA-core pipe of launch l, % (NAN when ncu gave none). */
static double launch_cuda(const br_ncu_launch *l) {
    return max_finite(max_finite(l->fma_pct, l->fp16_pct), l->fp64_pct);
}

/* The kernel's Tensor pipe: the busiest of the medians of each. */
static void kernel_tensor(br_profile_kernel *k, const br_ncu_report *r, double *tmp) {
    k->tensor_pct = NAN;
    k->tensor_pipe = NULL;
    for (size_t i = 0; i < N_TENSOR_PIPES; i++) {
        double v = kernel_median(r, k->name, tensor_pipes[i].offset, tmp);
        if (isfinite(v) && !(v <= k->tensor_pct)) {
            k->tensor_pct = v;
            k->tensor_pipe = tensor_pipes[i].name;
        }
    }
}

/* The pipes over every launch, each weighted by its duration. */
static void profile_pipes(br_profile *p, const br_ncu_report *r) {
    double t = 0, tw = 0, c = 0, cw = 0;
    for (size_t i = 0; i < r->n; i++) {
        const br_ncu_launch *l = &r->launches[i];
        const char *pipe;
        double w = isfinite(l->duration_ns) && l->duration_ns > 0 ? l->duration_ns : 0;
        double vt = launch_tensor(l, &pipe), vc = launch_cuda(l);
        if (isfinite(vt)) {
            t += vt * w;
            tw += w;
        }
        if (isfinite(vc)) {
            c += vc * w;
            cw += w;
        }
    }
    p->tensor_pct = tw > 0 ? t / tw : NAN;
    p->cuda_pct = cw > 0 ? c / cw : NAN;
}

static void fill_kernel(br_profile_kernel *k, const br_ncu_report *r, double *tmp) {
    k->duration_ns = kernel_median(r, k->name, offsetof(br_ncu_launch, duration_ns), tmp);
    k->dram_read_bytes = kernel_median(r, k->name, offsetof(br_ncu_launch, dram_read_bytes), tmp);
    k->dram_write_bytes = kernel_median(r, k->name, offsetof(br_ncu_launch, dram_write_bytes), tmp);
    k->occupancy_pct = kernel_median(r, k->name, offsetof(br_ncu_launch, occupancy_pct), tmp);
    k->sm_pct = kernel_median(r, k->name, offsetof(br_ncu_launch, sm_pct), tmp);
    k->mem_pct = kernel_median(r, k->name, offsetof(br_ncu_launch, mem_pct), tmp);
    k->l2_hit_pct = kernel_median(r, k->name, offsetof(br_ncu_launch, l2_hit_pct), tmp);
    kernel_tensor(k, r, tmp);
    k->fma_pct = kernel_median(r, k->name, offsetof(br_ncu_launch, fma_pct), tmp);
    k->fp16_pct = kernel_median(r, k->name, offsetof(br_ncu_launch, fp16_pct), tmp);
    k->fp64_pct = kernel_median(r, k->name, offsetof(br_ncu_launch, fp64_pct), tmp);
}

int br_profile_summarise(br_profile *p, const br_ncu_report *r, size_t executions) {
    if (!r->n)
        return br_error_set("Nsight Compute profiled no kernel launch");
    if (!executions)
        return br_error_set("no execution was profiled");
    double *tmp = malloc(r->n * sizeof *tmp);
    p->kernels = calloc(r->n, sizeof *p->kernels);
    if (!tmp || !p->kernels) {
        free(tmp);
        free(p->kernels);
        p->kernels = NULL;
        return br_error_nomem();
    }
    p->n_kernels = 0;
    double dur = 0, rd = 0, wr = 0;
    for (size_t i = 0; i < r->n; i++) {
        const br_ncu_launch *l = &r->launches[i];
        dur += l->duration_ns;
        rd += l->dram_read_bytes;
        wr += l->dram_write_bytes;
        size_t k = 0;
        while (k < p->n_kernels && strcmp(p->kernels[k].name, l->kernel) != 0)
            k++;
        if (k == p->n_kernels)
            p->kernels[p->n_kernels++].name = l->kernel;
        p->kernels[k].launches++;
    }
    for (size_t k = 0; k < p->n_kernels; k++)
        fill_kernel(&p->kernels[k], r, tmp);
    free(tmp);
    profile_pipes(p, r);
    p->executions = executions;
    p->n_launches = r->n;
    p->duration_ns = dur / (double)executions;
    p->dram_read_bytes = rd / (double)executions;
    p->dram_write_bytes = wr / (double)executions;
    return 0;
}

void br_profile_dispose(br_profile *p) {
    if (!p)
        return;
    free(p->kernels);
    p->kernels = NULL;
    p->n_kernels = 0;
}

int br_profile_bytes_check(char *buf, size_t len, double declared, double dram, int ascii) {
    if (len)
        buf[0] = '\0';
    if (!(declared > 0) || !(dram > 0) || !isfinite(declared) || !isfinite(dram))
        return 0;
    double ratio = declared / dram;
    if (fabs(ratio - 1) <= BR_PROFILE_BYTES_TOLERANCE)
        return 0;
    char a[32], b[32];
    br_format_bytes(a, sizeof a, declared);
    br_format_bytes(b, sizeof b, dram);
    snprintf(buf, len, "the suite's bytes (%s) is %.*f%s what the DRAM moved (%s)", a,
             ratio < 0.1  ? 3
             : ratio < 10 ? 2
                          : 1,
             ratio, ascii ? "x" : "\u00d7", b);
    return 1;
}

/* 1 for a precision of the Tensor Cores, 0 for one of the CUDA cores, -1
 * for none. */
static int on_tensor_cores(br_precision p) {
    if (p >= BR_PRECISION_FP64 && p <= BR_PRECISION_BF16)
        return 0;
    return p >= BR_PRECISION_FP64_TENSOR && p < BR_PRECISION_COUNT ? 1 : -1;
}

int br_profile_precision_check(char *buf, size_t len, br_precision declared, double tensor,
                               double cuda) {
    if (len)
        buf[0] = '\0';
    int tc = on_tensor_cores(declared);
    if (tc == 1 && tensor < BR_PROFILE_PIPE_IDLE_PCT && cuda > BR_PROFILE_PIPE_BUSY_PCT) {
        snprintf(buf, len,
                 "the suite declares %s, but the Tensor pipe was idle (%.1f%%) and the CUDA "
                 "cores busy (%.1f%%): the %% of peak is against the wrong ceiling",
                 br_precision_name(declared), tensor, cuda);
        return 1;
    }
    if (tc == 0 && tensor > BR_PROFILE_PIPE_BUSY_PCT) {
        snprintf(buf, len,
                 "the suite declares %s (CUDA cores), but the Tensor pipe was busy (%.1f%%): "
                 "the %% of peak is against the wrong ceiling",
                 br_precision_name(declared), tensor);
        return 1;
    }
    return 0;
}

static json_t *num(double v) {
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *str(const char *s) {
    return s ? json_string(s) : json_null();
}

static json_t *kernels_json(const br_profile *p) {
    json_t *a = json_array();
    for (size_t i = 0; a && i < p->n_kernels; i++) {
        const br_profile_kernel *k = &p->kernels[i];
        json_t *o = json_pack(
            "{s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name", str(k->name),
            "launches", (json_int_t)k->launches, "duration_ns", num(k->duration_ns),
            "dram_read_bytes", num(k->dram_read_bytes), "dram_write_bytes",
            num(k->dram_write_bytes), "occupancy_pct", num(k->occupancy_pct), "sm_pct",
            num(k->sm_pct), "mem_pct", num(k->mem_pct), "l2_hit_pct", num(k->l2_hit_pct),
            "tensor_pct", num(k->tensor_pct), "tensor_pipe", str(k->tensor_pipe), "fma_pct",
            num(k->fma_pct), "fp16_pct", num(k->fp16_pct), "fp64_pct", num(k->fp64_pct));
        if (!o || json_array_append_new(a, o) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *profile_json(const br_profile *p) {
    double dram = p->dram_read_bytes + p->dram_write_bytes;
    char warn[256], pwarn[256];
    int warned = br_profile_bytes_check(warn, sizeof warn, p->declared_bytes, dram, 1);
    int pwarned =
        br_profile_precision_check(pwarn, sizeof pwarn, p->precision, p->tensor_pct, p->cuda_pct);
    json_t *ncu = json_pack(
        "{s:o,s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "range", str(p->range),
        "executions", (json_int_t)p->executions, "launches", (json_int_t)p->n_launches,
        "duration_ns", num(p->duration_ns), "dram_read_bytes", num(p->dram_read_bytes),
        "dram_write_bytes", num(p->dram_write_bytes), "dram_bytes", num(dram), "bytes_ratio",
        num(p->declared_bytes / dram), "bytes_warning", warned ? json_string(warn) : json_null(),
        "tensor_pct", num(p->tensor_pct), "cuda_pct", num(p->cuda_pct), "precision_warning",
        pwarned ? json_string(pwarn) : json_null(), "kernels", kernels_json(p));
    if (ncu && json_object_set_new(ncu, "precision",
                                   p->precision != BR_PRECISION_NONE
                                       ? json_string(br_precision_name(p->precision))
                                       : json_null()) != 0) {
        json_decref(ncu);
        ncu = NULL;
    }
    json_t *bench =
        json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "median_ns", num(p->median_ns), "clock",
                  str(p->clock), "event_median_ns", num(p->event_median_ns), "kernel_median_ns",
                  num(p->kernel_median_ns), "pct_peak", num(p->pct_peak), "metric", str(p->metric));
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "suite", str(p->suite), "kernel",
                     str(p->kernel), "params", str(p->params), "device", str(p->device),
                     "declared_bytes", num(p->declared_bytes), "flops", num(p->flops), "benchrun",
                     bench, "ncu", ncu);
}

static int write_doc(FILE *f, void *ctx) {
    if (json_dumpf(ctx, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0 || fputc('\n', f) == EOF)
        return br_error_set("cannot write the profile");
    return 0;
}

int br_profile_write_json(const char *path, const br_profile *p) {
    json_t *doc = profile_json(p);
    if (!doc)
        return br_error_nomem();
    int rc = br_write_atomic(path, write_doc, doc);
    json_decref(doc);
    return rc;
}
