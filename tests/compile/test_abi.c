/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel ABI versions: a module built against an older benchrun_kernel.h
 * (version 1, tests/fixtures/abi_v1/) loads and runs through the normal build
 * path; one that claims a newer version is refused with what to do. */
#include <criterion/criterion.h>
#include <stddef.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/build.h"
#include "compile/resolve.h"
#include "e2e_util.h"
#include "drive/execute.h"
#include "worker/proto.h"
#include "worker/proto.h"
#include "worker/session.h"
#include "plan/job.h"

#define ABI_V1 BR_FIXTURES_DIR "/abi_v1"

TestSuite(abi, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

Test(abi, a_version_1_module_loads_with_its_short_table_entries) {
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    br_build_src srcs[] = {{.path = ABI_V1 "/v1_module.c"}};
    br_module_handle h;
    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 1, "%s", br_error_get());
    cr_assert_eq(h.state, BR_MODULE_LOADED, "%s\n%s", h.message ? h.message : "",
                 h.log ? h.log : "");
    cr_assert_eq(h.module->abi_version, 1);
    cr_assert_eq(h.module->n_kernels, 2);
    /* The second entry is read at the version-1 stride, not this ABI's. */
    cr_assert_str_eq(h.module->kernels[0].name, "v1_sum");
    cr_assert_str_eq(h.module->kernels[1].name, "v1_sum_again");
    cr_assert_not_null(h.module->kernels[1].run);
    cr_assert_null(h.module->kernels[0].arg, "a member the module's version lacks is zero");
    cr_assert_null(h.module->kernels[1].arg);
    br_module_handle_dispose(&h);
    free(cache);
}

static void quiet_sink(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    (void)msg;
}

Test(abi, a_version_1_module_runs_through_the_normal_build_path) {
    br_log_set_sink(quiet_sink, NULL);
    char *cache = br_strfmt("%s/cache", tmp);
    br_run_opts opts = {.cache_dir = cache, .quiet = 1, .jobs = 1};
    br_measure_layer_init(&opts.measure);
    br_job job;
    br_session *s = NULL;
    br_run run;
    cr_assert_eq(br_job_prepare(&job, ABI_V1 "/abi_v1.yaml", &opts), 0, "%s", br_error_get());
    cr_assert_eq(br_session_open(&s, &opts), 0, "%s", br_error_get());
    cr_assert_eq(br_session_build_job(s, &job, BR_BUILD_RUN), 0, "%s", br_error_get());
    cr_assert_eq(br_job_execute(&run, &job, s, &(br_driver_ledger)BR_DRIVER_LEDGER_INIT), 0, "%s",
                 br_error_get());
    cr_assert_eq(run.n_cases, 4);
    for (size_t i = 0; i < run.n_cases; i++)
        cr_assert_eq(run.cases[i].status, BR_STATUS_OK, "case %zu: %s: %s", i,
                     run.cases[i].stage ? br_stage_name(run.cases[i].stage) : "",
                     run.cases[i].message ? run.cases[i].message : "");
    br_run_dispose(&run);
    br_session_close(s);
    br_job_dispose(&job);
    br_log_set_sink(NULL, NULL);
    free(cache);
}

Test(abi, a_module_of_a_newer_abi_is_refused_saying_what_to_do) {
    char *src = e2e_put("newer.c", "#include \"benchrun_kernel.h\"\n"
                                   "static int run(br_case *c) { (void)c; return 0; }\n"
                                   "static const br_kernel k[] = {{\"k1\", 0, run, 0, 0, 0}};\n"
                                   "BR_MODULE_LINKAGE const br_module benchrun_module;\n"
                                   "const br_module benchrun_module = {BR_KERNEL_ABI_VERSION + 1, "
                                   "1, k, sizeof(br_kernel)};\n");
    char *cache = br_strfmt("%s/cache", tmp);
    br_build_opts o = {.cache_dir = cache, .jobs = 1};
    br_build_src srcs[] = {{.path = src}};
    br_module_handle h;
    cr_assert_eq(br_build_modules(&h, srcs, 1, &o), 1, "%s", br_error_get());
    cr_assert_eq(h.state, BR_MODULE_FAILED);
    cr_assert_null(h.module);
    char *want =
        br_strfmt("the module was built for kernel ABI %u, newer than this benchrun's "
                  "%u: update benchrun, or build the module against this benchrun's "
                  "benchrun_kernel.h (%s)",
                  BR_KERNEL_ABI_VERSION + 1, BR_KERNEL_ABI_VERSION, br_build_include_dir());
    cr_assert_str_eq(h.message, want);
    free(want);
    br_module_handle_dispose(&h);
    free(src);
    free(cache);
}
