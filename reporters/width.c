/* SPDX-License-Identifier: Apache-2.0 */
#define _XOPEN_SOURCE 700 /* wcwidth(3) */
/* How many terminal columns a string takes: the display width the
 * terminal table (table.c) and the history tables pad with. */
#include "reporter.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Display width of one byte that starts no character of the locale: a
 * terminal shows an invalid byte as one replacement glyph (U+FFFD, one
 * column), and a control character is shown as a space by the reporters. */
enum { INVALID_BYTE_WIDTH = 1 };

/* Width of a UTF-8 string counted as one column per code point: the
 * fallback for a single-byte locale (the C locale cannot decode UTF-8). */
static size_t code_points(const char *s) {
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

size_t br_report_display_width(const char *s) {
    if (!s)
        return 0;
    if (MB_CUR_MAX == 1)
        return code_points(s);
    size_t w = 0, left = strlen(s);
    mbstate_t st;
    memset(&st, 0, sizeof st);
    while (left > 0) {
        wchar_t wc;
        size_t n = mbrtowc(&wc, s, left, &st);
        if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
            /* Invalid or truncated: this byte alone, then start afresh. */
            memset(&st, 0, sizeof st);
            w += INVALID_BYTE_WIDTH;
            s++;
            left--;
            continue;
        }
        int cw = wcwidth(wc);
        w += cw < 0 ? INVALID_BYTE_WIDTH : (size_t)cw;
        s += n;
        left -= n;
    }
    return w;
}
