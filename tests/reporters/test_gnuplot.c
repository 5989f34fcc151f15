/* SPDX-License-Identifier: Apache-2.0 */
/* Text a chart takes from results files (suite, kernel and device names,
 * labels) reaches gnuplot as a double-quoted string: escaped so that it
 * stays text. gnuplot runs a backquoted command inside such a string and
 * puts its output there, so a name with backquotes must not run. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "e2e_util.h"
#include "reporters/gnuplot.h"

TestSuite(gnuplot, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 60);

Test(gnuplot, a_string_escapes_backslash_quote_and_backquote) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    br_gnuplot_string(f, "a\\b \"c\" `d`\n  e");
    fclose(f);
    cr_expect_str_eq(buf, "\"a\\\\b \\\"c\\\" \\`d\\` e\"");
    free(buf);
}

/* The title's text: a command in backquotes, which would create a file. */
static const char *title;

static int titled_plot(FILE *f, void *ctx, const char *svg_path) {
    (void)ctx;
    fputs("set terminal svg\nset output ", f);
    br_gnuplot_string(f, svg_path);
    fputs("\nset title ", f);
    br_gnuplot_string(f, title);
    fputs(" noenhanced\nplot x\n", f);
    return 0;
}

Test(gnuplot, a_backquoted_command_in_a_name_is_drawn_not_run) {
    if (!br_gnuplot_have())
        cr_skip_test("no gnuplot on PATH (Debian: gnuplot-nox)");
    char *ran = br_strfmt("%s/ran", tmp), *svg = br_strfmt("%s/t.svg", tmp), *text = NULL;
    char *t = br_strfmt("suite `touch %s`", ran);
    title = t;
    cr_assert_eq(br_gnuplot_draw(svg, "--test", titled_plot, NULL), 0, "%s", br_error_get());
    struct stat st;
    cr_expect_neq(stat(ran, &st), 0, "gnuplot ran the backquoted command");
    cr_assert_eq(br_read_file(&text, NULL, svg, 1 << 24), 0);
    cr_expect(strstr(text, "suite `touch"), "the title as text: %.400s", text);
    free(text);
    free(t);
    free(svg);
    free(ran);
}
