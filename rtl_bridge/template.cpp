// template.cpp - a text template's fields filled in (template.h).
#include "template.h"

#include <algorithm>
#include <cctype>

bool fill_template(const std::string &text,
                   const std::vector<std::pair<std::string, std::string>> &fields,
                   std::string *out, std::string *err) {
  out->clear();
  for (size_t i = 0; i < text.size(); i++) {
    size_t b = i + 1;
    while (b < text.size() && (isupper(static_cast<unsigned char>(text[b])) || text[b] == '_'))
      b++;
    if (text[i] != '@' || b == i + 1 || b >= text.size() || text[b] != '@') {
      *out += text[i];
      continue;
    }
    std::string name = text.substr(i + 1, b - i - 1);
    auto f = std::find_if(fields.begin(), fields.end(),
                          [&](const auto &kv) { return kv.first == name; });
    if (f == fields.end()) {
      *err = "the template has a field without a value: @" + name + "@";
      return false;
    }
    *out += f->second;
    i = b;
  }
  return true;
}
