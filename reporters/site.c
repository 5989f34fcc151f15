/* SPDX-License-Identifier: Apache-2.0 */
/* The pages of `benchrun publish` (site.h): the front page, and
 * per suite and device the latest run, a page per kernel and per case;
 * the charts through one gnuplot script (site_chart.h). */
#include "site.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "gnuplot.h"
#include "model/metric.h"
#include "history_table.h"
#include "results/run_read.h"
#include "roofline_plot.h"
#include "site_chart.h"

static const char css[] =
    "body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;"
    "padding:0 1em}\n"
    "table{border-collapse:collapse;font-size:14px}td,th{padding:2px 8px;border-bottom:1px solid "
    "#e4e4e4;text-align:left}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}tr:target{background:#fff3c4}\n"
    ".slower{color:#c0392b}.faster{color:#1e8449}nav{margin-bottom:1em;font-size:14px}\n"
    "figure.chart{margin:1em 0}.frame{position:relative;width:760px;height:340px}\n"
    ".frame img,.frame svg{position:absolute;left:0;top:0}\n"
    "svg.links circle{fill:transparent;stroke:none;cursor:pointer}\n"
    "svg.links circle:hover{stroke:#333;stroke-width:1.5}\n"
    ".note{color:#666;font-size:13px}ul.skipped{color:#a04000;font-size:13px}\n";

typedef struct site {
    const char *dir;
    const br_history *h;
    const br_site_opts *o;
    br_site_stats *st;
    FILE *gp;      /* the gnuplot script (open_memstream) */
    char *gp_text; /* its text */
    size_t gp_len;
    char *first; /* the first chart's path: br_gnuplot_draw's */
} site;

/* ---- helpers ----------------------------------------------------------------------------- */

static void esc(FILE *f, const char *s) {
    for (; s && *s; s++) {
        if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* A directory name from any text that no other text gets: its readable
 * part (letters, digits, '-', '_', '.'; others as '_'; at most 64 bytes),
 * then '-' and 8 hex digits of the text's FNV-1a hash, so that names that
 * differ only in punctuation ("ax py", "ax_py") get folders of their own. */
static void slug(char *buf, size_t len, const char *s) {
    uint32_t h = 2166136261u;
    for (const char *p = s ? s : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    char readable[65];
    size_t n = 0;
    for (; s && *s && n + 1 < sizeof readable; s++)
        readable[n++] = (char)((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                                       (*s >= '0' && *s <= '9') || *s == '-' || *s == '.'
                                   ? *s
                                   : '_');
    readable[n] = '\0';
    if (n > 0 && readable[0] == '.')
        readable[0] = '_';
    snprintf(buf, len, "%s-%08x", readable, (unsigned)h);
}

static FILE *page_open(site *s, const char *rel, const char *title, const char *up) {
    char *path = br_path_join(s->dir, rel);
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) {
        br_error_set("%s: cannot write: %s", path ? path : rel, strerror(errno));
        free(path);
        return NULL;
    }
    free(path);
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    esc(f, title);
    fprintf(f, "</title>\n<link rel=\"stylesheet\" href=\"%sstyle.css\"></head>\n<body>\n", up);
    s->st->pages++;
    return f;
}

static int page_close(FILE *f, const char *rel) {
    fputs("<p class=\"note\">Written by <code>benchrun publish</code>: static pages, charts "
          "drawn by gnuplot; nothing is loaded from the network.</p>\n</body></html>\n",
          f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return br_error_set("%s: cannot write: %s", rel, strerror(errno));
    return 0;
}

/* Add chart c, drawn into DIR/rel (svg), to the script. */
static int add_chart(site *s, const br_site_chart *c, const char *rel) {
    if (!s->o->charts)
        return 0;
    char *path = br_path_join(s->dir, rel);
    if (!path)
        return -1;
    if (!s->first) {
        s->first = path;
        path = br_strdup("@FIRST@");
        if (!path)
            return -1;
    }
    int rc = br_site_chart_script(s->gp, c, path);
    free(path);
    s->st->charts++;
    return rc;
}

/* ---- one suite and device ------------------------------------------------------------- */

typedef struct devview {
    const br_history_view *v;
    size_t dev;
    size_t *runs; /* view positions of the device's runs, in order */
    size_t n;
    size_t earlier; /* index into runs: the run the latest is compared with */
    char path[600]; /* SUITE/DEVICE */
} devview;

static double value_at(const br_history_view *v, size_t row, size_t j) {
    const br_history_cell *c = br_history_view_cell(v, row, j);
    if (c->ci == BR_HISTORY_NONE)
        return NAN;
    const br_run *r = br_history_view_run(v, j);
    return br_history_case_value(r, &r->cases[c->ci], v->metric);
}

static void case_label(char *buf, size_t len, const br_history_view *v, size_t row) {
    const br_run *r = br_history_view_run(v, v->rows[row].run);
    const br_case_result *c = &r->cases[v->rows[row].ci];
    char p[256];
    br_history_params_label(p, sizeof p, r, c);
    snprintf(buf, len, "%s %s", br_history_kernel_of(r, c), p);
}

/* The case page of `row`: the trend across the device's runs. */
/* The head of a case's or a kernel's page in a suite's folder: the way back
 * to the suite and to all suites, the heading, and chart c (its SVG file
 * svg, a name in this folder, linked when the site draws charts). */
static void chart_page_head(FILE *f, const site *s, const char *suite, const char *heading,
                            const br_site_chart *c, const char *svg) {
    fputs("<nav><a href=\"../../index.html\">all suites</a> · <a href=\"index.html\">", f);
    esc(f, suite);
    fputs("</a></nav>\n<h1>", f);
    esc(f, heading);
    fputs("</h1>\n", f);
    br_site_chart_html(f, c, s->o->charts ? svg : NULL);
}

static int case_page(site *s, const devview *d, size_t row) {
    const br_history_view *v = d->v;
    char rel[700], svg[700], title[400], label[300];
    snprintf(rel, sizeof rel, "%s/c-%zu.html", d->path, row);
    snprintf(svg, sizeof svg, "%s/c-%zu.svg", d->path, row);
    case_label(label, sizeof label, v, row);
    snprintf(title, sizeof title, "%s · %s", label, v->devices[d->dev]);
    br_site_point *pts = calloc(d->n + 1, sizeof *pts), *marks = calloc(d->n + 1, sizeof *marks);
    br_site_tic tics[10];
    size_t n = 0, n_marks = 0, n_tics = 0;
    if (!pts || !marks) {
        free(pts);
        free(marks);
        return br_error_nomem();
    }
    for (size_t k = 0; k < d->n; k++) {
        size_t j = d->runs[k];
        double y = value_at(v, row, j);
        char lab[64], date[32];
        br_history_label(lab, sizeof lab, v->h, v->first + j, 0);
        br_history_short_date(date, sizeof date, br_history_view_run(v, j)->date);
        size_t every = d->n <= 10 ? 1 : (d->n + 7) / 8;
        if (k % every == 0 || (k + 1 == d->n && k % every >= every / 2)) {
            if (n_tics < 10) {
                tics[n_tics].x = (double)(k + 1);
                snprintf(tics[n_tics++].label, sizeof tics[0].label, "%.7s", lab);
            }
        }
        if (!isfinite(y))
            continue;
        br_site_point *p = &pts[n++];
        p->x = (double)(k + 1);
        p->y = y;
        p->run = k;
        snprintf(p->href, sizeof p->href, "#r-%zu", k);
        snprintf(p->tip, sizeof p->tip, "%s %s: %.4g %s", lab, date, y, br_metric_unit(v->metric));
        const br_history_cell *c = br_history_view_cell(v, row, j);
        if (c->cp != BR_HISTORY_NONE && v->changes[c->cp].dev == d->dev) {
            marks[n_marks] = *p;
            snprintf(marks[n_marks].tip, sizeof p->tip, "change point at %s: %+.1f%%", lab,
                     100.0 * v->changes[c->cp].step);
            n_marks++;
        }
    }
    br_site_series ser = {"each run", pts, n};
    char caption[200];
    snprintf(caption, sizeof caption, "%s across %zu runs in commit order; %zu change point%s",
             br_metric_unit(v->metric), d->n, n_marks, n_marks == 1 ? "" : "s");
    br_site_chart c = {title, caption, "commit", br_metric_unit(v->metric), &ser, 1, marks, n_marks,
                       tics,  n_tics,  1};
    int rc = add_chart(s, &c, svg);
    FILE *f = rc == 0 ? page_open(s, rel, title, "../../") : NULL;
    if (f) {
        snprintf(svg, sizeof svg, "c-%zu.svg", row);
        chart_page_head(f, s, v->newest->suite_name, label, &c, svg);
        fprintf(f,
                "<table><tr><th>#</th><th>commit</th><th>date</th><th>%s</th><th>IQR / "
                "median</th><th>95%% CI of the median</th><th>samples</th><th>stop</th></tr>\n",
                br_metric_unit(v->metric));
        for (size_t k = d->n; k-- > 0;) {
            size_t j = d->runs[k];
            const br_history_cell *cell = br_history_view_cell(v, row, j);
            const br_run *r = br_history_view_run(v, j);
            char lab[64], date[32], val[32];
            br_history_label(lab, sizeof lab, v->h, v->first + j, 0);
            br_history_short_date(date, sizeof date, r->date);
            fprintf(f, "<tr id=\"r-%zu\"><td class=\"n\">%zu</td><td>", k, k + 1);
            if (s->o->commit_url && br_history_has_commit(r)) {
                /* The pattern's first %s is the SHA (not a printf format: no injection). */
                const char *pat = s->o->commit_url, *at = strstr(pat, "%s");
                fputs("<a href=\"", f);
                fprintf(f, "%.*s", (int)(at ? at - pat : (ptrdiff_t)strlen(pat)), pat);
                esc(f, r->git.sha);
                if (at)
                    esc(f, at + 2);
                fputs("\">", f);
                esc(f, lab);
                fputs("</a>", f);
            } else {
                fputs("<code title=\"", f);
                esc(f, r->git.sha);
                fputs("\">", f);
                esc(f, lab);
                fputs("</code>", f);
            }
            fprintf(f, "</td><td>%s</td>", date);
            if (cell->ci == BR_HISTORY_NONE) {
                fputs("<td colspan=\"5\">not in this run</td></tr>\n", f);
                continue;
            }
            const br_case_result *cr = &r->cases[cell->ci];
            const br_timing *t = br_case_headline(r, cr);
            br_history_format_value(val, sizeof val, br_history_case_value(r, cr, v->metric),
                                    v->metric);
            fprintf(f, "<td class=\"n\">%s%s</td>",
                    cr->status == BR_STATUS_OK ? val : br_status_name(cr->status),
                    cell->cp != BR_HISTORY_NONE ? " ◆" : "");
            double sp = t->stats.median > 0 ? (t->stats.q3 - t->stats.q1) / t->stats.median : NAN;
            fprintf(f, "<td class=\"n\">%.2f%%</td>", 100.0 * sp);
            if (isfinite(t->stats.ci_low))
                fprintf(f, "<td class=\"n\">%.4g – %.4g µs</td>", t->stats.ci_low / 1e3,
                        t->stats.ci_high / 1e3);
            else
                fputs("<td>–</td>", f);
            fprintf(f, "<td class=\"n\">%zu</td><td>%s</td></tr>\n", t->n_samples,
                    t->stop ? br_stop_name(t->stop) : "–");
        }
        fputs("</table>\n<p class=\"note\">◆ the first run at a new level (a change point: "
              "E-divisive split, Student's t test). Spread: the samples' interquartile range "
              "over their median.</p>\n",
              f);
        rc = page_close(f, rel);
    } else if (rc == 0) {
        rc = -1;
    }
    s->st->cases++;
    free(pts);
    free(marks);
    return rc;
}

/* The kernel page of kernel `name`: the metric against problem size in
 * the latest run and the earlier one. */
static int kernel_page(site *s, const devview *d, const char *name, size_t kn) {
    const br_history_view *v = d->v;
    char rel[700], svg[700], title[400];
    snprintf(rel, sizeof rel, "%s/k-%zu.html", d->path, kn);
    snprintf(svg, sizeof svg, "%s/k-%zu.svg", d->path, kn);
    snprintf(title, sizeof title, "%s · %s", name, v->devices[d->dev]);
    br_site_point *pts = calloc(2 * v->n_rows + 1, sizeof *pts);
    if (!pts)
        return br_error_nomem();
    br_site_series ser[2];
    char names[2][96];
    const size_t which[2] = {d->n - 1, d->earlier};
    size_t n_ser = d->earlier + 1 < d->n ? 2 : 1, used = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < n_ser; k++) {
        size_t j = d->runs[which[k]];
        const br_run *r = br_history_view_run(v, j);
        char lab[64];
        br_history_label(lab, sizeof lab, v->h, v->first + j, 0);
        snprintf(names[k], sizeof names[k], "%s %s (%.10s)", k ? "earlier" : "latest", lab,
                 r->date);
        ser[k] = (br_site_series){names[k], pts + used, 0};
        for (size_t row = 0; row < v->n_rows; row++) {
            const br_history_cell *c = br_history_view_cell(v, row, j);
            if (c->ci == BR_HISTORY_NONE || strcmp(br_history_kernel_of(r, &r->cases[c->ci]), name))
                continue;
            double y = value_at(v, row, j), b = r->cases[c->ci].bytes;
            double x = b > 0 ? log2(b) : (double)row;
            if (!isfinite(y))
                continue;
            br_site_point *p = &pts[used++];
            ser[k].n++;
            p->x = x;
            p->y = y;
            p->run = which[k];
            snprintf(p->href, sizeof p->href, "c-%zu.html", row);
            char label[300];
            case_label(label, sizeof label, v, row);
            snprintf(p->tip, sizeof p->tip, "%.100s: %.4g %s", label, y, br_metric_unit(v->metric));
            lo = fmin(lo, x);
            hi = fmax(hi, x);
        }
    }
    br_site_tic tics[24];
    size_t n_tics = 0;
    for (double e = ceil(isfinite(lo) ? lo : 0); isfinite(hi) && e <= hi && n_tics < 24; e += 1) {
        if (hi - lo > 16 && fmod(e, 2) != 0)
            continue;
        tics[n_tics].x = e;
        snprintf(tics[n_tics++].label, sizeof tics[0].label, "2^%g", e);
    }
    br_site_chart c = {
        title,  NULL, "bytes per execution", br_metric_unit(v->metric), ser, n_ser, NULL, 0, tics,
        n_tics, 0};
    char caption[300];
    snprintf(caption, sizeof caption, "%s against problem size: %s, and %s",
             br_metric_unit(v->metric), names[0], n_ser > 1 ? names[1] : "no earlier run");
    c.caption = caption;
    int rc = add_chart(s, &c, svg);
    FILE *f = rc == 0 ? page_open(s, rel, title, "../../") : NULL;
    if (f) {
        snprintf(svg, sizeof svg, "k-%zu.svg", kn);
        chart_page_head(f, s, v->newest->suite_name, name, &c, svg);
        rc = page_close(f, rel);
    } else if (rc == 0) {
        rc = -1;
    }
    free(pts);
    return rc;
}

/* The roofline of the latest run (its file read again: the index keeps no
 * roofline points), into the script; nothing when it has none. */
static int roofline(site *s, const devview *d, int *drawn) {
    *drawn = 0;
    if (!s->o->charts)
        return 0;
    const br_history_run *hr = &s->h->runs[d->v->first + d->runs[d->n - 1]];
    br_run *runs = NULL;
    size_t n = 0;
    if (br_results_load(&runs, &n, hr->path) != 0 || hr->index >= n) {
        br_results_free(runs, n);
        br_error_clear();
        return 0;
    }
    char rel[700];
    snprintf(rel, sizeof rel, "%s/roofline.svg", d->path);
    char *path = br_path_join(s->dir, rel), *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    const br_run *one = &runs[hr->index];
    int rc = path && m ? br_roofline_plot_script(m, &one, 1, path) : -1;
    if (m)
        fclose(m);
    if (rc == 0) {
        fwrite(text, 1, len, s->gp);
        s->st->charts++;
        *drawn = 1;
    }
    br_error_clear();
    free(text);
    free(path);
    br_results_free(runs, n);
    return 0;
}

/* The device's index page: the latest run's table. */
static int device_page(site *s, const devview *d) {
    const br_history_view *v = d->v;
    const br_run *last = br_history_view_run(v, d->runs[d->n - 1]);
    const br_run *early = br_history_view_run(v, d->runs[d->earlier]);
    char rel[700], title[400], lab[64], elab[64], date[32];
    snprintf(rel, sizeof rel, "%s/index.html", d->path);
    snprintf(title, sizeof title, "%s · %s", last->suite_name, v->devices[d->dev]);
    br_history_label(lab, sizeof lab, v->h, v->first + d->runs[d->n - 1], 0);
    br_history_label(elab, sizeof elab, v->h, v->first + d->runs[d->earlier], 0);
    br_history_short_date(date, sizeof date, last->date);
    int roof = 0;
    if (roofline(s, d, &roof) != 0)
        return -1;
    FILE *f = page_open(s, rel, title, "../../");
    if (!f)
        return -1;
    fputs("<nav><a href=\"../../index.html\">all suites</a></nav>\n<h1>", f);
    esc(f, title);
    fputs("</h1>\n<p>Latest run: <code>", f);
    esc(f, lab);
    fprintf(f, "</code>, %s; %zu runs of this device. Change against <code>", date, d->n);
    esc(f, elab);
    fputs("</code> (", f);
    esc(f, early->date);
    fputs(").</p>\n<p>Kernels:", f);
    for (size_t k = 0; k < last->n_kernels; k++) {
        fprintf(f, " <a href=\"k-%zu.html\">", k);
        esc(f, last->kernels[k].name);
        fputs("</a>", f);
    }
    fprintf(f,
            "</p>\n<table class=\"latest\"><tr><th>kernel</th><th>parameters</th><th>%s</th>"
            "<th>vs earlier</th><th>noise</th><th>samples</th><th>stop</th><th>change "
            "points</th></tr>\n",
            br_metric_unit(v->metric));
    size_t jl = d->runs[d->n - 1], je = d->runs[d->earlier];
    for (size_t row = 0; row < v->n_rows; row++) {
        const br_history_cell *c = br_history_view_cell(v, row, jl);
        if (c->ci == BR_HISTORY_NONE)
            continue;
        const br_case_result *cr = &last->cases[c->ci];
        const br_timing *t = br_case_headline(last, cr);
        char p[256], val[32];
        br_history_params_label(p, sizeof p, last, cr);
        double now = value_at(v, row, jl), was = value_at(v, row, je);
        br_history_format_value(val, sizeof val, now, v->metric);
        fprintf(f, "<tr><td>");
        esc(f, br_history_kernel_of(last, cr));
        fprintf(f, "</td><td><a href=\"c-%zu.html\">", row);
        esc(f, p[0] ? p : "(none)");
        fprintf(f, "</a></td><td class=\"n\">%s</td>",
                cr->status == BR_STATUS_OK ? val : br_status_name(cr->status));
        double ch = isfinite(now) && was > 0 ? now / was - 1 : NAN;
        int slower = br_metric_higher_is_better(v->metric) ? ch < 0 : ch > 0;
        if (isfinite(ch) && je != jl)
            fprintf(f, "<td class=\"n %s\">%+.1f%%</td>",
                    fabs(ch) < 0.005 ? ""
                    : slower         ? "slower"
                                     : "faster",
                    100 * ch);
        else
            fputs("<td>–</td>", f);
        size_t n_cp = 0;
        for (size_t k = 0; k < v->n_changes; k++)
            n_cp += v->changes[k].row == row && v->changes[k].dev == d->dev;
        fprintf(f,
                "<td class=\"n\">%.2f%%</td><td class=\"n\">%zu</td><td>%s</td>"
                "<td class=\"n\">%zu</td></tr>\n",
                100 * t->stats.noise, t->n_samples, t->stop ? br_stop_name(t->stop) : "–", n_cp);
    }
    fputs("</table>\n", f);
    if (roof)
        fputs("<h2>Roofline of the latest run</h2>\n<p><img src=\"roofline.svg\" "
              "alt=\"roofline\" width=\"760\"></p>\n",
              f);
    return page_close(f, rel);
}

/* The pages of device `dev` of view v. */
static int device_site(site *s, const br_history_view *v, size_t dev, FILE *front) {
    devview d = {v, dev, NULL, 0, 0, {0}};
    d.runs = calloc(v->n, sizeof *d.runs);
    if (!d.runs)
        return br_error_nomem();
    for (size_t j = 0; j < v->n; j++)
        if (v->dev[j] == dev)
            d.runs[d.n++] = j;
    if (s->o->against) {
        size_t al = strlen(s->o->against);
        for (size_t k = 0; k < d.n; k++)
            if (strncmp(br_history_view_run(v, d.runs[k])->git.sha, s->o->against, al) == 0)
                d.earlier = k;
    }
    char a[256], b[256];
    slug(a, sizeof a, v->newest->suite_name);
    slug(b, sizeof b, v->devices[dev]);
    snprintf(d.path, sizeof d.path, "%s/%s", a, b);
    char *full = br_path_join(s->dir, d.path);
    int rc = full && br_mkdir_p(full) == 0 ? 0 : -1;
    free(full);
    s->st->devices++;
    for (size_t row = 0; rc == 0 && row < v->n_rows; row++) {
        int any = 0;
        for (size_t k = 0; k < d.n && !any; k++)
            any = br_history_view_cell(v, row, d.runs[k])->ci != BR_HISTORY_NONE;
        if (any)
            rc = case_page(s, &d, row);
    }
    const br_run *last = br_history_view_run(v, d.runs[d.n - 1]);
    for (size_t k = 0; rc == 0 && k < last->n_kernels; k++)
        rc = kernel_page(s, &d, last->kernels[k].name, k);
    if (rc == 0)
        rc = device_page(s, &d);
    if (rc == 0) {
        char date[32];
        br_history_short_date(date, sizeof date, last->date);
        fprintf(front, "<tr><td>");
        esc(front, last->suite_name);
        fprintf(front, "</td><td><a href=\"%s/index.html\">", d.path);
        esc(front, v->devices[dev]);
        fprintf(front,
                "</a></td><td class=\"n\">%zu</td><td>%s</td><td class=\"n\">%zu</td></tr>\n", d.n,
                date, v->n_changes);
    }
    free(d.runs);
    return rc;
}

static int write_css(const site *s) {
    char *path = br_path_join(s->dir, "style.css");
    FILE *f = path ? fopen(path, "w") : NULL;
    int rc = f && fputs(css, f) >= 0 ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    if (rc != 0)
        br_error_set("%s: cannot write: %s", path ? path : "style.css", strerror(errno));
    free(path);
    return rc;
}

/* The buffered script to gnuplot, the first chart's output being the
 * temporary file br_gnuplot_draw gives. */
static int put_script(FILE *f, void *ctx, const char *svg_path) {
    const site *s = ctx;
    const char *mark = "\"@FIRST@\"", *at = strstr(s->gp_text, mark);
    if (!at)
        return br_error_set("publish: no chart in the script");
    fwrite(s->gp_text, 1, (size_t)(at - s->gp_text), f);
    br_gnuplot_string(f, svg_path);
    fputs(at + strlen(mark), f);
    return ferror(f) ? br_error_set("publish: cannot write the gnuplot script") : 0;
}

int br_site_write(const char *dir, const br_history *h, const br_site_opts *o, br_site_stats *st) {
    br_site_stats local;
    site s = {dir, h, o, st ? st : &local, NULL, NULL, 0, NULL};
    memset(s.st, 0, sizeof *s.st);
    if (write_css(&s) != 0)
        return -1;
    if (!(s.gp = open_memstream(&s.gp_text, &s.gp_len)))
        return br_error_nomem();
    FILE *front = page_open(&s, "index.html", "benchmark history", "");
    int rc = front ? 0 : -1;
    if (front)
        fputs("<h1>Benchmark history</h1>\n<table><tr><th>suite</th><th>device</th><th>runs</th>"
              "<th>latest</th><th>change points</th></tr>\n",
              front);
    for (size_t first = 0; rc == 0 && first < h->n_runs;) {
        size_t n = br_history_suite_runs(h, first);
        br_history_view v;
        if (br_history_view_build(&v, h, first, n, 0) != 0 ||
            br_history_view_changes(&v, NULL) != 0) {
            rc = -1;
            break;
        }
        s.st->suites++;
        s.st->changes += v.n_changes;
        for (size_t dev = 0; rc == 0 && dev < v.n_devices; dev++)
            rc = device_site(&s, &v, dev, front);
        br_history_view_dispose(&v);
        first += n;
    }
    if (front) {
        fputs("</table>\n", front);
        if (h->n_skipped) {
            fprintf(front, "<h2>Skipped files (%zu)</h2>\n<ul class=\"skipped\">\n", h->n_skipped);
            for (size_t i = 0; i < h->n_skipped; i++) {
                fputs("<li>", front);
                esc(front, h->skipped[i]);
                fputs("</li>\n", front);
            }
            fputs("</ul>\n", front);
        }
        if (!o->charts)
            fputs("<p class=\"note\">No charts: gnuplot is not installed (apt-get install "
                  "gnuplot-nox).</p>\n",
                  front);
        int closed = page_close(front, "index.html");
        rc = rc == 0 ? closed : rc;
    }
    fclose(s.gp);
    if (rc == 0 && s.first)
        rc = br_gnuplot_draw(s.first, "publish", put_script, &s);
    free(s.gp_text);
    free(s.first);
    return rc;
}
