/* SPDX-License-Identifier: Apache-2.0 */
/* json_text.h - a JSON string from C text that may hold bytes that are not
 * UTF-8: br_json_text, shared by the JSON reporters; it lives in
 * results/json_text.h beside the results writer. */
#ifndef BR_REPORTERS_JSON_TEXT_H
#define BR_REPORTERS_JSON_TEXT_H

#include "results/json_string.h"

#endif
