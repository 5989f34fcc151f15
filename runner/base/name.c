/* name.c - enum name tables (name.h). */
#include "name.h"

#include <stdio.h>
#include <string.h>

/* Linear: every table has a handful of entries. */
const char *br_name_of(const br_name *t, int value, const char *otherwise) {
    for (; t && t->name; t++)
        if (t->value == value)
            return t->name;
    return otherwise;
}

int br_name_find(int *out, const br_name *t, const char *text) {
    for (; t && t->name && text; t++) {
        if (strcmp(t->name, text) == 0) {
            *out = t->value;
            return 0;
        }
    }
    return -1;
}

void br_name_list(char *buf, size_t len, const br_name *t) {
    size_t n = 0, used = 0;
    if (!buf || len == 0)
        return;
    buf[0] = '\0';
    while (t && t[n].name)
        n++;
    for (size_t i = 0; i < n && used < len; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(buf + used, len - used, "%s'%s'", sep, t[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}
