/* SPDX-License-Identifier: Apache-2.0 */
/* A run over several GPUs of one host (--devices all|0,2,5):
 * one session (device query, timers, CUPTI, clock probe and throttle
 * check) and so one worker process per device, bound to it by
 * CUDA_VISIBLE_DEVICES set in the worker before CUDA starts; the cases of
 * every suite handed out longest first (plan/devsched.h) by their measured
 * wall times (plan/cost.h: the baseline, the newest results file of
 * --results-dir, --shard-times) or else by their declared work, each
 * device's driver a thread of the parent.
 *
 * Host cases need no device: they are measured one at a time on a lane of
 * their own (a session and worker, pinned to the host cases' CPU as in a
 * one-GPU run), beside the devices when every device's driver thread, and
 * so its worker, can be kept off that CPU's core (a CPU per device and one
 * for the drivers outside it), else after them; they record no device.
 * Every case notes when it began (br_case_wall.began_ns). A plain run on
 * one GPU uses the same lanes (br_devices_open_plain): its GPU cases on
 * the one device, its host cases beside them; `--host-lane after` measures
 * them after.
 * The build and a suite's measured peak use the main session, bound to
 * the first device (the header's device; % of peak is relative to it).
 * Devices of one run must be of one model: a baseline is per model
 * (gate/baseline.h), and the run's header names one device. Each case
 * records the device that measured it (br_case_result.device_*).
 *
 * BENCHRUN_FAKE_DEVICES=N (test-only): the host has N fake devices
 * ("benchrun fake device", UUID "FAKE-<i>") and no GPU is queried, so the
 * scheduling and fault handling run on host cases without CUDA; each
 * worker still gets CUDA_VISIBLE_DEVICES=<i>. BENCHRUN_FAKE_DEVICES=A,A,B
 * gives one fake device per name, of that model.
 * BENCHRUN_FAKE_HOST_KERNELS=a,b (test-only): with fake devices, the cases
 * of these kernels stay host cases (the host lane's); the others stand for
 * GPU cases. BENCHRUN_FAKE_CPUS=N (test-only): decide whether the host lane
 * runs beside the devices as if the host had N CPUs, one core each.
 * BENCHRUN_FAKE_OPEN_MS=N (test-only): with fake devices, each device's
 * opening takes N ms, as a GPU's CUDA initialisation does, so that a test
 * can see the devices opened at once.
 */
#ifndef BR_DEVICES_H
#define BR_DEVICES_H

#include <stddef.h>

#include "driver.h"
#include "model/run.h"
#include "worker/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct br_job; /* plan/job.h */

/* The devices of one run. */
typedef struct br_devset br_devset;

/* Find the devices main->opts.devices names (or the fake ones), check they
 * are of one model, open a session per device and bind main (which builds
 * the kernels) to the first. The host's devices are counted by one
 * short-lived worker, whose answer about device 0 serves that device's
 * session; the other devices are asked at the same time, a short-lived
 * worker each from a thread of its own (with `all`, those the host
 * probably has: CUDA_VISIBLE_DEVICES's entries or the /dev/nvidiaN nodes;
 * the count decides, a wrong guess only costs time; a named device the
 * guess does not cover is asked after the count); main takes the first
 * device's answer (br_session_adopt_query): one CUDA initialisation's wait,
 * whatever the number of devices. Call before main's first worker. Returns
 * 0 with *out (br_devices_close), or -1 with the error set (that of the
 * first device that failed): a bad list, an index the host does not have,
 * no usable GPU, devices of different models. */
int br_devices_open(br_devset **out, br_session *main);

/* A plain run (no --devices) on one GPU: when the built jobs[0..n_jobs)
 * have both GPU and host cases to measure, no suite has a time budget of
 * its own (--budget is shared by the two lanes, as over several devices)
 * and the host lane fits beside the GPU lane (a CPU for
 * the GPU lane and one for the drivers outside the host cases' core,
 * --cpu not off, --host-lane not after), *out gets a set of one device
 * whose session is main itself, for br_devices_execute: the host cases
 * are then measured beside the GPU cases, one at a time, and no case
 * records a device. Otherwise *out is NULL (measure the jobs one after
 * another: br_job_execute). With BENCHRUN_FAKE_DEVICES set, the GPU cases
 * are those BENCHRUN_FAKE_HOST_KERNELS does not name. Returns 0, or -1 with
 * the error set (out of memory). */
int br_devices_open_plain(br_devset **out, br_session *main, const struct br_job *jobs,
                          size_t n_jobs);

/* Close every device's session (not a plain run's); accepts NULL. */
void br_devices_close(br_devset *d);

/* Where the measured times that order the cases are looked for, besides
 * --shard-times (main->opts.device_times). */
typedef struct br_devices_sources {
    const char *baseline_dir; /* --baseline-dir, or NULL: the default (gate/baseline.h) */
    const char *results_dir;  /* --results-dir, or NULL: none */
} br_devices_sources;

/* Measure the built jobs[0..n_jobs) on the devices, filling runs[0..n_jobs)
 * as br_job_execute does for one (header from main; dispose each with
 * br_run_dispose, also after a failure). A case whose worker crashed is run
 * once more on another device; a device at fault is retired
 * (plan/devsched.h); cases no device is left to run fail. Returns 0, or -1
 * with the error set (out of memory, a cost file that cannot be read).
 * l: the invocation's ledger, shared by every lane under their lock. */
int br_devices_execute(br_run *runs, const struct br_job *jobs, size_t n_jobs, br_session *main,
                       br_driver_ledger *l, br_devset *d, const br_devices_sources *src);

#ifdef __cplusplus
}
#endif
#endif
