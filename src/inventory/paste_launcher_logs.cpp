// Startup logs of the GUI launchers that users paste as their environment: vladmandic's installer log (SD.Next
// and kohya_ss's GUI print it), the launch banner of AUTOMATIC1111's web UI and of Fooocus, and InvokeAI's
// startup log and bug-report form. Each states the torch, GPU and Python it starts with; paste_formats.h
// declares them.
#include <cctype>
#include <map>

#include <nlohmann/json.hpp>

#include "core/text.h"
#include "inventory/paste_formats.h"
#include "inventory/paste_text.h"

namespace gpucheck::inventory {
namespace {

using paste_text::distribution_name;
using paste_text::first_word;
using paste_text::is_version;
using paste_text::lines_of;
using paste_text::normalized;
using paste_text::small_number;
using paste_text::words_of;

// "torch==2.8.0+cpu" into the packages (torch also as torch's version); false for a word that is no pin.
bool add_pin(PastedFacts& f, const std::string& word) {
  const auto eq = word.find("==");
  if (eq == std::string::npos) return false;
  const std::string name = word.substr(0, eq), version = word.substr(eq + 2);
  if (!distribution_name(name) || !is_version(version)) return false;
  const std::string key = normalized(name);
  f.packages.emplace(key, version);
  if (key == "torch" && f.torch_version.empty()) f.torch_version = version;
  return true;
}

// "NVIDIA GeForce RTX 4060 Laptop GPU VRAM 8188 Arch (8, 9) Cores 24": the name and "8.9" ("" when the
// capability is cut off).
PastedGpu detected_gpu(const std::string& rest) {
  PastedGpu g;
  const auto vram = rest.find(" VRAM ");
  g.name = trim(rest.substr(0, vram));
  const auto arch = rest.find(" Arch (");
  const auto comma = arch == std::string::npos ? std::string::npos : rest.find(',', arch);
  int major = 0, minor = 0;
  if (comma != std::string::npos && small_number(first_word(rest.substr(arch + 7)), major) &&
      small_number(first_word(rest.substr(comma + 1)), minor))
    g.cc = std::to_string(major) + "." + std::to_string(minor);
  return g;
}

// The facts of InvokeAI's form: its dependencies ("torch": "2.4.1+cu124") and the GPU chosen in it.
std::optional<PastedFacts> invokeai_answers(PastedFacts f, const nlohmann::json& json,
                                            const std::map<std::string, std::string>& answers) {
  for (const auto& [name, value] : json.items()) {
    if (!value.is_string()) continue;
    const std::string v = value.get<std::string>();
    if (!is_version(v)) continue;
    if (name == "python") f.python_version = v;
    else if (name == "cuda") continue;  // torch.version.cuda, stated again by torch's local tag
    else if (name == "torch") f.torch_version = v, f.packages["torch"] = v;
    else if (distribution_name(name)) f.packages[normalized(name)] = v;
  }
  // The GPU the reporter chose in the form, an NVIDIA one only when the vendor says so ("Nvidia (CUDA)").
  const auto vendor = answers.find("GPU vendor"), model = answers.find("GPU model");
  if (vendor != answers.end() && starts_with(trim(vendor->second), "Nvidia") && model != answers.end()) {
    const std::string answer = trim(model->second);
    if (!answer.empty()) f.gpus.push_back({trim(answer.substr(0, answer.find('\n'))), ""});
  }
  if (f.torch_version.empty()) return std::nullopt;
  return f;
}

}  // namespace

std::optional<PastedFacts> read_installer_log(std::string_view text) {
  PastedFacts f;
  f.format = "SD.Next / kohya_ss startup log";
  const auto lines = lines_of(text);
  bool seen = false, nvidia_smi = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& t = lines[i];
    // The installer's check_torch() prints this exactly when nvidia-smi is on PATH (or in Windows' System32),
    // which the NVIDIA driver installs: "nVidia toolkit detected" (kohya_ss), "nVidia CUDA toolkit detected"
    // (SD.Next, later ": nvidia-smi present"), "CUDA: nVidia toolkit detected" (SD.Next 2025).
    if (t.find("nVidia toolkit detected") != std::string::npos || t.find("nVidia CUDA toolkit detected") != std::string::npos) {
      nvidia_smi = seen = true;
    } else if (t == "Starting SD.Next") {  // SD.Next's first line: a log cut before torch still states Python
      seen = true;
    } else if (starts_with(t, "Torch reports CUDA not available")) {
      f.cuda_available = false;
    } else if (starts_with(t, "Torch backend: nVidia CUDA ")) {  // "Torch backend: nVidia CUDA 11.8 cuDNN 8905"
      const std::string cuda = first_word(t.substr(27));
      if (dotted_number(cuda)) f.torch_cuda = cuda;
      seen = true;
    } else if (starts_with(t, "Torch detected GPU: ")) {
      std::string rest = t.substr(20);
      // Rich wraps the record at the terminal's width; the capability may be on the next line.
      if (rest.find(" Arch (") == std::string::npos && i + 1 < lines.size()) rest += " " + lines[i + 1];
      PastedGpu g = detected_gpu(rest);
      if (!g.name.empty()) f.gpus.push_back(g);
      seen = true;
    } else if (starts_with(t, "Torch: torch==")) {  // SD.Next: "Torch: torch==2.8.0+cpu torchvision==0.23.0+cpu"
      for (const auto& w : words_of(t.substr(7))) add_pin(f, w);
      seen = true;
    } else if (starts_with(t, "Torch ") && words_of(t).size() == 2 && is_version(words_of(t)[1])) {
      f.torch_version = words_of(t)[1];  // "Torch 2.1.2+cu118"
    } else if (starts_with(t, "Packages: ")) {
      // "Packages: diffusers==0.36.0 transformers==4.56.1", wrapped onto lines that hold only pins.
      for (const auto& w : words_of(t.substr(10))) add_pin(f, w);
      for (std::size_t j = i + 1; j < lines.size(); ++j) {
        const auto words = words_of(lines[j]);
        bool pins = !words.empty();
        for (const auto& w : words) pins = pins && w.find("==") != std::string::npos;
        if (!pins) break;
        for (const auto& w : words) add_pin(f, w);
        i = j;
      }
    } else if (f.python_version.empty()) {
      // kohya_ss: "Python version is 3.10.11 (tags/...)"; SD.Next: "Python 3.10.11 on Linux", "Python:
      // version=3.12.11 platform=Windows".
      for (const char* key : {"Python version is ", "Python: version=", "Python "})
        if (starts_with(t, key) && dotted_number(first_word(t.substr(std::string(key).size())))) {
          f.python_version = first_word(t.substr(std::string(key).size()));
          break;
        }
    }
  }
  if (!seen) return std::nullopt;
  // A CPU-only torch prints no "Torch detected GPU" line: the driver's nvidia-smi is then the GPU's trace.
  if (nvidia_smi && f.gpus.empty()) f.gpus.push_back({"an NVIDIA GPU (its driver's nvidia-smi, found by the installer)", ""});
  return f;
}

std::optional<PastedFacts> read_unsloth_installer(std::string_view text) {
  PastedFacts f;
  f.format = "Unsloth Studio installer";
  bool seen = false, nvidia = false;
  for (const auto& raw : lines_of(text)) {
    const std::string t = trim(raw);
    // Its banners ("Unsloth Studio Installer (Windows)", "Unsloth Studio Setup"), then "step  result" rows.
    if (t.find("Unsloth Studio Installer") != std::string::npos || t.find("Unsloth Studio Setup") != std::string::npos) seen = true;
    const auto words = words_of(t);
    // "gpu            NVIDIA GPU detected": its check found an NVIDIA GPU (by nvidia-smi).
    if (words.size() >= 3 && words[0] == "gpu" && words[1] == "NVIDIA" && t.find("detected") != std::string::npos) nvidia = true;
    // "python         Python 3.13 already installed"
    if (words.size() >= 3 && words[0] == "python" && words[1] == "Python" && dotted_number(words[2]) && f.python_version.empty())
      f.python_version = words[2];
    // Its last word on the torch it left: "[WARN] PyTorch is CPU-only but a cu130 GPU build was expected".
    if (starts_with(t, "[WARN] PyTorch is CPU-only")) {
      f.torch_check_ran = true;
      f.torch_cuda = "";
    }
  }
  if (!seen) return std::nullopt;
  if (nvidia) f.gpus.push_back({"an NVIDIA GPU (found by the installer)", ""});
  return f;
}

std::optional<PastedFacts> read_webui_launch(std::string_view text) {
  PastedFacts f;
  f.format = "web UI launch log";
  bool launcher = false;
  for (const auto& t : lines_of(text)) {
    // launch.py prints sys.version: "Python 3.10.6 (tags/v3.10.6:9c7b4bd, Aug  1 2022, 21:53:49) [MSC ...]".
    if (starts_with(t, "Python ") && f.python_version.empty()) {
      const std::string v = first_word(t.substr(7));
      if (dotted_number(v) && t.find(" (") != std::string::npos) f.python_version = v;
    }
    // AUTOMATIC1111 (and Forge): "Launching Web UI with arguments: ...", "Commit hash: 68f336b..."; Fooocus:
    // "Fooocus version: 2.5.5".
    for (const char* marker : {"Launching Web UI with arguments", "Commit hash: ", "Fooocus version: "})
      launcher |= starts_with(t, marker);
  }
  if (!launcher || f.python_version.empty()) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_invokeai_log(std::string_view text) {
  PastedFacts f;
  f.format = "InvokeAI startup log";
  const auto lines = lines_of(text);
  bool seen = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& t = lines[i];
    if (t.find("[InvokeAI]::") == std::string::npos) continue;
    seen = true;
    if (auto at = t.find("--> Using torch device: "); at != std::string::npos) {
      std::string name = trim(t.substr(at + 24));
      // A terminal 80 columns wide cuts the line; its rest is the next line, which is no log record.
      if (i + 1 < lines.size() && !lines[i + 1].empty() && lines[i + 1][0] != '[') name += trim(lines[i + 1]);
      if (name != "CPU" && name != "cpu" && name != "mps") f.gpus.push_back({name, ""});
    } else if (auto v = t.find("--> InvokeAI version "); v != std::string::npos) {
      std::string version = first_word(t.substr(v + 21));
      if (is_version(version)) f.packages["invokeai"] = version;
    }
  }
  if (!seen || (f.gpus.empty() && f.packages.empty())) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_invokeai_form(std::string_view text) {
  PastedFacts f;
  f.format = "InvokeAI's bug report form";
  // The form's answers under their "### " headings; "Python dependencies" is the JSON its About dialog copies
  // ({"torch": "2.4.1+cu124", "cuda": "12.4", "python": "3.10.11", ...}).
  std::map<std::string, std::string> answers;
  std::string heading;
  for (const auto& t : lines_of(text)) {
    if (starts_with(t, "### ")) {
      heading = trim(t.substr(4));
      answers[heading];
    } else if (!heading.empty()) {
      answers[heading] += t + "\n";
    }
  }
  const auto deps = answers.find("Python dependencies");
  if (deps == answers.end()) return std::nullopt;
  const std::string& raw = deps->second;
  const auto open = raw.find('{'), close = raw.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    // The dependencies as GitHub renders the dialog's table and a copy of the page gives it (InvokeAI 7523): each
    // name on its line, its version on the next line that is not blank ("torch", "", "2.4.1+cu124").
    nlohmann::json table = nlohmann::json::object();
    const auto rows = lines_of(raw);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      std::size_t next = i + 1;
      while (next < rows.size() && rows[next].empty()) ++next;
      if (next < rows.size() && distribution_name(rows[i]) && is_version(rows[next])) {
        table[rows[i]] = rows[next];
        i = next;
      }
    }
    if (table.empty()) return std::nullopt;
    return invokeai_answers(std::move(f), table, answers);
  }
  auto json = nlohmann::json::parse(raw.substr(open, close - open + 1), nullptr, false);
  // Copied whole, the About dialog's JSON holds "version", "dependencies" and "config"; a paste cut inside
  // "config" still holds the dependencies, whose object has no braces within.
  if (const auto deps_at = raw.find("\"dependencies\""); !json.is_object() && deps_at != std::string::npos) {
    const auto from = raw.find('{', deps_at), to = raw.find('}', deps_at);
    if (from != std::string::npos && to != std::string::npos && from < to)
      json = nlohmann::json::parse(raw.substr(from, to - from + 1), nullptr, false);
  }
  if (!json.is_object()) return std::nullopt;
  if (json.contains("dependencies") && json["dependencies"].is_object()) json = json["dependencies"];
  return invokeai_answers(std::move(f), json, answers);
}

std::optional<PastedFacts> read_webui_sysinfo(std::string_view text) {
  PastedFacts f;
  f.format = "AUTOMATIC1111's sysinfo";
  bool seen = false;
  // json.dumps(indent=4) of the web UI's sysinfo: one member per line, "Torch env info" holding torch's own
  // collect_env fields (get_env_info()._asdict(): "torch_version", "cuda_compiled_version", ...). A paste is
  // often cut inside it, so each line is read alone rather than the document parsed whole.
  for (const auto& t : lines_of(text)) {
    const std::string line = trim(t);
    const auto close = line.find("\": ");
    if (line.size() < 5 || line[0] != '"' || close == std::string::npos) continue;
    const std::string key = line.substr(1, close - 1);
    std::string value = trim(line.substr(close + 3));
    if (!value.empty() && value.back() == ',') value.pop_back();
    if (value.size() < 2 || value.front() != '"' || value.back() != '"') {
      seen |= key == "Torch env info";
      continue;
    }
    value = value.substr(1, value.size() - 2);
    if (key == "torch_version" && is_version(value)) {
      f.torch_version = value;
      seen = true;
    } else if (key == "cuda_compiled_version") {
      if (value == "None") f.torch_cuda = std::string();  // a CPU build
      else if (dotted_number(value)) f.torch_cuda = value;
    } else if (key == "is_cuda_available" && (value == "True" || value == "False")) {
      f.cuda_available = value == "True";
    } else if (key == "nvidia_driver_version" && dotted_number(value)) {
      f.driver_version = value;
    } else if (key == "Python" && dotted_number(first_word(value))) {
      f.python_version = first_word(value);
    } else if (key == "nvidia_gpu_models") {
      // "GPU 0: NVIDIA GeForce RTX 3090\nGPU 1: ..." (the JSON escape kept), or one name alone.
      for (std::size_t start = 0; start < value.size();) {
        std::size_t end = value.find("\\n", start);
        std::string gpu = trim(value.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (starts_with(gpu, "GPU ") && gpu.find(": ") != std::string::npos) gpu = trim(gpu.substr(gpu.find(": ") + 2));
        if (!gpu.empty() && gpu != "Could not collect") f.gpus.push_back({gpu, ""});
        start = end == std::string::npos ? value.size() : end + 2;
      }
    }
  }
  if (!seen) return std::nullopt;
  return f;
}

}  // namespace gpucheck::inventory
