// Fuzz target: a probe manifest (share/gpucheck/probes/*.json, read by `run` and `list`): the bytes are
// written as the only manifest of a fresh directory and loaded; a catalog or an InputError with one line.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.h"
#include "fuzz_check.h"
#include "runner/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("gpucheck-fuzz-manifest-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  {
    std::ofstream out(dir + "/probe.json", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    auto catalog = gpucheck::runner::load_catalog(dir, dir);
    for (const auto& spec : catalog) {
      // The id names the executable: it must stay a file of the probe directory.
      if (spec.id.find('/') != std::string::npos || spec.executable != dir + "/" + spec.id) std::abort();
      for (const char* level : {"quick", "standard", "long"})
        if (double t = gpucheck::runner::effective_timeout(spec, level, 2); !(t > 0) || t > 1e9) std::abort();
    }
    (void)gpucheck::runner::select_probes(catalog, "standard", {});
  } catch (const gpucheck::InputError& e) {
    fuzzcheck::one_line(e.what());
  }
  return 0;
}
