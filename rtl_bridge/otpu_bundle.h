// otpu_bundle.h - the Config of a run bundle as the RTL builds see it (the -G parameters, the
// build key, the limits of the reference RTL), and SHA-256. Bundles themselves are read by
// libotpusim (sim/bundle.h).
#ifndef OTPU_BUNDLE_H
#define OTPU_BUNDLE_H

#include <cstdint>
#include <string>

#include "config.h"

struct OtpuConfig {
  // the Config fields, in case.txt's order; defaults are opentpu/isasim.py's Config defaults
  int64_t S = 1, D = 32, MCOLS = 8, ACT_BLOCKS = 64, TMEM_WORDS = 1 << 16,
          DRAM_BYTES = 1 << 20, IMEM_WORDS = 1 << 16, LANES = 8, PAIR = 0, DSTEP = 0,
          STREAM = 0, ACT_ROWS = 0;

  int64_t act_rows() const { return ACT_ROWS ? ACT_ROWS : MCOLS; }
  // "S=1 D=32 ..." in the canonical order: the build key's Config part
  std::string str() const;
  // the field names and pointers, in order
  static const char *const kNames[12];
  int64_t *field(int i);
  const int64_t *field(int i) const;
  // a sentence if a value cannot be built (sizes, powers of two), else ""
  std::string invalid() const;
};

// The Config of a bundle folder: the whole bundle is read and checked (libotpusim's reader,
// sim/bundle.h), then the Config is checked against what the RTL can be built for. false with
// *err set (one line naming the file) on bad input.
bool otpu_read_config(const std::string &dir, OtpuConfig *cfg, std::string *err);
// a Config from "KEY=VALUE" words (the others keep their defaults)
bool otpu_parse_config_word(const std::string &word, OtpuConfig *cfg, std::string *err);
// the C model's Config in this form
OtpuConfig otpu_rtl_config(const otpu_config &c);

// SHA-256 of a buffer as 64 lowercase hex digits (OpenSSL libcrypto)
std::string otpu_sha256_hex(const void *data, size_t n);

// SHA-256 over several pieces
class OtpuSha256 {
 public:
  OtpuSha256();
  ~OtpuSha256();
  OtpuSha256(const OtpuSha256 &) = delete;
  OtpuSha256 &operator=(const OtpuSha256 &) = delete;
  void update(const void *data, size_t n);
  std::string hex();             // the digest (once)
 private:
  void *ctx_;
};

#endif
