// otpu_rtl_sim.cpp - the plain Verilator C++ top of an otpu-rtl build: main() drives the
// Verilated otpu_rtl_tb through rtl_driver.h (the usage is there). otpu-rtl (otpu_rtl.cpp) picks
// or builds the binary for a bundle's Config; the SystemC top is otpu_rtl_sc.cpp.
#include "Votpu_rtl_tb.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#if VM_COVERAGE
#include "verilated_cov.h"
#endif

#include "rtl_driver.h"

namespace {

class CcTop : public RtlTop {
 public:
  CcTop(int argc, char **argv) {
    ctx_->commandArgs(argc, argv);
    ctx_->fatalOnError(true);
    top_.reset(new Votpu_rtl_tb{ctx_.get(), "TOP"});
  }

  bool open_wave(const std::string &path) override {
#if VM_TRACE
    ctx_->traceEverOn(true);
    fst_.reset(new VerilatedFstC);
    top_->trace(fst_.get(), 99);
    fst_->open(path.c_str());
    return true;
#else
    (void)path;
    return false;
#endif
  }

  bool can_trace() const override { return VM_TRACE != 0; }
  void command_args(int argc, char **argv) override { ctx_->commandArgs(argc, argv); }
  bool forkable() const override { return true; }

  void set_inputs(bool rst, bool dump, bool ev_en) override {
    top_->rst = rst;
    top_->dump = dump;
    top_->ev_en = ev_en;
  }

  void settle() override { top_->eval(); }

  void tick(bool wave) override {
    edge(1, wave);
    edge(0, wave);
  }

  bool stopped() const override { return top_->stopped; }

  uint64_t config(int i) const override {
    return (uint64_t(top_->cfg[2 * i + 1]) << 32) | top_->cfg[2 * i];
  }

  void finish() override {
    top_->final();
#if VM_TRACE
    if (fst_) fst_->close();
#endif
  }

#if VM_COVERAGE
  bool has_coverage() const override { return true; }
  void write_coverage(const std::string &path) override {
    ctx_->coveragep()->write(path.c_str());
  }
#endif

 private:
  void edge(int clk, bool wave) {
    top_->clk = clk;
    top_->eval();
    ctx_->timeInc(1);
#if VM_TRACE
    if (fst_ && wave) fst_->dump(ctx_->time());
#else
    (void)wave;
#endif
  }

  std::unique_ptr<VerilatedContext> ctx_{new VerilatedContext};
  std::unique_ptr<Votpu_rtl_tb> top_;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> fst_;
#endif
};

std::unique_ptr<RtlTop> make_top(int argc, char **argv) {
  return std::unique_ptr<RtlTop>(new CcTop(argc, argv));
}

}  // namespace

int main(int argc, char **argv) { return rtl_driver_main(argc, argv, make_top); }
