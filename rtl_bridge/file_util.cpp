// file_util.cpp - small file and shell helpers (file_util.h).
#include "file_util.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "input.h"

std::string env_or(const char *name, const std::string &def) {
  const char *v = getenv(name);
  return v && *v ? std::string(v) : def;
}

bool read_file(const std::string &path, std::string *out) {
  // a regular file of bounded size only (input.h): a FIFO or a device in a checkout, a report
  // folder or a cache is refused, never read until it ends
  char *data = nullptr, err[64];
  size_t len = 0;
  if (otpu_input_read(path.c_str(), size_t(1) << 30, &data, &len, err, sizeof err)) return false;
  out->assign(data, len);
  free(data);
  return true;
}

bool is_file(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool mkdirs(const std::string &p) {
  std::string cur;
  std::stringstream ss(p);
  std::string part;
  if (!p.empty() && p[0] == '/') cur = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    cur += part + "/";
    if (mkdir(cur.c_str(), 0777) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}
