/* SPDX-License-Identifier: Apache-2.0 */
/* The compute peak message (peak_msg.h). */
#include "peak_msg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/error.h"
#include "base/name.h"

static const br_name status_names[] = {{BR_COMPUTE_PEAK_MEASURED, "measured"},
                                       {BR_COMPUTE_PEAK_CACHED, "cached"},
                                       {BR_COMPUTE_PEAK_UNAVAILABLE, "unavailable"},
                                       {BR_COMPUTE_PEAK_FAILED, "failed"},
                                       {0, NULL}};

/* 1 for a status whose gops is a figure. */
static int has_figure(br_compute_peak_status s) {
    return s == BR_COMPUTE_PEAK_MEASURED || s == BR_COMPUTE_PEAK_CACHED;
}

int br_peak_msg_encode(char **text, size_t *len, const br_compute_measure *p) {
    const char *status = br_name_of(status_names, (int)p->status, NULL);
    const char *precision = br_name_of(br_precision_names, (int)p->precision, NULL);
    *text = NULL;
    if (!status || !precision)
        return br_error_set("compute peak message: status %d or precision %d out of range",
                            (int)p->status, (int)p->precision);
    json_t *o =
        json_pack("{s:s, s:s, s:o, s:o}", "precision", precision, "status", status, "gops",
                  has_figure(p->status) && isfinite(p->gops) ? json_real(p->gops) : json_null(),
                  "why", has_figure(p->status) ? json_null() : json_string(p->why));
    if (o)
        *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    if (!*text)
        return br_error_nomem();
    *len = strlen(*text);
    return 0;
}

/* The value of names whose name is the string s, or -1. */
static int value_of(const br_name *names, const json_t *s) {
    int v;
    return json_is_string(s) && br_name_find(&v, names, json_string_value(s)) == 0 ? v : -1;
}

static int fail(br_compute_measure *p, const char *what) {
    p->status = BR_COMPUTE_PEAK_FAILED;
    p->gops = NAN;
    snprintf(p->why, sizeof p->why, "the worker's compute peak message: %s", what);
    return br_error_set("%s", p->why);
}

int br_peak_msg_decode(br_compute_measure *p, const char *text, size_t len) {
    memset(p, 0, sizeof *p);
    p->gops = NAN;
    json_t *o = json_loadb(text, len, 0, NULL);
    int rc = -1;
    int precision = value_of(br_precision_names, json_object_get(o, "precision"));
    int status = value_of(status_names, json_object_get(o, "status"));
    const json_t *gops = json_object_get(o, "gops"), *why = json_object_get(o, "why");
    if (!json_is_object(o))
        fail(p, "not a JSON object");
    else if (precision <= BR_PRECISION_NONE)
        fail(p, "no known precision");
    else if (status < 0)
        fail(p, "no known status");
    else if (has_figure((br_compute_peak_status)status) &&
             (!json_is_number(gops) || !(json_number_value(gops) > 0.0) ||
              !isfinite(json_number_value(gops))))
        fail(p, "gops is not a positive number");
    else if (!has_figure((br_compute_peak_status)status) && !json_is_string(why))
        fail(p, "no reason given");
    else {
        p->precision = (br_precision)precision;
        p->status = (br_compute_peak_status)status;
        if (has_figure(p->status))
            p->gops = json_number_value(gops);
        else
            snprintf(p->why, sizeof p->why, "%s", json_string_value(why));
        rc = 0;
    }
    json_decref(o);
    return rc;
}
