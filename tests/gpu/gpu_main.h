/* SPDX-License-Identifier: Apache-2.0 */
/* gpu_main.h - main() for GPU test programs: on a machine without a usable
 * GPU, say so and exit 77, which CTest reports as "Skipped" (SKIP_RETURN_CODE);
 * otherwise run the Criterion tests. Include once, in each GPU test file. */
#ifndef BR_GPU_MAIN_H
#define BR_GPU_MAIN_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "platform/device.h"

/* The --cache-dir=DIR argument of a GPU test's runs (the caller frees it):
 * DIR is the kernel cache that CTest names in BR_TEST_GPU_CACHE, shared by
 * the GPU tests of one ctest run and the next, so that a module is compiled
 * once rather than once per test (nvcc takes some 10 s for a CUB source;
 * the cache is safe for writers at once, test_e2e_namespaces), else
 * folder/cache. */
static inline char *gpu_cache_arg(const char *folder) {
    const char *shared = getenv("BR_TEST_GPU_CACHE");
    if (shared && shared[0])
        return br_strfmt("--cache-dir=%s", shared);
    return br_strfmt("--cache-dir=%s/cache", folder);
}

int main(int argc, char *argv[]) {
    char why[512];
    if (!br_device_available(why, sizeof why)) {
        printf("SKIPPED: this test needs a GPU: %s\n", why);
        return 77;
    }
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true))
        result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}

#endif
