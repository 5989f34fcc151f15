/* SPDX-License-Identifier: Apache-2.0 */
/* Which host samples were disturbed: the thread was switched
 * out while the clock ran (an involuntary context switch: another thread
 * had its CPU, for more than BR_DISTURB_OFFCPU of the sample's wall time),
 * or the CPU ran far below its usual frequency (a frequency
 * drop the governor, a thermal limit or a power cap made). Such samples
 * are discarded and counted, as GPU samples below the throttle clock are
 * (measure.h), so that they move neither the statistics nor the stopping
 * rule.
 *
 * "Usual" is the median frequency of the case's recent samples: the last
 * BR_DISTURB_WINDOW readings, kept or not (context-switched ones left
 * out); a sample is slow when its frequency is below `ratio` x that median,
 * judged from the BR_DISTURB_MIN_READINGS-th reading on.
 *
 * Why the off-CPU share: a switch to a kernel thread that runs for a few
 * microseconds costs a 100 ms sample nothing measurable, while one to
 * another process for a whole time slice (milliseconds) is most of a short
 * sample; the thread's CPU time against the wall clock tells them apart.
 */
#ifndef BR_DISTURB_H
#define BR_DISTURB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BR_DISTURB_WINDOW       64
#define BR_DISTURB_MIN_READINGS 8
/* A switched-out sample counts as disturbed when its thread was off the
 * CPU for more than this share of its wall time (or for an unknown share). */
#define BR_DISTURB_OFFCPU 0.01

typedef enum br_disturbance {
    BR_SAMPLE_CLEAN = 0,    /* keep it */
    BR_SAMPLE_SWITCHED = 1, /* an involuntary context switch during the sample */
    BR_SAMPLE_SLOW = 2      /* the CPU's frequency below ratio x the median */
} br_disturbance;

/* The recent frequencies of one measurement. */
typedef struct br_disturb {
    double ratio;                  /* slow below ratio x median; 0: the frequency is not judged */
    double mhz[BR_DISTURB_WINDOW]; /* ring of the last readings, MHz */
    size_t n;                      /* readings so far */
    double last_median;            /* the median the last slow sample was judged by, MHz */
} br_disturb;

/* Start with no readings; ratio in [0, 1) (the `throttle` setting). */
void br_disturb_init(br_disturb *d, double ratio);

/* Judge one sample: `nivcsw` involuntary context switches over it (< 0:
 * unknown, not judged), `offcpu` the share of its wall time its thread was
 * off the CPU (NAN: unknown), `mhz` the CPU's effective frequency over it
 * (NAN: unknown, not judged). A clean or slow sample's frequency joins the
 * window. */
br_disturbance br_disturb_check(br_disturb *d, long nivcsw, double offcpu, double mhz);

#ifdef __cplusplus
}
#endif
#endif
