#include "error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[BR_ERROR_MAX];

int br_error_set(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return -1;
}

int br_error_at(br_pos pos, const char *fmt, ...) {
    int n = 0;
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
    return -1;
}

const char *br_error_get(void) {
    return last_error;
}

void br_error_clear(void) {
    last_error[0] = '\0';
}
