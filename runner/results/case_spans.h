/* SPDX-License-Identifier: Apache-2.0 */
/* Where each case of a results document lies in its text,
 * found by a scan that builds nothing, so that a reader can parse the
 * document without its cases and then one case at a time: the jansson
 * tree of a whole 10k-case document is some 4 times its text (issue 43),
 * that of one case a few kilobytes. */
#ifndef BR_RESULTS_CASE_SPANS_H
#define BR_RESULTS_CASE_SPANS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The "cases" array of one run: text[open] is its '[', text[close] its
 * ']'; case i is text[start[i], end[i]). */
typedef struct br_case_spans {
    size_t open, close, n;
    size_t *start, *end; /* owned */
} br_case_spans;

/* The case spans of each element of the member "runs" of the top-level
 * object of text[0..len) into *out (caller frees with br_case_spans_free)
 * and *n_out, when the text has that shape: an object with one "runs"
 * member (a key without escapes), an array of objects each with one
 * "cases" member that is an array. Nothing is validated beyond what finds
 * the spans; jansson checks each part. Returns 0 when found, 1 when the
 * text has another shape (or is not JSON; the caller parses it whole), -1
 * out of memory (error set). */
int br_case_spans_find(br_case_spans **out, size_t *n_out, const char *text, size_t len);

/* The text without the cases: each "cases" array emptied ("[]"), NUL
 * terminated, its length in *len_out. NULL when out of memory (error
 * set). */
char *br_case_spans_strip(const char *text, size_t len, const br_case_spans *s, size_t n,
                          size_t *len_out);

/* Free n spans of br_case_spans_find; accepts NULL. */
void br_case_spans_free(br_case_spans *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
