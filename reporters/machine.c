/* SPDX-License-Identifier: Apache-2.0 */
/* One-line descriptions of the device and host (machine.h). */
#include "machine.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A line being assembled from parts joined by a separator; writes stop at
 * the end of the buffer, which stays NUL-terminated. */
typedef struct summary {
    char *buf;
    size_t len;
    size_t used;
    int truncated;
    const char *sep;
} summary;

static void summary_init(summary *s, char *buf, size_t len, int ascii) {
    s->buf = buf;
    s->len = len;
    s->used = 0;
    s->truncated = 0;
    s->sep = ascii ? " - " : " \xc2\xb7 "; /* U+00B7 MIDDLE DOT */
    if (len > 0)
        buf[0] = '\0';
}

static void summary_vadd(summary *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void summary_vadd(summary *s, const char *fmt, va_list ap) {
    if (s->truncated || s->len == 0) {
        s->truncated = 1;
        return;
    }
    int n = vsnprintf(s->buf + s->used, s->len - s->used, fmt, ap);
    if (n < 0) {
        s->buf[s->used] = '\0';
        s->truncated = 1;
        return;
    }
    if ((size_t)n >= s->len - s->used) {
        s->used = s->len - 1;
        s->truncated = 1;
        return;
    }
    s->used += (size_t)n;
}

static void summary_raw(summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void summary_raw(summary *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    summary_vadd(s, fmt, ap);
    va_end(ap);
}

/* Append a new part, preceded by the separator unless it is the first. */
static void summary_part(summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void summary_part(summary *s, const char *fmt, ...) {
    if (s->used > 0)
        summary_raw(s, "%s", s->sep);
    va_list ap;
    va_start(ap, fmt);
    summary_vadd(s, fmt, ap);
    va_end(ap);
}

/* When the line was cut, drop a partial UTF-8 sequence at its end. */
static void summary_finish(summary *s) {
    if (!s->truncated || s->len == 0)
        return;
    size_t end = s->used;
    size_t i = end;
    while (i > 0 && ((unsigned char)s->buf[i - 1] & 0xC0) == 0x80)
        i--; /* continuation bytes */
    if (i > 0 && ((unsigned char)s->buf[i - 1] & 0x80)) {
        unsigned char lead = (unsigned char)s->buf[i - 1];
        size_t want = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : 4;
        if (end - (i - 1) < want)
            end = i - 1;
    }
    s->buf[end] = '\0';
    s->used = end;
}

/* The length of s without leading and trailing blanks; *start skips the leading ones. */
static int trimmed(const char *s, const char **start) {
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    *start = s;
    return n > 0x7fffffff ? 0x7fffffff : (int)n;
}

void br_device_summary(char *buf, size_t len, const br_device *d, int ascii) {
    summary s;
    summary_init(&s, buf, len, ascii);
    if (!d)
        return;
    const char *name;
    int name_len = trimmed(d->name, &name);
    if (name_len > 0)
        summary_part(&s, "%.*s", name_len, name);
    if (d->cc_major > 0)
        summary_part(&s, "sm_%d%d", d->cc_major, d->cc_minor);
    if (d->sm_count > 0)
        summary_part(&s, "%d SMs", d->sm_count);
    int max_mhz =
        d->sm_clock_khz > 0 ? d->sm_clock_khz / 1000 + (d->sm_clock_khz % 1000 >= 500) : 0;
    if (max_mhz > 0 && d->sm_clock_now_mhz > 0)
        summary_part(&s, "%d MHz (now %d)", max_mhz, d->sm_clock_now_mhz);
    else if (max_mhz > 0)
        summary_part(&s, "%d MHz", max_mhz);
    else if (d->sm_clock_now_mhz > 0)
        summary_part(&s, "now %d MHz", d->sm_clock_now_mhz);
    int have_peak = isfinite(d->peak_gbps) && d->peak_gbps > 0.0;
    int have_measured = isfinite(d->measured_peak_gbps) && d->measured_peak_gbps > 0.0;
    if (have_peak && have_measured)
        summary_part(&s, "%.0f GB/s (measured %.0f)", d->peak_gbps, d->measured_peak_gbps);
    else if (have_peak)
        summary_part(&s, "%.0f GB/s", d->peak_gbps);
    else if (have_measured)
        summary_part(&s, "measured %.0f GB/s", d->measured_peak_gbps);
    if (d->ecc == 1 || d->ecc == 0)
        summary_part(&s, "ECC %s", d->ecc ? "on" : "off");
    summary_finish(&s);
}

void br_host_summary(char *buf, size_t len, const br_host *h, int ascii) {
    summary s;
    summary_init(&s, buf, len, ascii);
    if (!h)
        return;
    const char *model, *governor;
    int model_len = trimmed(h->cpu_model, &model);
    int governor_len = trimmed(h->governor, &governor);
    if (model_len > 0)
        summary_part(&s, "%.*s", model_len, model);
    if (h->logical_cores > 0)
        summary_part(&s, "%d %s", h->logical_cores, h->logical_cores == 1 ? "core" : "cores");
    if (governor_len > 0)
        summary_part(&s, "governor %.*s", governor_len, governor);
    summary_finish(&s);
}
