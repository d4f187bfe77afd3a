// rtl_serve.cpp - the fork server (rtl_serve.h).
#include "rtl_serve.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr size_t kMaxRequest = 1 << 20;  // bytes: a request's arguments are paths and options

double now_s() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// the next request's fields; false at the end of stdin (*err empty) or on a broken one
bool read_request(std::vector<std::string> *fields, std::string *err) {
  fields->clear();
  std::string cur;
  size_t total = 0;
  for (int ch; (ch = getchar()) != EOF;) {
    if (++total > kMaxRequest) {
      *err = "a request longer than 1 MiB";
      return false;
    }
    if (ch) {
      cur += char(ch);
    } else if (cur.empty()) {
      return true;
    } else {
      fields->push_back(cur);
      cur.clear();
    }
  }
  if (total) *err = "stdin ended inside a request";
  return false;
}

// the child: its output into `out`, then the run. It dies with the server (`server`: its pid):
// a server killed (kill -9, or its otpu-regress stopped) leaves no test running on, writing
// into an output folder nobody reads any more.
[[noreturn]] void child(const char *argv0, const std::vector<std::string> &f, RtlTop *top,
                        RtlRunOne run, pid_t server) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != server) _exit(128 + SIGKILL);  // the server died before the line above
  setpgid(0, 0);  // (its snapshots and helpers are killed with it)
  sigset_t all;
  sigemptyset(&all);
  sigprocmask(SIG_SETMASK, &all, nullptr);
  int fd = open(f[0].c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(2);
  close(fd);
  std::vector<char *> av{const_cast<char *>(argv0)};
  for (size_t i = 2; i < f.size(); i++) av.push_back(const_cast<char *>(f[i].c_str()));
  av.push_back(nullptr);
  int rc = run(int(av.size()) - 1, av.data(), top);
  fflush(stdout);
  fflush(stderr);
  _exit(rc);
}

// waits for pid until `timeout` seconds (0: none) have passed; false when they did
bool wait_child(pid_t pid, double timeout, int *status) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  double end = now_s() + timeout;
  for (;;) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0 && errno != EINTR) return true;  // (cannot happen: it is our child)
    double left = end - now_s();
    if (timeout > 0 && left <= 0) return false;
    timespec ts{time_t(timeout > 0 ? left : 1), long(timeout > 0 ? (left - long(left)) * 1e9 : 0)};
    sigtimedwait(&chld, nullptr, &ts);
  }
}

}  // namespace

int rtl_serve(const char *argv0, RtlTop *top, RtlRunOne run) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, nullptr);  // (sigtimedwait takes it)
  std::vector<std::string> f;
  std::string err;
  while (read_request(&f, &err)) {
    char *end = nullptr;
    unsigned long timeout = f.size() >= 3 ? strtoul(f[1].c_str(), &end, 10) : 0;
    if (f.size() < 3 || !end || *end || f[1].empty() || timeout > 604800) {
      printf("bad a request is OUT, TIMEOUT (seconds, 0..604800) and the run's arguments\n");
      fflush(stdout);
      continue;
    }
    fflush(stdout);
    fflush(stderr);
    double t0 = now_s();
    pid_t server = getpid(), pid = fork();
    if (pid < 0) {
      printf("bad cannot fork: %s\n", strerror(errno));
      fflush(stdout);
      continue;
    }
    if (pid == 0) child(argv0, f, top, run, server);
    setpgid(pid, pid);  // (as the child does: its group exists before any kill below)
    int st = 0;
    bool ended = wait_child(pid, double(timeout), &st);
    kill(-pid, SIGKILL);  // its group: a hung child, or what it left running
    if (!ended) waitpid(pid, &st, 0);
    double secs = now_s() - t0;
    if (!ended) printf("timeout %.6f\n", secs);
    else if (WIFSIGNALED(st)) printf("signal %d %.6f\n", WTERMSIG(st), secs);
    else printf("exit %d %.6f\n", WEXITSTATUS(st), secs);
    fflush(stdout);
  }
  if (err.empty()) return 0;
  fprintf(stderr, "otpu-rtl: --serve: %s\n", err.c_str());
  return 2;
}
