/* SPDX-License-Identifier: Apache-2.0 */
/* Controls, names and escaping (text.h). */
#define _GNU_SOURCE /* vasprintf */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the well-formed UTF-8 sequence at s[0..len) (RFC 3629,
 * table 3-7 of the Unicode Standard) and its code point, or 0 when s[0]
 * does not start one. */
static size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp) {
    unsigned char b = s[0];
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF)
        n = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        lo = b == 0xE0 ? 0xA0 : 0x80; /* no overlong form */
        hi = b == 0xED ? 0x9F : 0xBF; /* no surrogate */
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF; /* at most U+10FFFF */
    } else
        return 0;
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    uint32_t c = b & (0xFF >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    *cp = c;
    return n;
}

static int is_bidi(uint32_t c) {
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

/* What the character at s[0..len) is when it is unsafe (NULL when it is
 * not), with its length and code point. */
static const char *classify(const unsigned char *s, size_t len, size_t *n, uint32_t *cp) {
    *n = utf8_decode(s, len, cp);
    if (*n == 0) {
        *n = 1;
        *cp = s[0];
        return "a byte that is not UTF-8";
    }
    if (*cp < 0x20 || *cp == 0x7F || (*cp >= 0x80 && *cp <= 0x9F))
        return "a control character";
    if (is_bidi(*cp))
        return "a Unicode bidirectional control";
    return NULL;
}

const char *br_text_unsafe(const char *s, size_t len, size_t *at, size_t *n, uint32_t *cp) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k;
        uint32_t c;
        const char *what = classify(u + i, len - i, &k, &c);
        if (what) {
            *at = i;
            *n = k;
            *cp = c;
            return what;
        }
        i += k;
    }
    return NULL;
}

int br_name_check(char *why, size_t cap, size_t *at, const char *s, size_t len) {
    *at = 0;
    if (len == 0) {
        snprintf(why, cap, "is empty");
        return -1;
    }
    if (len > BR_NAME_MAX) {
        snprintf(why, cap, "is %zu bytes long (at most %d)", len, BR_NAME_MAX);
        return -1;
    }
    size_t n;
    uint32_t cp;
    const char *what = br_text_unsafe(s, len, at, &n, &cp);
    if (!what)
        return 0;
    if (n == 1 && cp >= 0x80)
        snprintf(why, cap, "holds %s (0x%02X) at byte %zu", what, (unsigned)cp, *at + 1);
    else
        snprintf(why, cap, "holds %s (U+%04X) at byte %zu", what, (unsigned)cp, *at + 1);
    return -1;
}

/* The escape of the unsafe character c (n bytes) into e[16]. */
static size_t escape_one(char e[16], size_t n, uint32_t c) {
    int w = n == 1 ? snprintf(e, 16, "\\x%02X", (unsigned)c) : snprintf(e, 16, "\\u{%04X}", c);
    return w > 0 ? (size_t)w : 0;
}

size_t br_text_escape(char *dst, size_t cap, const char *s, size_t len, int keep_lines) {
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    if (cap == 0)
        return 0;
    for (size_t i = 0; i < len;) {
        size_t k;
        uint32_t c;
        const char *what = classify(u + i, len - i, &k, &c);
        char e[16];
        size_t w = k;
        const char *from = s + i;
        if (what && !(keep_lines && (c == '\n' || c == '\t'))) {
            w = escape_one(e, k, c);
            from = e;
        }
        if (o + w + 1 > cap)
            break;
        memcpy(dst + o, from, w);
        o += w;
        i += k;
    }
    dst[o] = '\0';
    return o;
}

size_t br_text_escaped_size(const char *s, size_t len, int keep_lines) {
    const unsigned char *u = (const unsigned char *)s;
    size_t size = 1;
    for (size_t i = 0; i < len;) {
        size_t k;
        uint32_t c;
        const char *what = classify(u + i, len - i, &k, &c);
        char e[16];
        size += what && !(keep_lines && (c == '\n' || c == '\t')) ? escape_one(e, k, c) : k;
        i += k;
    }
    return size;
}

int br_text_fputs(FILE *f, const char *s, int keep_lines) {
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        size_t k;
        uint32_t c;
        const char *what = classify(u + i, len - i, &k, &c);
        char e[16];
        if (what && !(keep_lines && (c == '\n' || c == '\t'))) {
            size_t w = escape_one(e, k, c);
            if (fwrite(e, 1, w, f) != w)
                return EOF;
        } else if (fwrite(s + i, 1, k, f) != k) {
            return EOF;
        }
        i += k;
    }
    return 0;
}

int br_text_fprintf(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n < 0)
        return EOF;
    int rc = br_text_fputs(f, text, 1);
    free(text);
    return rc;
}
