// rtl_snapshot.h - a waveform at any cycle without a re-run (after XiangShan's LightSSS): every K
// cycles of a lockstep run, fork() leaves a paused copy of the whole simulation (the Verilated
// RTL, the C model, the checker, the host) waiting on a pipe; only the last two are kept. On a
// divergence the run wakes the newest snapshot that starts at least the window before it: the
// copy turns FST tracing on (compiled into the build, off until then), runs on to the same
// divergence, dumping the window, and ends, while the run writes its report.
//
// A snapshot costs a fork (page tables) and the copy-on-write of the pages the run writes until
// the next one; K trades that against the cycles a woken snapshot runs before its window.
#ifndef OTPU_RTL_SNAPSHOT_H
#define OTPU_RTL_SNAPSHOT_H

#include <sys/types.h>

#include <cstdint>
#include <string>

class Snapshots {
 public:
  // a snapshot every `every` cycles (raised to `window`, so that one always starts a window
  // before the divergence); none when every == 0
  Snapshots(uint64_t every, uint64_t window);
  ~Snapshots();  // the paused copies are killed
  Snapshots(const Snapshots &) = delete;
  Snapshots &operator=(const Snapshots &) = delete;

  bool on() const { return every_ != 0; }
  // called before each cycle of the run loop: forks a snapshot when one is due. Returns true
  // only in a copy that was woken: it must trace from *from on, to the divergence at *until.
  bool at(uint64_t cycle, uint64_t *from, uint64_t *until) {
    return on() && cycle >= next_ && take(cycle, from, until);
  }
  // the run, after its first divergence at `cycle`: wakes the snapshot that covers the window;
  // false when none does (a window from cycle 0: the caller re-runs instead). *from: the
  // window's first cycle.
  bool wake(uint64_t cycle, uint64_t *from);
  // waits for the woken copy; true when it reached the same divergence and wrote its waveform
  bool woken_done();
  // the woken copy, at the end of its run: its verdict to the run (the process exit status)
  static int replay_status(bool same_divergence) { return same_divergence ? 0 : 1; }

 private:
  struct Copy {
    pid_t pid = -1;
    int wake_fd = -1;  // the run's end of the copy's pipe
    uint64_t cycle = 0;
  };
  bool take(uint64_t cycle, uint64_t *from, uint64_t *until);
  static void drop(Copy *c);

  uint64_t every_, window_, next_ = 0;
  Copy copies_[2];  // [0] the older one
  pid_t woken_ = -1;
};

#endif
