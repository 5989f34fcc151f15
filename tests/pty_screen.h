/* SPDX-License-Identifier: Apache-2.0 */
/* pty_screen.h - what a terminal shows: a pseudo-terminal to write to, and
 * the text a terminal would show after a byte stream, for tests of the
 * progress line (base/log.c) and of benchrun run on a terminal. */
#ifndef BR_PTY_SCREEN_H
#define BR_PTY_SCREEN_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The lines a terminal shows after `raw` (len bytes), as one string with
 * '\n' between lines, each line without trailing blanks. Understood: "\r"
 * (to column 0), "\n" (next line; column kept, as without ONLCR), "\033[K"
 * (erase to the end of the line), "\b"; other escape sequences (colours)
 * are dropped; other bytes overwrite the cell under the cursor (a UTF-8
 * sequence counts as one cell). Lines are as long as they need: nothing
 * wraps. Caller frees. */
static inline char *pty_screen(const char *raw, size_t len) {
    size_t n_lines = 1, row = 0, col = 0;
    /* per line: cells of 4 bytes (a UTF-8 sequence, NUL-padded), how many
     * are in use and how many are allocated */
    char **cells = calloc(len + 1, sizeof *cells);
    size_t *used = calloc(len + 1, sizeof *used), *room = calloc(len + 1, sizeof *room);
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)raw[i];
        if (ch == '\r') {
            col = 0;
        } else if (ch == '\n') {
            row++;
            if (row >= n_lines)
                n_lines = row + 1;
        } else if (ch == '\b') {
            col -= col > 0;
        } else if (ch == 0x1b) {
            if (i + 2 < len && raw[i + 1] == '[') {
                size_t j = i + 2;
                while (j < len &&
                       (raw[j] == ';' || raw[j] == '?' || (raw[j] >= '0' && raw[j] <= '9')))
                    j++;
                if (j < len && raw[j] == 'K' && col < used[row])
                    used[row] = col;
                i = j;
            }
        } else if (ch >= 0x20 && (ch & 0xc0) != 0x80) {
            size_t k = 1;
            while (i + k < len && ((unsigned char)raw[i + k] & 0xc0) == 0x80 && k < 4)
                k++;
            if (col >= room[row]) {
                room[row] = 2 * col + 16;
                cells[row] = realloc(cells[row], 4 * room[row]);
            }
            for (size_t c = used[row]; c < col; c++) /* blanks up to the cursor */
                memcpy(cells[row] + 4 * c, " \0\0\0", 4);
            memset(cells[row] + 4 * col, 0, 4);
            memcpy(cells[row] + 4 * col, raw + i, k);
            col++;
            if (col > used[row])
                used[row] = col;
            i += k - 1;
        }
    }
    size_t total = 1;
    for (size_t r = 0; r < n_lines; r++)
        total += 4 * used[r] + 1;
    char *out = calloc(total, 1), *p = out;
    for (size_t r = 0; r < n_lines; r++) {
        char *line_end = p;
        for (size_t c = 0; c < used[r]; c++) {
            const char *cell = cells[r] + 4 * c;
            size_t k = strnlen(cell, 4);
            memcpy(p, cell, k);
            p += k;
            if (cell[0] != ' ')
                line_end = p;
        }
        p = line_end;
        if (r + 1 < n_lines)
            *p++ = '\n';
    }
    *p = '\0';
    for (size_t r = 0; r <= len; r++)
        free(cells[r]);
    free(cells);
    free(used);
    free(room);
    return out;
}

/* Read what is waiting on the pseudo-terminal's master side `fd`, until
 * `wait_ms` go by with nothing new or the other side is closed, appending
 * to *buf (*len bytes, *cap allocated). */
static inline void pty_drain(int fd, char **buf, size_t *len, size_t *cap, int wait_ms) {
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, wait_ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return;
        if (*cap - *len < 4096) {
            *cap = *cap * 2 + 4096;
            *buf = realloc(*buf, *cap + 1);
        }
        ssize_t got = read(fd, *buf + *len, *cap - *len);
        if (got <= 0) /* EIO on Linux once the terminal's other side is closed */
            return;
        *len += (size_t)got;
        (*buf)[*len] = '\0';
    }
}

#endif
