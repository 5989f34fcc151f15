/* SPDX-License-Identifier: Apache-2.0 */
/* The worker's compute peak message: each outcome round trips, and a
 * malformed message is refused with what is wrong. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "worker/peak_msg.h"

static void round_trip(const br_compute_measure *in, br_compute_measure *out, char **text) {
    size_t len = 0;
    cr_assert_eq(br_peak_msg_encode(text, &len, in), 0, "%s", br_error_get());
    cr_assert_eq(strlen(*text), len);
    cr_assert_eq(br_peak_msg_decode(out, *text, len), 0, "%s: %s", *text, br_error_get());
}

Test(peak_msg, a_measured_peak_round_trips_exactly) {
    br_compute_measure in = {BR_PRECISION_FP16_TENSOR, BR_COMPUTE_PEAK_MEASURED, 612345.5, ""}, out;
    char *text;
    round_trip(&in, &out, &text);
    cr_expect_str_eq(text, "{\"precision\":\"fp16-tensor\",\"status\":\"measured\","
                           "\"gops\":612345.5,\"why\":null}");
    cr_expect_eq(out.precision, BR_PRECISION_FP16_TENSOR);
    cr_expect_eq(out.status, BR_COMPUTE_PEAK_MEASURED);
    cr_expect_eq(out.gops, in.gops);
    cr_expect_str_eq(out.why, "");
    free(text);
}

Test(peak_msg, cached_unavailable_and_failed_round_trip) {
    br_compute_measure cached = {BR_PRECISION_INT8_TENSOR, BR_COMPUTE_PEAK_CACHED, 1.25e6, ""};
    br_compute_measure na = {BR_PRECISION_FP8_TENSOR, BR_COMPUTE_PEAK_UNAVAILABLE, NAN,
                             "fp8-tensor needs compute capability 8.9 or newer"};
    br_compute_measure failed = {BR_PRECISION_FP32, BR_COMPUTE_PEAK_FAILED, NAN, "out of memory"};
    br_compute_measure out;
    char *text;
    round_trip(&cached, &out, &text);
    cr_expect(out.status == BR_COMPUTE_PEAK_CACHED && out.gops == 1.25e6 &&
              out.precision == BR_PRECISION_INT8_TENSOR);
    free(text);
    round_trip(&na, &out, &text);
    cr_expect(out.status == BR_COMPUTE_PEAK_UNAVAILABLE && isnan(out.gops));
    cr_expect_str_eq(out.why, na.why);
    free(text);
    round_trip(&failed, &out, &text);
    cr_expect(out.status == BR_COMPUTE_PEAK_FAILED && out.precision == BR_PRECISION_FP32);
    cr_expect_str_eq(out.why, "out of memory");
    free(text);
}

Test(peak_msg, malformed_messages_are_refused_with_the_reason) {
    struct {
        const char *text, *error;
    } bad[] = {
        {"not json", "not a JSON object"},
        {"{\"precision\":\"fp12\",\"status\":\"measured\",\"gops\":1}", "no known precision"},
        {"{\"precision\":\"none\",\"status\":\"measured\",\"gops\":1}", "no known precision"},
        {"{\"precision\":\"fp32\",\"status\":\"great\",\"gops\":1}", "no known status"},
        {"{\"precision\":\"fp32\",\"status\":\"measured\",\"gops\":0}", "gops is not a positive"},
        {"{\"precision\":\"fp32\",\"status\":\"cached\",\"gops\":null}", "gops is not a positive"},
        {"{\"precision\":\"fp32\",\"status\":\"failed\",\"gops\":null}", "no reason given"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        br_compute_measure p;
        cr_expect_eq(br_peak_msg_decode(&p, bad[i].text, strlen(bad[i].text)), -1, "%s",
                     bad[i].text);
        cr_expect(strstr(br_error_get(), bad[i].error), "%s: %s", bad[i].text, br_error_get());
        cr_expect_eq(p.status, BR_COMPUTE_PEAK_FAILED);
        cr_expect(isnan(p.gops));
    }
}

Test(peak_msg, an_out_of_range_status_is_not_encoded) {
    br_compute_measure p = {BR_PRECISION_FP32, (br_compute_peak_status)9, 1.0, ""};
    char *text = NULL;
    size_t len;
    cr_expect_eq(br_peak_msg_encode(&text, &len, &p), -1);
    cr_expect_null(text);
}
