/* SPDX-License-Identifier: Apache-2.0 */
/* worker/process.h br_worker_init_process: afterwards a thread started
 * later allocates from glibc's main arena, the one the process's first
 * thread uses (its chunks lie below the program break), so that a worker
 * forked from a --devices lane thread allocates as one forked from the
 * main thread does. Without it such a thread gets an arena of its own,
 * mapped above the break (the test that shows the check can fail). Under
 * AddressSanitizer malloc is the sanitizer's, which has no arenas: skipped. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "worker/process.h"

#if defined(__SANITIZE_ADDRESS__)
#define BR_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BR_TEST_ASAN 1
#endif
#endif

TestSuite(process, .timeout = 30);

extern char end; /* the end of the data segment: the main arena grows from the break above it */

static void *small_alloc(void *out) {
    *(void **)out = malloc(64);
    return NULL;
}

/* Whether a 64-byte block malloc'd in a new thread lies in the main arena. */
static int thread_allocates_from_main_arena(void) {
    void *p = NULL;
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, small_alloc, &p), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    cr_assert_not_null(p);
    uintptr_t a = (uintptr_t)p, lo = (uintptr_t)&end, hi = (uintptr_t)sbrk(0);
    free(p);
    return a >= lo && a < hi;
}

Test(process, a_later_thread_allocates_from_the_main_arena) {
#ifdef BR_TEST_ASAN
    cr_skip_test("AddressSanitizer's allocator has no arenas");
#endif
    br_worker_init_process();
    cr_assert(thread_allocates_from_main_arena(),
              "a thread started after br_worker_init_process allocated outside the main arena");
}

Test(process, without_it_a_thread_has_an_arena_of_its_own) {
#ifdef BR_TEST_ASAN
    cr_skip_test("AddressSanitizer's allocator has no arenas");
#endif
    cr_assert_not(thread_allocates_from_main_arena(), "the check cannot tell the arenas apart");
}
