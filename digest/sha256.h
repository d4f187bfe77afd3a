/* sha256.h - SHA-256 as lowercase hex (nettle; libotpudigest): the final-state hashes of the
 * golden format, build cache keys. */
#ifndef OTPU_SHA256_H
#define OTPU_SHA256_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The digest of n bytes as 64 hex digits and a NUL. */
void otpu_sha256_hex(const void *data, size_t n, char out[65]);

/* Over several pieces: new, update ..., then final (which frees it). NULL: out of memory. */
typedef struct otpu_sha256 otpu_sha256;
otpu_sha256 *otpu_sha256_new(void);
void otpu_sha256_update(otpu_sha256 *h, const void *data, size_t n);
void otpu_sha256_final(otpu_sha256 *h, char out[65]);

#ifdef __cplusplus
}
#endif
#endif
