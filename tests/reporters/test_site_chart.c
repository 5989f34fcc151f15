/* SPDX-License-Identifier: Apache-2.0 */
/* A chart of the site as gnuplot draws it: the x tics' exponents in braces
 * (the newcomer's kernel charts read "2¹5" for 2^15: enhanced text raises
 * one character without them), the characters enhanced text reads escaped,
 * and the key outside the plot area (it covered data points); with gnuplot
 * on the machine, the SVG it draws shows 15 as a superscript of its own. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "e2e_util.h"
#include "base/error.h"
#include "base/log.h"
#include "reporters/gnuplot.h"
#include "reporters/site_chart.h"

TestSuite(site_chart, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 60);

/* A chart of one series over three sizes, its script in *script (malloc'd). */
static void chart_script(char **script, const char *svg) {
    br_site_point pts[3] = {{10, 1, 0, "", ""}, {15, 2, 1, "", ""}, {20, 3, 2, "", ""}};
    br_site_series s = {"reduce_vec", pts, 3};
    br_site_tic tics[3] = {{10, "1024"}, {15, "2^15"}, {20, "a_b"}};
    br_site_chart c = {.title = "t",
                       .xlabel = "n",
                       .ylabel = "GB/s",
                       .series = &s,
                       .n_series = 1,
                       .tics = tics,
                       .n_tics = 3,
                       .lines = 1};
    size_t len = 0;
    FILE *f = open_memstream(script, &len);
    cr_assert_not_null(f);
    cr_assert_eq(br_site_chart_script(f, &c, svg), 0);
    fclose(f);
}

Test(site_chart, exponents_in_braces_and_the_key_outside_the_plot) {
    char *script = NULL, *svg = br_strfmt("%s/c.svg", tmp);
    chart_script(&script, svg);
    cr_expect(strstr(script, "\"2^{15}\" 15"), "%s", script);
    cr_expect(strstr(script, "\"1024\" 10"), "%s", script);
    cr_expect(strstr(script, "\"a\\\\_b\" 20"), "the underscore escaped:\n%s", script);
    cr_expect(strstr(script, "set key at screen"), "%s", script);
    cr_expect_null(strstr(script, "set key top left"), "%s", script);
    free(script);
    free(svg);
}

Test(site_chart, gnuplot_draws_the_exponent_as_one_superscript) {
    if (!br_gnuplot_have())
        cr_skip_test("no gnuplot on PATH (Debian: gnuplot-nox)");
    char *script = NULL, *svg = br_strfmt("%s/c.svg", tmp), *gp = br_strfmt("%s/c.gp", tmp);
    chart_script(&script, svg);
    FILE *f = fopen(gp, "w");
    cr_assert_not_null(f);
    fputs(script, f);
    fclose(f);
    char *cmd = br_strfmt("gnuplot '%s' 2>&1", gp);
    cr_assert_eq(system(cmd), 0);
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, svg, 1 << 24), 0);
    /* gnuplot's SVG: the raised part is one tspan holding "15". */
    cr_expect(strstr(text, ">15</tspan>"), "no superscript 15 in the SVG");
    cr_expect_null(strstr(text, ">1</tspan><tspan"), "a lone raised 1");
    free(text);
    free(cmd);
    free(script);
    free(svg);
    free(gp);
}

/* gnuplot's messages are caught and summed up in one line that names no
 * temporary file (publish printed two raw gnuplot warnings naming its
 * temporary script). */
static char logged[4096];

static void keep_log(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    strncat(logged, msg, sizeof logged - strlen(logged) - 1);
}

static int empty_plot(FILE *f, void *ctx, const char *svg_path) {
    (void)ctx;
    fputs("set terminal svg\nset output ", f);
    br_gnuplot_string(f, svg_path);
    fputs("\n$d << EOD\nEOD\nplot $d using 1:2 with points\n", f); /* no valid points */
    return 0;
}

Test(site_chart, gnuplots_warnings_are_summed_up_without_its_temporary_file) {
    if (!br_gnuplot_have())
        cr_skip_test("no gnuplot on PATH (Debian: gnuplot-nox)");
    char *svg = br_strfmt("%s/w.svg", tmp);
    logged[0] = '\0';
    br_log_set_sink(keep_log, NULL);
    int rc = br_gnuplot_draw(svg, "--test", empty_plot, NULL);
    br_log_set_sink(NULL, NULL);
    cr_log_info("%s", logged);
    if (rc == 0) {
        cr_expect(strstr(logged, "benchrun: gnuplot: 1 message(s) drawing"), "%s", logged);
        cr_expect(strstr(logged, "of its script: warning:"), "%s", logged);
    } else {
        cr_expect(strstr(br_error_get(), "of its script:"), "%s", br_error_get());
    }
    cr_expect_null(strstr(logged, ".gp"), "a temporary script named:\n%s", logged);
    cr_expect_null(strstr(logged, "benchrun-tmp"), "a temporary file named:\n%s", logged);
    free(svg);
}
