// test_template.cpp - fill_template (rtl_bridge/template.h): a table of templates, the fields
// given, and the text or the refusal each must give.
#include <gtest/gtest.h>

#include "template.h"

namespace {

struct Case {
  const char *text;
  const char *want;  // the filled text, or the refusal's message
  bool ok;
};

TEST(Template, Table) {
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"A", "x"}, {"ROOT", "'/my dir'"}, {"AT", "@A@"}, {"E", ""}};
  const Case cases[] = {
      {"", "", true},
      {"plain text", "plain text", true},
      {"@A@", "x", true},
      {"@A@@A@", "xx", true},
      {"@ROOT@/dpi/$*.c -o $@", "'/my dir'/dpi/$*.c -o $@", true},  // make's $@ is kept
      {"$@ @A@", "$@ x", true},
      {"@AT@", "@A@", true},             // a value is not searched again
      {"[@E@]", "[]", true},
      {"mail@example.com", "mail@example.com", true},  // not an upper-case name
      {"@@", "@@", true},
      {"@A", "@A", true},                // no closing '@'
      {"@a@", "@a@", true},
      {"@B@", "the template has a field without a value: @B@", false},
      {"ok @A@ then @MISSING_ONE@", "the template has a field without a value: @MISSING_ONE@",
       false},
  };
  for (const Case &c : cases) {
    std::string out, err;
    bool ok = fill_template(c.text, fields, &out, &err);
    EXPECT_EQ(ok, c.ok) << c.text;
    EXPECT_EQ(ok ? out : err, c.want) << c.text;
  }
}

}  // namespace
