// rtl_snapshot.cpp - paused copies of a lockstep run, woken for its waveform (rtl_snapshot.h).
#include "rtl_snapshot.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace {

// what the run tells the copy it wakes: the window's first cycle and the divergence's cycle
struct WakeMsg {
  uint64_t from, until;
};

bool read_all(int fd, void *buf, size_t n) {
  char *p = static_cast<char *>(buf);
  while (n) {
    ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= size_t(k);
  }
  return true;
}

}  // namespace

Snapshots::Snapshots(uint64_t every, uint64_t window)
    : every_(every && every < window ? window : every), window_(window) {}

Snapshots::~Snapshots() {
  for (Copy &c : copies_) drop(&c);
  if (woken_ > 0) {
    kill(woken_, SIGKILL);
    waitpid(woken_, nullptr, 0);
  }
}

void Snapshots::drop(Copy *c) {
  if (c->pid > 0) {
    kill(c->pid, SIGKILL);
    while (waitpid(c->pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
  if (c->wake_fd >= 0) close(c->wake_fd);
  *c = Copy();
}

bool Snapshots::take(uint64_t cycle, uint64_t *from, uint64_t *until) {
  next_ = cycle + every_;
  int fds[2];
  if (pipe(fds)) return false;  // no snapshot this time; the run goes on
  fflush(stdout);  // (nothing buffered is written twice)
  fflush(stderr);
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return false;
  }
  if (pid > 0) {
    close(fds[0]);
    drop(&copies_[0]);
    copies_[0] = copies_[1];
    copies_[1] = Copy{pid, fds[1], cycle};
    return false;
  }
  // the copy: paused until the run wakes it or drops it (a closed pipe, or the run's end)
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(0);
  close(fds[1]);
  for (Copy &c : copies_) {
    if (c.wake_fd >= 0) close(c.wake_fd);
    c = Copy();  // (not this copy's children)
  }
  WakeMsg m;
  if (!read_all(fds[0], &m, sizeof m)) _exit(0);
  close(fds[0]);
  every_ = 0;  // the woken copy takes no snapshots of its own
  *from = m.from;
  *until = m.until;
  return true;
}

bool Snapshots::wake(uint64_t cycle, uint64_t *from) {
  uint64_t f = cycle > window_ ? cycle - window_ : 0;
  for (int i = 1; i >= 0; i--) {
    Copy &c = copies_[i];
    // (a copy taken at cycle c has clocked c cycles: it can dump cycle c + 1 on, and none
    // holds the reset's cycle 0)
    if (c.pid <= 0 || c.cycle >= f) continue;
    WakeMsg m{f, cycle};
    if (write(c.wake_fd, &m, sizeof m) != ssize_t(sizeof m)) return false;
    close(c.wake_fd);
    woken_ = c.pid;
    c = Copy();
    *from = f;
    return true;
  }
  return false;
}

bool Snapshots::woken_done() {
  int st = 0;
  pid_t pid = woken_;
  woken_ = -1;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}
