// otpu_rtl_sc.cpp - the SystemC top of an otpu-rtl build (Verilator --sc): sc_main binds the
// Verilated otpu_rtl_tb module to SystemC signals and drives its clock, running the same driver
// as the C++ top (rtl_driver.h; otpu_rtl_sim.cpp). `otpu-lockstep run --systemc` uses it.
#include <systemc>

#include "Votpu_rtl_tb.h"
#include "verilated.h"

#include "rtl_driver.h"

namespace {

// The module and its signals; SystemC objects stay alive until the process ends (the kernel
// refers to them after elaboration), so they are never deleted.
struct ScBench {
  sc_core::sc_signal<bool> clk{"clk"}, rst{"rst"}, dump{"dump"}, ev_en{"ev_en"};
  sc_core::sc_signal<bool> stopped{"stopped"}, any_error{"any_error"};
  sc_core::sc_signal<sc_dt::sc_bv<768>> cfg{"cfg"};
  Votpu_rtl_tb top{"TOP"};

  ScBench() {
    top.clk(clk);
    top.rst(rst);
    top.dump(dump);
    top.ev_en(ev_en);
    top.stopped(stopped);
    top.any_error(any_error);
    top.cfg(cfg);
  }
};

class ScTop : public RtlTop {
 public:
  ScTop(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    Verilated::fatalOnError(true);
    b_ = new ScBench;
  }

  // the waveform window is taken on the traced C++ build (otpu-lockstep re-runs there)
  bool open_wave(const std::string &) override { return false; }

  void set_inputs(bool rst, bool dump, bool ev_en) override {
    b_->rst.write(rst);
    b_->dump.write(dump);
    b_->ev_en.write(ev_en);
  }

  void settle() override { sc_core::sc_start(sc_core::SC_ZERO_TIME); }

  void tick(bool) override {
    b_->clk.write(true);
    sc_core::sc_start(1, sc_core::SC_NS);
    b_->clk.write(false);
    sc_core::sc_start(1, sc_core::SC_NS);
  }

  bool stopped() const override { return b_->stopped.read(); }

  uint64_t config(int i) const override {
    return b_->cfg.read().range(64 * i + 63, 64 * i).to_uint64();
  }

  void finish() override { b_->top.final(); }

 private:
  ScBench *b_;
};

std::unique_ptr<RtlTop> make_top(int argc, char **argv) {
  return std::unique_ptr<RtlTop>(new ScTop(argc, argv));
}

}  // namespace

// (SystemC prints its banner before sc_main: otpu-rtl and otpu-lockstep turn it off)
int sc_main(int argc, char **argv) { return rtl_driver_main(argc, argv, make_top); }
