/* sha256.c - SHA-256 through nettle (sha256.h): a small library, quick to load. */
#include "sha256.h"

#include <nettle/sha2.h>
#include <stdlib.h>

struct otpu_sha256 {
    struct sha256_ctx ctx;
};

static void hex(const uint8_t md[SHA256_DIGEST_SIZE], char out[65])
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < SHA256_DIGEST_SIZE; i++) {
        out[2 * i] = digits[md[i] >> 4];
        out[2 * i + 1] = digits[md[i] & 15];
    }
    out[64] = 0;
}

void otpu_sha256_hex(const void *data, size_t n, char out[65])
{
    struct sha256_ctx c;
    uint8_t md[SHA256_DIGEST_SIZE];
    sha256_init(&c);
    sha256_update(&c, n, data);
    sha256_digest(&c, sizeof md, md);
    hex(md, out);
}

otpu_sha256 *otpu_sha256_new(void)
{
    otpu_sha256 *h = malloc(sizeof *h);
    if (h)
        sha256_init(&h->ctx);
    return h;
}

void otpu_sha256_update(otpu_sha256 *h, const void *data, size_t n)
{
    sha256_update(&h->ctx, n, data);
}

void otpu_sha256_final(otpu_sha256 *h, char out[65])
{
    uint8_t md[SHA256_DIGEST_SIZE];
    sha256_digest(&h->ctx, sizeof md, md);
    hex(md, out);
    free(h);
}
