/* SPDX-License-Identifier: Apache-2.0 */
/* The name tables of types.h: one per enum, the only place its
 * names are spelt. Suites, the command line, results files and reports all
 * read them through base/name.h. */
#include "types.h"

const br_name br_metric_names[] = {{BR_METRIC_GBPS, "GB/s"},      {BR_METRIC_GFLOPS, "GFLOP/s"},
                                   {BR_METRIC_TFLOPS, "TFLOP/s"}, {BR_METRIC_TOPS, "TOP/s"},
                                   {BR_METRIC_NONE, "none"},      {0, NULL}};
const br_name br_metric_value_keys[] = {
    {BR_METRIC_TFLOPS, "tflops"}, {BR_METRIC_TOPS, "tops"}, {0, NULL}};
const br_name br_cache_names[] = {{BR_CACHE_FLUSH, "flush"},
                                  {BR_CACHE_WARM, "warm"},
                                  {BR_CACHE_FLUSH_MEMSET, "flush-memset"},
                                  {0, NULL}};
const br_name br_precision_names[] = {{BR_PRECISION_NONE, "none"},
                                      {BR_PRECISION_FP64, "fp64"},
                                      {BR_PRECISION_FP32, "fp32"},
                                      {BR_PRECISION_FP16, "fp16"},
                                      {BR_PRECISION_BF16, "bf16"},
                                      {BR_PRECISION_FP64_TENSOR, "fp64-tensor"},
                                      {BR_PRECISION_TF32_TENSOR, "tf32-tensor"},
                                      {BR_PRECISION_FP16_TENSOR, "fp16-tensor"},
                                      {BR_PRECISION_BF16_TENSOR, "bf16-tensor"},
                                      {BR_PRECISION_FP8_TENSOR, "fp8-tensor"},
                                      {BR_PRECISION_INT8_TENSOR, "int8-tensor"},
                                      {BR_PRECISION_TF32_TENSOR_SPARSE, "tf32-tensor-sparse"},
                                      {BR_PRECISION_FP16_TENSOR_SPARSE, "fp16-tensor-sparse"},
                                      {BR_PRECISION_BF16_TENSOR_SPARSE, "bf16-tensor-sparse"},
                                      {BR_PRECISION_FP8_TENSOR_SPARSE, "fp8-tensor-sparse"},
                                      {BR_PRECISION_INT8_TENSOR_SPARSE, "int8-tensor-sparse"},
                                      {0, NULL}};
const br_name br_mode_names[] = {
    {BR_MODE_COLD, "cold"}, {BR_MODE_BATCH, "batch"}, {BR_MODE_BOTH, "both"}, {0, NULL}};
const br_name br_peak_names[] = {
    {BR_PEAK_THEORETICAL, "theoretical"}, {BR_PEAK_MEASURED, "measured"}, {0, NULL}};
const br_name br_status_names[] = {
    {BR_STATUS_OK, "ok"}, {BR_STATUS_FAILED, "failed"}, {BR_STATUS_SKIPPED, "skipped"}, {0, NULL}};
const br_name br_backend_names[] = {{BR_BACKEND_HOST, "host"}, {BR_BACKEND_GPU, "gpu"}, {0, NULL}};
const br_name br_clock_names[] = {{BR_CLOCK_MONOTONIC, "monotonic"},
                                  {BR_CLOCK_EVENTS, "events"},
                                  {BR_CLOCK_KERNEL, "kernel"},
                                  {0, NULL}};
const br_name br_change_names[] = {{BR_CHANGE_SAME, "same"},
                                   {BR_CHANGE_FASTER, "faster"},
                                   {BR_CHANGE_SLOWER, "slower"},
                                   {BR_CHANGE_UNKNOWN, "unknown"},
                                   {BR_CHANGE_NEW, "new"},
                                   {BR_CHANGE_MISSING, "missing"},
                                   {0, NULL}};
const br_name br_confirm_mode_names[] = {{BR_CONFIRM_AUTO, "auto"},
                                         {BR_CONFIRM_NEVER, "never"},
                                         {BR_CONFIRM_ALWAYS, "always"},
                                         {0, NULL}};
const br_name br_gate_stage_names[] = {{BR_GATE_SCREEN, "screen"},
                                       {BR_GATE_CONFIRMED, "confirmed"},
                                       {BR_GATE_NOT_CONFIRMED, "not-confirmed"},
                                       {0, NULL}};
const br_name br_fail_on_names[] = {{BR_FAIL_ON_SLOWER, "slower"},
                                    {BR_FAIL_ON_ANY, "any-change"},
                                    {BR_FAIL_ON_NEVER, "never"},
                                    {0, NULL}};
const br_name br_stop_names[] = {{BR_STOP_CI, "ci"},
                                 {BR_STOP_CI_T, "ci_t"},
                                 {BR_STOP_NOISE, "noise"},
                                 {BR_STOP_PLATEAU, "plateau"},
                                 {BR_STOP_TIMEOUT, "timeout"},
                                 {BR_STOP_MAX_SAMPLES, "max_samples"},
                                 {0, NULL}};
const br_name br_ci_method_names[] = {
    {BR_CI_ORDER, "order-statistics"}, {BR_CI_LOG_T, "log-t"}, {0, NULL}};
const br_name br_op_kind_names[] = {
    {BR_OP_KERNEL, "kernel"}, {BR_OP_MEMCPY, "memcpy"}, {BR_OP_MEMSET, "memset"}, {0, NULL}};
const br_name br_stage_names[] = {{BR_STAGE_COMPILE, "compile"},
                                  {BR_STAGE_INIT, "init"},
                                  {BR_STAGE_SETUP, "setup"},
                                  {BR_STAGE_RUN, "run"},
                                  {BR_STAGE_VERIFY, "verify"},
                                  {BR_STAGE_ENERGY, "energy"},
                                  {BR_STAGE_TEARDOWN, "teardown"},
                                  {BR_STAGE_NO_GPU, "no-gpu"},
                                  {BR_STAGE_BUDGET, "budget"},
                                  {BR_STAGE_INTERRUPTED, "interrupted"},
                                  {BR_STAGE_AB, "ab"},
                                  {BR_STAGE_MISSING, "missing"},
                                  {BR_STAGE_PRECISION, "precision"},
                                  {0, NULL}};

const char *br_metric_name(br_metric m) {
    return br_name_of(br_metric_names, (int)m, "none");
}
const char *br_cache_name(br_cache_policy p) {
    return br_name_of(br_cache_names, (int)p, "unknown");
}
const char *br_precision_name(br_precision p) {
    return br_name_of(br_precision_names, (int)p, "unknown");
}
const char *br_mode_name(br_mode m) {
    return br_name_of(br_mode_names, (int)m, "unknown");
}
const char *br_peak_kind_name(br_peak_kind k) {
    return br_name_of(br_peak_names, (int)k, "unknown");
}
const char *br_status_name(br_case_status s) {
    return br_name_of(br_status_names, (int)s, "unknown");
}
const char *br_backend_name(br_backend b) {
    return br_name_of(br_backend_names, (int)b, "unknown");
}
const char *br_clock_name(br_clock c) {
    return br_name_of(br_clock_names, (int)c, "unknown");
}
const char *br_change_name(br_change c) {
    return br_name_of(br_change_names, (int)c, "?");
}
const char *br_gate_stage_name(br_gate_stage s) {
    return br_name_of(br_gate_stage_names, (int)s, "?");
}
const char *br_stop_name(br_stop s) {
    return br_name_of(br_stop_names, (int)s, NULL);
}
const char *br_ci_method_name(br_ci_method m) {
    return br_name_of(br_ci_method_names, (int)m, "unknown");
}
const char *br_op_kind_name(br_op_kind k) {
    return br_name_of(br_op_kind_names, (int)k, "?");
}
const char *br_stage_name(br_stage s) {
    return br_name_of(br_stage_names, (int)s, NULL);
}
