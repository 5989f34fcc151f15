/* SPDX-License-Identifier: Apache-2.0 */
/* test_text.c - what may not reach a terminal or name a file (base/text.c):
 * C0 and C1 controls, Unicode bidirectional controls and bytes that are not
 * UTF-8 are found, refused in names and escaped in messages; and the one
 * escaping is what error messages and log messages carry. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/text.h"

static const char *unsafe(const char *s, size_t *at, uint32_t *cp) {
    size_t n;
    return br_text_unsafe(s, strlen(s), at, &n, cp);
}

Test(text, finds_controls_bidi_and_bytes_that_are_not_utf8) {
    size_t at;
    uint32_t cp;
    cr_expect_null(unsafe("plain name_1 大小 🚀 é", &at, &cp));
    cr_expect_str_eq(unsafe("ab\033[31m", &at, &cp), "a control character");
    cr_expect_eq(at, 2);
    cr_expect_eq(cp, 0x1B);
    cr_expect_str_eq(unsafe("x\x7f", &at, &cp), "a control character");
    cr_expect_str_eq(unsafe("a\xc2\x9b"
                            "31m",
                            &at, &cp),
                     "a control character"); /* CSI */
    cr_expect_eq(cp, 0x9B);
    cr_expect_str_eq(unsafe("a\xc2\x85", &at, &cp), "a control character"); /* NEL */
    static const uint32_t bidi[] = {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C,
                                    0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069};
    for (size_t i = 0; i < sizeof bidi / sizeof *bidi; i++) {
        char s[16];
        uint32_t c = bidi[i];
        if (c < 0x800)
            snprintf(s, sizeof s, "k%c%c", 0xC0 | (c >> 6), 0x80 | (c & 0x3F));
        else
            snprintf(s, sizeof s, "k%c%c%c", 0xE0 | (c >> 12), 0x80 | ((c >> 6) & 0x3F),
                     0x80 | (c & 0x3F));
        const char *what = unsafe(s, &at, &cp);
        cr_expect(what && strcmp(what, "a Unicode bidirectional control") == 0, "U+%04X", c);
        cr_expect_eq(cp, c);
        cr_expect_eq(at, 1);
    }
    cr_expect_null(unsafe("\xe2\x80\x8b", &at, &cp), "U+200B is not a bidi control");
    cr_expect_str_eq(unsafe("a\x9b", &at, &cp), "a byte that is not UTF-8"); /* raw C1 byte */
    cr_expect_eq(cp, 0x9B);
    cr_expect_str_eq(unsafe("\xc0\xaf", &at, &cp), "a byte that is not UTF-8");     /* overlong */
    cr_expect_str_eq(unsafe("\xed\xa0\x80", &at, &cp), "a byte that is not UTF-8"); /* surrogate */
    cr_expect_str_eq(unsafe("\xf4\x90\x80\x80", &at, &cp), "a byte that is not UTF-8");
    cr_expect_str_eq(unsafe("\xe2\x80", &at, &cp), "a byte that is not UTF-8"); /* cut short */
}

Test(text, names_are_short_and_clean) {
    char why[128];
    size_t at;
    cr_expect_eq(br_name_check(why, sizeof why, &at, "reduce_vec", 10), 0);
    cr_expect_eq(br_name_check(why, sizeof why, &at, "", 0), -1);
    cr_expect_str_eq(why, "is empty");
    char name[BR_NAME_MAX + 2];
    memset(name, 'a', sizeof name);
    cr_expect_eq(br_name_check(why, sizeof why, &at, name, BR_NAME_MAX), 0);
    cr_expect_eq(br_name_check(why, sizeof why, &at, name, BR_NAME_MAX + 1), -1);
    cr_expect_str_eq(why, "is 129 bytes long (at most 128)");
    cr_expect_eq(br_name_check(why, sizeof why, &at, "evil\xe2\x80\xaegnp", 10), -1);
    cr_expect_str_eq(why, "holds a Unicode bidirectional control (U+202E) at byte 5");
    cr_expect_eq(at, 4);
    cr_expect_eq(br_name_check(why, sizeof why, &at, "a\x9b", 2), -1);
    cr_expect_str_eq(why, "holds a byte that is not UTF-8 (0x9B) at byte 2");
}

Test(text, escapes_what_a_terminal_would_act_on) {
    char out[128];
    const char *s = "k\033[2J\xc2\x9b\xe2\x80\xae\x9b\tend\n";
    br_text_escape(out, sizeof out, s, strlen(s), 0);
    cr_expect_str_eq(out, "k\\x1B[2J\\u{009B}\\u{202E}\\x9B\\x09end\\x0A");
    br_text_escape(out, sizeof out, s, strlen(s), 1);
    cr_expect_str_eq(out, "k\\x1B[2J\\u{009B}\\u{202E}\\x9B\tend\n");
    cr_expect_eq(br_text_escaped_size(s, strlen(s), 1), strlen(out) + 1);
    /* Cut at a whole escape, never inside one. */
    br_text_escape(out, 5, s, strlen(s), 0);
    cr_expect_str_eq(out, "k");
    br_text_escape(out, sizeof out, "大小 ok", strlen("大小 ok"), 0);
    cr_expect_str_eq(out, "大小 ok");
}

Test(text, fputs_and_fprintf_write_the_escapes) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    cr_expect_eq(br_text_fputs(f, "a\033b\n", 0), 0);
    cr_expect_eq(br_text_fprintf(f, "[%s]\n", "\xe2\x80\xaeX"), 0);
    fclose(f);
    cr_expect_str_eq(buf, "a\\x1Bb\\x0A[\\u{202E}X]\n");
    free(buf);
}

/* An error message, and a log message, cannot carry a raw control: a name
 * from a file is shown escaped wherever it is printed. */
Test(text, error_and_log_messages_are_escaped) {
    br_error_set("suite '%s': bad", "x\033]0;pwned\007\xe2\x80\xae");
    cr_expect_str_eq(br_error_get(), "suite 'x\\x1B]0;pwned\\x07\\u{202E}': bad");
    br_error_set("two\nlines\tkept");
    cr_expect_str_eq(br_error_get(), "two\nlines\tkept");
    br_error_set("%s", "file.yaml: is a directory");
    br_error_prefix("--json %s ", "\xc2\x9b");
    cr_expect_str_eq(br_error_get(), "--json \\u{009B} file.yaml: is a directory");
}

static char logged[256];

static void capture(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    snprintf(logged, sizeof logged, "%s", msg);
}

Test(text, log_messages_are_escaped_but_the_progress_prefix_stays) {
    br_log_set_sink(capture, NULL);
    br_log(BR_LOG_NOTE, "benchrun: %s\n", "k\033[31m");
    cr_expect_str_eq(logged, "benchrun: k\\x1B[31m\n");
    br_log(BR_LOG_PROGRESS, "\r\033[K[1/2] %s", "k\r\033[K");
    cr_expect_str_eq(logged, "\r\033[K[1/2] k\\x0D\\x1B[K");
    br_log_set_sink(NULL, NULL);
}
