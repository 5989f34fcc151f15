/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_shard.c - libFuzzer target over the shard reader and the merge: an
 * input is two results documents (parts of a sharded plan) joined by a
 * line "#part"; each is read (its "shard" records with them) and the two
 * are merged as `benchrun merge` does, host shards of different CPU models
 * allowed and not.
 *
 *   scripts/fuzz.sh 20 fuzz_shard
 *   build-fuzz/fuzz/fuzz_shard CRASH_FILE   # replay one input */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/merge.h"
#include "results/run_read.h"

#define MARK "\n#part\n"

/* Parse text[0..len) into part *p (path for messages); 0 or -1. */
static int parse(br_merge_part *p, const char *text, size_t len, const char *path) {
    char *copy = malloc(len + 1);
    if (!copy)
        return -1;
    memcpy(copy, text, len);
    copy[len] = '\0';
    p->path = path;
    int rc = br_results_parse(&p->runs, &p->n_runs, copy, len, path);
    free(copy);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data, *mark = NULL;
    for (size_t i = 0; i + strlen(MARK) <= size && !mark; i++)
        if (memcmp(text + i, MARK, strlen(MARK)) == 0)
            mark = text + i;
    size_t first = mark ? (size_t)(mark - text) : size;
    for (unsigned flags = 0; flags < 2; flags++) {
        br_merge_part parts[2];
        memset(parts, 0, sizeof parts);
        size_t n = 0;
        if (parse(&parts[0], text, first, "part-1.json") == 0)
            n = 1;
        if (n == 1 && mark &&
            parse(&parts[1], mark + strlen(MARK), size - first - strlen(MARK), "part-2.json") == 0)
            n = 2;
        if (n > 0) {
            br_run *runs = NULL;
            size_t m = 0;
            br_merge_report rep;
            if (br_merge_parts(&runs, &m, &rep, parts, n, flags) == 0) {
                br_results_free(runs, m);
                br_merge_report_dispose(&rep);
            }
        }
        for (size_t i = 0; i < 2; i++)
            br_results_free(parts[i].runs, parts[i].n_runs);
    }
    return 0;
}
