/* settings.c - the measurement settings: defaults (settings.h). */
#include "settings.h"

/* Defaults of the timing core; see types.h. */
void br_measure_cfg_defaults(br_measure_cfg *out) {
    out->min_samples = BR_DEFAULT_MIN_SAMPLES;
    out->min_time_ns = BR_DEFAULT_MIN_TIME_NS;
    out->max_noise = BR_DEFAULT_MAX_NOISE;
    out->timeout_ns = BR_DEFAULT_TIMEOUT_NS;
    out->max_samples = BR_DEFAULT_MAX_SAMPLES;
    out->throttle = BR_DEFAULT_THROTTLE;
    out->hold = 1;
    out->mode = BR_MODE_COLD;
    out->headline = BR_MODE_COLD;
}
