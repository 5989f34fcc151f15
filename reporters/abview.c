/* SPDX-License-Identifier: Apache-2.0 */
/* The words and figures of a `benchrun ab` comparison (abview.h). */
#include "abview.h"

#include <math.h>
#include <string.h>

/* A ratio with 3 decimals (3 significant digits far from 1). */
static int put_ratio(char *buf, size_t len, double r) {
    return snprintf(buf, len, r >= 0.01 && r < 100 ? "%.3f" : "%.3g", r);
}

void br_abview_ratio(char *buf, size_t len, const br_compare_entry *e, const char *times,
                     const char *dash) {
    if (!isfinite(e->ratio)) {
        snprintf(buf, len, "%s", dash);
        return;
    }
    size_t k = (size_t)put_ratio(buf, len, e->ratio);
    if (k < len)
        k += (size_t)snprintf(buf + k, len - k, "%s", times);
    if (!isfinite(e->ratio_low) || !isfinite(e->ratio_high) || k >= len)
        return;
    k += (size_t)snprintf(buf + k, len - k, " [");
    if (k < len)
        k += (size_t)put_ratio(buf + k, len - k, e->ratio_low);
    if (k < len)
        k += (size_t)snprintf(buf + k, len - k, ", ");
    if (k < len)
        k += (size_t)put_ratio(buf + k, len - k, e->ratio_high);
    if (k < len)
        snprintf(buf + k, len - k, "]");
}

void br_abview_side(char *buf, size_t len, const br_comparison *c, int new_side) {
    const br_ab_side *s = new_side ? &c->ab->new_side : &c->ab->old_side;
    char sha[16];
    snprintf(sha, sizeof sha, "%.7s", s->sha);
    if (s->rev)
        snprintf(buf, len, "%s (%s)", s->rev, sha[0] ? sha : "?");
    else if (sha[0])
        snprintf(buf, len, "work tree (%s%s)", sha, s->dirty ? ", modified" : "");
    else
        snprintf(buf, len, "work tree");
}

void br_abview_rule(char *buf, size_t len, const br_comparison *c, const char *plusminus) {
    snprintf(buf, len,
             "slower or faster = the %g%% interval of NEW/OLD beyond %s%g%% (paired t test, "
             "%zu blocks each, A B B A)",
             100.0 * c->ab->ci_level, plusminus, 100.0 * c->rules.threshold, c->ab->blocks);
}

void br_abview_markdown_verdict(FILE *f, const br_comparison *c) {
    char old[160], cur[160], rule[256];
    br_abview_side(old, sizeof old, c, 0);
    br_abview_side(cur, sizeof cur, c, 1);
    br_abview_rule(rule, sizeof rule, c, "±");
    size_t slower = c->count[BR_CHANGE_SLOWER];
    /* Revisions and SHAs hold no Markdown: a backtick would end the code span. */
    for (char *p = old; *p; p++)
        *p = *p == '`' ? '\'' : *p;
    for (char *p = cur; *p; p++)
        *p = *p == '`' ? '\'' : *p;
    if (slower)
        fprintf(f, "**Regression:** %zu case(s) slower", slower);
    else
        fputs("**No regression**", f);
    fprintf(f,
            " in `%s` against `%s`: %zu slower, %zu faster, %zu same, %zu unknown, %zu new, %zu "
            "missing. %c%s.",
            cur, old, slower, c->count[BR_CHANGE_FASTER], c->count[BR_CHANGE_SAME],
            c->count[BR_CHANGE_UNKNOWN], c->count[BR_CHANGE_NEW], c->count[BR_CHANGE_MISSING], 'S',
            rule + 1);
}
