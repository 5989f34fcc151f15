/* test_markdown.c - the markdown reporter (reporters/markdown.c). The runs
 * are built by hand (results_fixture.h). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "results/results.h"
#include "results_fixture.h"
#include "report_util.h"

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);

Test(reporters, markdown_clock_and_events) {
    char *out = render_one("markdown", 0, 0);
    cr_expect(strstr(out, "### reduction · `1a2b3c4` (main) · NVIDIA H100 80GB HBM3\n\n"
                          "GPU times: kernel clock (CUPTI activity records)\n\n"
                          "| kernel | n | cold (µs) | batch (µs) | events (µs) | noise | GB/s | % "
                          "peak | speedup |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "| reduce_cub | 2^20 | 3.20 | 3.04 | 4.85 | 0.2% |") != NULL, "%s", out);
    cr_expect(strstr(out, "| reduce_cpu | 2^20 | 262.0 | 248.9 | – | 0.3% |") != NULL, "%s", out);
    cr_expect(strstr(out, "| reduce_naive | 2^24 | **FAILED** | – | – | – |") != NULL, "%s", out);
    free(out);

    out = render_one("markdown", 1, 0);
    cr_expect(strstr(out, "\n\nGPU times: CUDA events\n\n| kernel | n | time (µs) | noise |") !=
                  NULL,
              "%s", out);
    free(out);
    out = render_one("markdown", 2, 0);
    cr_expect(strstr(out, "\n\nGPU times: CUDA events (kernel clock unavailable: libcupti.so: "
                          "cannot open shared object file)\n\n") != NULL,
              "%s", out);
    free(out);
    out = render_one("markdown", 3, 0);
    cr_expect(strstr(out, "GPU times") == NULL, "%s", out);
    cr_expect(strstr(out, "events") == NULL, "%s", out);
    free(out);
}

Test(reporters, markdown_gflops_peak) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *one[] = {&sg};
    char *out = render("markdown", one, 1, 0, NULL);
    cr_expect(strstr(out, "| kernel | n | tile | time (µs) | noise | GFLOP/s | % peak | speedup |\n"
                          "|---|--:|--:|--:|--:|--:|--:|--:|\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "| sgemm_tiled | 2^11 | 16 | 640.0 | 0.1% | 26843.5 | 40.1% | ") != NULL,
              "%s", out);
    cr_expect(strstr(out, "| sgemm_host | 1000 | 16 | 152000.0 | 0.3% | 13.2 | – | 1.00× |") !=
                  NULL,
              "%s", out);
    free(out);
    br_run_dispose(&sg);

    /* Without a device: the column, empty. */
    out = render_one("markdown", 2, 0);
    cr_expect(strstr(out, "| GFLOP/s | % peak | speedup |") != NULL, "%s", out);
    cr_expect(strstr(out, "| sgemm_host | 1000 | 16 | 152000.0 | 0.3% | 13.2 | – | 1.00× |") !=
                  NULL,
              "%s", out);
    free(out);
    /* Metric none: no column. */
    out = render_one("markdown", 3, 0);
    cr_expect(strstr(out, "% peak") == NULL, "%s", out);
    free(out);
}

/* The flags cell (the last) of a row. */
