/* SPDX-License-Identifier: Apache-2.0 */
/* GPU: the timing core against known answers (label `gpu`; skipped without a
 * GPU). A kernel that spins on %globaltimer for a fixed time must be timed
 * at that time plus at most the events' own overhead; the SM clock probe
 * must read a plausible clock; a memset flush must slow the next kernel where
 * the read flush does not. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>

#include "../e2e_util.h"
#include "gpu_main.h"

TestSuite(gpu_timing, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 600);

/* Run benchrun on `suite_text` (written to tmp) with extra arguments; return
 * the parsed JSON run (owned by *doc). */
static json_t *run_json(json_t **doc, const char *name, const char *suite_text, const char *extra) {
    char *suite = e2e_put(name, suite_text);
    char *json = br_strfmt("%s/%s.json", tmp, name);
    char *cache = gpu_cache_arg(tmp);
    const char *args[] = {cache, "--json", json, extra ? extra : "-q", suite, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    json_error_t err;
    *doc = json_load_file(json, 0, &err);
    cr_assert_not_null(*doc, "%s", err.text);
    e2e_free(&r);
    free(suite);
    free(json);
    free(cache);
    return json_array_get(json_object_get(*doc, "runs"), 0);
}

static double num(json_t *o, const char *k) {
    return json_number_value(json_object_get(o, k));
}

Test(gpu_timing, a_spin_kernel_of_known_length_is_timed_at_that_length) {
    char *text = br_strfmt("name: spin\nsource: [%s/spin.cu]\nkernels: [spin]\n"
                           "params:\n  us: [0, 10, 100, 1000]\n"
                           "measure: {mode: both}\n",
                           BR_FIXTURES_DIR "/e2e");
    json_t *doc;
    json_t *run = run_json(&doc, "spin", text, NULL);
    free(text);
    double max_mhz = num(json_object_get(run, "device"), "sm_clock_max_mhz");
    json_t *cases = json_object_get(run, "cases");
    /* us = 0: the kernel's own fixed cost (one block launched, one
     * %globaltimer read, one store, retired), which every spin also pays. */
    json_t *zero = json_array_get(cases, 0);
    double k0_cold = num(json_object_get(zero, "cold"), "median") / 1e3;
    double k0_batch = num(json_object_get(zero, "batch"), "median") / 1e3;
    cr_assert(k0_cold > 0 && k0_cold < 1.5, "an empty spin takes %g us", k0_cold);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        double us = num(json_object_get(c, "params"), "us");
        if (us == 0)
            continue;
        json_t *cold = json_object_get(c, "cold"), *batch = json_object_get(c, "batch");
        /* The headline is the kernel clock: the spin's duration beyond the
         * empty kernel's is the spin's length within 0.5% (issue 4). The
         * event times stay beside it. */
        cr_assert_str_eq(json_string_value(json_object_get(cold, "clock")), "kernel");
        double kcold_us = num(cold, "median") / 1e3, kbatch_us = num(batch, "median") / 1e3;
        cr_assert(fabs(kcold_us - k0_cold - us) <= 0.005 * us,
                  "kernel clock, cold: %g us for a %g us spin (empty: %g us)", kcold_us, us,
                  k0_cold);
        cr_assert(fabs(kbatch_us - k0_batch - us) <= 0.005 * us,
                  "kernel clock, batch: %g us for a %g us spin (empty: %g us)", kbatch_us, us,
                  k0_batch);
        cr_assert_eq(num(cold, "ops_median"), 1, "one kernel per execution");
        double cold_us = num(cold, "event_median_ns") / 1e3;
        double batch_us = num(batch, "event_median_ns") / 1e3;
        /* Events: never shorter than the spin; longer by at most their fixed
         * overhead (2-4 us, MEASUREMENT.md point 3) and 0.5%. */
        cr_assert_geq(cold_us, us, "cold %g us for a %g us spin", cold_us, us);
        cr_assert_leq(cold_us, us * 1.005 + 5.0, "cold %g us for a %g us spin", cold_us, us);
        cr_assert_geq(batch_us, us, "batch %g us for a %g us spin", batch_us, us);
        cr_assert_leq(batch_us, us * 1.005 + 2.0, "batch %g us for a %g us spin", batch_us, us);
        /* The probe reads the SM clock: within 75%..105% of the maximum. */
        double mhz = num(cold, "sm_mhz");
        cr_assert(mhz > 0.75 * max_mhz && mhz < 1.05 * max_mhz, "SM clock %g MHz, max %g", mhz,
                  max_mhz);
    }
    json_decref(doc);
}

Test(gpu_timing, a_memset_flush_slows_the_next_kernel_and_the_read_flush_does_not) {
    /* MEASUREMENT.md point 2: zeroing a buffer leaves dirty lines in L2 whose
     * write-back lands in the timed kernel; reading one leaves clean lines.
     * At 2^24 floats the memset flush makes both kernels measurably slower:
     * the medians' 95% confidence intervals are apart. */
    char *text = br_strfmt("name: flush\nsource: [%s/kernels/reduction.cu]\n"
                           "kernels: [reduce_vec, reduce_cub]\n"
                           "params:\n  n: [\"2^24\"]\nbytes: 4 * n\n",
                           BR_SOURCE_DIR);
    json_t *doc_read, *doc_memset;
    json_t *rd = run_json(&doc_read, "flushread", text, "--cache=flush");
    json_t *ms = run_json(&doc_memset, "flushmemset", text, "--cache=flush-memset");
    free(text);
    for (size_t i = 0; i < 2; i++) {
        json_t *c = json_array_get(json_object_get(rd, "cases"), i);
        json_t *r = json_object_get(c, "cold");
        json_t *m = json_object_get(json_array_get(json_object_get(ms, "cases"), i), "cold");
        cr_assert_lt(num(r, "ci_high"), num(m, "ci_low"),
                     "%s: read flush %g ns [%g, %g] is not faster than memset flush %g ns [%g, %g]",
                     json_string_value(json_object_get(c, "kernel")), num(r, "median"),
                     num(r, "ci_low"), num(r, "ci_high"), num(m, "median"), num(m, "ci_low"),
                     num(m, "ci_high"));
    }
    json_decref(doc_read);
    json_decref(doc_memset);
}

Test(gpu_timing, the_breakdown_names_every_kernel_cub_launched) {
    char *text = br_strfmt("name: cub\nsource: [%s/kernels/reduction.cu]\n"
                           "kernels: [reduce_cub, reduce_vec]\n"
                           "params:\n  n: [\"2^24\"]\nbytes: 4 * n\n",
                           BR_SOURCE_DIR);
    json_t *doc;
    json_t *run = run_json(&doc, "cub", text, NULL);
    free(text);
    cr_assert_str_eq(json_string_value(json_object_get(run, "gpu_clock")), "kernel");
    json_t *cub = json_object_get(json_array_get(json_object_get(run, "cases"), 0), "cold");
    json_t *bd = json_object_get(cub, "breakdown");
    /* CUB's two-pass reduction: a per-tile kernel, then one over the partial sums. */
    cr_assert_eq(json_array_size(bd), 2, "reduce_cub launched %zu kinds of operation",
                 json_array_size(bd));
    size_t i;
    json_t *op;
    double share = 0;
    json_array_foreach(bd, i, op) {
        const char *name = json_string_value(json_object_get(op, "name"));
        cr_assert(name && strstr(name, "cub::") && strstr(name, "DeviceReduce"),
                  "a demangled CUB kernel name: %s", name);
        cr_assert_str_eq(json_string_value(json_object_get(op, "kind")), "kernel");
        cr_assert_eq(num(op, "per_execution"), 1.0, "%s", name);
        share += num(op, "share");
    }
    cr_assert_float_eq(share, 1.0, 1e-9, "the shares add up");
    cr_assert_eq(num(cub, "ops_median"), 2);
    json_t *vec = json_object_get(json_array_get(json_object_get(run, "cases"), 1), "cold");
    cr_assert_eq(json_array_size(json_object_get(vec, "breakdown")), 1);
    json_decref(doc);
}

Test(gpu_timing, without_cupti_the_headline_is_the_event_time) {
    char *text = br_strfmt("name: nocupti\nsource: [%s/kernels/reduction.cu]\n"
                           "kernels: [reduce_vec]\n"
                           "params:\n  n: [\"2^20\"]\nbytes: 4 * n\n",
                           BR_SOURCE_DIR);
    json_t *doc;
    json_t *run = run_json(&doc, "nocupti", text, "--no-cupti");
    free(text);
    cr_assert_str_eq(json_string_value(json_object_get(run, "gpu_clock")), "events");
    cr_assert(json_is_null(json_object_get(run, "clock_note")), "turned off: no note");
    json_t *cold = json_object_get(json_array_get(json_object_get(run, "cases"), 0), "cold");
    cr_assert_str_eq(json_string_value(json_object_get(cold, "clock")), "events");
    cr_assert(json_is_null(json_object_get(cold, "kernel_ns")));
    cr_assert_eq(num(cold, "median"), num(cold, "event_median_ns"));
    json_decref(doc);
}
