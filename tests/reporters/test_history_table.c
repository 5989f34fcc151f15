/* SPDX-License-Identifier: Apache-2.0 */
/* test_history_table.c - the tables of `benchrun history`
 * (reporters/history_table.h): the key cells and marks, golden copies in
 * UTF-8 and ASCII, several suites and devices. The fixture runs are in
 * history_fixture.h. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reporters/history_fixture.h"

TestSuite(history, .init = history_init, .fini = history_fini, .timeout = 120);

/* --- the table --------------------------------------------------------------------------- */

Test(history, table_cells_and_marks) {
    br_param_override p;
    br_history h;
    br_history_filter f = {.suite = "reduction"};
    load_ok(&h, RUNS_DIR, &f);
    char *text = print_text(&h, 0);

    cr_assert(strncmp(text,
                      "reduction · GB/s (higher is better) · 4 runs · NVIDIA H100 80GB HBM3\n",
                      70) == 0,
              "%s", text);
    char *head = row_of(text, "kernel", "n");
    cr_assert(strstr(head, "aaaaaaa") && strstr(head, "bbbbbbb") && strstr(head, "ccccccc·2"), "%s",
              head);
    cr_assert(strstr(text, "2026-11-24 09:00"), "%s", text);
    free(head);

    /* Slower by 20% in time: GB/s down by 1/1.2 - 1 = -16.7%. */
    char *row = row_of(text, "reduce_warp", "2^24");
    cr_assert(strstr(row, "▼-16.7%"), "%s", row);
    cr_assert_null(strstr(row, "▲"), "%s", row);
    cr_assert(strstr(row, "1609.3"), "%s", row); /* 4 * 2^24 B / 41.7 us */
    cr_assert(strstr(row, "1341.1 ▼-16.7%"), "%s", row);
    free(row);
    /* Stayed the same: no mark at all. */
    row = row_of(text, "reduce_warp", "2^20");
    cr_assert_null(strstr(row, "▼"), "%s", row);
    cr_assert_null(strstr(row, "▲"), "%s", row);
    cr_assert_null(strstr(row, "?"), "%s", row);
    cr_assert(strstr(row, "1023.0"), "%s", row);
    free(row);
    /* 10% faster at bbbbbbb, then the same. */
    row = row_of(text, "reduce_cub", "2^24");
    cr_assert(strstr(row, "▲+10.0%"), "%s", row);
    free(row);
    /* Failed at bbbbbbb; ccccccc compared with aaaaaaa, the last that measured it. */
    row = row_of(text, "reduce_naive", "2^24");
    cr_assert(strstr(row, "failed"), "%s", row);
    cr_assert_null(strstr(row, "▼"), "%s", row);
    free(row);
    /* 10% slower on 3 samples: cannot tell. */
    row = row_of(text, "reduce_naive", "2^20");
    cr_assert(strstr(row, "?"), "%s", row);
    free(row);
    /* New kernel: not in the first two runs. */
    row = row_of(text, "reduce_vec", "2^20");
    cr_assert(strstr(row, "·"), "%s", row);
    free(row);
    /* Rows in the newest run's order. */
    cr_assert_lt(strstr(text, " reduce_naive │ 2^20"), strstr(text, " reduce_vec   │ 2^20"));
    cr_assert_lt(strstr(text, " reduce_vec   │ 2^20"), strstr(text, " reduce_naive │ 2^24"));
    /* The legend. */
    cr_assert(strstr(text, "▼ slower, ▲ faster than the previous run that measured the case ("
                           "p < 0.01 over each run's cases (Benjamini-Hochberg) against the "
                           "between-run spread and |change| > 2%"),
              "%s", text);
    cr_assert(strstr(text, "? = cannot tell"), "%s", text);
    cr_assert(strstr(text, "· = not in that run"), "%s", text);
    check_golden("table_utf8.txt", text);
    free(text);

    text = print_text(&h, 1);
    row = row_of(text, "reduce_warp", "2^24");
    cr_assert(strstr(row, "1341.1 v-16.7%"), "%s", row);
    free(row);
    for (const char *c = text; *c; c++)
        cr_assert_lt((unsigned char)*c, 0x80, "not ASCII at %.20s", c);
    check_golden("table_ascii.txt", text);
    free(text);
    br_history_dispose(&h);

    /* -p n=2^24 leaves one row per kernel. */
    cr_assert_eq(br_param_override_parse(&p, "n=2^24"), 0);
    f = (br_history_filter){.params = &p, .n_params = 1};
    load_ok(&h, RUNS_DIR, &f);
    text = print_text(&h, 0);
    cr_assert_null(strstr(text, "2^20"), "%s", text);
    cr_assert(strstr(text, "▼-16.7%"), "%s", text);
    free(text);
    br_history_dispose(&h);
    br_param_override_dispose(&p);
}

Test(history, table_metric_none_and_several_suites) {
    br_history h;
    load_ok(&h, RUNS_DIR, NULL);
    char *text = print_text(&h, 0);
    cr_assert(
        strncmp(text, "latency · median time (µs, lower is better) · 2 runs · AMD EPYC", 60) == 0,
        "%s", text);
    char *row = row_of(text, "noop_host", "0.850");
    cr_assert(strstr(row, "│ 0.850            │ 0.850"), "%s", row);
    free(row);
    cr_assert(strstr(text, " sleep_host │     –            │  9.25\n"), "%s", text);
    cr_assert(strstr(text, "– = skipped"), "%s", text);
    cr_assert(strstr(text, "\n\nreduction · GB/s"), "%s", text);
    free(text);
    br_history_dispose(&h);
}

Test(history, devices_are_compared_apart) {
    br_run r[3];
    reduction_run(&r[0], SHA_A, 0, "2026-11-20T00:00:00Z");
    reduction_run(&r[1], SHA_B, 1, "2026-11-21T00:00:00Z");
    reduction_run(&r[2], SHA_C, 2, "2026-11-22T00:00:00Z");
    snprintf(r[1].device.name, sizeof r[1].device.name, "NVIDIA A100-SXM4-80GB");
    timed(&r[0], 1, 0, 1 << 20, 4100);
    timed(&r[1], 1, 0, 1 << 20, 8200); /* the A100: twice the time, not a regression */
    timed(&r[2], 1, 0, 1 << 20, 4100 * 1.2);
    for (int k = 0; k < 3; k++)
        br_run_derive(&r[k]);
    write_doc(tmp, "x.json", r, 3);
    br_history h;
    load_ok(&h, tmp, NULL);
    char *text = print_text(&h, 0);
    cr_assert(strstr(text, "· 3 runs · 2 devices\n"), "%s", text);
    cr_assert(strstr(text, "dev 1 = NVIDIA H100 80GB HBM3, dev 2 = NVIDIA A100-SXM4-80GB"), "%s",
              text);
    char *row = row_of(text, "reduce_warp", "2^20");
    /* bbbbbbb (dev 2) has no mark; ccccccc is compared with aaaaaaa. */
    const char *b = strstr(row, "511.5");
    cr_assert_not_null(b, "%s", row);
    b += strspn(b + 5, " ") + 5;
    cr_assert(strncmp(b, "│", strlen("│")) == 0, "a mark after 511.5: %s", row);
    cr_assert(strstr(row, "▼-16.7%"), "%s", row);
    free(row);
    cr_assert(strstr(text, "dev 2"), "%s", text);
    free(text);
    br_history_dispose(&h);
    for (int k = 0; k < 3; k++)
        br_run_dispose(&r[k]);
}

/* --- change points ---------------------------------------------------------------------- */

/* What br_history_print writes for h with `marks`; caller frees. */
static char *marks_text(const br_history *h, int ascii, br_history_marks marks, int list) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    int rc = list ? br_history_print_changes(f, h, ascii) : br_history_print(f, h, ascii, marks);
    fclose(f);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    return buf;
}

Test(history, table_marks_change_points) {
    char *dir = step_history_dir();
    br_history h;
    load_ok(&h, dir, NULL);
    char *text = marks_text(&h, 0, BR_HISTORY_MARK_CHANGES, 0);
    char *row = row_of(text, "reduce_warp", "2^24");
    cr_assert(strstr(row, "1542.9 ▼-3.4%"), "%s", row);
    free(row);
    row = row_of(text, "reduce_cub", "2^24");
    cr_assert(strstr(row, "2701.0 ▲+3.6%"), "%s", row);
    cr_assert(strstr(row, "2561.5 ▼-1.9%"), "%s", row);
    free(row);
    row = row_of(text, "reduce_warp", "2^20");
    cr_assert_null(strstr(row, "▼"), "%s", row);
    cr_assert_null(strstr(row, "▲"), "%s", row);
    free(row);
    cr_assert(strstr(text,
                     "▼ slower, ▲ faster from that run on: a change point of the case's "
                     "level, with its step\n  (E-divisive split, t test, over the case's runs, "
                     "p <= 0.002, |step| >= 1%; --changes lists them)\n"),
              "%s", text);
    free(text);

    /* The list, UTF-8. */
    text = marks_text(&h, 0, BR_HISTORY_MARK_CHANGES, 1);
    cr_assert(strstr(text, " kernel      │    n │ commit  │ date             │ previous │  before "
                           "→ after │   step │        p\n"),
              "%s", text);
    cr_assert(strstr(text, "│ 1615.1 → 1560.4 │ ▼-3.4% │ 1.12e-09\n"), "%s", text);
    check_golden("steps_changes_utf8.txt", text);
    free(text);
    br_history_dispose(&h);
    free(dir);
}

Test(history, change_points_need_enough_runs) {
    br_history h;
    load_ok(&h, RUNS_DIR, NULL);
    char *text = marks_text(&h, 0, BR_HISTORY_MARK_CHANGES, 0);
    /* No mark of any kind: four runs are too few (and 2 for latency). */
    cr_assert_null(strstr(text, "▼"), "%s", text);
    cr_assert_null(strstr(text, "▲"), "%s", text);
    cr_assert_null(strstr(text, " ?"), "%s", text);
    cr_assert(strstr(text, "every case has fewer than 6 measured runs: too few to find a change "
                           "point (--neighbours compares each run with the previous one)\n"),
              "%s", text);
    free(text);
    text = marks_text(&h, 1, BR_HISTORY_MARK_CHANGES, 1);
    cr_assert(strstr(text, "latency . median time (us, lower is better) . 2 runs"), "%s", text);
    cr_assert(strstr(text, "no change point in 2 cases over 2 runs; 2 cases with fewer than 6 "
                           "measured runs not analysed\n\nreduction"),
              "%s", text);
    free(text);
    br_history_dispose(&h);
}
