#include "cli/command.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "core/files.h"

namespace gpucheck::cli {

std::vector<Command>& commands() {
  static std::vector<Command> all;
  return all;
}

bool use_color(const GlobalOptions& g, int fd) {
  if (g.color == "always") return true;
  if (g.color == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return isatty(fd) && !(no_color && *no_color) && !(term && std::string(term) == "dumb");
}

void emit_document(const GlobalOptions& g, const std::string& text) {
  if (!g.out.empty()) write_file_atomic(g.out, text);
  else std::cout << text << std::flush;
}

}  // namespace gpucheck::cli
