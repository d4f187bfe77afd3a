/* json_input.h - a JSON file read as untrusted input: a bounded regular file (input.h), then
 * parsed (jansson). Every JSON file a tool reads (coverage files, reports, exhaustive results)
 * comes through here, so a FIFO, a device or a huge file is refused before it is read. */
#ifndef OTPU_JSON_INPUT_H
#define OTPU_JSON_INPUT_H

#include <jansson.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { OTPU_JSON_MAX_BYTES = 1 << 28 }; /* 256 MiB */

/* The JSON value of the file at path (json_decref it), or NULL with one line in err: the file
 * is not a regular file of at most max bytes, cannot be read, or is not JSON (with its line). */
json_t *otpu_json_read(const char *path, size_t max, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
