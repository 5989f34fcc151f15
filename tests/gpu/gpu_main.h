/* SPDX-License-Identifier: Apache-2.0 */
/* gpu_main.h - main() for GPU test programs: on a machine without a usable
 * GPU, say so and exit 77, which CTest reports as "Skipped" (SKIP_RETURN_CODE);
 * otherwise run the Criterion tests. Include once, in each GPU test file. */
#ifndef BR_GPU_MAIN_H
#define BR_GPU_MAIN_H

#include <criterion/criterion.h>
#include <stdio.h>

#include "platform/device.h"

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
