/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun bisect` found, written out: the answer
 * and the table of steps as text, the whole result as JSON (layout version
 * 1: docs/bisect.md), and Markdown. */
#ifndef BR_BISECT_REPORT_H
#define BR_BISECT_REPORT_H

#include <stdio.h>

#include "bisect_result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each writes r whole to f and returns 0, or -1 with the error set (a
 * write failed, out of memory). ascii: "x" and "|" for "×" and "│". */
int br_bisect_print(FILE *f, const br_bisect_result *r, int ascii);
int br_bisect_write_json(FILE *f, const br_bisect_result *r);
int br_bisect_write_markdown(FILE *f, const br_bisect_result *r);

/* The name of a class ("untested", "good", "bad", "undecided", "skipped"). */
const char *br_bisect_class_name(br_bisect_class c);

#ifdef __cplusplus
}
#endif
#endif
