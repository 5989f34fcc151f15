/* SPDX-License-Identifier: Apache-2.0 */
/* Energy per execution from NVML's total energy counter.
 *
 * The counter (nvmlDeviceGetTotalEnergyConsumption: millijoules since the
 * driver was loaded, Volta and newer; NVML API Reference Guide, "Device
 * Queries") is updated by the GPU's power management in steps, not
 * continuously: about every 100 ms on recent data-centre GPUs (Zeus/ML.ENERGY,
 * "Thermally Stable Profiling for Accurate GPU Energy Measurement":
 * "approximately every 100 ms"; Yang et al., "Part-time Power Measurements:
 * nvidia-smi's Lack of Attention", SC24 / arXiv:2312.02741, on the A100's and
 * H100's sampled power sensor; pynvml PR #18 saw about 10 ms on an older
 * board). Two readings less than an update apart differ by 0 or by a whole
 * step, so a window around a few executions means nothing. benchrun
 * therefore:
 *   1. runs bursts of back-to-back executions (about BR_ENERGY_STEP_NS each)
 *      and reads the counter after each until it changes: the window opens
 *      at that update (time t0, reading e0, executions so far x0);
 *   2. keeps running bursts for at least BR_ENERGY_WINDOW_NS (ten 100 ms
 *      updates), then until the counter changes again (t1, e1, x1);
 *   3. J per execution = (e1 - e0) / (x1 - x0); mean power = (e1 - e0) /
 *      (t1 - t0). Both edges are known to a burst's length (0.5% of the
 *      window), and the counter's own step cancels because both ends sit
 *      on an update.
 * BR_ENERGY_WINDOWS such windows are measured; the figures are their
 * medians, with their spread. This is a separate measurement after the
 * timed samples: it never touches the times.
 *
 * NVML is loaded with dlopen("libnvidia-ml.so.1") at run time (the driver
 * ships it; the toolkit has only a link stub), so benchrun runs where it is
 * missing and says so. */
#ifndef BR_ENERGY_H
#define BR_ENERGY_H

#include <stddef.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The counter's update interval assumed (see above), ns. */
#define BR_ENERGY_UPDATE_NS 100e6
/* A window lasts at least this long: ten updates, ns. */
#define BR_ENERGY_WINDOW_NS (10 * BR_ENERGY_UPDATE_NS)
/* Windows per case. */
#define BR_ENERGY_WINDOWS 3
/* A burst of executions lasts about this long, ns. */
#define BR_ENERGY_STEP_NS 5e6
/* Give up waiting for the counter to change after this long, ns. */
#define BR_ENERGY_MAX_WAIT_NS (20 * BR_ENERGY_UPDATE_NS)

/* 1 when NVML can be loaded (libnvidia-ml.so.1 and its
 * nvmlDeviceGetTotalEnergyConsumption); else 0 with why (dlerror's text,
 * or "benchrun was built without CUDA") in why[0..len). Loads and unloads
 * the library; no GPU is touched. */
int br_energy_available(char *why, size_t len);

/* Where the windows take their readings and run their bursts: the real
 * counter and timer in the worker (case.c), a simulated one in the tests. */
typedef struct br_energy_probe {
    /* The counter, millijoules. Returns 0, or -1 with the error set. */
    int (*read_mj)(void *ctx, unsigned long long *mj);
    /* Wall clock, ns. */
    double (*now_ns)(void *ctx);
    /* Run one burst of back-to-back executions and wait for them; add how
     * many ran to *executions. Returns 0, or -1 with the error set. */
    int (*burst)(void *ctx, double *executions);
    void *ctx;
} br_energy_probe;

/* Measure n_windows windows of at least window_ns each, as above, into *out
 * (present set; medians, spread, mean window length and executions).
 * Returns 0, or -1 with the error set: a reading or burst failed, or the
 * counter did not change within max_wait_ns ("the energy counter did not
 * change in 2000 ms"), or went backwards. */
int br_energy_windows(br_energy *out, const br_energy_probe *p, size_t n_windows, double window_ns,
                      double max_wait_ns);

/* The NVML counter of the device with this uuid ("GPU-..."), opened once per
 * process and kept: returns a probe context for br_energy_read_nvml, or NULL
 * with the error set (NVML missing, no such device, counter not supported:
 * "the GPU has no energy counter (Volta and newer have one)"). */
void *br_energy_nvml(const char *uuid);

/* br_energy_probe.read_mj over the counter that br_energy_nvml returned. */
int br_energy_read_nvml(void *nvml, unsigned long long *mj);

#ifdef __cplusplus
}
#endif
#endif
