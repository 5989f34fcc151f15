/* SPDX-License-Identifier: Apache-2.0 */
/* test_table_width.c - the terminal table (reporters/table.c) keeps its
 * right border straight with wide characters: CJK kernel names and params
 * (two columns each), emoji, combining marks (zero columns), in a UTF-8
 * locale; and invalid UTF-8 neither crashes it nor breaks its box. The
 * widths are measured here with mbrtowc/wcwidth, as a terminal does. */
#define _XOPEN_SOURCE 700 /* wcwidth */
#include <criterion/criterion.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "report_util.h"

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);

/* Switch to a UTF-8 locale (the CLI takes the user's: br_cli_locale), or
 * skip the test visibly when the system has none. */
static void utf8_locale(void) {
    const char *names[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (setlocale(LC_ALL, names[i]))
            return;
    }
    cr_skip_test("no UTF-8 locale (C.UTF-8) on this system");
}

/* Columns a terminal gives the n bytes at s: wcwidth of each character; an
 * invalid byte shows as one replacement glyph. */
static size_t term_width(const char *s, size_t n) {
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t w = 0;
    while (n > 0) {
        wchar_t wc;
        size_t k = mbrtowc(&wc, s, n, &st);
        if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
            memset(&st, 0, sizeof st);
            w++;
            k = 1;
        } else {
            int cw = wcwidth(wc);
            w += cw < 0 ? 1 : (size_t)cw;
        }
        s += k;
        n -= k;
    }
    return w;
}

/* A run whose names, params, description and messages hold wide
 * characters (and, with `invalid`, a kernel name that is not UTF-8). */
static void build_wide(br_run *r, int invalid) {
    const char *params[] = {"大小", "n"};
    run_init(r, "归约 🚀", "求和：float32 ✨ café", BR_METRIC_NONE, BR_MODE_COLD, params, 2, 4);
    add_kernel(r, "归约_朴素", "kernels/a.c", BR_BACKEND_HOST);
    add_kernel(r, "fast🚀", "kernels/b.c", BR_BACKEND_HOST);
    add_kernel(r, invalid ? "bad\xff\xfe\xe5\xbd" : "cafe\xcc\x81_re\xcc\x81sume\xcc\x81",
               "kernels/c.c", BR_BACKEND_HOST);
    r->git.present = 0;
    const int64_t p[] = {1, 1 << 20};
    const double s1[] = {850, 849.5, 851.25, 850.75};
    const double s2[] = {9250, 9240, 9262.5, 9255};
    br_case_result *c = add_case(r, 0, 0, p, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, s1, 4, 1.0, 1, BR_STOP_PLATEAU, NAN); /* N: a warning line */
    c = add_case(r, 1, 0, p, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, s2, 4, 1.0, 1, BR_STOP_NOISE, NAN);
    add_case(r, 2, 0, p, BR_STATUS_FAILED, "verify", "结果错误 ❌ got e\xcc\x81\n", NAN, NAN);
    br_run_derive(r);
}

/* Every line of every box of `out` has the same terminal width; returns
 * the number of boxes. */
static size_t check_boxes(const char *out) {
    size_t box_width = 0, boxes = 0;
    int in_box = 0;
    for (const char *line = out; *line;) {
        const char *end = strchr(line, '\n');
        cr_assert_not_null(end, "output does not end in a newline");
        size_t w = term_width(line, (size_t)(end - line));
        int boxed = strncmp(line, "╔", 3) == 0 || strncmp(line, "║", 3) == 0 ||
                    strncmp(line, "╠", 3) == 0 || strncmp(line, "╟", 3) == 0 ||
                    strncmp(line, "╚", 3) == 0;
        if (!boxed) {
            in_box = 0;
        } else if (!in_box) {
            in_box = 1;
            box_width = w;
            boxes++;
        } else {
            cr_expect_eq(w, box_width, "line of width %zu in a box of %zu:\n%.*s\nin\n%s", w,
                         box_width, (int)(end - line), line, out);
        }
        line = end + 1;
    }
    return boxes;
}

Test(reporters, table_wide_characters_align) {
    utf8_locale();
    br_run r;
    build_wide(&r, 0);
    const br_run *one[] = {&r};
    char *out = render("table", one, 1, 0, NULL);
    cr_expect_eq(check_boxes(out), 1, "%s", out);
    /* The wide text is there, unchanged. */
    cr_expect(strstr(out, "║ 归约 🚀 · 求和：float32 ✨ café · no git ") != NULL, "%s", out);
    cr_expect(strstr(out, "│ 大小 │") != NULL, "%s", out);
    cr_expect(strstr(out, "FAILED cafe\xcc\x81_re\xcc\x81sume\xcc\x81 大小=1 n=2^20 (verify): "
                          "结果错误 ❌ got e\xcc\x81\n") != NULL,
              "%s", out);
    /* The widest kernel name sets its column: "café_résumé" is 11 columns
     * (its 3 combining accents take none), "归约_朴素" 9 (4 wide characters
     * and '_'); the header pads "kernel" to 11. */
    cr_expect(strstr(out, "║ kernel      │") != NULL, "%s", out);
    cr_expect(strstr(out, "║ 归约_朴素   │") != NULL, "%s", out);
    free(out);
    br_run_dispose(&r);
}

/* Compared with a comparison box too: its kernel and params columns hold
 * wide characters. */
Test(reporters, table_wide_characters_comparison_align) {
    utf8_locale();
    br_run r;
    build_wide(&r, 0);
    br_comparison *cmp = calloc(1, sizeof *cmp);
    cr_assert_not_null(cmp);
    cmp->baseline_path = dup_or_null("基线/results.json");
    cmp->baseline_device = dup_or_null("主机 🚀");
    cmp->rules = (br_regression_cfg){0.02, 0.01, 0};
    cmp->n_entries = 2;
    cmp->entries = calloc(2, sizeof *cmp->entries);
    cr_assert_not_null(cmp->entries);
    cmp->entries[0] = (br_compare_entry){.kernel = dup_or_null("归约_朴素"),
                                         .params = dup_or_null("大小=1 n=2^20"),
                                         .status = BR_CHANGE_SLOWER,
                                         .base_median = 800,
                                         .cur_median = 850,
                                         .change = 850.0 / 800 - 1,
                                         .p_value = 0.004};
    cmp->entries[1] = (br_compare_entry){.kernel = dup_or_null("fast🚀"),
                                         .params = dup_or_null("大小=1 n=2^20"),
                                         .status = BR_CHANGE_SAME,
                                         .base_median = 9250,
                                         .cur_median = 9250,
                                         .change = 0,
                                         .p_value = 0.9};
    cmp->count[BR_CHANGE_SLOWER] = cmp->count[BR_CHANGE_SAME] = 1;
    r.comparison = cmp;
    const br_run *one[] = {&r};
    char *out = render("table", one, 1, 0, NULL);
    cr_expect_eq(check_boxes(out), 2, "%s", out);
    cr_expect(strstr(out, "║ fast🚀    │ 大小=1 n=2^20 │") != NULL, "%s", out);
    free(out);
    br_run_dispose(&r);
}

/* A kernel name that is not UTF-8: each invalid byte is shown escaped
 * (\xFF: a raw byte could be a C1 control on the terminal, base/text.h), and
 * the box holds. */
Test(reporters, table_invalid_utf8_does_not_break_the_box) {
    utf8_locale();
    br_run r;
    build_wide(&r, 1);
    const br_run *one[] = {&r};
    char *out = render("table", one, 1, 0, NULL);
    cr_expect_eq(check_boxes(out), 1, "%s", out);
    cr_expect(strstr(out, "║ bad\\xFF\\xFE\\xE5\\xBD │") != NULL, "%s", out);
    cr_expect(strchr(out, '\xff') == NULL, "a raw byte that is not UTF-8 reached the table");
    free(out);
    br_run_dispose(&r);
}

/* Names and messages that reach the terminal (from a run built in
 * process; the suite loader and the results reader refuse such names) are
 * shown escaped: an ESC sequence, a C1 CSI or a bidi override in a kernel
 * name, a description or a failure message cannot drive the terminal or
 * reorder the line, and the box holds. */
Test(reporters, table_escapes_what_a_terminal_would_act_on) {
    utf8_locale();
    br_run r;
    const char *params[] = {"n"};
    run_init(&r, "s\xe2\x80\xae", "desc \033]0;title\007", BR_METRIC_NONE, BR_MODE_COLD, params, 1,
             4);
    add_kernel(&r, "k\033[2J", "kernels/a.c", BR_BACKEND_HOST);
    add_kernel(&r,
               "evil\xc2\x9b"
               "31m",
               "kernels/b.c", BR_BACKEND_HOST);
    r.git.present = 0;
    const int64_t p[] = {1 << 20};
    const double s1[] = {850, 849.5, 851.25, 850.75};
    br_case_result *c = add_case(&r, 0, 0, p, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, s1, 4, 1.0, 1, BR_STOP_NOISE, NAN);
    add_case(&r, 1, 0, p, BR_STATUS_FAILED, "verify", "got \033[31mred\xe2\x81\xa6\n", NAN, NAN);
    br_run_derive(&r);
    const br_run *one[] = {&r};
    char *out = render("table", one, 1, 0, NULL);
    cr_expect_null(strchr(out, '\033'), "a raw ESC reached the table:\n%s", out);
    cr_expect_null(strstr(out, "\xc2\x9b"), "a raw CSI reached the table");
    cr_expect_null(strstr(out, "\xe2\x80\xae"), "a raw bidi override reached the table");
    cr_expect_null(strchr(out, '\007'), "a raw BEL reached the table");
    cr_expect(strstr(out, "║ k\\x1B[2J ") != NULL, "%s", out);
    cr_expect(strstr(out, "evil\\u{009B}31m") != NULL, "%s", out);
    cr_expect(strstr(out, "s\\u{202E}") != NULL, "%s", out);
    cr_expect(strstr(out, ": got \\x1B[31mred\\u{2066}\n") != NULL, "%s", out);
    cr_expect_eq(check_boxes(out), 1, "%s", out);
    free(out);
    br_run_dispose(&r);
}

/* The width function itself, in a UTF-8 locale and in the C locale (where
 * a UTF-8 string counts one column per code point, as before). */
Test(reporters, display_width_counts_columns) {
    utf8_locale();
    cr_expect_eq(br_report_display_width("abc"), 3);
    cr_expect_eq(br_report_display_width("归约"), 4);
    cr_expect_eq(br_report_display_width("🚀"), 2);
    cr_expect_eq(br_report_display_width("e\xcc\x81"), 1);
    cr_expect_eq(br_report_display_width("a\xff"
                                         "b"),
                 3);
    cr_expect_eq(br_report_display_width("a\xe5\xbd"), 3, "a truncated sequence: one per byte");
    cr_expect_eq(br_report_display_width(""), 0);
    cr_expect_eq(br_report_display_width(NULL), 0);
    cr_assert_not_null(setlocale(LC_ALL, "C"));
    cr_expect_eq(br_report_display_width("╔═µ"), 3);
    cr_expect_eq(br_report_display_width("归约"), 2);
}
