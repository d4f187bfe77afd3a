// rtl_host.cpp - host.txt on the RTL (rtl_host.h): the host the RTL's host calls reach (dpi.h,
// otpu_dpi_serve_host) and the device the executor acts on.
#include "rtl_host.h"

#include "dpi.h"

#include <cstdio>
#include <deque>
#include <map>
#include <vector>

namespace {

struct Access {
  bool write;
  uint32_t addr, data;
};

struct Slice {
  bool polling = false, halted = false, error = false, collective = false;
  uint64_t polls = 0;
  std::deque<Access> queue;             // taken by the DRAM, one edge later
  const uint32_t *writing = nullptr;    // the words of the write step in the queue
  std::map<uint32_t, uint32_t> read;    // answers to the reads
  bool run = false;                     // a restart for the sequencer to take
  const uint32_t *prog = nullptr;
  size_t prog_words = 0;
  uint32_t args[8] = {};
};

struct Host {
  otpu_host *exec = nullptr;
  std::vector<Slice> sl;
  uint64_t cycle = 0;
  uint64_t writes = 0, drop = 0;  // write steps begun; +otpu_host_drop_write: the one skipped
};
Host *g_host = nullptr;

Slice &at(void *dev, uint32_t s) { return static_cast<Host *>(dev)->sl[s]; }

int dev_polling(void *d, uint32_t s) {
  return at(d, s).polling && !at(d, s).halted && !at(d, s).error;
}
int dev_halted(void *d, uint32_t s) { return at(d, s).halted || at(d, s).error; }
int dev_stopped(void *d, uint32_t s) {
  const Slice &x = at(d, s);
  return x.halted || x.error || x.polling || x.collective;
}
uint64_t dev_polls(void *d, uint32_t s) { return at(d, s).polls; }
uint64_t dev_now(void *d) { return static_cast<Host *>(d)->cycle; }

// queued, then done once the DRAM took every word
int dev_write(void *d, uint32_t s, uint64_t addr, const uint32_t *w, size_t n, char *, size_t) {
  Slice &x = at(d, s);
  if (!x.queue.empty()) return 1;
  if (x.writing == w) {
    x.writing = nullptr;
    return 0;
  }
  Host *h = static_cast<Host *>(d);
  if (++h->writes == h->drop) return 0;  // the planted fault: done, nothing written
  for (size_t k = 0; k < n; k++) x.queue.push_back({true, uint32_t(addr + 4 * k), w[k]});
  x.writing = w;
  return 1;
}

int dev_read(void *d, uint32_t s, uint64_t addr, uint32_t *w, size_t n) {
  Slice &x = at(d, s);
  if (!x.queue.empty()) return 1;
  if (x.read.size() < n) {
    if (x.read.empty())
      for (size_t k = 0; k < n; k++) x.queue.push_back({false, uint32_t(addr + 4 * k), 0});
    return 1;
  }
  for (size_t k = 0; k < n; k++) w[k] = x.read[uint32_t(addr + 4 * k)];
  x.read.clear();
  return 0;
}

int dev_run(void *d, uint32_t s, const uint32_t *prog, size_t nwords, const uint32_t args[8],
            char *err, size_t errlen) {
  Slice &x = at(d, s);
  if (x.error) {  // as in the model: an error is the end of the slice's runs
    snprintf(err, errlen, "%s", OTPU_HOST_RUN_FAILED);
    return -1;
  }
  x.run = true;
  x.prog = prog;
  x.prog_words = nwords;
  for (int k = 0; k < 8; k++) x.args[k] = args[k];
  x.halted = x.polling = false;  // from now on (the RTL's level follows an edge later)
  return 0;
}

// (named apart from the executor's members that call them)
const otpu_host_device kDevice = {dev_polling, dev_halted, dev_stopped, dev_polls, dev_now,
                                   dev_write, dev_read, dev_run};

// ---- the RTL's host calls (dpi.h: otpu_dpi_host) ----------------------------------------------
Slice *slice(void *host, uint32_t sid) {
  Host *h = static_cast<Host *>(host);
  return sid < h->sl.size() ? &h->sl[sid] : nullptr;
}

void on_poll(void *h, uint32_t sid, int waiting) {
  if (Slice *x = slice(h, sid)) {
    x->polling = waiting != 0;
    x->polls += waiting != 0;
  }
}

void on_level(void *h, uint32_t sid, int is_halted, int error, int collective) {
  if (Slice *x = slice(h, sid)) {
    x->halted = is_halted != 0;
    x->error = error != 0;
    x->collective = collective != 0;
  }
}

int on_dram(void *h, uint32_t sid, uint32_t *addr, uint32_t *data) {
  Slice *x = slice(h, sid);
  if (!x || x->queue.empty()) return 0;
  Access a = x->queue.front();
  x->queue.pop_front();
  *addr = a.addr;
  *data = a.data;
  return a.write ? 1 : 2;
}

void on_dram_read(void *h, uint32_t sid, uint32_t addr, uint32_t data) {
  if (Slice *x = slice(h, sid)) x->read[addr] = data;
}

int on_run(void *h, uint32_t sid) {
  Slice *x = slice(h, sid);
  if (!x || !x->run) return -1;
  x->run = false;
  return int(x->prog ? x->prog_words / 8 : 0);
}

uint32_t on_prog_word(void *h, uint32_t sid, uint32_t idx) {
  Slice *x = slice(h, sid);
  return x && x->prog && idx < x->prog_words ? x->prog[idx] : 0u;
}

uint32_t on_arg(void *h, uint32_t sid, uint32_t k) {
  Slice *x = slice(h, sid);
  return x && k < 8 ? x->args[k] : 0u;
}


}  // namespace

bool rtl_host_open(const otpu_bundle &b, uint64_t drop_write) {
  if (!b.host.n) return true;
  g_host = new Host;
  g_host->drop = drop_write;
  g_host->sl.resize(b.cfg.S);
  uint32_t args[8] = {};
  for (unsigned k = 0; k < b.nargs && k < 8; k++) args[k] = b.args[k];
  g_host->exec = otpu_host_new(&b.host, b.cfg.S, args);
  otpu_dpi_host calls{g_host, on_poll, on_level, on_dram, on_dram_read, on_run, on_prog_word,
                      on_arg};
  otpu_dpi_serve_host(&calls);
  return g_host->exec != nullptr;
}

void rtl_host_close() {
  otpu_dpi_serve_host(nullptr);
  if (g_host) otpu_host_free(g_host->exec);
  delete g_host;
  g_host = nullptr;
}

int rtl_host_advance(uint64_t cycle) {
  if (!g_host || !g_host->exec) return 0;
  g_host->cycle = cycle;
  // a slice stopped with an error counts as halted: the host goes on (docs/bundle.md)
  return otpu_host_advance(g_host->exec, &kDevice, g_host);
}

bool rtl_host_saw_stop() {
  if (!g_host) return true;
  for (const Slice &x : g_host->sl)
    if (!x.halted && !x.error) return false;
  return true;
}

const otpu_host *rtl_host() { return g_host ? g_host->exec : nullptr; }
