/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun bisect` found, as text, JSON and
 * Markdown (bisect_report.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "bisect_report.h"
#include "reporters/reporter.h"

/* Version of the JSON document's layout. */
#define BISECT_JSON_VERSION 1

static const char *const class_names[] = {"untested", "good", "bad", "undecided", "skipped"};

const char *br_bisect_class_name(br_bisect_class c) {
    return (size_t)c < sizeof class_names / sizeof *class_names ? class_names[c] : "?";
}

/* What the search came to. */
typedef enum outcome { NO_CHANGE, FOUND, RANGE, STOPPED } outcome;

/* 1 when step 0 found a change to search. */
static int searched(const br_bisect_result *r) {
    return r->change == BR_CHANGE_SLOWER || r->change == BR_CHANGE_FASTER;
}

/* 1 when step s has a class from its blocks (its ratios mean something). */
static int classed(const br_bisect_step *s) {
    return s->cls == BR_BISECT_GOOD || s->cls == BR_BISECT_BAD || s->cls == BR_BISECT_UNDECIDED;
}

static outcome outcome_of(const br_bisect_result *r) {
    if (r->stopped && (!searched(r) || r->first_bad - r->last_good > 1))
        return STOPPED;
    if (!searched(r))
        return NO_CHANGE;
    return r->first_bad == r->last_good + 1 ? FOUND : RANGE;
}

static const char *outcome_name(outcome o) {
    static const char *const names[] = {"no change", "found", "range", "interrupted"};
    return names[o];
}

/* "slower" or "faster": the change searched. */
static const char *dir_word(const br_bisect_result *r) {
    return r->change == BR_CHANGE_FASTER ? "faster" : "slower";
}

/* "2.01x [1.97, 2.05]" (ascii) or with '×'; "-" when there is no ratio. */
static void ratio_text(char *buf, size_t len, const br_ab_stats *st, int ascii) {
    const char *x = ascii ? "x" : "×";
    if (!isfinite(st->ratio))
        snprintf(buf, len, "-");
    else if (isfinite(st->low) && isfinite(st->high))
        snprintf(buf, len, "%.3f%s [%.3f, %.3f]", st->ratio, x, st->low, st->high);
    else
        snprintf(buf, len, "%.3f%s", st->ratio, x);
}

/* Count of steps that measured blocks. */
static size_t measured_steps(const br_bisect_result *r) {
    size_t n = 0;
    for (size_t k = 0; k < r->n_steps; k++)
        n += r->steps[k].blocks > 0;
    return n;
}

/* ---- text ------------------------------------------------------------------------- */

/* The headline of the answer. */
static void print_answer(FILE *f, const br_bisect_result *r, int ascii) {
    const br_gitlog_commit *c = r->log.commits;
    char ratio[96];
    outcome o = outcome_of(r);
    if (o == NO_CHANGE) {
        ratio_text(ratio, sizeof ratio, &r->steps[0].v.span, ascii);
        if (r->change == BR_CHANGE_SAME)
            fprintf(f,
                    "no change between GOOD %s and BAD %s: BAD/GOOD %s (95%%), within the "
                    "threshold of %.3g%%: nothing to search\n",
                    c[0].short_sha, c[r->log.n - 1].short_sha, ratio, 100.0 * r->threshold);
        else
            fprintf(f,
                    "no change between GOOD %s and BAD %s that %zu blocks could tell: BAD/GOOD "
                    "%s (95%%), not wholly beyond the threshold of %.3g%%: nothing to search\n",
                    c[0].short_sha, c[r->log.n - 1].short_sha, r->steps[0].blocks, ratio,
                    100.0 * r->threshold);
        return;
    }
    if (o == STOPPED && !searched(r) && r->steps[0].partial) {
        ratio_text(ratio, sizeof ratio, &r->steps[0].v.span, ascii);
        fprintf(f,
                "interrupted while BAD and GOOD were compared: BAD/GOOD %s (95%%) over the %zu "
                "block%s finished (partial)\n",
                ratio, r->steps[0].blocks, r->steps[0].blocks == 1 ? "" : "s");
        return;
    }
    if (o == STOPPED && !searched(r)) {
        fprintf(f, "interrupted before BAD and GOOD were compared\n");
        return;
    }
    if (o == STOPPED) {
        fprintf(f, "interrupted: the first %s commit lies after %s and at or before %s\n",
                dir_word(r), c[r->last_good].short_sha, c[r->first_bad].short_sha);
        return;
    }
    ratio_text(ratio, sizeof ratio, &r->answer, ascii);
    if (o == FOUND) {
        fprintf(f, "first %s commit: %s \"%s\"\n", dir_word(r), c[r->first_bad].short_sha,
                c[r->first_bad].subject);
        fprintf(f, "  its step: %s against its parent %s (95%% interval, blocks of step %zu)\n",
                ratio, c[r->last_good].short_sha, r->answer_step);
    } else {
        size_t n = r->first_bad - r->last_good;
        fprintf(f,
                "the first %s commit is one of these %zu (the commits before the first bad one "
                "were skipped or undecided):\n",
                dir_word(r), n);
        for (size_t i = r->last_good + 1; i <= r->first_bad; i++)
            fprintf(f, "  %s \"%s\" (%s)\n", c[i].short_sha, c[i].subject,
                    i == r->first_bad ? "bad" : br_bisect_class_name(r->state[i]));
        fprintf(f, "  the step across them: %s, %s to %s (95%% interval, blocks of step %zu)\n",
                ratio, c[r->last_good].short_sha, c[r->first_bad].short_sha, r->answer_step);
    }
}

/* One row of the steps table into cells. */
static void step_cells(char cells[][128], const br_bisect_result *r, size_t k, int ascii) {
    const br_bisect_step *s = &r->steps[k];
    size_t at = s->mid == SIZE_MAX ? s->bad : s->mid;
    snprintf(cells[0], 128, "%zu", k);
    snprintf(cells[1], 128, "%s", r->log.commits[at].short_sha);
    snprintf(cells[2], 128, "%.40s", r->log.commits[at].subject);
    if (s->mid == SIZE_MAX) {
        ratio_text(cells[3], 128, &s->v.span, ascii);
        snprintf(cells[4], 128, "-");
        snprintf(cells[5], 128, "BAD/GOOD: %s",
                 s->partial    ? "interrupted (partial)"
                 : searched(r) ? br_change_name(r->change)
                               : "no change");
    } else {
        int shown = classed(s) || s->partial;
        ratio_text(cells[3], 128, shown ? &s->v.to_good : &(br_ab_stats){.ratio = NAN}, ascii);
        ratio_text(cells[4], 128, shown ? &s->v.to_bad : &(br_ab_stats){.ratio = NAN}, ascii);
        if (s->cls == BR_BISECT_UNTESTED)
            snprintf(cells[5], 128, "interrupted%s", s->partial ? " (partial)" : "");
        else if (s->why)
            snprintf(cells[5], 128, "skipped: %.100s", s->why);
        else
            snprintf(cells[5], 128, "%s", br_bisect_class_name(s->cls));
    }
    snprintf(cells[6], 128, "%zu", s->blocks);
}

#define COLS 7

/* The steps table. */
static void print_steps(FILE *f, const br_bisect_result *r, int ascii) {
    const char *head[COLS] = {"step",
                              "commit",
                              "subject",
                              ascii ? "x good end (95%)" : "× good end (95%)",
                              ascii ? "x bad end" : "× bad end",
                              "class",
                              "blocks"};
    static const int right[COLS] = {1, 0, 0, 0, 0, 0, 1};
    size_t w[COLS];
    for (int c = 0; c < COLS; c++)
        w[c] = br_report_display_width(head[c]);
    char(*cells)[COLS][128] = calloc(r->n_steps + 1, sizeof *cells);
    if (!cells)
        return;
    for (size_t k = 0; k < r->n_steps; k++) {
        step_cells(cells[k], r, k, ascii);
        for (int c = 0; c < COLS; c++) {
            size_t n = br_report_display_width(cells[k][c]);
            w[c] = n > w[c] ? n : w[c];
        }
    }
    for (size_t k = 0; k <= r->n_steps; k++) {
        for (int c = 0; c < COLS; c++) {
            const char *s = k == 0 ? head[c] : cells[k - 1][c];
            size_t pad = w[c] - br_report_display_width(s);
            fputs(c ? (ascii ? " | " : " │ ") : " ", f);
            if (right[c])
                fprintf(f, "%*s", (int)pad, "");
            fputs(s, f);
            if (!right[c] && c + 1 < COLS)
                fprintf(f, "%*s", (int)pad, "");
        }
        fputc('\n', f);
        for (int c = 0; k == 0 && c < COLS; c++) {
            fputs(c ? (ascii ? "+" : "┼") : "", f);
            for (size_t i = 0; i < w[c] + 2; i++)
                fputs(ascii ? "-" : "─", f);
            if (c + 1 == COLS)
                fputc('\n', f);
        }
    }
    free(cells);
}

int br_bisect_print(FILE *f, const br_bisect_result *r, int ascii) {
    char wall[32];
    br_format_duration(wall, sizeof wall, r->wall_ns);
    fprintf(f, "benchrun bisect %s..%s %s: %zu commit%s after GOOD, %zu case%s\n",
            r->log.commits[0].short_sha, r->log.commits[r->log.n - 1].short_sha, r->suite,
            r->log.n - 1, r->log.n == 2 ? "" : "s", r->n_cases, r->n_cases == 1 ? "" : "s");
    print_answer(f, r, ascii);
    fputc('\n', f);
    print_steps(f, r, ascii);
    fprintf(f,
            "%zu step%s (%zu measured), %s; %s good end, %s bad end: the commit's time over the "
            "range's ends in its step\n",
            r->n_steps, r->n_steps == 1 ? "" : "s", measured_steps(r), wall, ascii ? "x" : "×",
            ascii ? "x" : "×");
    return ferror(f) ? br_error_set("%s", strerror(errno ? errno : EIO)) : 0;
}

/* ---- JSON ------------------------------------------------------------------------- */

static json_t *jnum(double x) {
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *jratio(const br_ab_stats *st) {
    return json_pack("{s:o, s:o, s:o}", "ratio", jnum(st->ratio), "low", jnum(st->low), "high",
                     jnum(st->high));
}

static json_t *jcommit(const br_bisect_result *r, size_t i) {
    if (i == SIZE_MAX)
        return json_null();
    const br_gitlog_commit *c = &r->log.commits[i];
    return json_pack("{s:s, s:s, s:s, s:i}", "sha", c->sha, "short", c->short_sha, "subject",
                     c->subject, "index", (json_int_t)i);
}

static json_t *jseries(const double *v, size_t n) {
    json_t *a = json_array();
    for (size_t i = 0; v && a && i < n; i++)
        json_array_append_new(a, jnum(v[i]));
    return a;
}

static json_t *jstep(const br_bisect_result *r, size_t k) {
    const br_bisect_step *s = &r->steps[k];
    int zero = s->mid == SIZE_MAX, classed_mid = !zero && s->cls != BR_BISECT_UNTESTED;
    int shown = classed_mid || (!zero && s->partial);
    const char *cls = zero          ? (s->partial    ? "interrupted"
                                       : searched(r) ? br_change_name(r->change)
                                                     : "no change")
                      : classed_mid ? br_bisect_class_name(s->cls)
                                    : "interrupted";
    return json_pack(
        "{s:i, s:o, s:o, s:o, s:s, s:o, s:i, s:b, s:o, s:o, s:o, s:o, s:i, s:f, s:o, s:o, s:o}",
        "step", (json_int_t)k, "good", jcommit(r, s->good), "mid", jcommit(r, s->mid), "bad",
        jcommit(r, s->bad), "class", cls, "why", s->why ? json_string(s->why) : json_null(),
        "blocks", (json_int_t)s->blocks, "partial", s->partial, "span", jratio(&s->v.span),
        "to_good", shown ? jratio(&s->v.to_good) : json_null(), "to_bad",
        shown ? jratio(&s->v.to_bad) : json_null(), "position",
        shown ? jnum(s->v.position) : json_null(), "left", (json_int_t)s->left, "wall_s",
        s->wall_ns / 1e9, "good_medians_ns", jseries(s->med[0], s->blocks), "mid_medians_ns",
        s->med[1] ? jseries(s->med[1], s->blocks) : json_null(), "bad_medians_ns",
        jseries(s->med[2], s->blocks));
}

/* The document of r. NULL out of memory. */
static json_t *bisect_json(const br_bisect_result *r) {
    outcome o = outcome_of(r);
    int answered = o == FOUND || o == RANGE;
    json_t *cases = json_array(), *steps = json_array(), *commits = json_array();
    for (size_t i = 0; cases && i < r->n_cases; i++)
        json_array_append_new(cases, json_string(r->cases[i]));
    for (size_t k = 0; steps && k < r->n_steps; k++)
        json_array_append_new(steps, jstep(r, k));
    for (size_t i = 0; commits && i < r->log.n; i++) {
        json_t *c = jcommit(r, i);
        json_object_set_new(c, "state", json_string(br_bisect_class_name(r->state[i])));
        json_array_append_new(commits, c);
    }
    return json_pack(
        "{s:i, s:s, s:s, s:s, s:o, s:o, s:s, s:s, s:o, s:o, s:o, s:{s:f, s:f, s:f, s:i, s:i}, "
        "s:o, s:o, s:f, s:o}",
        "bisect_version", BISECT_JSON_VERSION, "suite", r->suite, "good_rev", r->good_rev,
        "bad_rev", r->bad_rev, "good", jcommit(r, 0), "bad", jcommit(r, r->log.n - 1), "change",
        searched(r) ? br_change_name(r->change) : "none", "result", outcome_name(o), "first_bad",
        answered ? jcommit(r, r->first_bad) : json_null(), "last_good",
        answered ? jcommit(r, r->last_good) : json_null(), "step",
        answered && r->answer_step != SIZE_MAX ? jratio(&r->answer) : json_null(), "rules",
        "threshold", r->threshold, "alpha", r->alpha, "look_alpha", r->look_alpha, "blocks",
        (json_int_t)r->blocks, "max_blocks", (json_int_t)r->max_blocks, "cases", cases, "steps",
        steps, "wall_s", r->wall_ns / 1e9, "commits", commits);
}

int br_bisect_write_json(FILE *f, const br_bisect_result *r) {
    json_t *doc = bisect_json(r);
    if (!doc)
        return br_error_nomem();
    int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) == 0 ? 0 : -1;
    json_decref(doc);
    if (rc == 0)
        fputc('\n', f);
    return rc == 0 && !ferror(f) ? 0 : br_error_set("%s", strerror(errno ? errno : EIO));
}

/* ---- Markdown --------------------------------------------------------------------- */

/* s with '|' escaped for a table cell. */
static void md_cell(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

int br_bisect_write_markdown(FILE *f, const br_bisect_result *r) {
    const br_gitlog_commit *c = r->log.commits;
    fprintf(f, "## benchrun bisect `%s`..`%s` `%s`\n\n", c[0].short_sha, c[r->log.n - 1].short_sha,
            r->suite);
    fputs("```text\n", f);
    print_answer(f, r, 0);
    fputs("```\n\n| step | commit | subject | × good end (95%) | × bad end | class | blocks |\n"
          "|---:|---|---|---|---|---|---:|\n",
          f);
    for (size_t k = 0; k < r->n_steps; k++) {
        char cells[COLS][128];
        step_cells(cells, r, k, 0);
        fprintf(f, "| %s | `%s` | ", cells[0], cells[1]);
        for (int i = 2; i < COLS; i++) {
            md_cell(f, cells[i]);
            fputs(i + 1 < COLS ? " | " : " |\n", f);
        }
    }
    fputs("\nCases:", f);
    for (size_t i = 0; i < r->n_cases; i++)
        fprintf(f, " %s`%s`", i ? ", " : "", r->cases[i]);
    fprintf(f, ". Rule and statistics: docs/bisect.md.\n");
    return ferror(f) ? br_error_set("%s", strerror(errno ? errno : EIO)) : 0;
}
