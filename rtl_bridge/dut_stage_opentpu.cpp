// dut_stage_opentpu.cpp - the files openTPU's RTL loads at time 0 (dut_stage.h), as its own
// testbench prepares them (opentpu/rtlsim.py): +dir=DIR with prog_<s>.hex (its sequencer's
// $readmemh: one 32-bit word a line) and dram_<s>.bin (its DRAM's $fread, which takes each 4
// bytes as a big-endian word: the bundle's little-endian image is written byte-swapped).
#include "dut_stage.h"

#include <dirent.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

const bool kDutIsOpenTpu = true;

void DutStage::remove() {
  if (dir.empty()) return;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.') unlink((dir + "/" + e->d_name).c_str());
    closedir(d);
  }
  rmdir(dir.c_str());
  dir.clear();
}

namespace {

bool write_prog(const std::string &path, const uint32_t *w, size_t n) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) return false;
  for (size_t i = 0; i < n; i++) fprintf(f, "%08x\n", w[i]);
  return fclose(f) == 0;
}

bool write_dram(const std::string &path, const uint8_t *d, size_t len) {
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) return false;
  uint8_t word[4];
  bool ok = true;
  for (size_t i = 0; i < len && ok; i += 4) {
    for (size_t k = 0; k < 4; k++) word[3 - k] = i + k < len ? d[i + k] : 0;
    ok = fwrite(word, 1, 4, f) == 4;
  }
  return fclose(f) == 0 && ok;
}

}  // namespace

bool dut_stage(const otpu_bundle &b, DutStage *st, std::string *err) {
  const char *tmp = getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/otpu-opentpu-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back(0);
  if (!mkdtemp(buf.data())) {
    *err = "cannot make a folder for openTPU's input files in " + tmpl.substr(0, tmpl.rfind('/'));
    return false;
  }
  st->dir = buf.data();
  for (uint32_t s = 0; s < b.cfg.S; s++) {
    std::string sid = std::to_string(s);
    if (!write_prog(st->dir + "/prog_" + sid + ".hex", b.prog[s], b.prog_words[s]) ||
        !write_dram(st->dir + "/dram_" + sid + ".bin", b.dram[s], b.dram_len[s])) {
      *err = "cannot write openTPU's input files into " + st->dir + ": " + strerror(errno);
      return false;
    }
  }
  st->plusargs.push_back("+dir=" + st->dir);
  return true;
}
