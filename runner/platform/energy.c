/* SPDX-License-Identifier: Apache-2.0 */
/* Energy per execution from NVML's counter (energy.h). */
#include "energy.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "model/stats.h"

/* The NVML declarations used, from the NVML API Reference Guide: nvmlReturn_t
 * (NVML_SUCCESS 0, NVML_ERROR_NOT_SUPPORTED 3), nvmlInit_v2(void),
 * nvmlDeviceGetHandleByUUID(const char *, nvmlDevice_t *),
 * nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t, unsigned long long *mJ).
 * nvml.h is not included and NVML is not linked (see energy.h). */
typedef int nvml_return;
typedef struct nvml_device_st *nvml_device;
#define NVML_OK            0
#define NVML_NOT_SUPPORTED 3

typedef struct nvml {
    void *lib;
    nvml_device dev;
    nvml_return (*energy)(nvml_device, unsigned long long *);
    const char *(*error_string)(nvml_return);
} nvml;

/* A function pointer from dlsym without the object-to-function pointer cast
 * ISO C leaves undefined (POSIX dlsym's rationale). */
static int sym(void *lib, const char *name, void *fn_out, size_t fn_size) {
    void *p = dlsym(lib, name);
    if (!p || fn_size != sizeof p)
        return -1;
    memcpy(fn_out, &p, sizeof p);
    return 0;
}

int br_energy_available(char *why, size_t len) {
#if BR_HAVE_CUDA
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, len, "%s", e ? e : "libnvidia-ml.so.1 cannot be loaded");
        return 0;
    }
    void *fn = NULL;
    int ok = sym(lib, "nvmlDeviceGetTotalEnergyConsumption", &fn, sizeof fn) == 0;
    if (!ok)
        snprintf(why, len, "libnvidia-ml.so.1 has no nvmlDeviceGetTotalEnergyConsumption");
    dlclose(lib);
    return ok;
#else
    snprintf(why, len, "benchrun was built without CUDA");
    return 0;
#endif
}

static nvml meter;     /* this process's counter, once opened */
static int meter_open; /* 1: open; -1: failed (meter_why says why) */
static char meter_why[512];

void *br_energy_nvml(const char *uuid) {
    if (meter_open == 0) {
        nvml_return (*init)(void) = NULL;
        nvml_return (*by_uuid)(const char *, nvml_device *) = NULL;
        unsigned long long mj = 0;
        nvml_return rc = NVML_OK;
        meter_open = -1;
        if (!(meter.lib = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL))) {
            snprintf(meter_why, sizeof meter_why, "NVML not available (%s)", dlerror());
        } else if (sym(meter.lib, "nvmlInit_v2", &init, sizeof init) ||
                   sym(meter.lib, "nvmlDeviceGetHandleByUUID", &by_uuid, sizeof by_uuid) ||
                   sym(meter.lib, "nvmlDeviceGetTotalEnergyConsumption", &meter.energy,
                       sizeof meter.energy) ||
                   sym(meter.lib, "nvmlErrorString", &meter.error_string,
                       sizeof meter.error_string)) {
            snprintf(meter_why, sizeof meter_why, "NVML lacks a function benchrun needs");
        } else if ((rc = init()) != NVML_OK || (rc = by_uuid(uuid, &meter.dev)) != NVML_OK) {
            snprintf(meter_why, sizeof meter_why, "NVML cannot open the device %s: %s", uuid,
                     meter.error_string(rc));
        } else if ((rc = meter.energy(meter.dev, &mj)) != NVML_OK) {
            snprintf(meter_why, sizeof meter_why, "%s",
                     rc == NVML_NOT_SUPPORTED
                         ? "the GPU has no energy counter (Volta and newer have one)"
                         : meter.error_string(rc));
        } else {
            meter_open = 1;
        }
    }
    if (meter_open < 0) {
        br_error_set("%s", meter_why);
        return NULL;
    }
    return &meter;
}

int br_energy_read_nvml(void *p, unsigned long long *mj) {
    nvml *m = p;
    nvml_return rc = m->energy(m->dev, mj);
    return rc == NVML_OK
               ? 0
               : br_error_set("nvmlDeviceGetTotalEnergyConsumption: %s", m->error_string(rc));
}

/* One edge of a window: run bursts until the counter differs from *mj (then
 * *mj, *t and *x hold the new reading, the time and the executions so far),
 * at least until `not_before` (ns). Returns 0, or -1 with the error set. */
static int next_edge(const br_energy_probe *p, unsigned long long *mj, double *t, double *x,
                     double not_before, double max_wait_ns) {
    unsigned long long start = *mj, now_mj = *mj;
    double begin = p->now_ns(p->ctx);
    for (;;) {
        if (p->burst(p->ctx, x) != 0 || p->read_mj(p->ctx, &now_mj) != 0)
            return -1;
        double now = p->now_ns(p->ctx);
        if (now_mj < start)
            return br_error_set("the energy counter went backwards (%llu mJ after %llu mJ)", now_mj,
                                start);
        if (now >= not_before && now_mj != start) {
            *mj = now_mj;
            *t = now;
            return 0;
        }
        if (now_mj == start && now - begin > max_wait_ns)
            return br_error_set("the energy counter did not change in %.0f ms", max_wait_ns / 1e6);
        if (now_mj != start)
            start = now_mj, begin = now; /* an update before not_before: wait for the next */
    }
}

int br_energy_windows(br_energy *out, const br_energy_probe *p, size_t n_windows, double window_ns,
                      double max_wait_ns) {
    memset(out, 0, sizeof *out);
    if (n_windows == 0 || n_windows > 64)
        return br_error_set("energy: %zu windows asked for (1 to 64)", n_windows);
    double jpe[64], watts[64], sum_ns = 0.0, sum_x = 0.0;
    for (size_t w = 0; w < n_windows; w++) {
        unsigned long long e0 = 0, e1;
        double t0 = 0, t1 = 0, x = 0;
        if (p->read_mj(p->ctx, &e0) != 0 || next_edge(p, &e0, &t0, &x, 0.0, max_wait_ns) != 0)
            return -1;
        double x0 = x;
        e1 = e0;
        if (next_edge(p, &e1, &t1, &x, t0 + window_ns, max_wait_ns) != 0)
            return -1;
        double joules = (double)(e1 - e0) / 1e3, execs = x - x0, secs = (t1 - t0) / 1e9;
        if (!(execs > 0.0) || !(secs > 0.0))
            return br_error_set("energy: a window with no execution");
        jpe[w] = joules / execs;
        watts[w] = joules / secs;
        sum_ns += t1 - t0;
        sum_x += execs;
    }
    double lo = jpe[0], hi = jpe[0];
    for (size_t w = 1; w < n_windows; w++)
        lo = fmin(lo, jpe[w]), hi = fmax(hi, jpe[w]);
    out->j_per_exec = br_stats_finite_median(jpe, n_windows);
    out->watts = br_stats_finite_median(watts, n_windows);
    out->spread = out->j_per_exec > 0.0 ? (hi - lo) / out->j_per_exec : NAN;
    out->windows = n_windows;
    out->window_ns = sum_ns / (double)n_windows;
    out->executions = sum_x / (double)n_windows;
    out->present = 1;
    return 0;
}
