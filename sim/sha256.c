/* sha256.c - SHA-256 through OpenSSL's EVP interface (sha256.h). */
#include "sha256.h"

#include <openssl/evp.h>

static void hex(const unsigned char *md, unsigned len, char out[65])
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < len && i < 32; i++) {
        out[2 * i] = digits[md[i] >> 4];
        out[2 * i + 1] = digits[md[i] & 15];
    }
    out[64] = 0;
}

void otpu_sha256_hex(const void *data, size_t n, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    EVP_Digest(data, n, md, &len, EVP_sha256(), NULL);
    hex(md, len, out);
}

otpu_sha256 *otpu_sha256_new(void)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (c && !EVP_DigestInit_ex(c, EVP_sha256(), NULL)) {
        EVP_MD_CTX_free(c);
        c = NULL;
    }
    return (otpu_sha256 *)c;
}

void otpu_sha256_update(otpu_sha256 *h, const void *data, size_t n)
{
    EVP_DigestUpdate((EVP_MD_CTX *)h, data, n);
}

void otpu_sha256_final(otpu_sha256 *h, char out[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    EVP_DigestFinal_ex((EVP_MD_CTX *)h, md, &len);
    hex(md, len, out);
    EVP_MD_CTX_free((EVP_MD_CTX *)h);
}
