// otpu_bundle.h - reading a run bundle for otpu-rtl (../shared/vectors/FORMAT.md): case.txt
// (the Config and ARGS), prog_<s>.hex and dram_<s>.bin. Errors are returned as sentences.
#ifndef OTPU_BUNDLE_H
#define OTPU_BUNDLE_H

#include <cstdint>
#include <string>
#include <vector>

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

struct OtpuBundle {
  std::string dir;
  OtpuConfig cfg;
  std::vector<uint32_t> args;                    // up to 8 run arguments
  std::vector<std::vector<uint32_t>> prog;       // per slice: the program words
  std::vector<std::vector<uint8_t>> dram;        // per slice: the initial DRAM bytes (trimmed)
  std::string expect, error;                     // the case's expectation, if given
};

// case.txt only (enough to choose a build); false with *err set on bad input
bool otpu_read_config(const std::string &dir, OtpuConfig *cfg, std::vector<uint32_t> *args,
                      std::string *err, std::string *expect = nullptr,
                      std::string *error = nullptr);
// the whole bundle
bool otpu_read_bundle(const std::string &dir, OtpuBundle *b, std::string *err);
// a Config from "KEY=VALUE" words (the others keep their defaults)
bool otpu_parse_config_word(const std::string &word, OtpuConfig *cfg, std::string *err);

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
