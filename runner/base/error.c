/* SPDX-License-Identifier: Apache-2.0 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

static _Thread_local char last_error[BR_ERROR_MAX];
static _Thread_local br_error_kind last_kind;

/* The message with its controls, bidirectional controls and bytes that are
 * not UTF-8 escaped (text.h), newlines and tabs kept: a name or a path from
 * a file cannot drive the terminal the message is printed on. */
static void escape_last(void) {
    size_t len = strlen(last_error), at, n;
    uint32_t cp;
    const char *what = br_text_unsafe(last_error, len, &at, &n, &cp);
    while (what && (cp == '\n' || cp == '\t')) {
        size_t from = at + n;
        what = br_text_unsafe(last_error + from, len - from, &at, &n, &cp);
        at += from;
    }
    if (!what)
        return;
    char esc[BR_ERROR_MAX];
    br_text_escape(esc, sizeof esc, last_error, len, 1);
    memcpy(last_error, esc, strlen(esc) + 1);
}

int br_error_set(const char *fmt, ...) {
    va_list ap;
    last_kind = BR_E_NONE;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    escape_last();
    return -1;
}

int br_error_at(br_pos pos, const char *fmt, ...) {
    int n = 0;
    last_kind = BR_E_NONE;
    if (pos.path && pos.line > 0 && pos.column > 0)
        n = snprintf(last_error, sizeof last_error, "%s:%d:%d: ", pos.path, pos.line, pos.column);
    else if (pos.path && pos.line > 0)
        n = snprintf(last_error, sizeof last_error, "%s:%d: ", pos.path, pos.line);
    else if (pos.path)
        n = snprintf(last_error, sizeof last_error, "%s: ", pos.path);
    if (n < 0 || (size_t)n >= sizeof last_error)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
    va_end(ap);
    escape_last();
    return -1;
}

int br_error_prefix(const char *fmt, ...) {
    char old[BR_ERROR_MAX];
    memcpy(old, last_error, sizeof old);
    br_error_kind kind = last_kind;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof last_error)
        snprintf(last_error + n, sizeof last_error - (size_t)n, "%s", old);
    escape_last();
    last_kind = kind;
    return -1;
}

const char *br_error_get(void) {
    return last_error;
}

void br_error_clear(void) {
    last_error[0] = '\0';
    last_kind = BR_E_NONE;
}

int br_error_set_kind(br_error_kind kind) {
    last_kind = kind;
    return -1;
}

br_error_kind br_error_kind_get(void) {
    return last_kind;
}

int br_error_nomem(void) {
    br_error_set("out of memory");
    return br_error_set_kind(BR_E_NOMEM);
}
