/* SPDX-License-Identifier: Apache-2.0 */
/* The words and figures of a `benchrun ab` comparison
 * (br_comparison.ab set) that the table and Markdown reporters show in
 * place of a baseline comparison's: the ratio NEW/OLD with its interval,
 * the sides, the rule. */
#ifndef BR_ABVIEW_H
#define BR_ABVIEW_H

#include <stddef.h>
#include <stdio.h>

#include "model/run.h"

/* "1.031× [1.024, 1.038]" (times: the multiplication sign to use, "×" or
 * "x") for an entry with a ratio; "1.031×" when it has no interval; `dash`
 * when it has no ratio. */
void br_abview_ratio(char *buf, size_t len, const br_compare_entry *e, const char *times,
                     const char *dash);

/* "HEAD~1 (1a2b3c4)" for OLD (new 0) or NEW (new 1): the revision as given
 * and the short SHA, or for the work tree "work tree (1a2b3c4, modified)". */
void br_abview_side(char *buf, size_t len, const br_comparison *c, int new_side);

/* The rule in words: "slower or faster = the 95% interval of NEW/OLD beyond
 * ±0.5% (paired t test on 6 interleaved blocks of each)". */
void br_abview_rule(char *buf, size_t len, const br_comparison *c, const char *plusminus);

/* The Markdown verdict sentence of an ab comparison (no newline after it). */
void br_abview_markdown_verdict(FILE *f, const br_comparison *c);

#endif
