/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_results.c - libFuzzer target over the results JSON reader: an input
 * is a results document, parsed as `benchrun report` and `history` read one;
 * a document that parses is written back and parsed again (what a merge or
 * a baseline save does with it).
 *
 *   scripts/fuzz.sh 20 fuzz_results
 *   build-fuzz/fuzz/fuzz_results CRASH_FILE   # replay one input */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/run_read.h"
#include "results/run_write.h"

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
    if (br_results_parse(&runs, &n, text, size, "fuzz.json") == 0 && n > 0) {
        const br_run **ptrs = calloc(n, sizeof *ptrs);
        char *out = NULL;
        size_t len = 0;
        FILE *f = ptrs ? open_memstream(&out, &len) : NULL;
        for (size_t i = 0; ptrs && i < n; i++)
            ptrs[i] = &runs[i];
        if (f && br_results_write(f, ptrs, n) == 0 && fclose(f) == 0) {
            br_run *again = NULL;
            size_t m = 0;
            if (br_results_parse(&again, &m, out, len, "written.json") == 0)
                br_results_free(again, m);
        } else if (f)
            fclose(f);
        free(out);
        free(ptrs);
    }
    br_results_free(runs, n);
    free(text);
    return 0;
}
