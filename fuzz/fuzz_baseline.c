/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_baseline.c - libFuzzer target over the baseline reader: an input is
 * a baseline file (baselines/SUITE/DEVICE.json), read for a run of suite
 * "reduction" as a run with a baseline reads it (gate/baseline.h).
 *
 *   scripts/fuzz.sh 20 fuzz_baseline
 *   build-fuzz/fuzz/fuzz_baseline CRASH_FILE   # replay one input */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gate/baseline.h"
#include "model/run.h"

static char path[256];

static void cleanup(void) {
    unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/br_fuzz_baseline.%ld.json", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t put = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || put != size)
        return 0;
    br_run r;
    memset(&r, 0, sizeof r);
    r.suite_name = "reduction";
    br_run base;
    memset(&base, 0, sizeof base);
    br_baseline_load(&base, path, &r);
    br_run_dispose(&base);
    return 0;
}
