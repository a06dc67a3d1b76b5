#include "inventory/collect_env_text.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "core/text.h"
#include "inventory/paste_formats.h"

namespace gpucheck::inventory {
namespace {

const char* const kKeys[] = {"PyTorch version", "Is debug build", "CUDA used to build PyTorch", "OS", "GCC version",
                             "Libc version", "Python version", "Is CUDA available", "CUDA runtime version",
                             "GPU models and configuration", "Nvidia driver version", "cuDNN version",
                             "Clang version", "CMake version", "Python platform", "vLLM Version",
                             "ROCM used to build PyTorch", "XPU used to build PyTorch", "HIP runtime version",
                             "MIOpen runtime version", "Is XNNPACK available", "CUDA_MODULE_LOADING set to",
                             "Is CUDA available (PyTorch)"};  // the last: docTR's collect_env

// Keys only collect_env prints (not "OS" or "Python version"): four of them make a report cut above its
// "PyTorch version" line (a paste that starts at the driver) still collect_env's.
const char* const kOwnKeys[] = {"Is debug build", "CUDA used to build PyTorch", "Is CUDA available",
                                "CUDA runtime version", "GPU models and configuration", "Nvidia driver version",
                                "cuDNN version", "HIP runtime version", "MIOpen runtime version",
                                "Is XNNPACK available", "CUDA_MODULE_LOADING set to", "ROCM used to build PyTorch"};

std::string strip(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (std::isspace(static_cast<unsigned char>(s[b])) || s[b] == '>' || s[b] == '`')) ++b;
  while (e > b && (std::isspace(static_cast<unsigned char>(s[e - 1])) || s[e - 1] == '`')) --e;
  return std::string(s.substr(b, e - b));
}

bool unknown_value(const std::string& v) {
  return v.empty() || v == "N/A" || v == "None" || v == "Could not collect" || v == "No CUDA";
}

// The keyed lines, and the lines that follow a key without a value on its own line (GPU list, cuDNN
// candidates, library versions) as that key's continuation.
struct Parsed {
  std::map<std::string, std::string> values;
  std::map<std::string, std::vector<std::string>> blocks;
};

Parsed parse(std::string_view text) {
  Parsed p;
  std::string block;  // the key whose continuation lines we are reading
  for (const auto& raw : split(std::string(text), '\n')) {
    std::string line = strip(raw);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // A report retyped on a CJK keyboard has fullwidth colons ("GPU 0\uff1a Tesla P100"); some old or retyped
    // reports drop the colon after the first key ("PyTorch version 1.5.0").
    for (auto at = line.find("\xef\xbc\x9a"); at != std::string::npos; at = line.find("\xef\xbc\x9a", at))
      line.replace(at, 3, ": ");
    if (starts_with(line, "PyTorch version ") && line.find(':') == std::string::npos) line.insert(15, ":");
    if (line.empty() || line.rfind("===", 0) == 0) {
      if (block != "Versions of relevant libraries") block.clear();
      continue;
    }
    auto colon = line.find(':');
    bool keyed = false;
    if (colon != std::string::npos) {
      std::string key = strip(line.substr(0, colon));
      for (const char* k : kKeys)
        if (key == k) keyed = true;
      if (key == "Versions of relevant libraries") keyed = true;
      if (keyed) {
        std::string value = strip(line.substr(colon + 1));
        p.values[key] = value;
        block = (value.empty() || starts_with(value, "Probably one of the following")) ? key : "";
        if (key == "GPU models and configuration" && starts_with(value, "GPU ")) p.blocks[key].push_back(value);
        if (key == "Versions of relevant libraries") block = key;
        continue;
      }
    }
    // The library rows with their "Versions of relevant libraries:" line left out of the paste.
    if (block.empty() && (starts_with(line, "[pip3] ") || starts_with(line, "[conda] "))) block = "Versions of relevant libraries";
    if (!block.empty()) {
      if (block == "Versions of relevant libraries" && line[0] != '[') {
        block.clear();
        continue;
      }
      p.blocks[block].push_back(line);
    }
  }
  return p;
}

std::string leading_word(const std::string& s) { return s.substr(0, s.find_first_of(" \t(|")); }

// "(Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0" -> "11.4.0"; "(GCC) 8.5.0 20210514 (Red Hat 8.5.0-3)" -> "8.5.0".
std::string compiler_version(const std::string& v) {
  std::string rest = v;
  if (!rest.empty() && rest[0] == '(') {
    auto close = rest.find(')');
    rest = close == std::string::npos ? "" : strip(rest.substr(close + 1));
  }
  return leading_word(rest);
}

bool yes(const std::string& v) { return v == "True" || v == "Yes"; }

// "libcudnn.so.8.9.0" anywhere in the candidates -> "8.9.0"; a plain "8.9.2" as the value.
void add_cudnn(Inventory& inv, const Parsed& p) {
  auto it = p.values.find("cuDNN version");
  if (it == p.values.end() || unknown_value(it->second)) return;
  Library lib;
  lib.name = "cudnn";
  lib.version_source = "pasted collect_env: cuDNN version";
  if (!starts_with(it->second, "Probably")) {
    auto at = it->second.find("libcudnn.so.");
    if (at != std::string::npos) {
      lib.path = it->second;
      lib.version = it->second.substr(at + 12);
    } else {
      lib.version = leading_word(it->second);
    }
  } else if (p.blocks.count("cuDNN version")) {
    for (const auto& cand : p.blocks.at("cuDNN version")) {
      auto at = cand.find("/libcudnn.so.");
      if (at == std::string::npos) continue;
      lib.path = cand;
      lib.version = cand.substr(at + 13);
      break;
    }
  }
  if (!lib.version.empty()) inv.libraries.push_back(lib);
}

}  // namespace

void add_pasted_nvcc(Inventory& inv, const std::string& version, const std::string& source, const std::string& why) {
  Toolkit t;
  t.version = version;
  t.version_source = source;
  // The report has no path: the root names what is known, so no rule can quote it as a directory.
  t.root = kCollectEnvToolkitRoot;
  t.nvcc = "nvcc";
  t.found_via = {"PATH"};
  inv.toolkits.push_back(t);
  inv.toolkit_choices.push_back({"path", t.root, t.version, why});
  inv.toolkit_choices.push_back({"torch_cpp_extension", t.root, t.version, why});
}

namespace {
bool is_collect_env(const Parsed& p) {
  if (p.values.count("PyTorch version")) return p.values.size() >= 4;
  int own = 0;
  for (const char* k : kOwnKeys) own += p.values.count(k) ? 1 : 0;
  return own >= 4;
}
}  // namespace

bool looks_like_collect_env(std::string_view text) { return is_collect_env(parse(text)); }

std::optional<Inventory> inventory_from_collect_env(std::string_view text, const std::string& name) {
  auto p = parse(text);
  if (!is_collect_env(p)) return std::nullopt;
  auto get = [&](const char* k) -> std::string {
    auto it = p.values.find(k);
    return it == p.values.end() || unknown_value(it->second) ? "" : it->second;
  };
  Inventory inv;
  inv.root = "";
  inv.notes.push_back("facts from a pasted collect_env report (" + name +
                      "): what it prints, without paths, compute capabilities or loader state");

  PythonEnv py;
  py.interpreter = "python";  // the reporter's own: fixes print `python -m pip ...` for that environment
  py.found_via = {"collect_env"};
  py.version = leading_word(get("Python version"));
  // docTR's own collect_env adds the companion after it: "2.4.0+cu121 (torchvision 0.19.0+cu121)".
  py.torch_version = leading_word(get("PyTorch version"));
  py.torch_installed = !py.torch_version.empty();
  py.torch_cuda = get("CUDA used to build PyTorch");
  // torch.version.cuda of a CPU build is None, printed as "None" by old scripts and as "Could not collect" by
  // today's (torch/utils/collect_env.py: cuda_compiled_version = torch.version.cuda, then replace_nones); a
  // ROCm or XPU build also has no torch.version.cuda, so it says nothing when such a build is stated. A line
  // that is missing says nothing either: the local tag decides, else torch's CUDA stays unknown (not
  // installed for the rules, listed among the packages).
  auto other_backend = [&] {
    for (const char* k : {"ROCM used to build PyTorch", "XPU used to build PyTorch", "HIP runtime version"})
      if (!get(k).empty()) return true;
    return false;
  };
  auto built = p.values.find("CUDA used to build PyTorch");
  const bool stated_none = built != p.values.end() &&
                           (built->second == "None" || (built->second == "Could not collect" && !other_backend()));
  if (py.torch_installed && py.torch_cuda.empty() && !stated_none) {
    auto tagged = torch_cuda_from_local_tag(py.torch_version);
    if (tagged) py.torch_cuda = *tagged;
    else py.torch_installed = false;
  }
  if (auto avail = get("Is CUDA available"); !avail.empty()) py.cuda_available = yes(avail);
  else if (auto doctr = get("Is CUDA available (PyTorch)"); !doctr.empty()) py.cuda_available = yes(doctr);  // docTR's
  if (p.blocks.count("Versions of relevant libraries"))
    for (const auto& l : p.blocks.at("Versions of relevant libraries")) {
      // "[pip3] torch==2.1.0", "[conda] pytorch-cuda  12.1  ha16c6d3_5  pytorch"
      auto close = l.find(']');
      if (close == std::string::npos) continue;
      std::string tool = l.substr(1, close - 1), rest = strip(l.substr(close + 1));
      std::string pkg, version;
      if (auto eq = rest.find("=="); eq != std::string::npos) {
        pkg = rest.substr(0, eq);
        version = leading_word(rest.substr(eq + 2));
      } else if (tool == "conda") {
        pkg = leading_word(rest);
        version = leading_word(strip(rest.substr(pkg.size())));
      }
      std::transform(pkg.begin(), pkg.end(), pkg.begin(), [](unsigned char c) { return c == '_' ? '-' : std::tolower(c); });
      if (!pkg.empty() && !version.empty() && pkg != "could" && !py.packages.count(pkg)) py.packages[pkg] = version;
    }
  if (auto v = get("vLLM Version"); !v.empty()) py.packages.emplace("vllm", leading_word(v));
  if (py.packages.count("torch") == 0 && !py.torch_version.empty()) py.packages["torch"] = py.torch_version;
  inv.pythons.push_back(py);

  if (auto d = get("Nvidia driver version"); !d.empty()) {
    inv.driver.present = true;
    inv.driver.version = leading_word(d);
    inv.driver.source = "pasted collect_env: Nvidia driver version";
  } else if (py.cuda_available.value_or(false)) {
    // nvidia-smi printed nothing (a container, WSL) yet torch used CUDA: a driver answered, its version unknown.
    inv.driver.present = true;
    inv.driver.source = "pasted collect_env: Is CUDA available: True (Nvidia driver version not printed)";
  } else if (p.values.count("Nvidia driver version")) {
    inv.driver.error = "pasted collect_env: Nvidia driver version: " + p.values["Nvidia driver version"] + " (nvidia-smi gave nothing)";
  }

  // A ROCm build's report lists AMD GPUs there ("Device 66a1"): not NVIDIA GPUs, none needs a driver of NVIDIA's.
  const bool rocm_build = py.torch_cuda.empty() && other_backend();
  std::vector<std::string> gpu_lines;
  if (rocm_build) inv.notes.push_back("the GPUs listed belong to a ROCm/XPU build of torch: not read as NVIDIA GPUs");
  else if (p.blocks.count("GPU models and configuration")) gpu_lines = p.blocks.at("GPU models and configuration");
  else if (auto g = get("GPU models and configuration"); !g.empty()) gpu_lines.push_back(g);
  int index = 0;
  for (const auto& l : gpu_lines) {
    std::string gname = l;
    if (starts_with(l, "GPU ")) {
      auto colon = l.find(':');
      if (colon == std::string::npos) continue;
      gname = strip(l.substr(colon + 1));
      if (auto paren = gname.find(" (UUID"); paren != std::string::npos) gname = gname.substr(0, paren);
    }
    // A value cut short with the paste ("GPU models and configuration: N", pytorch 123087: its "N/A") names no
    // GPU: torch's names are NVIDIA's full ones ("Tesla T4", "NVIDIA A100-SXM4-80GB").
    if (gname.size() < 3 || starts_with("N/A", gname) || starts_with("Could not collect", gname)) continue;
    Gpu gpu;
    gpu.index = gpu.nvml_index = index++;
    gpu.name = gname;
    gpu.source = "pasted collect_env: GPU models and configuration";
    inv.gpus.push_back(gpu);
  }

  // collect_env's "CUDA runtime version" is what `nvcc --version` says: the toolkit a build would use.
  if (auto nvcc = get("CUDA runtime version"); !nvcc.empty() && std::isdigit(static_cast<unsigned char>(nvcc[0]))) {
    add_pasted_nvcc(inv, leading_word(nvcc), "pasted collect_env: CUDA runtime version (nvcc --version)",
                    "nvcc on PATH, as collect_env ran it");
  }

  if (auto gcc = compiler_version(get("GCC version")); !gcc.empty())
    inv.compilers.push_back({"gcc", "gcc", gcc, "pasted collect_env: GCC version"});
  if (auto clang = leading_word(get("Clang version")); !clang.empty() && std::isdigit(static_cast<unsigned char>(clang[0])))
    inv.compilers.push_back({"clang", "clang", clang, "pasted collect_env: Clang version"});

  inv.system.os_pretty = get("OS");
  if (auto libc = get("Libc version"); starts_with(libc, "glibc-")) inv.system.glibc = libc.substr(6);
  add_cudnn(inv, p);
  return inv;
}

}  // namespace gpucheck::inventory
