// template.h - a text template's fields filled in: the simulator's makefile
// (templates/sim_link.mk.in) is a file installed with the tree, read at run time, not text in
// the C++.
#ifndef OTPU_TEMPLATE_H
#define OTPU_TEMPLATE_H

#include <string>
#include <utility>
#include <vector>

// text with each field (an upper-case name, A-Z and _, between two '@': @NAME@) replaced by its
// value in fields; any other '@' is kept, and the values are not searched again. false with
// one line naming the field in *err when a field has no value.
bool fill_template(const std::string &text,
                   const std::vector<std::pair<std::string, std::string>> &fields,
                   std::string *out, std::string *err);

#endif
