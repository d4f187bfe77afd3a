/* json_input.c - JSON files read as untrusted input (json_input.h). */
#include "json_input.h"

#include <stdio.h>
#include <stdlib.h>

#include "input.h"

json_t *otpu_json_read(const char *path, size_t max, char *err, size_t errlen)
{
    char *text;
    size_t len;
    if (otpu_input_read(path, max, &text, &len, err, errlen))
        return NULL;
    json_error_t je;
    json_t *j = json_loadb(text, len, 0, &je);
    free(text);
    if (!j) {
        char q[200];
        snprintf(err, errlen, "%s:%d: not JSON: %s", path, je.line,
                 otpu_escape(je.text, sizeof je.text, q, sizeof q));
    }
    return j;
}
