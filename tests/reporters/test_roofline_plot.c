/* SPDX-License-Identifier: Apache-2.0 */
/* The roofline chart (reporters/roofline_plot.h) of the fixture results
 * file tests/fixtures/roofline/h100.json: the gnuplot script, the SVG
 * drawn through gnuplot (skipped, saying so, without gnuplot-nox), and the
 * messages when there is nothing to draw or no gnuplot. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "reporters/gnuplot.h"
#include "reporters/roofline_plot.h"
#include "results/run_read.h"

#define FIXTURE BR_FIXTURES_DIR "/roofline/h100.json"

static char dir[] = "/tmp/br-roofline-XXXXXX";
static br_run *runs;
static size_t n_runs;
static const br_run *ptrs[8];

static pid_t made_by; /* the process that made dir, until it is removed */

/* Remove dir, in the process that made it. */
static void remove_dir(void) {
    if (made_by != getpid())
        return;
    made_by = 0;
    char *cmd = br_strfmt("/bin/rm -rf '%s'", dir);
    if (cmd && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    free(cmd);
}

static void setup(void) {
    cr_assert_not_null(mkdtemp(dir));
    made_by = getpid();
    atexit(remove_dir); /* a skipped test ends without its teardown */
    cr_assert_eq(br_results_load(&runs, &n_runs, FIXTURE), 0, "%s", br_error_get());
    for (size_t i = 0; i < n_runs && i < 8; i++)
        ptrs[i] = &runs[i];
}

static void teardown(void) {
    br_results_free(runs, n_runs);
    remove_dir();
}

TestSuite(roofline_plot, .init = setup, .fini = teardown);

static char *script_of(const br_run *const *r, size_t n, int *rc) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    *rc = br_roofline_plot_script(f, r, n, "out dir/roof\"line.svg");
    fclose(f);
    return buf;
}

Test(roofline_plot, the_script_draws_both_ceilings_and_every_point) {
    int rc;
    char *s = script_of(ptrs, n_runs, &rc);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    cr_assert(strstr(s, "set output \"out dir/roof\\\"line.svg\"\n"), "escaped: %s", s);
    cr_assert(strstr(s, "set logscale xy 10\n"), "log-log");
    cr_assert(strstr(s, "Bt = 3352.3200000000002\n"), "%s", s);
    cr_assert(strstr(s, "Bm = 2910.4000000000001\n"), "the measured bandwidth of run 2");
    /* No precision declared: one ceiling, FP32's. */
    cr_assert(strstr(s, "plot roof(x, Bt, 66908.160000000003) with lines"), "FP32 ceiling: %s", s);
    cr_assert(strstr(s, "title \"fp32: min(66908 GFLOP/s, 3352 GB/s x intensity), ridge 20 "
                        "FLOP/B\""),
              "%s", s);
    cr_assert(strstr(s, "roof(x, Bm, 66908.160000000003) with lines"), "measured ceiling");
    cr_assert(strstr(s, "Roofline of NVIDIA H100 80GB HBM3: fp32 66.91 TFLOP/s at the maximum"),
              "%s", s);
    /* reduce_warp at 2^20: intensity 0.25, 255.8 GFLOP/s, labelled. */
    cr_assert(strstr(s, "$k0_2 << EOD\n0.25 255.81263722859234 \"n=2^20\"\n"), "%s", s);
    cr_assert(strstr(s, "title \"reduction/reduce_warp (fp32)\""), "legend by suite/kernel");
    cr_assert(strstr(s, "$k0_1 << EOD\n100 12336.188235294117 \"n=2^20\"\nEOD\n"),
              "the compute-bound point; the failed case at 2^24 is left out: %s", s);
    cr_assert_null(strstr(s, "$k0_0"), "the host kernel has no point");
    cr_assert_null(strstr(s, "$k1_0"), "copy does no arithmetic: no point on a log axis");
    cr_assert(strstr(s, "$k1_1 << EOD\n0.25 "), "copy_vec4");
    cr_assert(strstr(s, "with labels"), "every point labelled");
    free(s);
}

/* A kernel declared fp16-tensor gets a ceiling of its own, at its
 * precision's recorded peak, beside FP32's; its legend names it. */
Test(roofline_plot, one_ceiling_per_precision_the_cases_use) {
    br_run r = runs[0];
    size_t n = r.n_cases;
    br_case_result *cases = calloc(n, sizeof *cases);
    cr_assert_not_null(cases);
    memcpy(cases, r.cases, n * sizeof *cases);
    for (size_t i = 0; i < n; i++)
        if (cases[i].kernel == 1)
            cases[i].precision = BR_PRECISION_FP16_TENSOR;
    r.cases = cases;
    memset(r.compute_peaks, 0, sizeof r.compute_peaks);
    r.compute_peaks[BR_PRECISION_FP16_TENSOR] =
        (br_compute_peak){1, 4096, 4096 * 132 * 1.98, 1980, "table"};
    const br_run *one[] = {&r};
    int rc;
    char *s = script_of(one, 1, &rc);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    cr_assert(strstr(s, "plot roof(x, Bt, 66908.160000000003)"), "FP32's ceiling: %s", s);
    cr_assert(strstr(s, "roof(x, Bt, 1070530.56"), "fp16-tensor's ceiling: %s", s);
    cr_assert(strstr(s, "title \"fp16-tensor: min(1070531 GFLOP/s"), "%s", s);
    cr_assert(strstr(s, "fp32 66.91 TFLOP/s, fp16-tensor 1071 TFLOP/s at the maximum SM clock"),
              "the title names both: %s", s);
    cr_assert(strstr(s, "(fp16-tensor)\""), "the kernel's legend names its precision: %s", s);
    cr_assert(strstr(s, "set yrange [") && strstr(s, ":3211591.68"), "room above the top: %s", s);
    free(s);
    free(cases);
}

Test(roofline_plot, without_a_measured_bandwidth_the_title_says_so) {
    int rc;
    char *s = script_of(ptrs, 1, &rc);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    cr_assert_null(strstr(s, "Bm ="));
    cr_assert(strstr(s, "no measured bandwidth"), "%s", s);
    free(s);
}

Test(roofline_plot, nothing_to_draw_is_an_error) {
    int rc;
    br_run copy_only = runs[1];
    copy_only.n_cases = 1; /* copy alone: intensity 0 */
    const br_run *one[] = {&copy_only};
    char *s = script_of(one, 1, &rc);
    cr_assert_eq(rc, -1);
    cr_assert(strstr(br_error_get(), "no case has a roofline point"), "%s", br_error_get());
    free(s);
    br_run no_device = runs[0];
    no_device.has_device = 0;
    one[0] = &no_device;
    s = script_of(one, 1, &rc);
    cr_assert_eq(rc, -1);
    cr_assert_str_eq(br_error_get(), "--roofline: no run was measured on a GPU: nothing to draw");
    free(s);
}

Test(roofline_plot, draws_an_svg_with_gnuplot) {
    if (!br_gnuplot_have())
        cr_skip_test("gnuplot is not on PATH (apt-get install gnuplot-nox): the SVG is not drawn");
    char *svg = br_strfmt("%s/roofline.svg", dir), *text = NULL;
    cr_assert_eq(br_roofline_plot(ptrs, n_runs, svg), 0, "%s", br_error_get());
    cr_assert_eq(br_read_file(&text, NULL, svg, 1 << 24), 0);
    cr_assert(strncmp(text, "<?xml", 5) == 0 || strncmp(text, "<svg", 4) == 0, "%.200s", text);
    cr_assert(strstr(text, "reduction/reduce_cub"), "a legend entry");
    cr_assert(strstr(text, "n=2^24"), "a point's label");
    cr_assert(strstr(text, "arithmetic intensity (FLOP/byte)"));
    free(text);
    free(svg);
}

Test(roofline_plot, without_gnuplot_it_says_what_to_install) {
    char *bin = br_strfmt("%s/bin", dir), *svg = br_strfmt("%s/roofline.svg", dir);
    cr_assert_eq(mkdir(bin, 0700), 0);
    cr_assert_eq(setenv("PATH", bin, 1), 0);
    cr_assert_eq(br_roofline_plot(ptrs, n_runs, svg), -1);
    cr_assert_str_eq(br_error_get(), "--roofline needs gnuplot (apt-get install gnuplot-nox); the "
                                     "table is complete without it");
    struct stat st;
    cr_assert_neq(stat(svg, &st), 0, "nothing written");
    free(bin);
    free(svg);
}
