/* SPDX-License-Identifier: Apache-2.0 */
/* The cache of measured peak bandwidths (see peak.h for the file). */
#include "peak.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "base/error.h"
#include "base/util.h"
#include "compute_peak.h"

#ifndef BR_VERSION
#define BR_VERSION "dev"
#endif

/* A cache file is a few hundred bytes; anything much larger is not ours. */
#define PEAK_FILE_MAX_BYTES ((size_t)64 << 10)

/* 1 when uuid is non-empty and made only of [A-Za-z0-9_-], so that it is
 * safe as a file name ("GPU-xxxxxxxx-..." always is). */
static int uuid_usable(const char *uuid) {
    if (!uuid || !uuid[0])
        return 0;
    for (const char *p = uuid; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

char *br_peak_cache_path(const char *cache_dir, const br_device *d) {
    if (!cache_dir || !cache_dir[0]) {
        br_error_set("measured peak cache: no cache directory given");
        return NULL;
    }
    if (!d || !uuid_usable(d->uuid)) {
        br_error_set("measured peak cache: the device has no usable UUID ('%s')", d ? d->uuid : "");
        return NULL;
    }
    return br_strfmt("%s/peak/%s.json", cache_dir, d->uuid);
}

/* 1 when member `key` of o is a string equal to want. */
static int string_is(const json_t *o, const char *key, const char *want) {
    const json_t *v = json_object_get(o, key);
    return json_is_string(v) && strcmp(json_string_value(v), want) == 0;
}

/* The number `key` of the cache file at path when the file matches d, this
 * benchrun and (when not NULL) method and precision (a file renamed by hand
 * is not used); br_peak_cache_load's contract. */
static int load_entry(double *out, const char *path, const br_device *d, const char *key,
                      const char *method, const char *precision) {
    int rc = -1;
    char *text = NULL;
    size_t len = 0;
    json_t *root = NULL;
    struct stat st;
    if (stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
        return 0; /* not measured yet */
    /* Anything but a regular file within the limit (a directory, a FIFO) is
     * not a cache file: ignored, replaced by the next store. The read itself
     * refuses one swapped in meanwhile at once (base/files.h). */
    if (!S_ISREG(st.st_mode) || (size_t)st.st_size > PEAK_FILE_MAX_BYTES)
        return 0;
    if (br_read_file(&text, &len, path, PEAK_FILE_MAX_BYTES) != 0)
        return -1;
    json_error_t jerr;
    root = json_loadb(text, len, 0, &jerr);
    if (!root) {
        if (json_error_code(&jerr) == json_error_out_of_memory)
            br_error_set("%s: out of memory reading the measured peak", path);
        else
            rc = 0; /* corrupt or truncated: ignored */
        goto done;
    }
    rc = 0;
    const json_t *v = json_object_get(root, key);
    const json_t *driver = json_object_get(root, "driver_version");
    if (!json_is_object(root) || !string_is(root, "uuid", d->uuid) ||
        !string_is(root, "name", d->name) || !json_is_integer(driver) ||
        json_integer_value(driver) != (json_int_t)d->driver_version ||
        !string_is(root, "benchrun_version", BR_VERSION) || !json_is_number(v) ||
        (method && !string_is(root, "method", method)) ||
        (precision && !string_is(root, "precision", precision)))
        goto done;
    double x = json_number_value(v);
    if (!isfinite(x) || x <= 0.0)
        goto done;
    *out = x;
    rc = 1;
done:
    json_decref(root);
    free(text);
    return rc;
}

int br_peak_cache_load(double *out_gbps, const char *cache_dir, const br_device *d,
                       const char *method) {
    *out_gbps = NAN;
    if (!cache_dir || !cache_dir[0] || !d || !uuid_usable(d->uuid))
        return 0;
    char *path = br_peak_cache_path(cache_dir, d);
    if (!path)
        return -1;
    int rc = load_entry(out_gbps, path, d, "gbps", method, NULL);
    free(path);
    return rc;
}

typedef struct store_ctx {
    const json_t *doc;
    const char *path;
} store_ctx;

/* br_write_atomic callback: the entry, 2-space indent, keys in insertion
 * order, reals with 17 significant digits (exact round trip), newline. */
static int write_entry(FILE *f, void *ctx) {
    const store_ctx *c = ctx;
    if (json_dumpf(c->doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) !=
            0 ||
        fputc('\n', f) == EOF)
        return br_error_set("cannot write %s: %s", c->path, strerror(errno));
    return 0;
}

/* Write the entry of device d to path (under <cache_dir>/peak) atomically:
 * the device and this benchrun, then `fields` (taken: decref'd here), then
 * method (null when NULL) and the date. Returns 0, or -1 with the error set. */
static int store_entry(const char *cache_dir, const char *path, const br_device *d, json_t *fields,
                       const char *method) {
    int rc = -1;
    char *dir = NULL;
    json_t *doc = NULL;
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    if (!fields) {
        br_error_set("%s: cannot build the measured peak entry", path);
        goto done;
    }
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) ||
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        br_error_set("%s: cannot read the current time", path);
        goto done;
    }
    json_error_t jerr;
    doc = json_pack_ex(&jerr, 0, "{s:s, s:s, s:I, s:s}", "uuid", d->uuid, "name", d->name,
                       "driver_version", (json_int_t)d->driver_version, "benchrun_version",
                       BR_VERSION);
    if (!doc || json_object_update(doc, fields) != 0 ||
        json_object_set_new(doc, "method", method ? json_string(method) : json_null()) != 0 ||
        json_object_set_new(doc, "date", json_string(date)) != 0) {
        br_error_set("%s: cannot build the measured peak entry (out of memory)", path);
        goto done;
    }
    dir = br_strfmt("%s/peak", cache_dir);
    if (!dir || br_mkdir_p(dir) != 0)
        goto done;
    store_ctx ctx = {doc, path};
    if (br_write_atomic(path, write_entry, &ctx) != 0)
        goto done;
    rc = 0;
done:
    json_decref(fields);
    json_decref(doc);
    free(dir);
    return rc;
}

int br_peak_cache_store(const char *cache_dir, const br_device *d, double gbps, double copy_bytes,
                        const char *method) {
    int rc = -1;
    char *path = br_peak_cache_path(cache_dir, d);
    if (!path)
        return -1;
    if (!isfinite(gbps) || gbps <= 0.0)
        br_error_set("%s: refusing to cache a measured peak of %g GB/s", path, gbps);
    else if (!isfinite(copy_bytes) || copy_bytes < 0.0)
        br_error_set("%s: invalid copy size %g bytes", path, copy_bytes);
    else
        rc = store_entry(cache_dir, path, d,
                         json_pack("{s:f, s:f}", "gbps", gbps, "copy_bytes", copy_bytes), method);
    free(path);
    return rc;
}

/* ---- compute peaks, one file per precision ----------------------------------------- */

/* 1 when p names a precision (its name is a file name part: [a-z0-9-]). */
static int precision_usable(br_precision p) {
    return p > BR_PRECISION_NONE && p < BR_PRECISION_COUNT;
}

char *br_peak_compute_cache_path(const char *cache_dir, const br_device *d, br_precision p) {
    if (!precision_usable(p)) {
        br_error_set("measured peak cache: no precision %d", (int)p);
        return NULL;
    }
    char *base = br_peak_cache_path(cache_dir, d);
    if (!base)
        return NULL;
    base[strlen(base) - strlen(".json")] = '\0';
    char *path = br_strfmt("%s.%s.json", base, br_precision_name(p));
    free(base);
    return path;
}

int br_peak_compute_cache_load(double *out_gops, const char *cache_dir, const br_device *d,
                               br_precision p, const char *method) {
    *out_gops = NAN;
    if (!cache_dir || !cache_dir[0] || !d || !uuid_usable(d->uuid) || !precision_usable(p))
        return 0;
    char *path = br_peak_compute_cache_path(cache_dir, d, p);
    if (!path)
        return -1;
    int rc = load_entry(out_gops, path, d, "gops", method, br_precision_name(p));
    free(path);
    return rc;
}

int br_peak_compute_cache_store(const char *cache_dir, const br_device *d, br_precision p,
                                double gops, double ops, const char *method) {
    int rc = -1;
    char *path = br_peak_compute_cache_path(cache_dir, d, p);
    if (!path)
        return -1;
    if (!isfinite(gops) || gops <= 0.0)
        br_error_set("%s: refusing to cache a measured peak of %g %s", path, gops,
                     br_compute_unit_label(p));
    else if (!isfinite(ops) || ops < 0.0)
        br_error_set("%s: invalid operation count %g", path, ops);
    else
        rc = store_entry(cache_dir, path, d,
                         json_pack("{s:s, s:f, s:f}", "precision", br_precision_name(p), "gops",
                                   gops, "ops", ops),
                         method);
    free(path);
    return rc;
}
