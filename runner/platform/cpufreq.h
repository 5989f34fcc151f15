/* SPDX-License-Identifier: Apache-2.0 */
/* The host CPU's frequency: the scaling governor and turbo
 * state of the machine, and, per host sample, the involuntary context
 * switches and the effective frequency of the CPU that ran it.
 *
 * Sources: the Linux kernel's cpufreq sysfs interface
 * (Documentation/admin-guide/pm/cpufreq.rst: cpuN/cpufreq/scaling_governor,
 * scaling_cur_freq in kHz, cpufreq/boost) and intel_pstate's no_turbo
 * (Documentation/admin-guide/pm/intel_pstate.rst); the effective frequency
 * as turbostat computes its Bzy_MHz: the TSC frequency x dAPERF / dMPERF,
 * the two MSRs 0xE8 (IA32_APERF) and 0xE7 (IA32_MPERF) read through
 * /dev/cpu/N/msr (Intel SDM vol. 3B, 14.2; AMD implements the same pair);
 * the "frequency scaling is on" rule is Google Benchmark's
 * (src/sysinfo.cc, CpuScaling: some CPU's governor is not "performance").
 */
#ifndef BR_CPUFREQ_H
#define BR_CPUFREQ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The machine's frequency settings. */
typedef struct br_cpufreq_state {
    char governor[64]; /* the governor of the CPU asked for ("" when unreadable) */
    int scaling;       /* 1: some CPU's governor is not "performance"; 0: none is; -1: no
                          CPU has a readable governor (no cpufreq driver, a VM) */
    int turbo;         /* 1 on, 0 off, -1 unknown (intel_pstate/no_turbo, else cpufreq/boost) */
} br_cpufreq_state;

/* Read the settings under `sysfs_root` (NULL: /sys/devices/system/cpu):
 * the governor of `cpu` (CPU 0 when cpu < 0), every cpuN's governor for
 * `scaling` (N from 0 until cpuN is missing), and the turbo switch. */
void br_cpufreq_state_read(br_cpufreq_state *out, const char *sysfs_root, int cpu);

/* Per-sample readings of one CPU. Zero it, then br_cpu_probe_open. */
typedef struct br_cpu_probe {
    int opened;     /* 1: the fields below are set */
    int cpu;        /* the CPU the files are open for; -1: none */
    int msr_fd;     /* /dev/cpu/N/msr, -1 when it cannot be read */
    int cur_fd;     /* cpuN/cpufreq/scaling_cur_freq, -1 when it cannot be read */
    double tsc_mhz; /* the TSC's frequency, MHz, measured when the MSR is first opened; 0: none */
} br_cpu_probe;

/* One side of a sample. */
typedef struct br_cpu_reading {
    long nivcsw;           /* getrusage(RUSAGE_THREAD).ru_nivcsw; -1 unreadable */
    double wall_ns;        /* CLOCK_MONOTONIC, ns */
    double cpu_ns;         /* CLOCK_THREAD_CPUTIME_ID, ns; NAN unreadable */
    uint64_t aperf, mperf; /* valid when the probe has an MSR */
} br_cpu_reading;

/* Make the probe read `cpu` (the CPU the caller runs on): reopen its files
 * when it read another. The MSR device needs the msr driver and root (or
 * CAP_SYS_RAWIO); without it the probe falls back to scaling_cur_freq,
 * and without that it reads no frequency. Never fails. */
void br_cpu_probe_open(br_cpu_probe *p, int cpu);

/* Close the probe's files; the probe reads nothing until opened again. */
void br_cpu_probe_close(br_cpu_probe *p);

/* Read the probe's counters before (begin) a sample. */
void br_cpu_probe_begin(br_cpu_probe *p, br_cpu_reading *r);

/* After the sample begun as `begin`: *nivcsw the involuntary context
 * switches of the calling thread over it (-1 when unreadable), *offcpu the
 * fraction of its wall time the thread did not run (1 - thread CPU time /
 * monotonic time, at least 0; NAN when unreadable), *mhz the CPU's
 * effective frequency over it in MHz (APERF/MPERF), else the kernel's
 * current frequency (scaling_cur_freq), else NAN. */
void br_cpu_probe_end(br_cpu_probe *p, const br_cpu_reading *begin, long *nivcsw, double *offcpu,
                      double *mhz);

#ifdef __cplusplus
}
#endif
#endif
