/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_results.c - libFuzzer target over the results JSON reader: an input
 * is a results document, parsed as `benchrun report` and `history` read one;
 * a document that parses is written back and parsed again (what a merge or
 * a baseline save does with it). The reader, which goes case by case and
 * lifts each case's per-sample columns out of its text, must give what the
 * whole parse gives: the same runs written back, or the same error; an
 * input where it does not aborts (a crash for libFuzzer).
 *
 *   scripts/fuzz.sh 20 fuzz_results
 *   build-fuzz/fuzz/fuzz_results CRASH_FILE   # replay one input */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "results/run_read.h"
#include "results/run_write.h"

/* The n runs written back as a results document (NULL when that fails). */
static char *written(br_run *runs, size_t n, size_t *len) {
    const br_run **ptrs = calloc(n ? n : 1, sizeof *ptrs);
    char *out = NULL;
    FILE *f = ptrs ? open_memstream(&out, len) : NULL;
    for (size_t i = 0; ptrs && i < n; i++)
        ptrs[i] = &runs[i];
    int ok = f && br_results_write(f, ptrs, n) == 0;
    if (f && fclose(f) != 0)
        ok = 0;
    free(ptrs);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* The case-by-case reader against the whole parse of text: rc the
 * reader's result (runs[n] when 0). */
static void check_whole(const char *text, size_t size, int rc, br_run *runs, size_t n) {
    char error[BR_ERROR_MAX];
    snprintf(error, sizeof error, "%s", rc == 0 ? "" : br_error_get());
    br_run *whole = NULL;
    size_t m = 0;
    int rc_whole = br_results_parse_whole(&whole, &m, text, size, "fuzz.json");
    if (rc_whole != rc || (rc != 0 && strcmp(error, br_error_get()) != 0)) {
        fprintf(stderr, "by case: %d %s\nwhole: %d %s\n", rc, error, rc_whole,
                rc_whole ? br_error_get() : "");
        abort();
    }
    if (rc == 0) {
        size_t la = 0, lb = 0;
        char *a = written(runs, n, &la), *b = written(whole, m, &lb);
        if (a && b && (la != lb || memcmp(a, b, la) != 0)) {
            fprintf(stderr, "by case and whole read different runs\n");
            abort();
        }
        free(a);
        free(b);
    }
    br_results_free(whole, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > BR_RESULTS_MAX_BYTES)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    br_run *runs = NULL;
    size_t n = 0;
    int rc = br_results_parse(&runs, &n, text, size, "fuzz.json");
    check_whole(text, size, rc, runs, n);
    if (rc == 0 && n > 0) {
        size_t len = 0;
        char *out = written(runs, n, &len);
        br_run *again = NULL;
        size_t m = 0;
        if (out && br_results_parse(&again, &m, out, len, "written.json") == 0)
            br_results_free(again, m);
        free(out);
    }
    br_results_free(runs, n);
    free(text);
    return 0;
}
