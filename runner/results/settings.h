/* settings.h - the measurement settings (br_measure_cfg, types.h): their
 * defaults. Suites, the command line and the timing core start from these. */
#ifndef BR_SETTINGS_H
#define BR_SETTINGS_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill *out with the defaults of types.h (hold on, mode and headline cold). */
void br_measure_cfg_defaults(br_measure_cfg *out);

#ifdef __cplusplus
}
#endif
#endif
