// Rewrites the CLI11 2.x error texts (CLI/Error.hpp) that users meet; anything else passes through.
#include "cli/parse_errors.h"

#include <re2/re2.h>

namespace gpucheck::cli {

namespace {

std::string plural(const std::string& n, const std::string& word) { return n + " " + word + (n == "1" ? "" : "s"); }

// "FILES" (a positional) reads as a value the command takes; "--for" as an option.
bool is_option(const std::string& name) { return !name.empty() && name[0] == '-'; }

// CLI11's type names: "TEXT" says nothing; "TEXT:{quick,standard,long}" is the allowed values.
std::string value_hint(const std::string& type) {
  std::string t = type.compare(0, 5, "TEXT:") == 0 ? type.substr(5) : type;
  if (t == "TEXT") return "";
  if (t.size() > 2 && t.front() == '{' && t.back() == '}') {
    std::string values = t.substr(1, t.size() - 2);
    for (std::size_t i = values.find(','); i != std::string::npos; i = values.find(',', i + 2)) values.replace(i, 1, ", ");
    return " (one of " + values + ")";
  }
  return " (" + t + ")";
}

}  // namespace

std::string plain_parse_error(const std::string& what, const std::string& command) {
  const std::string cmd = command.empty() ? "gpucheck" : command;
  std::string a, b, c, d;
  auto full = [&](const RE2& re, auto*... groups) { return RE2::FullMatch(what, re, groups...); };
  // ArgumentMismatch::TypedAtLeast: an option given without its value.
  static const RE2 typed_at_least(R"((\S+): (\d+) required (\S+) missing)");
  if (full(typed_at_least, &a, &b, &c)) return (is_option(a) ? a + " needs a value" : cmd + " needs " + a) + value_hint(c);
  // ArgumentMismatch::AtLeast / AtMost: too few or too many values.
  static const RE2 at_least(R"((\S+): At least (\d+) required but received (\d+))");
  if (full(at_least, &a, &b, &c))
    return is_option(a) ? a + " needs at least " + plural(b, "value") + ", got " + c : cmd + " needs " + b + " " + a + ", got " + c;
  static const RE2 at_most(R"((\S+): At Most (\d+) required but received (\d+))");
  if (full(at_most, &a, &b, &c))
    return is_option(a) ? a + " takes at most " + plural(b, "value") + ", got " + c
                        : cmd + " takes at most " + b + " " + a + ", got " + c;
  static const RE2 expected(R"(Expected (exactly|at least) (\d+) arguments to (\S+), got (\d+))");
  if (full(expected, &a, &b, &c, &d)) return c + " takes " + a + " " + plural(b, "value") + ", got " + d;
  // RequiredError.
  if (what == "A subcommand is required") return "a command is required";
  static const RE2 required(R"((\S+) is required)");
  if (full(required, &a)) return cmd + " needs " + a;
  // ExtrasError.
  static const RE2 extras(R"(The following arguments? (?:was|were) not expected: (.*))");
  if (full(extras, &a)) return cmd + " does not take '" + a + "'";
  // ConversionError: a value of the wrong type.
  static const RE2 conversion(R"(Could not convert: (\S+) = (.*))");
  if (full(conversion, &a, &b)) return a + ": '" + b + "' is not a valid value";
  static const RE2 flag_inputs(R"((\S+): too many inputs for a flag)");
  if (full(flag_inputs, &a)) return a + " is a flag: it takes no value";
  // ExcludesError.
  static const RE2 excludes(R"((\S+) excludes (\S+))");
  if (full(excludes, &a, &b)) return a + " and " + b + " exclude each other";
  return what;
}

}  // namespace gpucheck::cli
