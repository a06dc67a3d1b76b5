// Outputs of single tools pasted as the environment: `nvcc --version`, torch's build configuration
// (`torch.__config__.show()`, "PyTorch built with:"), `nvidia-smi topo -m`, `nvidia-smi --query-gpu=...
// --format=csv`, `cupy.show_config()`, llama.cpp's ggml_cuda_init lines and uv's install summary. Each states one part of the stack;
// paste_formats.h declares them beside the other readers.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include <nlohmann/json.hpp>

#include "core/cuda_version.h"
#include "core/text.h"
#include "inventory/model.h"
#include "inventory/paste_formats.h"
#include "inventory/paste_text.h"

namespace gpucheck::inventory {
namespace {

using paste_text::distribution_name;
using paste_text::first_word;
using paste_text::is_version;
using paste_text::lines_of;
using paste_text::normalized;
using paste_text::nvcc_release;
using paste_text::small_number;
using paste_text::words_of;

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

// A compute capability written without its dot, as CuPy prints it: "86" -> "8.6", "120" -> "12.0"; "" otherwise.
std::string dotted_capability(const std::string& digits) {
  int n = 0;
  if (digits.size() < 2 || digits.size() > 3 || !small_number(digits, n)) return "";
  return digits.substr(0, digits.size() - 1) + "." + digits.substr(digits.size() - 1);
}

// A value that is the repr of the exception a call raised: "ImportError('Failure finding ...')",
// "CUDARuntimeError('cudaErrorInsufficientDriver: ...')".
bool exception_repr(const std::string& value) {
  const auto paren = value.find('(');
  if (paren == std::string::npos || paren < 5 || value.compare(paren - 5, 5, "Error") != 0) return false;
  return std::all_of(value.begin(), value.begin() + static_cast<std::ptrdiff_t>(paren),
                     [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.'; });
}

}  // namespace

std::optional<PastedFacts> read_coqui_tts_env(std::string_view text) {
  // TTS/bin/collect_env_info.py prints json.dumps(info, indent=4): {"CUDA": {"GPU": [...], "available": true,
  // "version": "10.2"}, "Packages": {"PyTorch_version": "1.11.0+cu102", "TTS": "0.6.1", "numpy": ...},
  // "System": {"python": "3.8.10", ...}}; "version" under CUDA is torch.version.cuda.
  const std::string all(text);
  const auto open = all.find('{'), close = all.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  auto json = nlohmann::json::parse(all.substr(open, close - open + 1), nullptr, false);
  // Copied without its opening brace ("\"CUDA\": {" first): the object it was.
  if (const auto first = all.find_first_not_of(" \t\r\n"); !json.is_object() && first != std::string::npos && all[first] == '"')
    json = nlohmann::json::parse("{" + all.substr(first, close - first + 1), nullptr, false);
  if (!json.is_object() || !json.contains("Packages") || !json["Packages"].is_object()) return std::nullopt;
  const auto& packages = json["Packages"];
  if (!packages.contains("PyTorch_version") || !packages["PyTorch_version"].is_string()) return std::nullopt;
  PastedFacts f;
  f.format = "Coqui TTS's collect_env_info";
  f.torch_version = packages["PyTorch_version"].get<std::string>();
  if (!is_version(f.torch_version)) return std::nullopt;
  f.packages["torch"] = f.torch_version;
  for (const auto& [name, value] : packages.items())
    if (name != "PyTorch_version" && value.is_string() && is_version(value.get<std::string>()) && distribution_name(name))
      f.packages[normalized(name)] = value.get<std::string>();
  if (json.contains("CUDA") && json["CUDA"].is_object()) {
    const auto& cuda = json["CUDA"];
    if (cuda.contains("available") && cuda["available"].is_boolean()) f.cuda_available = cuda["available"].get<bool>();
    if (cuda.contains("version") && cuda["version"].is_string() && dotted_number(cuda["version"].get<std::string>()))
      f.torch_cuda = cuda["version"].get<std::string>();
    else if (cuda.contains("version") && cuda["version"].is_null())
      f.torch_cuda = "";  // torch.version.cuda is None: a CPU build
    if (cuda.contains("GPU") && cuda["GPU"].is_array())
      for (const auto& g : cuda["GPU"])
        if (g.is_string()) f.gpus.push_back({g.get<std::string>(), ""});
  }
  if (json.contains("System") && json["System"].is_object() && json["System"].contains("python") &&
      json["System"]["python"].is_string() && dotted_number(json["System"]["python"].get<std::string>()))
    f.python_version = json["System"]["python"].get<std::string>();
  return f;
}

std::optional<PastedFacts> read_jax_environment_info(std::string_view text) {
  PastedFacts f;
  f.format = "jax.print_environment_info()";
  bool jax = false, jaxlib = false;
  // jax/_src/environment_info.py: "jax:    0.4.24", "jaxlib: 0.4.24", "numpy:  1.26.4", "python: 3.12.1 |
  // packaged by Anaconda, ...", then jax.devices, process_count and nvidia-smi's own output (read by its reader).
  for (const auto& t : lines_of(text)) {
    const std::string line = trim(t);
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon), value = first_word(line.substr(colon + 1));
    if (!is_version(value)) continue;
    if (key == "jax") jax = true, f.packages["jax"] = value;
    else if (key == "jaxlib") jaxlib = true, f.packages["jaxlib"] = value;
    else if (key == "numpy") f.packages["numpy"] = value;
    else if (key == "python" && dotted_number(value)) f.python_version = value;
  }
  if (!jax || !jaxlib) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_cupy_config(std::string_view text) {
  PastedFacts f;
  f.format = "cupy.show_config()";
  bool seen = false, rocm = false;
  std::map<std::string, PastedGpu> devices;  // "0" -> its name and capability
  // The module of CuPy that binds each library, by the row show_config() gives it. A row whose value is the
  // exception raised while loading the library ("cuBLAS Version : ImportError('Failure finding
  // \"libcublasLt.so\" ...')") is that module failing to import: everything using the library fails.
  static const std::pair<const char*, const char*> bindings[] = {
      {"cuBLAS Version", "cupy.cuda.cublas"}, {"cuFFT Version", "cupy.cuda.cufft"},
      {"cuRAND Version", "cupy.cuda.curand"}, {"cuSOLVER Version", "cupy.cuda.cusolver"},
      {"cuSPARSE Version", "cupy.cuda.cusparse"}, {"NVRTC Version", "cupy.cuda.nvrtc"},
      {"cuDNN Version", "cupy.cuda.cudnn"}, {"NCCL Runtime Version", "cupy.cuda.nccl"}};
  for (const auto& t : lines_of(text)) {
    // cupyx/_runtime_info.py writes '{:<width}: {}' with width the longest key + 2: " : " always separates.
    const auto sep = t.find(" : ");
    if (sep == std::string::npos) continue;
    const std::string key = trim(t.substr(0, sep)), value = trim(t.substr(sep + 3));
    const std::string word = first_word(value);
    int number = 0;
    if (key == "CuPy Version") {
      seen = true;
      if (is_version(word)) f.packages["cupy"] = word;
    } else if (key == "CuPy Platform") {
      rocm = value.find("ROCm") != std::string::npos;
    } else if (key == "Python Version" && dotted_number(word)) {
      f.python_version = word;
    } else if (key == "NumPy Version" && is_version(word)) {
      f.packages["numpy"] = word;
    } else if (key == "CUDA Driver Version" && small_number(value, number) && number >= 1000) {
      f.driver_cuda = number;  // cudaDriverGetVersion(): the newest CUDA the driver supports
    } else if (starts_with(key, "Device ") && key.find(' ', 7) != std::string::npos) {
      const std::string index = key.substr(7, key.find(' ', 7) - 7), field = key.substr(key.find(' ', 7) + 1);
      if (!small_number(index, number)) continue;
      if (field == "Name") devices[index].name = value;
      else if (field == "Compute Capability") devices[index].cc = dotted_capability(value);
      else if (field == "Arch") rocm = true;  // HIP's gcnArchName
    } else {
      for (const auto& [row, module] : bindings)
        if (key == row && exception_repr(value)) f.import_errors.emplace(module, value);
    }
  }
  if (!seen) return std::nullopt;
  if (rocm) {  // CuPy on ROCm: its "CUDA" rows are HIP's, its devices AMD's
    f.driver_cuda = 0;
    devices.clear();
  }
  for (const auto& [index, gpu] : devices)
    if (!gpu.name.empty()) f.gpus.push_back(gpu);
  return f;
}

std::optional<PastedFacts> read_nvidia_smi_query(std::string_view text) {
  PastedFacts f;
  f.format = "nvidia-smi --query-gpu";
  std::vector<std::string> fields;
  for (const auto& t : lines_of(text)) {
    auto cells = split(t, ',');
    for (auto& c : cells) c = trim(c);
    // The CSV header nvidia-smi prints: the queried field names, units in brackets ("memory.total [MiB]").
    if (fields.empty()) {
      bool header = !cells.empty();
      for (const auto& c : cells)
        header = header && (c == "name" || c == "driver_version" || c == "compute_cap" || c == "index" ||
                            c == "pci.bus_id" || c == "uuid" || starts_with(c, "memory.") || starts_with(c, "temperature.") ||
                            starts_with(c, "utilization.") || starts_with(c, "power.") || starts_with(c, "clocks."));
      // One generic field alone ("index", "uuid") could head any list: a single field must name the GPU's model,
      // capability or driver.
      if (cells.size() == 1 && cells[0] != "name" && cells[0] != "compute_cap" && cells[0] != "driver_version") header = false;
      if (header) fields = cells;
      continue;
    }
    // The rows end where the CSV ends: another number of cells, or a cell that is not what its field holds.
    if (cells.size() != fields.size() || trim(t).empty()) break;
    PastedGpu gpu;
    std::string driver;
    bool row = true;
    int index = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (fields[i] == "name") gpu.name = cells[i], row = row && !cells[i].empty();
      else if (fields[i] == "compute_cap") gpu.cc = cells[i], row = row && dotted_number(cells[i]);
      else if (fields[i] == "driver_version") driver = cells[i], row = row && dotted_number(cells[i]);
      else if (fields[i] == "index") row = row && small_number(cells[i], index);
      else row = row && !cells[i].empty();
    }
    if (!row) break;
    if (f.driver_version.empty()) f.driver_version = driver;
    f.gpus.push_back(gpu);
  }
  if (f.gpus.empty()) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_uv_install(std::string_view text) {
  PastedFacts f;
  f.format = "uv's install summary";
  int rows = 0;
  bool summary = false;
  for (const auto& t : lines_of(text)) {
    // "Installed 19 packages in 6.00s", "Using Python 3.13.3 environment at: .venv", "Using CPython 3.12.3".
    if (starts_with(t, "Installed ") && t.find(" package") != std::string::npos) summary = true;
    for (const char* key : {"Using Python ", "Using CPython "})
      if (starts_with(t, key) && dotted_number(first_word(t.substr(std::strlen(key))))) f.python_version = first_word(t.substr(std::strlen(key)));
    // " + jax==0.6.1" installed, " ~ torch==2.5.1" reinstalled; " - numpy==1.26.4" is what was removed.
    if (t.size() < 6 || (t[0] != '+' && t[0] != '~') || t[1] != ' ') continue;
    const std::string pin = trim(t.substr(2));
    const auto eq = pin.find("==");
    if (eq == std::string::npos || pin.find(' ') != std::string::npos) continue;
    const std::string name = pin.substr(0, eq), version = pin.substr(eq + 2);
    if (!distribution_name(name) || !is_version(version)) continue;
    f.packages[normalized(name)] = version;
    if (normalized(name) == "torch") f.torch_version = version;
    ++rows;
  }
  if (rows == 0 || (!summary && rows < 2)) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_ggml_cuda_init(std::string_view text) {
  PastedFacts f;
  f.format = "ggml_cuda_init (llama.cpp)";
  bool seen = false;
  // "ggml_cuda_init: found 1 CUDA devices:" then "  Device 0: NVIDIA GeForce RTX 4050 Laptop GPU, compute
  // capability 8.9, VMM: yes": the devices llama.cpp's CUDA backend found, with their capability.
  for (const auto& t : lines_of(text)) {
    if (t.find("ggml_cuda_init: found ") != std::string::npos) {
      seen = true;
      continue;
    }
    if (!seen || !starts_with(t, "Device ")) continue;
    const auto colon = t.find(": "), cc = t.find(", compute capability ");
    if (colon == std::string::npos || cc == std::string::npos || cc < colon) continue;
    const std::string capability = first_word(t.substr(cc + 21));
    f.gpus.push_back({trim(t.substr(colon + 2, cc - colon - 2)), dotted_number(capability) ? capability : ""});
  }
  if (f.gpus.empty()) return std::nullopt;
  f.cuda_available = true;  // the CUDA runtime it links answered with these devices
  return f;
}

namespace {

// logfmt's value of KEY in an ollama record: `name="NVIDIA GeForce RTX 4080"` or `compute=8.9`; "" when absent.
std::string logfmt_value(const std::string& line, const std::string& key) {
  for (auto at = line.find(key + "="); at != std::string::npos; at = line.find(key + "=", at + 1)) {
    if (at > 0 && line[at - 1] != ' ') continue;
    std::size_t begin = at + key.size() + 1;
    if (begin < line.size() && line[begin] == '"') {
      const auto end = line.find('"', begin + 1);
      return end == std::string::npos ? std::string() : line.substr(begin + 1, end - begin - 1);
    }
    return first_word(line.substr(begin));
  }
  return "";
}

// The driver's version from the file name of the libcuda ollama loaded: "libcuda.so.545.23.08" -> "545.23.08".
std::string driver_from_libcuda(const std::string& line) {
  const auto at = line.find("libcuda.so.");
  if (at == std::string::npos) return "";
  std::string v = line.substr(at + 11);
  v = v.substr(0, v.find_first_not_of("0123456789."));
  while (!v.empty() && v.back() == '.') v.pop_back();
  return std::count(v.begin(), v.end(), '.') >= 1 && v.size() > 4 ? v : "";
}

}  // namespace

std::optional<PastedFacts> read_ollama_log(std::string_view text) {
  PastedFacts f;
  f.format = "ollama server log";
  bool seen = false;
  for (const auto& t : lines_of(text)) {
    // The record that names each GPU ollama will run on: `msg="inference compute" id=GPU-... library=cuda
    // variant=v12 compute=8.9 driver=12.3 name="NVIDIA GeForce RTX 4080"`; since 0.12 the name is "CUDA0" and
    // the model is in description="...". ROCm's records (library=rocm) are not an NVIDIA GPU's.
    if (t.find("msg=\"inference compute\"") != std::string::npos) {
      seen = true;
      std::string library = logfmt_value(t, "library");
      std::transform(library.begin(), library.end(), library.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (library != "cuda") continue;
      std::string name = logfmt_value(t, "name");
      if (const std::string d = logfmt_value(t, "description"); !d.empty() && (name.empty() || starts_with(name, "CUDA"))) name = d;
      const std::string cc = logfmt_value(t, "compute"), driver = logfmt_value(t, "driver");
      f.gpus.push_back({name, dotted_number(cc) ? cc : ""});
      if (is_version(driver) && f.driver_cuda == 0) f.driver_cuda = cuda_string_to_int(driver);
      f.cuda_available = true;  // ollama's CUDA runtime enumerated this device
      continue;
    }
    // ollama's GPU discovery (before 0.1.30 a plain log: "2024/01/14 19:50:06 gpu.go:94: Nvidia GPU detected").
    if (t.find("source=gpu.go:") != std::string::npos || t.find("source=discover/") != std::string::npos ||
        (t.find(" gpu.go:") != std::string::npos && t.find("GPU") != std::string::npos))
      seen = true;
    if (const auto old = t.find("CUDA GPU is too old. Falling back to CPU mode. Compute Capability detected: ");
        old != std::string::npos && seen) {
      // 0.1.x's refusal of a GPU below its build's minimum capability: the GPU is there, unnamed.
      if (const std::string cc = first_word(t.substr(old + 76)); dotted_number(cc)) f.gpus.push_back({"", cc});
    } else if (starts_with(trim(t), "CUDA driver version: ")) {
      // 0.1.x's discovery, printed by its C helper: "CUDA driver version: 12.3" (cuDriverGetVersion).
      if (const std::string v = first_word(trim(t).substr(21)); is_version(v) && f.driver_cuda == 0) f.driver_cuda = cuda_string_to_int(v);
    }
    if (const std::string d = driver_from_libcuda(t); !d.empty() && f.driver_version.empty() && seen) f.driver_version = d;
  }
  if (!seen) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_espnet_check_install(std::string_view text) {
  PastedFacts f;
  f.format = "ESPnet's check_install.py";
  bool modules = false;
  int rows = 0;
  for (const auto& raw : lines_of(text)) {
    const std::string t = trim(raw);
    if (t == "Python modules:") modules = true;
    const bool found = starts_with(t, "[x] ");
    if (!found && !starts_with(t, "[ ] ")) continue;
    const std::string row = t.substr(4), name = row.substr(0, row.find('=')),
                      value = row.find('=') == std::string::npos ? "" : first_word(row.substr(row.find('=') + 1));
    // "[x] torch cuda=11.0" when torch.cuda.is_available(), with torch's CUDA; "[ ] torch cuda" when not.
    if (name == "torch cuda") {
      f.cuda_available = found;
      if (found && dotted_number(value)) f.torch_cuda = value;
    } else if (found && name == "python" && dotted_number(value)) {
      f.python_version = value;
    } else if (found && name == "torch" && is_version(value)) {
      f.torch_version = value;
      ++rows;
    } else if (found && distribution_name(name) && is_version(value)) {
      f.packages[normalized(name)] = value;
      ++rows;
    }
  }
  if (!modules || rows == 0) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_pip_install_output(std::string_view text) {
  PastedFacts f;
  f.format = "pip install output";
  for (const auto& raw : lines_of(text)) {
    const std::string t = trim(raw);
    // "Using pip 22.0.4 from D:\...\site-packages\pip (python 3.7)" (pip -v): the interpreter pip runs in.
    if (starts_with(t, "Using pip ") && ends_with(t, ")") && t.rfind("(python ") != std::string::npos) {
      const std::string v = t.substr(t.rfind("(python ") + 8, t.size() - t.rfind("(python ") - 9);
      if (dotted_number(v)) f.python_version = v;
    }
    // "Requirement already satisfied: torch in /env/lib/python3.10/site-packages (from bitsandbytes==0.43.3)
    // (2.4.0+cu124)": the installed version is the last parenthesis.
    if (starts_with(t, "Requirement already satisfied: ") && ends_with(t, ")")) {
      std::string name = first_word(t.substr(31));
      name = name.substr(0, name.find_first_of("<>=!~[;"));
      const std::string v = t.substr(t.rfind('(') + 1, t.size() - t.rfind('(') - 2);
      if (distribution_name(name) && is_version(v) && v.find(' ') == std::string::npos) f.packages[normalized(name)] = v;
    }
    // pip's last line: "Successfully installed torch-1.14.0.dev20221205+cu117 torchvision-0.15.0.dev20221205+cpu".
    if (starts_with(t, "Successfully installed "))
      for (const auto& word : words_of(t.substr(23))) {
        const auto dash = word.rfind('-');
        if (dash == std::string::npos || dash == 0 || !is_version(word.substr(dash + 1))) continue;
        if (const std::string name = word.substr(0, dash); distribution_name(name)) f.packages[normalized(name)] = word.substr(dash + 1);
      }
    // A setup.py that prints torch's version before building (apex, flash-attn): "torch.__version__  = 1.9.0+cu111".
    if (starts_with(t, "torch.__version__") && t.find("= ") != std::string::npos) {
      const std::string v = first_word(t.substr(t.find("= ") + 2));
      if (is_version(v) && f.torch_version.empty()) f.torch_version = v;
    }
  }
  if (f.torch_version.empty() && f.packages.count("torch")) f.torch_version = f.packages.at("torch");
  // torch's version is the fact this format must state; pip's other lines only add to it.
  if (f.torch_version.empty()) return std::nullopt;
  return f;
}

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

std::optional<PastedFacts> read_container_banner(std::string_view text) {
  PastedFacts f;
  f.format = "NVIDIA container banner";
  for (const auto& t : lines_of(text))
    for (const char* marker : {kContainerNoDriver, kDockerNoGpuRuntime, kDockerNoNvidiaRuntime, kContainerCliNoDriver})
      if (auto at = t.find(marker); at != std::string::npos) {
        if (marker == kContainerCliNoDriver && t.find("driver not loaded") == std::string::npos &&
            t.find("libnvidia-ml.so.1") == std::string::npos)
          continue;  // another initialization error (cgroups, a device node) is no statement about the driver
        f.driver_failure = trim(t.substr(at));
        while (!f.driver_failure.empty() && f.driver_failure.back() == '*') f.driver_failure.pop_back();  // Markdown
        if (marker == kContainerCliNoDriver) {
          f.driver_failure = f.driver_failure.substr(0, f.driver_failure.find(": unknown"));
          f.format = "the NVIDIA Container Toolkit's error";
        } else if (marker != kContainerNoDriver) {
          f.format = "docker's refusal of --gpus";
        }
        return f;
      }
  return std::nullopt;
}

std::optional<PastedFacts> read_container_cli_info(std::string_view text) {
  PastedFacts f;
  f.format = "nvidia-container-cli info";
  PastedGpu gpu;
  for (const auto& t : lines_of(text)) {
    const auto colon = t.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(t.substr(0, colon)), value = first_word(trim(t.substr(colon + 1)));
    if (key == "NVRM version" && dotted_number(value)) f.driver_version = value;
    else if (key == "CUDA version" && dotted_number(value) && !f.driver_version.empty()) f.driver_cuda = cuda_string_to_int(value);
    else if (key == "Model" && !f.driver_version.empty() && gpu.name.empty()) gpu.name = trim(t.substr(colon + 1));
    else if (key == "Architecture" && !gpu.name.empty() && dotted_number(value) && gpu.cc.empty()) gpu.cc = value;
  }
  if (f.driver_version.empty()) return std::nullopt;
  if (!gpu.name.empty()) f.gpus.push_back(gpu);
  return f;
}

std::optional<PastedFacts> read_driver_mismatch_statement(std::string_view text) {
  PastedFacts f;
  f.format = "a statement that the driver's parts disagree";
  for (const auto& t : lines_of(text)) {
    std::string line = trim(t);
    // The line from what says it, without a log's prefix ("E tensorflow/.../cuda_diagnostics.cc:296] "): XLA's and
    // TensorFlow's "kernel version 470.182.3 does not match DSO version 520.61.5 -- cannot find working devices" (a
    // container's forward-compatibility libcuda on an older host driver; from "does not match" when wrapped before
    // it), NVML's words.
    for (const char* said : {"kernel version ", "does not match DSO version", "Failed to initialize NVML",
                             "Driver/library version mismatch"})
      if (const auto at = line.find(said); at != std::string::npos && inventory::says_driver_library_mismatch(line.substr(at))) {
        f.driver_failure = line.substr(at, 200);
        // NVML's words end at "mismatch" (a sentence may go on: "... mismatch\" — kernel module still loaded").
        if (const auto end = f.driver_failure.find(kNvmlDriverLibraryMismatch); end != std::string::npos)
          f.driver_failure.resize(end + std::strlen(kNvmlDriverLibraryMismatch));
        return f;
      }
  }
  return std::nullopt;
}

bool says_docker_without_gpu_runtime(const std::string& driver_error) {
  return starts_with(driver_error, kDockerNoGpuRuntime) || starts_with(driver_error, kDockerNoNvidiaRuntime);
}

std::optional<PastedFacts> read_stub_libcuda(std::string_view text) {
  PastedFacts f;
  f.format = "a CUDA program's stub libcuda";
  const auto lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& t = lines[i];
    for (const char* marker : {"CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"})
      if (const auto at = t.find(marker); at != std::string::npos) {
        f.driver_failure = std::string(kStubLibcuda) + ": " + trim(t.substr(at));
        return f;
      }
    // numba's driver binding finding no cuInit in what it loaded: "CudaDriverError: driver missing function:
    // cuInit." (numba -s: "CUDA device intialisation problem. driver missing function: cuInit.").
    if (const auto at = t.find("driver missing function: cuInit"); at != std::string::npos) {
      f.driver_failure = std::string(kNotLibcuda) + ": numba: " + trim(t.substr(at));
      return f;
    }
    // numba's `numba.cuda.cudadrv.libs.test()`: "Mapped libcuda.so paths:" and the file it mapped below.
    if (t.find("Mapped libcuda.so paths:") != std::string::npos && i + 1 < lines.size() &&
        lines[i + 1].find("/stubs/libcuda.so") != std::string::npos) {
      f.driver_failure = std::string(kStubLibcuda) + ": numba mapped " + trim(lines[i + 1]);
      return f;
    }
  }
  return std::nullopt;
}

std::optional<PastedFacts> read_colossalai_check(std::string_view text) {
  PastedFacts f;
  f.format = "colossalai check -i";
  bool seen = false;
  for (const auto& t : lines_of(text)) {
    std::string line = t;
    line.erase(std::remove(line.begin(), line.end(), '*'), line.end());  // pasted as Markdown: "**1.13.1**"
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon)), value = first_word(line.substr(colon + 2));
    if (key == "Colossal-AI version") seen = true;
    if (!dotted_number(value)) continue;  // "N/A": not found (no nvcc under CUDA_HOME, torch not imported)
    if (key == "PyTorch version") f.torch_version = value;
    else if (key == "CUDA version required by PyTorch") f.torch_cuda = value;
    // The toolkit it found (CUDA_HOME's nvcc); later releases call it "System CUDA version".
    else if (key == "CUDA version" || key == "System CUDA version") f.nvcc_version = value, f.states_nvcc = true;
  }
  if (!seen || (f.torch_version.empty() && !f.torch_cuda)) return std::nullopt;
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
