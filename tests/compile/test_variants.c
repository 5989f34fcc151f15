/* SPDX-License-Identifier: Apache-2.0 */
/* test_variants.c - compile-time variants: each define set is its own cache
 * entry, compiled in parallel, and each case runs its own. */
#include <criterion/criterion.h>

#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compile/build.h"
#include "e2e_util.h"

#define SWEEP BR_FIXTURES_DIR "/sweep"

static void make_tmp(void) {
    e2e_tmp_make();
}
static void drop_tmp(void) {
    e2e_tmp_drop();
}
TestSuite(variants, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

Test(variants, each_define_set_is_its_own_cache_key) {
    const char *src = SWEEP "/defines.c";
    const char *a[] = {"-O3", "-DTILE=16", "-DUNROLL=2"};
    const char *b[] = {"-O3", "-DTILE=64", "-DUNROLL=2"};
    const char *inc[] = {br_build_include_dir()};
    char ka[41], ka2[41], kb[41], kn[41];
    cr_assert_eq(br_build_key(ka, src, "cc", "cc 1.0", a, 3, inc, 1), 0, "%s", br_error_get());
    cr_assert_eq(br_build_key(ka2, src, "cc", "cc 1.0", a, 3, inc, 1), 0);
    cr_assert_eq(br_build_key(kb, src, "cc", "cc 1.0", b, 3, inc, 1), 0);
    cr_assert_eq(br_build_key(kn, src, "cc", "cc 1.0", a, 1, inc, 1), 0);
    cr_assert_str_eq(ka, ka2, "the same defines give the same key");
    cr_assert_str_neq(ka, kb, "another TILE is another object");
    cr_assert_str_neq(ka, kn, "no defines is another object");
}

Test(variants, variants_compile_in_parallel_and_each_case_runs_its_own) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    char *json = br_strfmt("%s/out.json", tmp);
    const char *args[] = {cache, "--json", json, SWEEP "/defines.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    /* verify fails unless TILE and UNROLL compiled in are the case's own. */
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    cr_assert(strstr(r.err, "building 2 kernel module(s): 1 source(s) x 2 compile-time variants"),
              "%s", r.err);
    cr_assert(strstr(r.err, "2 compiled, 0 from cache"), "%s", r.err);
    cr_assert(strstr(r.err, "4 case(s): 4 ok"), "%s", r.err);
    e2e_free(&r);
    const char *again[] = {cache, SWEEP "/defines.yaml", "-p", "tile=16", NULL};
    cr_assert_eq(e2e_run(&r, NULL, again), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "0 compiled, 1 from cache"), "%s", r.err);
    cr_assert(strstr(r.err, "2 case(s): 2 ok"), "%s", r.err);
    e2e_free(&r);
    /* A define value that is not cached yet compiles one more object. */
    const char *third[] = {cache, SWEEP "/defines.yaml", "-p", "tile=[16,32]", NULL};
    cr_assert_eq(e2e_run(&r, NULL, third), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "1 compiled, 1 from cache"), "%s", r.err);
    e2e_free(&r);
    free(cache);
    free(json);
}
