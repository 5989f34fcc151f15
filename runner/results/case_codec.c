/* SPDX-License-Identifier: Apache-2.0 */
/* One case's result as a message (case_codec.h), through the
 * per-case writer and reader of the results document (case_json.h). */
#include "case_codec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/error.h"
#include "case_json.h"
#include "json_checked.h"

#define MESSAGE_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

int br_case_encode(char **out_text, size_t *out_len, const br_case_result *c, br_backend backend) {
    br_run_kernel kernel = {.name = "", .source = "", .backend = backend};
    br_run run = {.kernels = &kernel, .n_kernels = 1};
    br_case_result one = *c;
    one.kernel = 0;
    one.params = NULL;
    br_json_builder b = {0};
    json_t *doc = json_object();
    char *text = NULL;
    *out_text = NULL;
    *out_len = 0;
    if (doc) {
        if (json_object_set_new(doc, "schema_version", json_integer(BR_SCHEMA_VERSION)) != 0)
            b.failed = 1;
        json_t *o = br_json_case_write(&b, &run, &one);
        if (!o || json_object_set_new(doc, "case", o) != 0)
            b.failed = 1;
        if (!b.failed)
            text = json_dumps(doc, MESSAGE_FLAGS);
        json_decref(doc);
    }
    if (!text)
        return br_error_set("out of memory building JSON");
    *out_text = text;
    *out_len = strlen(text);
    return 0;
}

/* The case object of the message doc into *out (see br_case_decode). */
static int decode_case(br_json_ctx *c, const json_t *doc, br_case_result *out,
                       br_backend *out_backend) {
    json_t *v, *o;
    if (!json_is_object(doc))
        return br_json_fail(c, "expected an object (a case message), found %s", br_json_kind(doc));
    if (br_json_member(c, doc, "schema_version", BR_JSON_REQ, &v) != 0)
        return -1;
    if (!json_is_integer(v) || json_integer_value(v) != BR_SCHEMA_VERSION)
        return br_json_fail_key(c, "schema_version", "expected %d, found %s", BR_SCHEMA_VERSION,
                                br_json_kind(v));
    c->schema = BR_SCHEMA_VERSION;
    if (br_json_get_container(c, doc, "case", BR_JSON_REQ, JSON_OBJECT, &o) != 0)
        return -1;
    size_t old = br_json_push_key(c, "case");
    const char *kernel;
    int backend;
    if (br_json_get_string(c, o, "kernel", BR_JSON_REQ, &kernel) != 0 ||
        br_json_get_name(c, o, "backend", BR_JSON_REQ, br_backend_names, NULL, 0, 0, &backend) != 0)
        return -1;
    br_run_kernel k = {.name = (char *)kernel, .source = "", .backend = (br_backend)backend};
    br_run run = {.kernels = &k, .n_kernels = 1};
    br_json_name_index sorted = {kernel, 0};
    if (br_json_case_read(c, o, &run, &sorted, NULL, out) != 0)
        return -1;
    br_json_pop(c, old);
    out->gbps = out->gflops = out->pct_peak = out->speedup = NAN;
    if (out_backend)
        *out_backend = (br_backend)backend;
    return 0;
}

int br_case_decode(br_case_result *out, br_backend *out_backend, const char *text, size_t len,
                   const char *name) {
    br_json_ctx c = {.name = name ? name : "<input>"};
    memset(out, 0, sizeof *out);
    if (!text)
        return br_error_set("%s: no text to read", c.name);
    json_error_t err;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!doc) {
        br_error_at((br_pos){c.name, err.line, err.column}, "%s", err.text);
        return -1;
    }
    int rc = decode_case(&c, doc, out, out_backend);
    json_decref(doc);
    return rc;
}
