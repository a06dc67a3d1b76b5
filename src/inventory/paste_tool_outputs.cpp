// Outputs of single tools pasted as the environment: `nvcc --version`, torch's build configuration
// (`torch.__config__.show()`, "PyTorch built with:") and `nvidia-smi topo -m`. Each states one part of the
// stack; paste_formats.h declares them beside the other readers.
#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "inventory/paste_formats.h"
#include "inventory/paste_text.h"

namespace gpucheck::inventory {
namespace {

using paste_text::first_word;
using paste_text::is_version;
using paste_text::lines_of;
using paste_text::words_of;
using paste_text::nvcc_release;

// "-gencode;arch=compute_37,code=sm_37;-gencode;arch=compute_86,code=compute_86" -> sm_37, compute_86: the
// names torch.cuda.get_arch_list() gives for the same build. A line cut short (an "arch=" without its
// "code=", a trailing "-gencode") gives nothing: half a list would claim archs the build lacks.
std::vector<std::string> archs_of_gencode_flags(const std::string& flags) {
  std::vector<std::string> out;
  const auto parts = split(trim(flags), ';');
  if (parts.empty() || trim(parts.back()) == "-gencode") return {};
  for (const auto& part : parts) {
    if (starts_with(trim(part), "arch=") && part.find(",code=") == std::string::npos) return {};
    auto at = part.find("code=");
    for (; at != std::string::npos; at = part.find("code=", at + 5)) {
      if (at > 0 && part[at - 1] != ',' && part[at - 1] != ' ') continue;  // "arch=compute_37," is not a code
      std::string code = part.substr(at + 5);
      code = code.substr(0, code.find_first_of(", "));
      const bool known = (starts_with(code, "sm_") || starts_with(code, "compute_")) &&
                         std::isdigit(static_cast<unsigned char>(code.back()));
      if (known && std::find(out.begin(), out.end(), code) == out.end()) out.push_back(code);
    }
  }
  return out;
}

}  // namespace

std::optional<PastedFacts> read_nvcc_version(std::string_view text) {
  PastedFacts f;
  f.format = "nvcc --version";
  for (const auto& t : lines_of(text))
    if (starts_with(t, "Cuda compilation tools, release ")) {
      f.nvcc_version = nvcc_release(t);
      break;
    }
  if (!dotted_number(f.nvcc_version)) return std::nullopt;
  f.states_nvcc = true;
  return f;
}

std::optional<PastedFacts> read_torch_build_config(std::string_view text) {
  PastedFacts f;
  f.format = "torch build configuration";
  bool in_block = false;
  for (const auto& t : lines_of(text)) {
    if (starts_with(t, "PyTorch built with:")) {
      in_block = true;
      continue;
    }
    if (!in_block) continue;
    if (!starts_with(t, "- ")) {
      in_block = false;
      continue;
    }
    if (starts_with(t, "- CUDA Runtime ")) f.torch_cuda = first_word(t.substr(15));
    else if (starts_with(t, "- NVCC architecture flags: ")) f.torch_archs = archs_of_gencode_flags(t.substr(27));
  }
  // A CPU build lists no CUDA Runtime: without it nothing about torch's CUDA is stated.
  if (!f.torch_cuda || !dotted_number(*f.torch_cuda)) return std::nullopt;
  f.torch_check_ran = true;  // torch's own words: torch is there, its version not in this block
  return f;
}

std::optional<PastedFacts> read_nvidia_smi_topology(std::string_view text) {
  PastedFacts f;
  f.format = "nvidia-smi topo -m";
  bool header = false;
  std::size_t rows = 0;
  for (auto t : lines_of(text)) {
    std::replace(t.begin(), t.end(), '\t', ' ');  // the matrix is tab-separated
    const auto words = words_of(t);
    // The header: "GPU0  GPU1 ... CPU Affinity  NUMA Affinity  GPU NUMA ID".
    if (!header) {
      header = !words.empty() && words[0] == "GPU0" && t.find(" Affinity") != std::string::npos;
      continue;
    }
    // Row i: "GPUi" with its own cell, "X", in column i.
    if (rows < 1024 && words.size() > rows + 1 && words[0] == "GPU" + std::to_string(rows) && words[rows + 1] == "X") {
      f.gpus.push_back({"", ""});
      ++rows;
    }
  }
  if (rows == 0) return std::nullopt;
  return f;
}

}  // namespace gpucheck::inventory
