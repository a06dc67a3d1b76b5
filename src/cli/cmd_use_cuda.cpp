// gpucheck use-cuda VERSION: shell exports that switch this shell to one installed toolkit.
#include <cstdlib>
#include <iostream>

#include "cli/command.h"
#include "envtools/cuda_env.h"
#include "core/errors.h"
#include "inventory/collect.h"

namespace gpucheck::cli {
namespace {

struct UseCudaArgs {
  std::string version;
  std::string from;
};

std::string getenv_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

int use_cuda_command(const UseCudaArgs& a, const GlobalOptions& g) {
  inventory::Inventory inv;
  if (!a.from.empty()) {
    inv = inventory::load_inventory(a.from);
  } else {
    inventory::CollectOptions co;
    co.python = false;  // only toolkits matter here
    inv = inventory::collect(co);
  }
  const auto& t = compat::select_toolkit(inv, a.version);
  // PATH and LD_LIBRARY_PATH are this shell's, so `eval` keeps everything else the user had.
  std::string text = compat::shell_exports(inv, t, getenv_or_empty("PATH"), getenv_or_empty("LD_LIBRARY_PATH"));
  emit_document(g, text);
  return kExitOk;
}

Runner setup_use_cuda(CLI::App& sub, GlobalOptions& g) {
  auto a = std::make_shared<UseCudaArgs>();
  sub.add_option("VERSION", a->version, "11.8, 12 (newest 12.x), 12.1.105, or a toolkit root")->required();
  sub.add_option("--from", a->from, "Take the toolkits from this inventory document instead of this machine");
  sub.footer(R"X(Prints CUDA_HOME, CUDA_PATH, PATH and LD_LIBRARY_PATH exports; other toolkits' directories are
removed from PATH and LD_LIBRARY_PATH. Values are single-quoted for POSIX shells.

Example:
  eval "$(gpucheck use-cuda 11.8)")X");
  return [a, &g] { return use_cuda_command(*a, g); };
}

Registration reg({"use-cuda", "Print shell exports that select one installed CUDA toolkit", 31, &setup_use_cuda});

}  // namespace
}  // namespace gpucheck::cli
