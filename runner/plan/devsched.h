/* SPDX-License-Identifier: Apache-2.0 */
/* Which device runs which case when a run uses several GPUs
 * (--devices): a pure scheduler, with no processes, threads or clocks in it,
 * so that its rules are tested without a GPU.
 *
 * Order. The cases are handed out longest first: sorted by cost, largest
 * first (ties: the lower case index), each going to the next device that
 * asks for work. When the costs are right this is the longest-processing-
 * time rule (LPT; R. L. Graham, "Bounds on multiprocessing timing
 * anomalies", SIAM J. Appl. Math. 17(2), 1969): the last device finishes
 * within 4/3 - 1/(3N) of the best possible split; when they are not, a
 * device that runs ahead takes more cases, so the devices still finish
 * close together.
 *
 * Faults. A case whose worker process crashed, hung or could not start
 * (BR_DEVSCHED_CRASHED) is run once more on another live device, if there
 * is one; if it crashes there too it is the kernel's fault and the case is
 * failed. A device on which a case crashed that another device then
 * measured is retired (the fault was the device's): it is given no more
 * cases, and the others take what is left. A device that cannot start at
 * all is retired with br_devsched_retire. When no device is left, the
 * cases not run are failed (br_devsched_next gives them to no one; the
 * caller lists them with br_devsched_left).
 *
 * Not thread-safe: a caller that drives devices from several threads holds
 * one lock around every call. */
#ifndef BR_PLAN_DEVSCHED_H
#define BR_PLAN_DEVSCHED_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most devices of one run. */
#define BR_DEVSCHED_MAX_SLOTS 64

/* The static longest-first assignment of n cases of costs[0..n) (any unit,
 * finite, >= 0) to n_slots (1..BR_DEVSCHED_MAX_SLOTS) devices: slot[i] the
 * device of case i, finish[k] (n_slots values; may be NULL) the predicted
 * finish of device k (the sum of its costs, same unit). It is the
 * assignment br_devsched_next makes when every case takes its cost. Returns
 * 0, or -1 with the error set (out of memory, a bad count or cost). */
int br_devsched_lpt(unsigned *slot, double *finish, const double *costs, size_t n,
                    unsigned n_slots);

/* What became of a case a device ran (br_devsched_report). */
typedef enum br_devsched_outcome {
    BR_DEVSCHED_DONE = 0,   /* it ran to an end (measured, or failed by its own verify/setup) */
    BR_DEVSCHED_CRASHED = 1 /* its worker process died, hung or could not start */
} br_devsched_outcome;

/* What the scheduler decided on a report. */
typedef enum br_devsched_verdict {
    BR_DEVSCHED_RECORD = 0, /* the case's result is final: record it */
    BR_DEVSCHED_RETRY = 1   /* it goes back to the queue for another device: do not record */
} br_devsched_verdict;

/* The state of one run's schedule; fields are private. */
typedef struct br_devsched {
    size_t n;
    unsigned n_slots;
    size_t *order;        /* case indices, longest first */
    size_t *pos;          /* pos[i]: where case i is in order */
    unsigned char *state; /* per case: 0 pending, 1 running, 2 final */
    int *crashed_in;      /* per case: the slot it crashed in, or -1: not run there again,
                             and retired when the case then completes elsewhere */
    size_t head;          /* every case before order[head] is not pending */
    unsigned char dead[BR_DEVSCHED_MAX_SLOTS];
} br_devsched;

/* Start the schedule of n cases of costs[0..n) on n_slots devices (as for
 * br_devsched_lpt). Dispose with br_devsched_dispose, also after a failure.
 * Returns 0, or -1 with the error set. */
int br_devsched_init(br_devsched *s, const double *costs, size_t n, unsigned n_slots);

/* Free what s holds; accepts a zeroed struct. */
void br_devsched_dispose(br_devsched *s);

/* The next case for device `slot`: the longest pending case, leaving a
 * case that crashed in this slot to another live one. Returns its index
 * (now running), or (size_t)-1 when there is nothing for this slot (all
 * taken or final, or the slot is retired). */
size_t br_devsched_next(br_devsched *s, unsigned slot);

/* Report that case i (running in `slot`) ended with `outcome`. Returns
 * BR_DEVSCHED_RETRY when the case goes back to the queue for another
 * device (a crash, the first, with another device alive), else
 * BR_DEVSCHED_RECORD. May retire a slot (see the header). */
br_devsched_verdict br_devsched_report(br_devsched *s, size_t i, unsigned slot,
                                       br_devsched_outcome outcome);

/* Retire a device: it gets no more cases (one that cannot start, or whose
 * driver gave up). A case running in it must still be reported. */
void br_devsched_retire(br_devsched *s, unsigned slot);

/* 1 when device `slot` was retired. */
int br_devsched_retired(const br_devsched *s, unsigned slot);

/* The cases still pending (never run to an end: every device retired)
 * into out[0..) (room for n), in schedule order; returns their count. The
 * caller records them as failed. */
size_t br_devsched_left(const br_devsched *s, size_t *out);

#ifdef __cplusplus
}
#endif
#endif
