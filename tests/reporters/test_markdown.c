/* SPDX-License-Identifier: Apache-2.0 */
/* test_markdown.c - the markdown reporter (reporters/markdown.c). The runs
 * are built by hand (results_fixture.h). The Markdown is checked by
 * rendering it, as its readers do: GitHub Flavored Markdown with cmark-gfm
 * (GitHub's own renderer, with its table extension) and Python-Markdown with
 * its tables extension; a test whose renderer is missing skips visibly. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "report_util.h"

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);

Test(reporters, markdown_clock_and_events) {
    /* Host and GPU cases measured: a line for each clock. */
    char *out = render_one("markdown", 0, 0);
    cr_expect(strstr(out,
                     "### reduction · `1a2b3c4` (main) · NVIDIA H100 80GB HBM3\n\n"
                     "Host times: host clock (CLOCK_MONOTONIC)\n\n"
                     "GPU times: kernel clock (CUPTI activity records)\n\n"
                     "| kernel | n | cold (µs) | batch (µs) | events (µs) | noise | GB/s | % "
                     "peak | speedup | ! |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "| reduce_cub | 2^20 | 3.20 | 3.04 | 4.85 | 0.2% |") != NULL, "%s", out);
    cr_expect(strstr(out, "| reduce_cpu | 2^20 | 262.0 | 248.9 | – | 0.3% |") != NULL, "%s", out);
    cr_expect(strstr(out, "| reduce_naive | 2^24 | **FAILED** | – | – | – |") != NULL, "%s", out);
    free(out);

    /* GPU cases only. */
    out = render_one("markdown", 1, 0);
    cr_expect(strstr(out, "\n\nGPU times: CUDA events\n\n| kernel | n | time (µs) | noise |") !=
                  NULL,
              "%s", out);
    cr_expect(strstr(out, "Host times") == NULL, "%s", out);
    free(out);
    /* The GPU case was skipped, the host case measured: the host clock only,
     * whatever the run's GPU clock would have been. */
    out = render_one("markdown", 2, 0);
    cr_expect(strstr(out, "\n\nHost times: host clock (CLOCK_MONOTONIC)\n\n| kernel |") != NULL,
              "%s", out);
    cr_expect(strstr(out, "GPU times") == NULL && strstr(out, "CUDA events") == NULL, "%s", out);
    free(out);
    /* A note with a newline stays on its line. */
    br_run *bw = &fixture[1];
    bw->clock_note = dup_or_null("libcupti.so: cannot open\nshared object file");
    out = render_one("markdown", 1, 0);
    cr_expect(strstr(out, "\n\nGPU times: CUDA events (kernel clock unavailable: libcupti.so: "
                          "cannot open shared object file)\n\n") != NULL,
              "%s", out);
    free(out);
    /* Host kernels only. */
    out = render_one("markdown", 3, 0);
    cr_expect(strstr(out, "Host times: host clock (CLOCK_MONOTONIC)\n\n") != NULL, "%s", out);
    cr_expect(strstr(out, "GPU times") == NULL, "%s", out);
    cr_expect(strstr(out, "events") == NULL, "%s", out);
    free(out);
}

Test(reporters, markdown_gflops_peak) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *one[] = {&sg};
    char *out = render("markdown", one, 1, 0, NULL);
    cr_expect(strstr(out,
                     "| kernel | n | tile | time (µs) | noise | GFLOP/s | % peak | speedup | ! |\n"
                     "|---|--:|--:|--:|--:|--:|--:|--:|---|\n") != NULL,
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

/* --- rendering: what readers see ------------------------------------------------ */

/* The output of shell command `cmd` with `input` on its standard input
 * (written to a temporary file); the caller frees it. */
static char *pipe_through(const char *cmd, const char *input) {
    char path[] = "/tmp/br_markdown_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *in = fdopen(fd, "w");
    cr_assert_not_null(in);
    cr_assert_eq(fwrite(input, 1, strlen(input), in), strlen(input));
    cr_assert_eq(fclose(in), 0);
    char *line = NULL;
    size_t cap = 0;
    char full[4096];
    snprintf(full, sizeof full, "%s < %s", cmd, path);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p);
    char *out = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&out, &len);
    cr_assert_not_null(o);
    while (getline(&line, &cap, p) > 0)
        fputs(line, o);
    free(line);
    fclose(o);
    int status = pclose(p);
    unlink(path);
    cr_assert_eq(status, 0, "%s failed (status %d): %s", cmd, status, out);
    return out;
}

/* `cmark-gfm` with the table extension (GitHub's renderer), or a visible
 * skip when it is not installed (Debian: cmark-gfm). unsafe: 1 keeps raw
 * HTML (as GitHub does, within its allow-list). */
static char *render_gfm(const char *md, int unsafe) {
    if (system("command -v cmark-gfm >/dev/null 2>&1") != 0)
        cr_skip_test("cmark-gfm is not installed (Debian package cmark-gfm)");
    return pipe_through(unsafe ? "cmark-gfm -e table --unsafe" : "cmark-gfm -e table", md);
}

/* Python-Markdown with its tables extension, or a visible skip when no
 * python3 can import it (Debian: python3-markdown). */
static char *render_python_markdown(const char *md) {
    const char *pythons[] = {"python3", "/usr/bin/python3"};
    for (size_t i = 0; i < 2; i++) {
        char check[256], cmd[512];
        snprintf(check, sizeof check, "%s -c 'import markdown' >/dev/null 2>&1", pythons[i]);
        if (system(check) != 0)
            continue;
        snprintf(cmd, sizeof cmd,
                 "%s -c 'import sys, markdown; "
                 "sys.stdout.write(markdown.markdown(sys.stdin.read(), extensions=[\"tables\"]))'",
                 pythons[i]);
        return pipe_through(cmd, md);
    }
    cr_skip_test("Python-Markdown is not installed (Debian package python3-markdown)");
    return NULL;
}

static size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* The message of a failed case, as a compiler or a verify step may write
 * it: every character that means something to Markdown or HTML. */
#define NASTY_MESSAGE                                                                              \
    "sum<float> failed: a*b*c != __global__ `x|y` \\ [link](u) ~~s~~ $5 and $6 & <b>hi</b> #2"
#define NASTY_RENDERED                                                                             \
    "sum&lt;float&gt; failed: a*b*c != __global__ `x|y` \\ [link](u) ~~s~~ $5 and $6 &amp; "       \
    "&lt;b&gt;hi&lt;/b&gt; #2"

/* A run whose suite, kernel, params and messages hold Markdown syntax: an
 * OK case flagged N (a warning line), a failed case, a skipped one. */
static void build_nasty(br_run *r) {
    const char *params[] = {"n_*"};
    run_init(r, "sum<float> *bench* #", NULL, BR_METRIC_NONE, BR_MODE_COLD, params, 1, 4);
    add_kernel(r, "__global__ k|x", "kernels/k.c", BR_BACKEND_HOST);
    add_kernel(r, "`tick`_kernel", "kernels/t.c", BR_BACKEND_HOST);
    add_kernel(r, "gpu<T>", "kernels/g.cu", BR_BACKEND_GPU);
    r->git.present = 0;
    snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "CPU_*x* <1>");
    const int64_t p[] = {1024};
    const double s[] = {850, 849.5, 851.25, 850.75};
    br_case_result *c = add_case(r, 0, 0, p, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->cold, s, 4, 1.0, 1, BR_STOP_PLATEAU, NAN);
    add_case(r, 1, 0, p, BR_STATUS_FAILED, "verify", NASTY_MESSAGE "\nsecond line", NAN, NAN);
    add_case(r, 2, 0, p, BR_STATUS_SKIPPED, "no-gpu", "no GPU", NAN, NAN);
    r->gpu_skip_reason = dup_or_null("no *GPU* | <none>");
    br_run_derive(r);
}

/* The Markdown source: no message character reaches it raw, and a message's
 * second line does not reach it at all. */
Test(reporters, markdown_escapes_user_text) {
    br_run r;
    build_nasty(&r);
    const br_run *one[] = {&r};
    char *out = render("markdown", one, 1, 0, NULL);
    /* After the kernel's code span: the params, stage and message. */
    const char *fail = strstr(out, "- **FAILED** `` `tick`_kernel `` ");
    cr_assert_not_null(fail, "%s", out);
    fail += strlen("- **FAILED** `` `tick`_kernel `` ");
    const char *end = strchr(fail, '\n');
    for (const char *q = fail; q < end; q++) {
        if (*q == '&') { /* a character reference: "&#42;", "&lt;" */
            q = strchr(q, ';');
            cr_assert(q && q < end, "%.*s", (int)(end - fail), fail);
            continue;
        }
        cr_expect(strchr("*_`|<>[]~$#\\", *q) == NULL, "raw '%c' in: %.*s", *q, (int)(end - fail),
                  fail);
    }
    cr_expect(strstr(out, "second line") == NULL, "%s", out);
    /* A table row has its own cells only: 10 '|' for 9 columns... here 6
     * columns (kernel, n_*, time, noise, speedup, !) so 7. */
    const char *row = strstr(out, "\n| &#95;&#95;global&#95;&#95; k&#124;x |");
    cr_assert_not_null(row, "%s", out);
    const char *row_end = strchr(row + 1, '\n');
    size_t pipes = 0;
    for (const char *q = row + 1; q < row_end; q++)
        pipes += *q == '|';
    cr_expect_eq(pipes, 7, "%.*s", (int)(row_end - row), row);
    free(out);
    br_run_dispose(&r);
}

/* Rendered by GitHub's renderer: every character of the message, name and
 * params shows as itself; no emphasis, link, strikethrough or HTML comes
 * out of them; the table is a <table> with its cells; the flags, the
 * warning and the skipped note are there. */
Test(reporters, markdown_renders_user_text_literally_gfm) {
    br_run r;
    build_nasty(&r);
    const br_run *one[] = {&r};
    char *md = render("markdown", one, 1, 0, NULL);
    char *html = render_gfm(md, 0);
    cr_expect(strstr(html, "<h3>sum&lt;float&gt; *bench* # · CPU_*x* &lt;1&gt;</h3>") != NULL, "%s",
              html);
    cr_expect(strstr(html, "<p>Host times: host clock (CLOCK_MONOTONIC)</p>") != NULL, "%s", html);
    cr_expect_eq(count(html, "<table>"), 1, "%s", html);
    cr_expect(strstr(html, "<th align=\"right\">n_*</th>") != NULL, "%s", html);
    cr_expect(strstr(html, "<td>__global__ k|x</td>\n<td align=\"right\">2^10</td>") != NULL, "%s",
              html);
    cr_expect(strstr(html, "<td>`tick`_kernel</td>\n<td align=\"right\">2^10</td>\n"
                           "<td align=\"right\"><strong>FAILED</strong></td>") != NULL,
              "%s", html);
    cr_expect(strstr(html, "<li><strong>FAILED</strong> <code>`tick`_kernel</code> n_*=2^10 "
                           "(verify): " NASTY_RENDERED "</li>") != NULL,
              "%s", html);
    cr_expect(strstr(html, "<li>1 case(s) skipped: no *GPU* | &lt;none&gt;</li>") != NULL, "%s",
              html);
    cr_expect(strstr(html, "<p>Flags (column !): N = noise above max_noise when sampling "
                           "stopped</p>") != NULL,
              "%s", html);
    cr_expect(strstr(html, "<li><code>__global__ k|x</code> n_*=2^10 (cold): noise ") != NULL, "%s",
              html);
    cr_expect(strstr(html, "<em>") == NULL && strstr(html, "<del>") == NULL &&
                  strstr(html, "<a ") == NULL && strstr(html, "<b>") == NULL &&
                  strstr(html, "raw HTML omitted") == NULL,
              "%s", html);
    cr_expect_eq(count(html, "<strong>"), 2, "FAILED in the table and the list only: %s", html);
    cr_expect(strstr(html, "second line") == NULL, "%s", html);
    free(html);
    free(md);
    br_run_dispose(&r);
}

/* Every fixture run's results table renders as a table in both renderers,
 * with its flags and warnings. */
Test(reporters, markdown_fixture_tables_render) {
    char *md = render("markdown", fixture_ptrs, N_RUNS, 0, NULL);
    char *html = render_gfm(md, 0);
    cr_expect_eq(count(html, "<table>"), N_RUNS, "%s", html);
    cr_expect_eq(count(html, "<h3>"), N_RUNS, "%s", html);
    cr_expect(strstr(html, "<th>!</th>") != NULL, "%s", html);
    cr_expect(strstr(html, "<p>Flags (column !): N = noise above max_noise when sampling stopped, "
                           "T = throttled samples discarded</p>") != NULL,
              "%s", html);
    cr_expect(strstr(html, "<li><code>reduce_warp</code> n=2^20 (cold): 12 throttled samples "
                           "discarded (SM clock down to 1020 MHz, threshold ") != NULL,
              "%s", html);
    cr_expect(strstr(html, "<li><code>reduce_cpu</code> n=2^24 (cold): noise ") != NULL, "%s",
              html);
    cr_expect(strstr(html, "|---") == NULL, "a table left as text: %s", html);
    free(html);
    html = render_python_markdown(md);
    cr_expect_eq(count(html, "<table>"), N_RUNS, "%s", html);
    cr_expect(strstr(html, "|---") == NULL, "a table left as text: %s", html);
    free(html);
    free(md);
}

/* A comparison of run `r` with two entries: one slower, one unknown, the
 * second with Markdown and HTML syntax in its kernel and params. */
static void add_comparison(br_run *r) {
    br_comparison *cmp = calloc(1, sizeof *cmp);
    cr_assert_not_null(cmp);
    cmp->baseline_path = dup_or_null("base_*line*.json");
    cmp->baseline_commit = dup_or_null("abc1234");
    cmp->baseline_device = dup_or_null("host");
    cmp->rules = (br_regression_cfg){0.02, 0.01, 0};
    cmp->clock = r->measure.headline;
    cmp->n_entries = 2;
    cmp->entries = calloc(2, sizeof *cmp->entries);
    cr_assert_not_null(cmp->entries);
    cmp->entries[0] = (br_compare_entry){.kernel = dup_or_null("reduce_cpu"),
                                         .params = dup_or_null("n=2^20"),
                                         .status = BR_CHANGE_SLOWER,
                                         .base_median = 250000,
                                         .cur_median = 262000,
                                         .change = 262.0 / 250 - 1,
                                         .p_value = 0.0004,
                                         .p_runs = NAN,
                                         .mde = 0.031};
    cmp->entries[1] = (br_compare_entry){.kernel = dup_or_null("sum<float>|*x*"),
                                         .params = dup_or_null("n_*=1 | 2"),
                                         .status = BR_CHANGE_UNKNOWN,
                                         .why = "too few samples",
                                         .base_median = NAN,
                                         .cur_median = 850,
                                         .change = NAN,
                                         .p_value = NAN,
                                         .p_runs = NAN,
                                         .mde = NAN};
    cmp->count[BR_CHANGE_SLOWER] = cmp->count[BR_CHANGE_UNKNOWN] = 1;
    r->comparison = cmp;
}

/* The comparison renders as a table in GitHub's renderer and in
 * Python-Markdown (which takes an HTML block such as <details> as raw
 * HTML up to its end tag: a Markdown table inside it stayed raw text). */
Test(reporters, markdown_comparison_renders_as_table) {
    br_run *r = &fixture[3];
    add_comparison(r);
    const br_run *one[] = {r};
    char *md = render("markdown", one, 1, 0, NULL);
    cr_expect(strstr(md, "**Regression:** 1 case(s) slower than the baseline (`base_*line*.json` "
                         "at `abc1234`)") != NULL,
              "%s", md);
    const char *row = "<tr><td>sum&lt;float&gt;|*x*</td><td>n_*=1 | 2</td><td align=\"right\">–"
                      "</td><td align=\"right\">0.850</td><td align=\"right\">–</td><td "
                      "align=\"right\">–</td><td align=\"right\">–</td><td>unknown (too few "
                      "samples)</td></tr>";
    const char *slower = "<tr><td>reduce_cpu</td><td>n=2^20</td><td align=\"right\">250.0</td>"
                         "<td align=\"right\">262.0</td><td align=\"right\">+4.8%</td>"
                         "<td align=\"right\">3.1%</td><td align=\"right\">4.0e-04</td>"
                         "<td><strong>slower</strong></td></tr>";
    char *html = render_gfm(md, 1);
    cr_expect_eq(count(html, "<table>"), 2, "%s", html);
    cr_expect(strstr(html, "<details open><summary>Comparison with the baseline (batch time)"
                           "</summary>") != NULL,
              "%s", html);
    cr_expect(strstr(html, row) != NULL, "%s", html);
    cr_expect(strstr(html, slower) != NULL, "%s", html);
    cr_expect(strstr(html, "<code>base_*line*.json</code>") != NULL, "%s", html);
    free(html);
    html = render_python_markdown(md);
    cr_expect_eq(count(html, "<table>"), 2, "%s", html);
    cr_expect(strstr(html, row) != NULL, "%s", html);
    cr_expect(strstr(html, "|---") == NULL, "a table left as text: %s", html);
    free(html);
    free(md);
}
