// wave_view.cpp - REPORT/wave.gtkw (wave_view.h).
#include "wave_view.h"

#include <jansson.h>

#include "cmdline.h"
#include "json_input.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "protocol.h"

namespace {

// Every signal of an FST, as GTKWave names them (scopes joined by '.', the bit range after
// the name), in the file's order; from the VCD header fst2vcd prints.
bool fst_signals(const std::string &fst, std::vector<std::string> *out, std::string *why) {
  std::string cmd = "fst2vcd '" + fst + "' 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return *why = "cannot run fst2vcd (Debian's gtkwave package)", false;
  std::vector<std::string> scope;
  char line[4096];
  while (fgets(line, sizeof line, p)) {
    char kind[64], name[1024], range[256], width[32], id[64], type[64];
    if (!strncmp(line, "$enddefinitions", 15)) break;
    if (sscanf(line, "$scope %63s %1023s", kind, name) == 2) {
      scope.push_back(name);
    } else if (!strncmp(line, "$upscope", 8)) {
      if (!scope.empty()) scope.pop_back();
    } else if (sscanf(line, "$var %63s %31s %63s %1023s %255s", type, width, id, name,
                      range) == 5) {
      std::string full;
      for (const std::string &s : scope) full += s + ".";
      full += name;
      if (range[0] == '[') full += range;
      out->push_back(full);
    }
  }
  int rc = pclose(p);
  if (out->empty())
    return *why = rc ? "fst2vcd failed (is Debian's gtkwave package installed?)"
                     : "the waveform names no signal", false;
  return true;
}

bool one_bit(const std::string &name) {
  return name.back() != ']' || name.find(':') == std::string::npos;
}

}  // namespace

bool write_wave_view(const std::string &report, std::string *why) {
  char err[512];
  json_t *root = otpu_json_read((report + "/divergence.json").c_str(), OTPU_JSON_MAX_BYTES, err,
                                sizeof err);
  if (!root) return *why = err, false;
  json_t *wave = json_object_get(root, "waveform");
  const char *fst = json_string_value(json_object_get(wave, "file"));
  const char *kind = json_string_value(json_object_get(root, "kind"));
  const char *unit = json_string_value(json_object_get(root, "unit"));
  long long slice = json_integer_value(json_object_get(root, "slice"));
  long long cycle = json_integer_value(json_object_get(root, "cycle"));
  long long marker = json_integer_value(json_object_get(wave, "marker_time"));
  std::string fst_path = fst ? fst : "", kind_s = kind ? kind : "?", unit_s = unit ? unit : "";
  json_decref(root);
  if (fst_path.empty()) return *why = "divergence.json names no waveform", false;
  // (the save file names the files as they are: a control byte in a name, which GTKWave's
  // line format cannot hold and a person reading it must not get raw, leaves no save file)
  if (has_control(fst_path + report + kind_s + unit_s))
    return *why = "a control byte in the name of the report or its waveform", false;
  std::vector<std::string> sigs;
  if (!fst_signals(fst_path, &sigs, why)) return false;
  char abs[4096];  // (GTKWave opens a relative dumpfile from its own working folder)
  if (realpath(fst_path.c_str(), abs)) fst_path = abs;

  // the signals to show: the diverging unit's records and write ports (without a unit: every
  // unit's start and completion), each a scope of the adapter's event records
  const std::string tb = "TOP.otpu_rtl_tb.", s = "[" + std::to_string(slice) + "]";
  std::vector<std::string> scopes = {tb + "ev_disp" + s + "."};
  for (int u = 0; u < OTPU_UNIT_COUNT; u++) {
    if (!unit_s.empty() && unit_s != otpu_unit_names[u]) continue;
    std::string k = s + "[" + std::to_string(u) + "].";
    if (u != OTPU_UNIT_SEQ) scopes.insert(scopes.end(), {tb + "ev_start" + k, tb + "ev_done" + k});
    for (int p = 0; p < OTPU_PORTS; p++)
      if (otpu_port_unit[p] == u)
        scopes.push_back(tb + "ev_wr" + s + "[" + std::to_string(p) + "].");
  }
  std::string path = report + "/wave.gtkw";
  FILE *f = fopen(path.c_str(), "w");
  if (f && realpath(path.c_str(), abs)) path = abs;
  if (!f) return *why = "cannot write " + path, false;
  fprintf(f, "[*] otpu-lockstep: the first divergence, %s at slice %lld cycle %lld (marker)\n",
          kind_s.c_str(), slice, cycle);
  fprintf(f, "[dumpfile] \"%s\"\n[savefile] \"%s\"\n", fst_path.c_str(), path.c_str());
  // a window wide enough for the names and for 64 time units at gtkwave's zoom -4, so that
  // the view (which ends at the dump's end, just past the marker) shows the marker
  fprintf(f, "[size] 1400 700\n[signals_width] 300\n");
  fprintf(f, "[timestart] %lld\n", marker > 64 ? marker - 64 : 0);
  fprintf(f, "*-4.000000 %lld", marker);  // the zoom and the primary marker, then 26 named ones
  for (int k = 0; k < 26; k++) fprintf(f, " -1");
  fprintf(f, "\n");
  auto show = [&](const std::string &name) {
    fprintf(f, "@%s\n%s\n", one_bit(name) ? "28" : "22", name.c_str());
  };
  for (const std::string &n : sigs)
    if (n == tb + "clk") show(n);
  std::string group = (unit_s.empty() ? std::string("every unit") : unit_s) + ", slice " +
                      std::to_string(slice);
  fprintf(f, "@800200\n-%s\n", group.c_str());
  for (const std::string &sc : scopes)
    for (const std::string &n : sigs)
      if (!n.compare(0, sc.size(), sc)) show(n);
  fprintf(f, "@1000200\n-%s\n", group.c_str());
  if (fclose(f)) return *why = "cannot write " + path, false;
  return true;
}
