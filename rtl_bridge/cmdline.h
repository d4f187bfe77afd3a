// cmdline.h - command-line arguments of the RTL tools and the simulator driver: counts, safe
// echoing, and the reference RTL's +otpu_* plusargs (rtl/README.md, "Fault injection"),
// checked before a run: a misspelt, malformed or out-of-range one, or one that would do nothing
// (a fault without its count, a slice the Config does not have) must not give a fault-free PASS.
#ifndef OTPU_CMDLINE_H
#define OTPU_CMDLINE_H

#include <cstdint>
#include <string>
#include <vector>

#include "config.h"
#include "output.h"

// s with control bytes and non-ASCII escaped (input.h's otpu_escape), for messages
std::string printable(const std::string &s);
// printable() line by line, the newlines kept (a build's log)
std::string printable_lines(const std::string &s);
// whether s holds a control byte (below 0x20, or 0x7f)
bool has_control(const std::string &s);
// s as one word of a shell command a person copies (a repro): in single quotes, or as $'...'
// with \xNN for every byte outside printable ASCII (input.h's otpu_shell_word)
std::string shell_word(const std::string &s);

// A file the tool writes where its user says (output.h): checked before the run, then
// written through open() or begin() and made whole by commit(); discarded (its temporary
// file removed, the path untouched) unless committed.
class OutFile {
 public:
  OutFile();
  ~OutFile();
  OutFile(const OutFile &) = delete;
  OutFile &operator=(const OutFile &) = delete;
  // "" when the place can be written (flags: OTPU_OUT_STREAM), else "OPTION: PATH: why"
  std::string check(const std::string &option, const std::string &path, int flags);
  bool checked() const { return checked_; }
  FILE *open(std::string *why);          // the stream to write
  std::string begin(std::string *why);   // the path a writer opens itself ("" on failure)
  bool commit(std::string *why);
  // a device or a FIFO written in place: its descriptor kept across exec (a FIFO's reader
  // must not see its end while the tool hands over to another program)
  void keep_across_exec();

 private:
  otpu_out o_;
  bool checked_ = false;
  std::string option_;
};
// "" when dir can be written as a folder output (output.h; flags: OTPU_OUT_REPLACED), else
// "OPTION: DIR: why"
std::string check_out_dir(const std::string &option, const std::string &dir, int flags = 0);
// a count: decimal without leading zeros, or 0x hex, within 64 bits; false for anything else
bool parse_count(const std::string &v, uint64_t *out);

// Walks argv from a first index: next() gives each word, value() the word after the current
// option (false when there is none). The RTL tools' option loops share it.
class ArgWalk {
 public:
  ArgWalk(int argc, char **argv, int first) : argc_(argc), argv_(argv), i_(first - 1) {}
  bool next(std::string *word) {
    if (++i_ >= argc_) return false;
    *word = argv_[i_];
    return true;
  }
  bool value(std::string *out) {
    if (i_ + 1 >= argc_) return false;
    *out = argv_[++i_];
    return true;
  }

 private:
  int argc_;
  char **argv_;
  int i_;
};

// The value of the plusarg prefix (e.g. "+otpu_host_drop_write=") as checked by
// check_plusargs, or 0 when it is not given.
uint64_t plusarg_value(const std::vector<std::string> &plusargs, const std::string &prefix);

// "" when every +otpu_* argument is known, well formed and effective for the Config, else the
// one-line reason naming the argument (printable). Plusargs outside the +otpu_ and +axi_
// namespaces are not judged. openTPU's RTL (`opentpu`) has none of the +otpu_* faults and takes
// its input folder (+dir=) from the adapter only; +axi_seed=N and +axi_stall=PERCENT are its
// AXI memory model's (`axi`: --dut opentpu-axi), refused anywhere else.
std::string check_plusargs(const std::vector<std::string> &plusargs, const otpu_config &c,
                           bool opentpu = false, bool axi = false);

// openTPU's AXI memory model's settings, completed with its own flow's defaults
// (opentpu/rtlsim.py: seed 1, 20 percent stalls) when not given, so that every run and its
// repro name the timing they ran with.
void add_axi_defaults(std::vector<std::string> *plusargs);

#endif
