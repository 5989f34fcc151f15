/* SPDX-License-Identifier: Apache-2.0 */
/* Enum name tables (name.h). */
#include "name.h"

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
