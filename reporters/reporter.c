/* SPDX-License-Identifier: Apache-2.0 */
/* The registry of output formats. */
#include "reporter.h"
#include "model/metric.h"

#include <math.h>
#include <string.h>

/* Each defined in the reporter's own file: the table, and the reporters
 * of files (BR_REPORTER_FILES). */
extern const br_reporter br_reporter_table;
#define DECLARE(id, name, help, in_report) extern const br_reporter br_reporter_##id;
BR_REPORTER_FILES(DECLARE)
#undef DECLARE

#define ENTRY(id, name, help, in_report) &br_reporter_##id,
static const br_reporter *const registry[] = {&br_reporter_table, BR_REPORTER_FILES(ENTRY)};
#undef ENTRY

/* The built-in reporter called `name` ("table", "csv", "json", "gbench", "markdown"), or NULL when
 * there is none or name is NULL. The result is static. */
const br_reporter *br_reporter_find(const char *name) {
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++) {
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    }
    return NULL;
}

int br_report_has_events_column(const br_run *r) {
    if (r->gpu_clock != BR_CLOCK_KERNEL)
        return 0;
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        const br_timing *h = br_case_headline(r, c);
        if (c->status == BR_STATUS_OK && h->present && h->event_ns)
            return 1;
    }
    return 0;
}

int br_report_has_peak_column(const br_run *r) {
    return br_metric_peak_of(r->metric) != BR_METRIC_PEAK_NONE;
}

br_metric br_report_second_metric(const br_run *r) {
    br_metric other = br_metric_companion(r->metric);
    for (size_t i = 0; other != BR_METRIC_NONE && i < r->n_cases; i++)
        if (isfinite(br_case_metric_amount(&r->cases[i], other)))
            return other;
    return BR_METRIC_NONE;
}

const char *br_report_peak_head(char *buf, size_t len, const br_run *r) {
    if (br_report_second_metric(r) == BR_METRIC_NONE)
        snprintf(buf, len, "%% peak");
    else
        snprintf(buf, len, "%% peak (%s)", br_metric_name(r->metric));
    return buf;
}

int br_report_has_energy(const br_run *r) {
    for (size_t i = 0; r && i < r->n_cases; i++)
        if (r->cases[i].status == BR_STATUS_OK && r->cases[i].energy.present)
            return 1;
    return 0;
}
