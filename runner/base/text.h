/* SPDX-License-Identifier: Apache-2.0 */
/* Text that reaches a terminal or names a file: the characters that
 * must not (controls, bidirectional controls, bytes that are not UTF-8), a
 * name's rules, and the one escaping that messages and the table use.
 *
 * The characters refused in names and escaped on a terminal:
 *   - C0 controls U+0000-U+001F and DEL U+007F;
 *   - C1 controls U+0080-U+009F (U+009B is CSI, U+0085 NEL: a terminal acts
 *     on them as on ESC sequences);
 *   - the Unicode bidirectional controls U+061C (ALM), U+200E (LRM), U+200F
 *     (RLM), U+202A-U+202E (LRE, RLE, PDF, LRO, RLO) and U+2066-U+2069 (LRI,
 *     RLI, FSI, PDI), which reorder what a reader sees (Unicode UAX #9;
 *     CVE-2021-42574, "Trojan Source");
 *   - a byte that does not start or continue a well-formed UTF-8 sequence
 *     (RFC 3629; an overlong form or a surrogate included). */
#ifndef BR_TEXT_H
#define BR_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest name (suite, kernel, param, zip group), bytes: safe as one path
 * component on every common file system (255) with room for what is added
 * to it ("<name>.json", a temporary file's suffix). */
#define BR_NAME_MAX 128

/* The first character of s[0..len) that a terminal or a reader could be
 * misled by (see above): its offset in *at, its length in bytes in *n (1
 * for a byte that is not UTF-8) and its code point in *cp (the byte itself
 * for one that is not UTF-8). Returns a description ("a control character",
 * "a Unicode bidirectional control", "a byte that is not UTF-8"), static, or
 * NULL when there is none. */
const char *br_text_unsafe(const char *s, size_t len, size_t *at, size_t *n, uint32_t *cp);

/* Why s[0..len) cannot be a name, into why[0..cap) (NUL-terminated): empty,
 * longer than BR_NAME_MAX bytes, or holding a character br_text_unsafe
 * finds ("holds the control character U+009B at byte 4"). *at is the
 * offset of the character (0 for the other reasons). Returns 0 for a good
 * name (why untouched), -1 otherwise. Sets no error: the caller knows where
 * the name stood. */
int br_name_check(char *why, size_t cap, size_t *at, const char *s, size_t len);

/* s[0..len) with each character br_text_unsafe finds written as an escape,
 * into dst[0..cap), NUL-terminated: a control or a byte that is not UTF-8 as
 * \xNN, a C1 control or a bidirectional control as \u{NNNN}. With
 * keep_lines, a newline and a tab stay as they are (a message of several
 * lines). The output is cut at a character boundary when cap is short.
 * Returns the length written (without the NUL). */
size_t br_text_escape(char *dst, size_t cap, const char *s, size_t len, int keep_lines);

/* Bytes br_text_escape needs for s[0..len), its NUL included. */
size_t br_text_escaped_size(const char *s, size_t len, int keep_lines);

/* Write s to f as br_text_escape writes it (keep_lines: newlines and tabs
 * as they are). Returns 0, or EOF when f fails. */
int br_text_fputs(FILE *f, const char *s, int keep_lines);

/* printf-style text to f with br_text_fputs(keep_lines 1): for a line that
 * carries names and messages from files (the table's notes). Returns 0, or
 * EOF when f fails or out of memory. */
int br_text_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif
#endif
