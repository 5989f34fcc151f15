/* SPDX-License-Identifier: Apache-2.0 */
/* The devices of a run over several GPUs, as the three parts of that
 * family share them: the slots opened and asked (the opening), the
 * measured times that order the cases (the costs) and the lanes that
 * measure them. Not for use outside drive/devices*.c.
 */
#ifndef BR_DEVICES_IMPL_H
#define BR_DEVICES_IMPL_H

#include <pthread.h>
#include <stddef.h>

#include "devices.h"
#include "plan/devsched.h"

#define MAX_DEV BR_DEVSCHED_MAX_SLOTS

/* One device of the run. */
typedef struct dev_slot {
    int index;      /* CUDA index on the host (as the user numbers them) */
    char name[256]; /* model */
    char uuid[48];
    br_session *session; /* bound to the device */
    size_t ran;          /* cases recorded */
    double busy_ns;      /* wall time of its cases */
} dev_slot;

/* One slot's device query, in a thread of its own (open_slots). */
typedef struct slot_query {
    br_session *session; /* the slot's; NULL: a fake device, nothing to ask */
    double fake_ns;      /* a fake device: how long its opening takes (BENCHRUN_FAKE_OPEN_MS) */
    int ok;              /* the answer: a usable GPU (a fake device: 1) */
    pthread_t th;
    int started; /* th runs */
} slot_query;

struct br_devset {
    dev_slot slot[MAX_DEV];
    unsigned n;
    int fake;
    /* The slots' device queries, started by open_slots, awaited by
     * slots_answered (br_devices_close joins any still running). */
    slot_query q[MAX_DEV];
    int plain; /* a plain run's host lane (br_devices_open_plain): the one slot's session is
                  the invocation's own (not closed here); no case records a device */
};

/* The measured costs of every job's cases into c[j][i] (NAN: not
 * measured; c[j] holds jobs[j].plan.n_cases), from the sources in order of
 * preference, a later one winning (plan/cost.h): each suite's baseline
 * (runs[j] names it; src->baseline_dir or the default), the newest results
 * file of src->results_dir, the --shard-times files of main's options;
 * each file read once. A source benchrun found itself that cannot be read
 * is passed over with a warning (not with --quiet). *from gets a bit per
 * source that gave a cost (1, 2, 4). Returns 0, or -1 with the error set
 * (out of memory, a --shard-times file that cannot be read). */
int br_devices_measured_costs(double *const *c, unsigned *from, const br_run *runs,
                              const struct br_job *jobs, size_t n_jobs, const br_session *main,
                              const br_devices_sources *src);

#endif
