/* SPDX-License-Identifier: Apache-2.0 */
/* test_peak.c - the measured-peak cache: round trip, stale and corrupt entries. */
#include "e2e_util.h"
#include "base/error.h"
#include "platform/compute_peak.h"
#include "platform/peak.h"
#include "base/util.h"

#include <criterion/criterion.h>
#include <jansson.h>

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef BR_VERSION
#define BR_VERSION "dev"
#endif

static void setup(void) {
    e2e_tmp_make();
    br_error_clear();
}

TestSuite(peak, .init = setup, .fini = e2e_tmp_drop);

/* "<tmp>/<rel>" in one of four static buffers used in turn (each valid until
 * the fourth call after it). */
static const char *at(const char *rel) {
    static char bufs[4][PATH_MAX];
    static int next;
    char *buf = bufs[next++ % 4];
    snprintf(buf, PATH_MAX, "%s/%s", tmp, rel);
    return buf;
}

static br_device h100(void) {
    br_device d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "NVIDIA H100 80GB HBM3");
    snprintf(d.uuid, sizeof d.uuid, "GPU-5f0e1d2c-3b4a-5968-7a8b-9c0d1e2f3a4b");
    d.driver_version = 13000;
    d.ecc = 1;
    d.measured_peak_gbps = NAN;
    return d;
}

/* The cache file of d under cache_dir (caller frees). */
static char *path_of(const char *cache_dir, const br_device *d) {
    char *p = br_peak_cache_path(cache_dir, d);
    cr_assert_not_null(p, "%s", br_error_get());
    return p;
}

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* A hand-written entry for d with the given gbps text and benchrun version. */
static void put_entry(const char *cache, const br_device *d, const char *gbps,
                      const char *version) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/peak", cache);
    cr_assert_eq(br_mkdir_p(dir), 0);
    char text[2048];
    snprintf(text, sizeof text,
             "{\"uuid\": \"%s\", \"name\": \"%s\", \"driver_version\": %d,\n"
             " \"benchrun_version\": \"%s\", \"gbps\": %s, \"copy_bytes\": 1024,\n"
             " \"method\": \"test\", \"date\": \"2025-01-01T00:00:00Z\"}\n",
             d->uuid, d->name, d->driver_version, version, gbps);
    char *p = path_of(cache, d);
    put(p, text);
    free(p);
}

static int load(double *gbps, const char *cache, const br_device *d) {
    *gbps = -123.0;
    return br_peak_cache_load(gbps, cache, d, NULL);
}

Test(peak, path_is_cache_dir_peak_uuid_json) {
    br_device d = h100();
    char *p = path_of("/c", &d);
    cr_assert_str_eq(p, "/c/peak/GPU-5f0e1d2c-3b4a-5968-7a8b-9c0d1e2f3a4b.json");
    free(p);
}

Test(peak, store_then_load_round_trips_exactly) {
    br_device d = h100();
    const char *cache = at("cache");
    double gbps = 3012.3456789012345, got;
    cr_assert_eq(br_peak_cache_store(cache, &d, gbps, 4294967296.0, "cudaMemcpyAsync D2D"), 0, "%s",
                 br_error_get());
    cr_assert_eq(load(&got, cache, &d), 1, "%s", br_error_get());
    cr_assert_eq(got, gbps, "the stored value comes back bit for bit: %.17g", got);

    /* The file holds every field, in the documented order. */
    char *p = path_of(cache, &d);
    json_error_t jerr;
    json_t *root = json_load_file(p, 0, &jerr);
    cr_assert_not_null(root, "%s", jerr.text);
    const char *keys[] = {"uuid", "name",       "driver_version", "benchrun_version",
                          "gbps", "copy_bytes", "method",         "date"};
    cr_assert_eq(json_object_size(root), 8);
    size_t i = 0;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        cr_assert_str_eq(key, keys[i], "key %zu", i);
        i++;
    }
    cr_assert_str_eq(json_string_value(json_object_get(root, "uuid")), d.uuid);
    cr_assert_str_eq(json_string_value(json_object_get(root, "name")), d.name);
    cr_assert_eq(json_integer_value(json_object_get(root, "driver_version")), 13000);
    cr_assert_str_eq(json_string_value(json_object_get(root, "benchrun_version")), BR_VERSION);
    cr_assert_eq(json_number_value(json_object_get(root, "copy_bytes")), 4294967296.0);
    cr_assert_str_eq(json_string_value(json_object_get(root, "method")), "cudaMemcpyAsync D2D");
    const char *date = json_string_value(json_object_get(root, "date"));
    cr_assert_not_null(date);
    int y, mo, da, h, mi, s;
    char z = 0;
    cr_assert_eq(strlen(date), 20, "%s", date);
    cr_assert_eq(sscanf(date, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &da, &h, &mi, &s, &z), 7, "%s",
                 date);
    cr_assert_eq(z, 'Z', "UTC: %s", date);
    cr_assert_geq(y, 2024);
    json_decref(root);
    free(p);
}

Test(peak, store_overwrites_a_previous_entry) {
    br_device d = h100();
    const char *cache = at("cache");
    double got;
    cr_assert_eq(br_peak_cache_store(cache, &d, 1000.0, 1e9, "a"), 0, "%s", br_error_get());
    cr_assert_eq(br_peak_cache_store(cache, &d, 2000.0, 1e9, "b"), 0, "%s", br_error_get());
    cr_assert_eq(load(&got, cache, &d), 1);
    cr_assert_eq(got, 2000.0);
}

Test(peak, null_method_is_written_as_null) {
    br_device d = h100();
    const char *cache = at("cache");
    double got;
    cr_assert_eq(br_peak_cache_store(cache, &d, 2500.0, 0.0, NULL), 0, "%s", br_error_get());
    cr_assert_eq(load(&got, cache, &d), 1);
    char *p = path_of(cache, &d);
    json_t *root = json_load_file(p, 0, NULL);
    cr_assert(json_is_null(json_object_get(root, "method")));
    json_decref(root);
    free(p);
}

Test(peak, missing_file_is_no_entry_and_no_error) {
    br_device d = h100();
    double got;
    cr_assert_eq(load(&got, at("cache"), &d), 0, "%s", br_error_get());
    cr_assert(isnan(got), "out is NAN when there is no entry");
    cr_assert_str_eq(br_error_get(), "", "no error is set for a missing entry");
    /* Nor does looking create anything. */
    struct stat st;
    cr_assert_neq(stat(at("cache"), &st), 0);
}

Test(peak, corrupt_json_is_ignored_then_overwritten) {
    br_device d = h100();
    const char *cache = at("cache");
    const char *bad[] = {"",
                         "{\"uuid\": ",
                         "not json at all\n",
                         "[1, 2, 3]\n",
                         "\"GPU-\"\n",
                         "{\"uuid\": \"x\"} trailing\n",
                         "\x01\x02\xff\xfe"};
    double got;
    cr_assert_eq(br_mkdir_p(at("cache/peak")), 0);
    char *p = path_of(cache, &d);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put(p, bad[i]);
        br_error_clear();
        cr_assert_eq(load(&got, cache, &d), 0, "case %zu", i);
        cr_assert(isnan(got));
        cr_assert_str_eq(br_error_get(), "", "case %zu", i);
    }
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1e9, "m"), 0, "%s", br_error_get());
    cr_assert_eq(load(&got, cache, &d), 1);
    cr_assert_eq(got, 3000.0);
    free(p);
}

Test(peak, a_directory_in_place_of_the_file_is_no_entry) {
    br_device d = h100();
    const char *cache = at("cache");
    char *p = path_of(cache, &d);
    cr_assert_eq(br_mkdir_p(p), 0);
    double got;
    cr_assert_eq(load(&got, cache, &d), 0, "%s", br_error_get());
    free(p);
}

/* A FIFO where the file should be: no entry, at once (before: the open
 * waited for a writer). */
Test(peak, a_fifo_in_place_of_the_file_is_no_entry, .timeout = 10) {
    br_device d = h100();
    const char *cache = at("cache");
    char *p = path_of(cache, &d);
    char *dir = br_path_dir(p);
    cr_assert_eq(br_mkdir_p(dir), 0);
    cr_assert_eq(mkfifo(p, 0600), 0);
    double got;
    cr_assert_eq(load(&got, cache, &d), 0, "%s", br_error_get());
    cr_assert(isnan(got));
    free(dir);
    free(p);
}

Test(peak, other_driver_version_is_stale) {
    br_device d = h100();
    const char *cache = at("cache");
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1e9, "m"), 0, "%s", br_error_get());
    br_device newer = d;
    newer.driver_version = 13010;
    double got;
    cr_assert_eq(load(&got, cache, &newer), 0);
    cr_assert(isnan(got));
}

Test(peak, other_uuid_in_the_file_is_not_used) {
    br_device d = h100();
    br_device other = d;
    snprintf(other.uuid, sizeof other.uuid, "GPU-00000000-1111-2222-3333-444444444444");
    const char *cache = at("cache");
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1e9, "m"), 0, "%s", br_error_get());
    /* d's entry under other's file name. */
    char *from = path_of(cache, &d), *to = path_of(cache, &other);
    cr_assert_eq(rename(from, to), 0);
    double got;
    cr_assert_eq(load(&got, cache, &other), 0);
    cr_assert_eq(load(&got, cache, &d), 0);
    free(from);
    free(to);
}

Test(peak, other_name_is_not_used) {
    br_device d = h100();
    const char *cache = at("cache");
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1e9, "m"), 0, "%s", br_error_get());
    br_device renamed = d;
    snprintf(renamed.name, sizeof renamed.name, "NVIDIA H100 PCIe");
    double got;
    cr_assert_eq(load(&got, cache, &renamed), 0);
}

Test(peak, a_peak_stored_with_another_method_is_not_used_when_the_method_is_asked) {
    br_device d = h100();
    const char *cache = at("cache");
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1024.0, "copy, events clock"), 0);
    double got = -1;
    cr_assert_eq(br_peak_cache_load(&got, cache, &d, "copy, kernel clock"), 0);
    cr_assert(isnan(got), "no value for another method: %g", got);
    cr_assert_eq(br_peak_cache_load(&got, cache, &d, "copy, events clock"), 1);
    cr_assert_eq(got, 3000.0);
    cr_assert_eq(br_peak_cache_load(&got, cache, &d, NULL), 1, "NULL accepts any method");
}

Test(peak, other_benchrun_version_is_stale) {
    br_device d = h100();
    const char *cache = at("cache");
    double got;
    put_entry(cache, &d, "3000.5", BR_VERSION);
    cr_assert_eq(load(&got, cache, &d), 1, "the hand-written entry itself is usable");
    cr_assert_eq(got, 3000.5);
    put_entry(cache, &d, "3000.5", "0.0.0-older");
    cr_assert_eq(load(&got, cache, &d), 0);
}

Test(peak, non_positive_or_non_number_gbps_is_no_entry) {
    br_device d = h100();
    const char *cache = at("cache");
    const char *bad[] = {"0", "0.0", "-3000", "\"3000\"", "null", "true", "[3000]", "1e999"};
    double got;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put_entry(cache, &d, bad[i], BR_VERSION);
        cr_assert_eq(load(&got, cache, &d), 0, "gbps %s", bad[i]);
        cr_assert(isnan(got));
    }
    put_entry(cache, &d, "3000", BR_VERSION);
    cr_assert_eq(load(&got, cache, &d), 1, "an integer is a number too");
    cr_assert_eq(got, 3000.0);
}

Test(peak, store_refuses_non_positive_gbps) {
    br_device d = h100();
    const char *cache = at("cache");
    const double bad[] = {0.0, -1.0, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        br_error_clear();
        cr_assert_eq(br_peak_cache_store(cache, &d, bad[i], 1e9, "m"), -1, "%g", bad[i]);
        cr_assert(strstr(br_error_get(), "refusing to cache") != NULL, "%s", br_error_get());
    }
    cr_assert_eq(br_peak_cache_store(cache, &d, 1.0, NAN, "m"), -1);
    cr_assert(strstr(br_error_get(), "copy size") != NULL, "%s", br_error_get());
    double got;
    cr_assert_eq(load(&got, cache, &d), 0, "nothing was written");
}

Test(peak, store_creates_the_directories) {
    br_device d = h100();
    const char *cache = at("a/b/cache");
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1e9, "m"), 0, "%s", br_error_get());
    struct stat st;
    cr_assert_eq(stat(at("a/b/cache/peak"), &st), 0);
    cr_assert(S_ISDIR(st.st_mode));
    double got;
    cr_assert_eq(load(&got, cache, &d), 1);
}

Test(peak, store_leaves_no_temporary_file) {
    br_device d = h100();
    const char *cache = at("cache");
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1e9, "m"), 0, "%s", br_error_get());
    cr_assert_eq(br_peak_cache_store(cache, &d, 3100.0, 1e9, "m"), 0, "%s", br_error_get());
    DIR *dir = opendir(at("cache/peak"));
    cr_assert_not_null(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        cr_assert_str_eq(e->d_name, "GPU-5f0e1d2c-3b4a-5968-7a8b-9c0d1e2f3a4b.json");
        n++;
    }
    closedir(dir);
    cr_assert_eq(n, 1, "exactly the one cache file");
}

Test(peak, store_into_an_unwritable_place_is_an_error) {
    br_device d = h100();
    put(at("file"), "x");
    cr_assert_eq(br_peak_cache_store(at("file"), &d, 3000.0, 1e9, "m"), -1);
    cr_assert(strstr(br_error_get(), "cannot create directory") != NULL, "%s", br_error_get());
}

Test(peak, unreadable_file_is_an_error) {
    if (geteuid() == 0) {
        e2e_tmp_drop(); /* a skipped test does not reach .fini */
        cr_skip_test("root reads files whatever their mode");
    }
    br_device d = h100();
    const char *cache = at("cache");
    cr_assert_eq(br_peak_cache_store(cache, &d, 3000.0, 1e9, "m"), 0, "%s", br_error_get());
    char *p = path_of(cache, &d);
    cr_assert_eq(chmod(p, 0), 0);
    double got;
    cr_assert_eq(load(&got, cache, &d), -1);
    cr_assert(strstr(br_error_get(), "cannot open") != NULL, "%s", br_error_get());
    free(p);
}

Test(peak, device_without_uuid_or_cache_dir) {
    br_device d = h100();
    br_device none = d;
    none.uuid[0] = '\0';
    br_device odd = d;
    snprintf(odd.uuid, sizeof odd.uuid, "../../etc/x");
    double got;
    cr_assert_eq(load(&got, at("cache"), &none), 0);
    cr_assert_eq(load(&got, at("cache"), &odd), 0);
    cr_assert_eq(load(&got, NULL, &d), 0);
    cr_assert_eq(load(&got, "", &d), 0);
    cr_assert_eq(br_peak_cache_store(at("cache"), &none, 3000.0, 1e9, "m"), -1);
    cr_assert(strstr(br_error_get(), "UUID") != NULL, "%s", br_error_get());
    cr_assert_eq(br_peak_cache_store(at("cache"), &odd, 3000.0, 1e9, "m"), -1);
    cr_assert_eq(br_peak_cache_store(NULL, &d, 3000.0, 1e9, "m"), -1);
    cr_assert_eq(br_peak_cache_store("", &d, 3000.0, 1e9, "m"), -1);
}

/* ---- compute peaks, one file per precision ----------------------------------- */

Test(peak, compute_path_is_uuid_dot_precision_json) {
    br_device d = h100();
    char *p = br_peak_compute_cache_path(at("cache"), &d, BR_PRECISION_FP16_TENSOR);
    cr_assert_not_null(p, "%s", br_error_get());
    cr_expect_str_eq(p, at("cache/peak/GPU-5f0e1d2c-3b4a-5968-7a8b-9c0d1e2f3a4b.fp16-tensor.json"));
    free(p);
    cr_expect_null(br_peak_compute_cache_path(at("cache"), &d, BR_PRECISION_NONE));
    cr_expect_null(br_peak_compute_cache_path(at("cache"), &d, (br_precision)BR_PRECISION_COUNT));
}

Test(peak, compute_store_then_load_round_trips_per_precision) {
    br_device d = h100();
    const char *cache = at("cache");
    const br_precision ps[] = {BR_PRECISION_FP64,        BR_PRECISION_FP32,
                               BR_PRECISION_FP16,        BR_PRECISION_BF16,
                               BR_PRECISION_FP64_TENSOR, BR_PRECISION_TF32_TENSOR,
                               BR_PRECISION_FP16_TENSOR, BR_PRECISION_BF16_TENSOR,
                               BR_PRECISION_FP8_TENSOR,  BR_PRECISION_INT8_TENSOR};
    size_t n = sizeof ps / sizeof *ps;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(br_peak_compute_cache_store(cache, &d, ps[i], 1000.0 * (double)(i + 1) + 0.125,
                                                 1e12, "m"),
                     0, "%s", br_error_get());
    /* The bandwidth's own entry lives beside them, untouched. */
    cr_assert_eq(br_peak_cache_store(cache, &d, 3012.5, 4096.0, "copy"), 0);
    for (size_t i = 0; i < n; i++) {
        double v = 0;
        cr_expect_eq(br_peak_compute_cache_load(&v, cache, &d, ps[i], "m"), 1, "%s",
                     br_precision_name(ps[i]));
        cr_expect_eq(v, 1000.0 * (double)(i + 1) + 0.125, "%s: %.17g", br_precision_name(ps[i]), v);
    }
    double g = 0;
    cr_expect_eq(br_peak_cache_load(&g, cache, &d, "copy"), 1);
    cr_expect_eq(g, 3012.5);
    /* A precision never stored, and another method: no entry. */
    cr_expect_eq(br_peak_compute_cache_load(&g, cache, &d, BR_PRECISION_FP8_TENSOR_SPARSE, "m"), 0);
    cr_expect(isnan(g));
    cr_expect_eq(br_peak_compute_cache_load(&g, cache, &d, BR_PRECISION_FP32, "other"), 0);
    cr_expect(isnan(g));
}

Test(peak, a_peak_measured_with_mma_sync_is_not_read_as_a_wgmma_one) {
    br_device d = h100();
    const char *cache = at("cache");
    char sync[256], wg[256];
    br_compute_method(br_compute_kernel_pick(BR_PRECISION_FP16_TENSOR, 9, 0, 0), "cupti", sync,
                      sizeof sync);
    br_compute_method(br_compute_kernel_pick(BR_PRECISION_FP16_TENSOR, 9, 0, 1), "cupti", wg,
                      sizeof wg);
    /* An H200's mma.sync figure, cached before benchrun had wgmma. */
    cr_assert_eq(
        br_peak_compute_cache_store(cache, &d, BR_PRECISION_FP16_TENSOR, 635e3, 1e12, sync), 0,
        "%s", br_error_get());
    double g = 0;
    cr_expect_eq(br_peak_compute_cache_load(&g, cache, &d, BR_PRECISION_FP16_TENSOR, wg), 0);
    cr_expect(isnan(g));
    cr_expect_eq(br_peak_compute_cache_load(&g, cache, &d, BR_PRECISION_FP16_TENSOR, sync), 1);
    cr_expect_eq(g, 635e3);
    /* Measured again with wgmma, the entry is replaced, and read back only as wgmma's. */
    cr_assert_eq(br_peak_compute_cache_store(cache, &d, BR_PRECISION_FP16_TENSOR, 950e3, 1e12, wg),
                 0);
    cr_expect_eq(br_peak_compute_cache_load(&g, cache, &d, BR_PRECISION_FP16_TENSOR, wg), 1);
    cr_expect_eq(g, 950e3);
    cr_expect_eq(br_peak_compute_cache_load(&g, cache, &d, BR_PRECISION_FP16_TENSOR, sync), 0);
}

Test(peak, compute_file_holds_the_precision_and_the_ops) {
    br_device d = h100();
    cr_assert_eq(
        br_peak_compute_cache_store(at("cache"), &d, BR_PRECISION_INT8_TENSOR, 1.5e6, 3e12, NULL),
        0);
    char *p = br_peak_compute_cache_path(at("cache"), &d, BR_PRECISION_INT8_TENSOR);
    json_error_t err;
    json_t *j = json_load_file(p, 0, &err);
    cr_assert_not_null(j, "%s", err.text);
    cr_expect_str_eq(json_string_value(json_object_get(j, "precision")), "int8-tensor");
    cr_expect_eq(json_number_value(json_object_get(j, "gops")), 1.5e6);
    cr_expect_eq(json_number_value(json_object_get(j, "ops")), 3e12);
    cr_expect_str_eq(json_string_value(json_object_get(j, "uuid")), d.uuid);
    cr_expect_str_eq(json_string_value(json_object_get(j, "benchrun_version")), BR_VERSION);
    cr_expect(json_is_null(json_object_get(j, "method")));
    json_decref(j);
    free(p);
}

Test(peak, a_compute_file_of_another_precision_is_not_used) {
    br_device d = h100();
    const char *cache = at("cache");
    cr_assert_eq(br_peak_compute_cache_store(cache, &d, BR_PRECISION_FP32, 60000.0, 1.0, "m"), 0);
    /* Copied by hand under another precision's name. */
    char *from = br_peak_compute_cache_path(cache, &d, BR_PRECISION_FP32);
    char *to = br_peak_compute_cache_path(cache, &d, BR_PRECISION_FP16_TENSOR);
    cr_assert_eq(rename(from, to), 0);
    double v = 0;
    cr_expect_eq(br_peak_compute_cache_load(&v, cache, &d, BR_PRECISION_FP16_TENSOR, "m"), 0);
    cr_expect(isnan(v));
    free(from);
    free(to);
}

Test(peak, an_old_bandwidth_file_is_still_read_and_is_no_compute_peak) {
    br_device d = h100();
    put_entry(at("cache"), &d, "2900.5", BR_VERSION); /* the format before compute peaks */
    double v = 0;
    cr_expect_eq(br_peak_cache_load(&v, at("cache"), &d, NULL), 1);
    cr_expect_eq(v, 2900.5);
    cr_expect_eq(br_peak_compute_cache_load(&v, at("cache"), &d, BR_PRECISION_FP32, NULL), 0);
    cr_expect(isnan(v));
}

Test(peak, compute_store_refuses_non_positive_gops) {
    br_device d = h100();
    cr_expect_eq(br_peak_compute_cache_store(at("cache"), &d, BR_PRECISION_FP32, 0.0, 1.0, "m"),
                 -1);
    cr_expect(strstr(br_error_get(), "refusing to cache a measured peak of 0 GFLOP/s"), "%s",
              br_error_get());
    cr_expect_eq(
        br_peak_compute_cache_store(at("cache"), &d, BR_PRECISION_INT8_TENSOR, NAN, 1.0, "m"), -1);
    cr_expect(strstr(br_error_get(), "GOP/s"), "%s", br_error_get());
}
