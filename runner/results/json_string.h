/* SPDX-License-Identifier: Apache-2.0 */
/* A JSON string from C text that may hold bytes that are not
 * UTF-8 (a compiler's output, a host or device name): shared by the results
 * writer (run_write.c) and the JSON reporters. */
#ifndef BR_JSON_TEXT_H
#define BR_JSON_TEXT_H

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* A new JSON string of s (not NULL); every byte >= 0x80 becomes '?' when s
 * is not valid UTF-8, rather than failing. NULL only when out of memory. */
static inline json_t *br_json_text(const char *s) {
    json_t *v = json_string(s);
    if (v)
        return v;
    char *copy = strdup(s);
    if (!copy)
        return NULL;
    for (char *p = copy; *p; p++) {
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    }
    v = json_string(copy);
    free(copy);
    return v;
}

#endif
