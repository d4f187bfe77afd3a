// file_util.h - small file and shell helpers of the RTL tools, below everything else in
// rtl_bridge/ (the build, openTPU's checkout reader, the tools).
#ifndef OTPU_FILE_UTIL_H
#define OTPU_FILE_UTIL_H

#include <string>

// $name when set and not empty, else def
std::string env_or(const char *name, const std::string &def);
// s in single quotes for /bin/sh
std::string shell_quote(const std::string &s);
// a regular file
bool is_file(const std::string &p);
// a regular file of bounded size, whole (input.h); false if it cannot be read
bool read_file(const std::string &path, std::string *out);
// p and its parents (as mkdir -p); false if one cannot be made
bool mkdirs(const std::string &p);

#endif
