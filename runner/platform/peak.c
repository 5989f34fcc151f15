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

int br_peak_cache_load(double *out_gbps, const char *cache_dir, const br_device *d,
                       const char *method) {
    *out_gbps = NAN;
    if (!cache_dir || !cache_dir[0] || !d || !uuid_usable(d->uuid))
        return 0;
    int rc = -1;
    char *text = NULL;
    size_t len = 0;
    json_t *root = NULL;
    char *path = br_peak_cache_path(cache_dir, d);
    if (!path)
        goto done;
    struct stat st;
    if (stat(path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
        rc = 0; /* not measured yet */
        goto done;
    }
    /* Anything but a regular file within the limit (a directory, a FIFO) is
     * not a cache file: ignored, replaced by the next store. The read itself
     * refuses one swapped in meanwhile at once (base/files.h). */
    if (!S_ISREG(st.st_mode) || (size_t)st.st_size > PEAK_FILE_MAX_BYTES) {
        rc = 0;
        goto done;
    }
    if (br_read_file(&text, &len, path, PEAK_FILE_MAX_BYTES) != 0)
        goto done;
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
    const json_t *gbps = json_object_get(root, "gbps");
    const json_t *driver = json_object_get(root, "driver_version");
    if (!json_is_object(root) || !string_is(root, "uuid", d->uuid) ||
        !string_is(root, "name", d->name) || !json_is_integer(driver) ||
        json_integer_value(driver) != (json_int_t)d->driver_version ||
        !string_is(root, "benchrun_version", BR_VERSION) || !json_is_number(gbps) ||
        (method && !string_is(root, "method", method)))
        goto done;
    double v = json_number_value(gbps);
    if (!isfinite(v) || v <= 0.0)
        goto done;
    *out_gbps = v;
    rc = 1;
done:
    json_decref(root);
    free(text);
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

int br_peak_cache_store(const char *cache_dir, const br_device *d, double gbps, double copy_bytes,
                        const char *method) {
    int rc = -1;
    char *dir = NULL;
    json_t *doc = NULL;
    char *path = br_peak_cache_path(cache_dir, d);
    if (!path)
        goto done;
    if (!isfinite(gbps) || gbps <= 0.0) {
        br_error_set("%s: refusing to cache a measured peak of %g GB/s", path, gbps);
        goto done;
    }
    if (!isfinite(copy_bytes) || copy_bytes < 0.0) {
        br_error_set("%s: invalid copy size %g bytes", path, copy_bytes);
        goto done;
    }
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    if (now == (time_t)-1 || !gmtime_r(&now, &tm) ||
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        br_error_set("%s: cannot read the current time", path);
        goto done;
    }
    json_error_t jerr;
    doc = json_pack_ex(&jerr, 0, "{s:s, s:s, s:I, s:s, s:f, s:f, s:s?, s:s}", "uuid", d->uuid,
                       "name", d->name, "driver_version", (json_int_t)d->driver_version,
                       "benchrun_version", BR_VERSION, "gbps", gbps, "copy_bytes", copy_bytes,
                       "method", method, "date", date);
    if (!doc) {
        br_error_set("%s: cannot build the measured peak entry: %s", path, jerr.text);
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
    json_decref(doc);
    free(dir);
    free(path);
    return rc;
}
