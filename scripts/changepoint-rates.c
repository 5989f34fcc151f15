/* SPDX-License-Identifier: Apache-2.0 */
/* changepoint-rates.c - the false-alarm rate and the power of the change
 * points (runner/history/changepoint.h) on the generated histories of
 * tests/changepoint_series.h, as docs/sweeps.md quotes them. Not part of
 * the build; from the repository root, after a build in build/:
 *   cc -O2 -Irunner -Itests scripts/changepoint-rates.c build/libbenchrun_core.a -lm \
 *      -o /tmp/cp-rates && /tmp/cp-rates 0.002 2000      # ALPHA SERIES */
#include <stdio.h>
#include <stdlib.h>
#include "history/changepoint.h"
#include "changepoint_series.h"
int main(int argc, char **argv) {
    double alpha = argc > 1 ? atof(argv[1]) : 0.01;
    int N = argc > 2 ? atoi(argv[2]) : 2000;
    br_changepoint_cfg cfg;
    br_changepoint_defaults(&cfg);
    cfg.alpha = alpha;
    double x[400];
    br_changepoint *cp;
    size_t k;
    size_t fp = 0, fp400 = 0, hist[5] = {0}, exact = 0, two = 0, dip = 0, near = 0;
    series_step s17 = {17, 1.03};
    series_step st2[] = {{11, 1.03}, {21, 1.03}};
    series_step dp[] = {{11, 0.95}, {21, 1 / 0.95}};
    for (uint64_t seed = 1; seed <= (uint64_t)N; seed++) {
        series_make(x, 30, 100, 0.01, NULL, 0, seed);
        br_changepoint_find(&cp, &k, x, 30, &cfg);
        fp += k > 0;
        free(cp);
        series_make(x, 30, 100, 0.01, &s17, 1, seed);
        br_changepoint_find(&cp, &k, x, 30, &cfg);
        hist[k < 4 ? k : 4]++;
        if (k == 1 && cp[0].index == 16)
            exact++;
        if (k == 1 && cp[0].index >= 15 && cp[0].index <= 17)
            near++;
        free(cp);
        series_make(x, 30, 100, 0.01, st2, 2, seed);
        br_changepoint_find(&cp, &k, x, 30, &cfg);
        two += k == 2;
        free(cp);
        series_make(x, 30, 100, 0.01, dp, 2, seed);
        br_changepoint_find(&cp, &k, x, 30, &cfg);
        dip += k == 2;
        free(cp);
        if (seed <= 200) {
            series_make(x, 400, 100, 0.01, NULL, 0, seed);
            br_changepoint_find(&cp, &k, x, 400, &cfg);
            fp400 += k > 0;
            free(cp);
        }
    }
    printf("alpha %g: FP30 %zu/%d  FP400 %zu/200  step17: 0:%zu 1:%zu 2:%zu 3:%zu exact %zu  two "
           "%zu dip %zu near %zu\n",
           alpha, fp, N, fp400, hist[0], hist[1], hist[2], hist[3], exact, two, dip, near);
}
