#include "cli/path_option.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/text.h"

namespace gpucheck::cli {

bool is_path_type(const std::string& type_name) {
  // CLI11 appends " ..." to a repeatable option's type name and ":DESC" for each check.
  std::string t = type_name.substr(0, type_name.find_first_of(" :"));
  return t == "FILE" || t == "DIR" || t == "PATH" || t == "REPORT" || t == "FILE|DIR" || t == "LOG" || t == "PROGRAM";
}

namespace {

CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value.empty()) return "the path is empty";
        if (value.find('\0') != std::string::npos) return "the path holds a NUL byte";
        return "";
      },
      "", "non-empty path");
}

void add_checks(CLI::App& app) {
  for (CLI::Option* o : app.get_options())
    if (o->get_expected_min() > 0 && is_path_type(o->get_type_name())) o->check(non_empty_path());
  for (CLI::App* sub : app.get_subcommands({})) add_checks(*sub);
}

}  // namespace

void validate_path_options(CLI::App& app) { add_checks(app); }

CLI::Validator executable_file() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        if (value.empty()) return "the path is empty";
        struct stat st {};
        if (::stat(value.c_str(), &st) != 0) return terminal_safe(value) + ": " + std::strerror(errno);
        if (!S_ISREG(st.st_mode)) return terminal_safe(value) + " is not a regular file (a program to run)";
        if (::access(value.c_str(), X_OK) != 0) return terminal_safe(value) + " is not executable";
        return "";
      },
      "", "executable file");
}

}  // namespace gpucheck::cli
