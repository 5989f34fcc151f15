/* SPDX-License-Identifier: Apache-2.0 */
/* The roofline chart of `--roofline FILE.svg`: every
 * case with a roofline point (model/roofline.h) of the runs drawn under
 * its device's ceilings, through gnuplot. */
#ifndef BR_ROOFLINE_PLOT_H
#define BR_ROOFLINE_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write to f the gnuplot script that draws runs[0..n) into svg_path: `set
 * terminal svg size 1100,800 dynamic enhanced`, log-log axes (x arithmetic
 * intensity, FLOP per byte; y GFLOP/s), and
 *   - the ceilings of the first run with a device: min(FP32 peak, x times
 *     the theoretical DRAM bandwidth) as a solid line and, when a run
 *     measured the bandwidth (`peak: measured`: br_device.measured_peak_gbps),
 *     min(FP32 peak, x times the measured bandwidth) dashed; the legend
 *     names each figure and the ridge point;
 *   - one point per case with a roofline point and a positive intensity and
 *     GFLOP/s (a kernel doing no arithmetic has no place on a log axis),
 *     at (intensity, achieved GFLOP/s), one colour per kernel of a suite
 *     ("suite/kernel" in the legend), each labelled with its parameters.
 * The data are inline (`$name << EOD`), so the script stands alone; strings
 * are escaped and printed noenhanced. Returns 0, or -1 with the error set:
 * no run has a device, no case has a point, a write error. */
int br_roofline_plot_script(FILE *f, const br_run *const *runs, size_t n, const char *svg_path);

/* Draw runs[0..n) into svg_path with gnuplot (gnuplot.h: the file appears
 * whole or is left as it was). Returns 0, or -1 with the error set: gnuplot
 * missing ("--roofline needs gnuplot (apt-get install gnuplot-nox)"), nothing
 * to draw, gnuplot failing. */
int br_roofline_plot(const br_run *const *runs, size_t n, const char *svg_path);

#ifdef __cplusplus
}
#endif
#endif
