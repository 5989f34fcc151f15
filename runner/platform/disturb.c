/* SPDX-License-Identifier: Apache-2.0 */
/* Disturbed host samples (disturb.h). */
#include "disturb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "base/sort.h"

void br_disturb_init(br_disturb *d, double ratio) {
    memset(d, 0, sizeof *d);
    d->ratio = ratio;
    d->last_median = NAN;
}

/* The median of the window. */
static double window_median(const br_disturb *d) {
    size_t n = d->n < BR_DISTURB_WINDOW ? d->n : BR_DISTURB_WINDOW;
    double v[BR_DISTURB_WINDOW];
    memcpy(v, d->mhz, n * sizeof *v);
    qsort(v, n, sizeof *v, br_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

br_disturbance br_disturb_check(br_disturb *d, long nivcsw, double offcpu, double mhz) {
    if (nivcsw > 0 && !(offcpu <= BR_DISTURB_OFFCPU))
        return BR_SAMPLE_SWITCHED;
    if (!(mhz > 0) || !isfinite(mhz))
        return BR_SAMPLE_CLEAN;
    d->mhz[d->n % BR_DISTURB_WINDOW] = mhz;
    d->n++;
    if (d->ratio <= 0 || d->n < BR_DISTURB_MIN_READINGS)
        return BR_SAMPLE_CLEAN;
    double median = window_median(d);
    if (mhz < d->ratio * median) {
        d->last_median = median;
        return BR_SAMPLE_SLOW;
    }
    return BR_SAMPLE_CLEAN;
}
