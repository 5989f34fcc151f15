/* SPDX-License-Identifier: Apache-2.0 */
/* Which CPU measures the host cases, and pinning to it.
 *
 * A host case is timed with the wall clock, so whatever else runs on its
 * CPU (another process, the parent's own bookkeeping, an SMT sibling
 * sharing the core's caches and ports) lands in its samples, and a thread
 * the scheduler moves between CPUs starts again with cold private caches.
 * The worker that measures a host case is therefore pinned to one CPU
 * (sched_setaffinity), and the parent, while it waits for that case, to the
 * allowed CPUs of the other cores.
 *
 * The topology comes from sysfs: for CPU N, <root>/cpuN/topology/
 * thread_siblings_list (the CPUs sharing N's core; the Linux kernel's
 * Documentation/ABI/stable/sysfs-devices-system-cpu) and core_id. The root
 * is a parameter so that tests can point it at a fixture tree.
 */
#ifndef BR_CPUPIN_H
#define BR_CPUPIN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The default sysfs root of the CPUs. */
#define BR_CPU_SYSFS "/sys/devices/system/cpu"

/* Most CPUs a set holds (glibc's CPU_SETSIZE). */
#define BR_CPU_MAX 1024

/* A set of CPUs, laid out as glibc's br_cpu_set (so that this header needs
 * no _GNU_SOURCE): bit c of the words is CPU c. */
typedef struct br_cpu_set {
    unsigned long bits[BR_CPU_MAX / (8 * sizeof(unsigned long))];
} br_cpu_set;

/* How the host cases' CPU was chosen. */
typedef struct br_cpu_choice {
    int cpu;           /* the worker's CPU while it measures a host case; -1: not pinned */
    int core;          /* its core: the lowest CPU of its thread_siblings_list */
    br_cpu_set parent; /* the parent's CPUs while a host case is measured: the allowed CPUs of
                         the other cores; when there are none, the allowed CPUs but the
                         worker's; when there are none either, every allowed CPU */
    int shares_core;   /* 1: the parent could not be kept off the worker's core */
    char note[320];    /* what was chosen and why, one sentence ("" when not pinned) */
} br_cpu_choice;

/* Choose the host cases' CPU among `allowed` (NULL: this thread's
 * affinity mask) with the topology under `sysfs_root` (NULL:
 * BR_CPU_SYSFS). want >= 0 asks for that CPU (--cpu N); want == -1 lets
 * benchrun choose: the highest allowed CPU whose core is not the core of
 * the lowest allowed CPU (where the parent, interrupts and housekeeping
 * tend to run), else (every allowed CPU on one core) the highest allowed
 * CPU, its sibling left to the parent; want == -2 pins nothing (--cpu off).
 * A CPU whose topology files cannot be read counts as a core of its own.
 * Returns 0, or -1 with the error set (kind BR_E_INPUT: "CPU N is not one
 * this process may run on (allowed: 0-3)") when want is not allowed. */
int br_cpu_choose(br_cpu_choice *out, const char *sysfs_root, const br_cpu_set *allowed, int want);

/* The number of CPUs in set. */
int br_cpu_set_count(const br_cpu_set *set);

/* Format the CPUs of set as a list ("0-3,6"), cut to len bytes. */
void br_cpu_list_format(char *buf, size_t len, const br_cpu_set *set);

/* Parse a sysfs CPU list ("0-3,6", "1") into *out. Returns 0, or -1 when
 * it is not a list of CPUs below BR_CPU_MAX. */
int br_cpu_list_parse(br_cpu_set *out, const char *text);

/* Confine the calling thread to `cpus` (sched_setaffinity of thread 0, the
 * caller), first saving its mask in *saved when saved is not NULL.
 * Threads it creates afterwards inherit the mask. Returns 0, or -1 with
 * the error set. */
int br_cpu_set_self(const br_cpu_set *cpus, br_cpu_set *saved);

/* Confine the calling thread to the one CPU `cpu` (br_cpu_set_self). */
int br_cpu_pin_self(int cpu, br_cpu_set *saved);

#ifdef __cplusplus
}
#endif
#endif
