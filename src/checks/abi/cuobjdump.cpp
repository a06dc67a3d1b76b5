#include "checks/abi/cuobjdump.h"

#include <cstdlib>
#include <filesystem>

#include "core/subprocess.h"
#include "core/text.h"

namespace gpucheck::abi {

std::string find_cuobjdump() {
  std::vector<std::string> dirs;
  if (const char* h = std::getenv("CUDA_HOME")) dirs.push_back(std::string(h) + "/bin");
  dirs.push_back("/usr/local/cuda/bin");
  for (const auto& d : dirs)
    if (std::filesystem::exists(d + "/cuobjdump")) return d + "/cuobjdump";
  return find_in_path("cuobjdump");
}

CuobjdumpListing parse_cuobjdump_listing(const std::string& text) {
  CuobjdumpListing l;
  l.ran = true;
  for (const auto& raw : split(text, '\n')) {
    std::string line = trim(raw);
    bool elf = starts_with(line, "ELF file"), ptx = starts_with(line, "PTX file");
    if (!elf && !ptx) continue;
    // name.N.sm_80.cubin -> sm_80
    std::string name = line.substr(line.find(':') + 1);
    auto ext = name.rfind('.');
    auto dot = name.rfind('.', ext == std::string::npos ? std::string::npos : ext - 1);
    if (ext == std::string::npos || dot == std::string::npos) continue;
    std::string arch = name.substr(dot + 1, ext - dot - 1);
    (elf ? l.sass : l.ptx).push_back(arch);
  }
  return l;
}

CuobjdumpListing run_cuobjdump(const std::string& cuobjdump, const std::string& file) {
  SubprocessOptions opt;
  opt.timeout = std::chrono::seconds(120);
  // A file named "-xelf=all" must reach cuobjdump as a file, not as an option.
  const std::string operand = starts_with(file, "-") ? "./" + file : file;
  auto r = run_subprocess({cuobjdump, "--list-elf", "--list-ptx", operand}, opt);
  if (!r.started || r.timed_out || !r.exited) {
    CuobjdumpListing l;
    l.error = cuobjdump + ": " + r.describe();
    return l;
  }
  // cuobjdump exits non-zero when one of the two lists is empty ("No PTX file found"), so parse anyway.
  CuobjdumpListing l = parse_cuobjdump_listing(r.out);
  if (l.sass.empty() && l.ptx.empty() && r.exit_code != 0) l.error = trim(last_lines(r.err, 2));
  return l;
}

}  // namespace gpucheck::abi
