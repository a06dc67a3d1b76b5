// Rewrites the CLI11 2.x error texts (CLI/Error.hpp) that users meet; anything else passes through.
#include "cli/parse_errors.h"

#include <regex>

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
  std::smatch m;
  // ArgumentMismatch::TypedAtLeast: an option given without its value.
  if (std::regex_match(what, m, std::regex(R"((\S+): (\d+) required (\S+) missing)")))
    return (is_option(m[1]) ? m[1].str() + " needs a value" : cmd + " needs " + m[1].str()) + value_hint(m[3]);
  // ArgumentMismatch::AtLeast / AtMost: too few or too many values.
  if (std::regex_match(what, m, std::regex(R"((\S+): At least (\d+) required but received (\d+))")))
    return is_option(m[1]) ? m[1].str() + " needs at least " + plural(m[2], "value") + ", got " + m[3].str()
                           : cmd + " needs " + m[2].str() + " " + m[1].str() + ", got " + m[3].str();
  if (std::regex_match(what, m, std::regex(R"((\S+): At Most (\d+) required but received (\d+))")))
    return is_option(m[1]) ? m[1].str() + " takes at most " + plural(m[2], "value") + ", got " + m[3].str()
                           : cmd + " takes at most " + m[2].str() + " " + m[1].str() + ", got " + m[3].str();
  if (std::regex_match(what, m, std::regex(R"(Expected (exactly|at least) (\d+) arguments to (\S+), got (\d+))")))
    return m[3].str() + " takes " + m[1].str() + " " + plural(m[2], "value") + ", got " + m[4].str();
  // RequiredError.
  if (what == "A subcommand is required") return "a command is required";
  if (std::regex_match(what, m, std::regex(R"((\S+) is required)")))
    return cmd + " needs " + m[1].str();
  // ExtrasError.
  if (std::regex_match(what, m, std::regex(R"(The following arguments? (?:was|were) not expected: (.*))")))
    return cmd + " does not take '" + m[1].str() + "'";
  // ConversionError: a value of the wrong type.
  if (std::regex_match(what, m, std::regex(R"(Could not convert: (\S+) = (.*))")))
    return m[1].str() + ": '" + m[2].str() + "' is not a valid value";
  if (std::regex_match(what, m, std::regex(R"((\S+): too many inputs for a flag)")))
    return m[1].str() + " is a flag: it takes no value";
  // ExcludesError.
  if (std::regex_match(what, m, std::regex(R"((\S+) excludes (\S+))")))
    return m[1].str() + " and " + m[2].str() + " exclude each other";
  return what;
}

}  // namespace gpucheck::cli
