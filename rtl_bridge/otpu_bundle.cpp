// otpu_bundle.cpp - see otpu_bundle.h.
#include "otpu_bundle.h"

#include "bundle.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdlib>

const char *const OtpuConfig::kNames[12] = {"S",          "D",     "MCOLS", "ACT_BLOCKS",
                                            "TMEM_WORDS", "DRAM_BYTES", "IMEM_WORDS", "LANES",
                                            "PAIR",       "DSTEP", "STREAM", "ACT_ROWS"};

int64_t *OtpuConfig::field(int i) {
  int64_t *f[12] = {&S, &D, &MCOLS, &ACT_BLOCKS, &TMEM_WORDS, &DRAM_BYTES,
                    &IMEM_WORDS, &LANES, &PAIR, &DSTEP, &STREAM, &ACT_ROWS};
  return f[i];
}

const int64_t *OtpuConfig::field(int i) const {
  return const_cast<OtpuConfig *>(this)->field(i);
}

std::string OtpuConfig::str() const {
  std::string s;
  for (int i = 0; i < 12; i++) {
    if (i) s += ' ';
    s += kNames[i];
    s += '=';
    s += std::to_string(*field(i));
  }
  return s;
}

std::string OtpuConfig::invalid() const {
  // the RTL's limit and the bundle's value, in one sentence
  auto no = [](const char *limit, const char *name, int64_t v) {
    return std::string(limit) + " (the bundle has " + name + "=" + std::to_string(v) + ")";
  };
  if (S < 1 || S > 64) return no("S must be 1..64", "S", S);
  if (D < 8 || D % 8 != 0 || D > 4096) return no("D must be a multiple of 8 up to 4096", "D", D);
  if (MCOLS < 1 || MCOLS > 255) return no("MCOLS must be 1..255", "MCOLS", MCOLS);
  if (ACT_BLOCKS < 1 || ACT_BLOCKS > 256)
    return no("ACT_BLOCKS must be 1..256", "ACT_BLOCKS", ACT_BLOCKS);
  if (TMEM_WORDS < 1 || TMEM_WORDS > (int64_t(1) << 26))
    return no("TMEM_WORDS must be 1..2^26", "TMEM_WORDS", TMEM_WORDS);
  if (DRAM_BYTES < 4 || DRAM_BYTES % 4 != 0 || DRAM_BYTES > (int64_t(1) << 32))
    return no("DRAM_BYTES must be a multiple of 4 up to 2^32", "DRAM_BYTES", DRAM_BYTES);
  if (IMEM_WORDS < 8 || IMEM_WORDS % 8 != 0 || IMEM_WORDS > (int64_t(1) << 26))
    return no("IMEM_WORDS must be a multiple of 8 up to 2^26", "IMEM_WORDS", IMEM_WORDS);
  if (LANES < 1) return no("LANES must be positive", "LANES", LANES);
  if (PAIR != 0 && PAIR != 1) return no("PAIR must be 0 or 1", "PAIR", PAIR);
  if (DSTEP != 0 && DSTEP != 1) return no("DSTEP must be 0 or 1", "DSTEP", DSTEP);
  if (STREAM != 0 && STREAM != 1) return no("STREAM must be 0 or 1", "STREAM", STREAM);
  if (ACT_ROWS < 0 || ACT_ROWS > 255) return no("ACT_ROWS must be 0..255", "ACT_ROWS", ACT_ROWS);
  return "";
}

static bool parse_int(const std::string &v, int64_t *out) {
  if (v.empty()) return false;
  errno = 0;
  char *end = nullptr;
  long long x = std::strtoll(v.c_str(), &end, 0);
  if (errno || *end) return false;
  *out = x;
  return true;
}

static std::string trim(const std::string &s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool otpu_parse_config_word(const std::string &word, OtpuConfig *cfg, std::string *err) {
  size_t eq = word.find('=');
  std::string k = eq == std::string::npos ? word : word.substr(0, eq);
  std::string v = eq == std::string::npos ? "" : trim(word.substr(eq + 1));
  for (int i = 0; i < 12; i++) {
    if (k == OtpuConfig::kNames[i]) {
      int64_t x;
      if (!parse_int(v, &x)) {
        *err = "Config field " + k + " has no integer value: '" + v + "'";
        return false;
      }
      *cfg->field(i) = x;
      return true;
    }
  }
  *err = "unknown Config field '" + k + "'";
  return false;
}

bool otpu_read_config(const std::string &dir, OtpuConfig *cfg, std::string *err) {
  otpu_bundle b;
  char e[1024];
  bool ok = otpu_bundle_read(dir.c_str(), &b, e, sizeof e) == 0;
  if (ok) *cfg = otpu_rtl_config(b.cfg);
  else *err = e;
  otpu_bundle_free(&b);
  if (!ok) return false;
  std::string bad = cfg->invalid();
  if (!bad.empty()) {
    *err = dir + "/case.txt: unsupported Config: " + bad;
    return false;
  }
  return true;
}

OtpuConfig otpu_rtl_config(const otpu_config &k) {
  OtpuConfig c;
  const uint64_t v[12] = {k.S, k.D, k.MCOLS, k.ACT_BLOCKS, k.TMEM_WORDS, k.DRAM_BYTES,
                          k.IMEM_WORDS, k.LANES, k.PAIR, k.DSTEP, k.STREAM, k.ACT_ROWS};
  for (int i = 0; i < 12; i++) *c.field(i) = int64_t(v[i]);
  return c;
}

std::string otpu_sha256_hex(const void *data, size_t n) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data, n, md, &len, EVP_sha256(), nullptr);
  static const char *hex = "0123456789abcdef";
  std::string s;
  for (unsigned i = 0; i < len; i++) {
    s += hex[md[i] >> 4];
    s += hex[md[i] & 15];
  }
  return s;
}

OtpuSha256::OtpuSha256() : ctx_(EVP_MD_CTX_new()) {
  EVP_DigestInit_ex(static_cast<EVP_MD_CTX *>(ctx_), EVP_sha256(), nullptr);
}

OtpuSha256::~OtpuSha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX *>(ctx_)); }

void OtpuSha256::update(const void *data, size_t n) {
  EVP_DigestUpdate(static_cast<EVP_MD_CTX *>(ctx_), data, n);
}

std::string OtpuSha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(static_cast<EVP_MD_CTX *>(ctx_), md, &len);
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (unsigned i = 0; i < len; i++) {
    s += digits[md[i] >> 4];
    s += digits[md[i] & 15];
  }
  return s;
}
