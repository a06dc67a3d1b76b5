// An environment stated in sentences, as many issues give it when they follow no template: "I am using RTX
// 4090, Nvidia driver 535.54.03 and pytorch installed with pip3 install torch==1.10.0+cu113", "Setup: i7-8750H,
// GTX 1070. Versions: PyTorch 2.8.0 + cu129", "newly installed `torch` (2.2.0) and `flash-attn` (2.5.3)". The
// last resort of `doctor --from-text`, read only when no format and no typed list is found. Only what a
// sentence states without doubt is taken, and a fact stated twice with two values is not taken at all (a
// thread comparing the torch that worked with the one that fails states neither as the installed one):
// torch's version (its CUDA only from its local tag), Python's, a dotted NVIDIA driver version, an NVIDIA GPU
// that NVIDIA's table names, pip's pins, and the versions of the GPU packages the knowledge base judges. A
// bare "CUDA 11.8" is left out, as in a typed list: it may be the toolkit's, the driver's or torch's.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/text.h"
#include "inventory/paste_formats.h"
#include "inventory/paste_text.h"
#include "knowledge/text_pattern.h"

namespace gpucheck::inventory {
namespace {

using knowledge::TextPattern;

// A version as prose writes it: "2.2.1+cu121", "2.7.4.post1", "2.1.0a0", "0.0.23".
#define GPUCHECK_PROSE_VERSION R"(([0-9]+\.[0-9]+(?:\.[0-9]+)*(?:(?:a|b|rc|\.post|\.dev|post|dev)[0-9]+)*(?:\+[A-Za-z0-9.]+)?))"
// Before a name: the start, or a character that cannot continue a word, a path or a URL ("libtorch",
// "pytorch/pytorch" and "torch-2.1.0-cp310" are not statements of torch).
#define GPUCHECK_PROSE_BEFORE R"((?:^|[^A-Za-z0-9_./\\-]))"
// Between a name and its version: quotes and Markdown marks, "version", "is", "==", "=", ":", "(" or "v".
#define GPUCHECK_PROSE_BETWEEN R"([`'"*]*[ \t]*(?:version[ \t]*)?(?:is[ \t]+)?(?:==|=|:|\()?[ \t]*[`'"*(]*v?)"

// Trailing punctuation a sentence leaves on a version ("torch 2.2.0." / "(2.5.3),").
std::string without_trailing_marks(std::string v) {
  while (!v.empty() && std::string(".,;:)").find(v.back()) != std::string::npos) v.pop_back();
  return v;
}

// The one value stated for a fact: every statement agrees, or nothing ("" when none or when they differ).
// "2.1.0" and "2.1.0+cu118" agree: the second says more.
std::string agreed(const std::vector<std::string>& stated) {
  auto public_part = [](const std::string& v) { return v.substr(0, v.find('+')); };
  std::string out;
  for (const auto& v : stated) {
    if (out.empty() || v == out) {
      out = v;
    } else if (public_part(v) == public_part(out) && (v == public_part(v) || out == public_part(out))) {
      if (v.size() > out.size()) out = v;
    } else {
      return "";
    }
  }
  return out;
}

// torch's versions: "torch 2.2.1+cu121", "PyTorch 2.8.0 + cu129", "Pytorch == 1.13.1", "`torch` (2.2.0)",
// "torch version is 2.4.1", "torch==1.10.0+cu113".
std::vector<std::string> torch_statements(std::string_view text) {
  static const TextPattern re("(?i)" GPUCHECK_PROSE_BEFORE "(?:py)?torch" GPUCHECK_PROSE_BETWEEN GPUCHECK_PROSE_VERSION
                              R"((?:[ \t]*\+[ \t]*(cu[0-9]{2,3}|cpu)\b)?)");
  std::vector<std::string> out;
  for (const auto& m : re.search_all(text)) {
    std::string v = without_trailing_marks(m.str(1));
    if (!m.str(2).empty() && v.find('+') == std::string::npos) v += "+" + m.str(2);
    int major = 0;
    if (paste_text::small_number(v.substr(0, v.find('.')), major) && major <= 3) out.push_back(v);
  }
  return out;
}

// The versions stated after `pattern`'s name: Python's, the driver's.
std::vector<std::string> statements(std::string_view text, const TextPattern& re) {
  std::vector<std::string> out;
  for (const auto& m : re.search_all(text)) out.push_back(without_trailing_marks(m.str(1)));
  return out;
}

// Packages built against torch or CUDA, which a sentence may name with a version and no "==": "flash_attn
// 2.7.4.post1", "`xformers` (0.0.23)", "torch_scatter 2.1.2". Those doctor judges (data/compat/extensions.json,
// torch's companions) and the compiled ones users most often name beside torch; any other word before a version
// ("Ubuntu 22.04", "CUDA 11.8", "Windows 10") is not taken.
bool judged_package(const std::string& normalized_name) {
  static const std::set<std::string> kNames = {
      "torchvision", "torchaudio",    "triton",       "xformers",      "flash-attn",     "bitsandbytes",
      "deepspeed",   "apex",          "torchao",      "bmtrain",       "vllm",           "numpy",
      "mmcv",        "mmcv-full",     "mmdet",        "onnxruntime-gpu", "onnxruntime",  "torch-scatter",
      "torch-sparse", "torch-cluster", "torch-spline-conv", "torch-geometric", "pytorch3d", "detectron2",
      "spconv",      "flashinfer",    "sglang",       "tensorrt",      "ctranslate2",    "faster-whisper",
      "jax",         "jaxlib",        "tensorflow",   "cupy",          "numba",          "transformers"};
  return kNames.count(normalized_name) > 0;
}

// Packages by pip's pin ("torchvision==0.11.1+cu113", any name) or, for a judged package, its name and version.
std::map<std::string, std::vector<std::string>> package_statements(std::string_view text) {
  static const TextPattern pin(GPUCHECK_PROSE_BEFORE R"(([A-Za-z0-9][A-Za-z0-9._-]*)==)" GPUCHECK_PROSE_VERSION);
  static const TextPattern named("(?i)" GPUCHECK_PROSE_BEFORE R"(([a-z][a-z0-9_-]*))" GPUCHECK_PROSE_BETWEEN
                                 GPUCHECK_PROSE_VERSION);
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& m : pin.search_all(text)) out[paste_text::normalized(m.str(1))].push_back(without_trailing_marks(m.str(2)));
  for (const auto& m : named.search_all(text))
    if (const std::string name = paste_text::normalized(m.str(1)); judged_package(name))
      out[name].push_back(without_trailing_marks(m.str(2)));
  return out;
}

// An NVIDIA GPU that NVIDIA's table names, in a line that speaks of a GPU ("GPU", "card", a brand word), so a
// model's short name ("T4", "A2") elsewhere in a log is not one. Every line must agree on the model.
std::string stated_gpu(std::string_view text, const std::vector<knowledge::GpuModel>& models) {
  static const TextPattern context(R"((?i)\b(nvidia|geforce|rtx|gtx|tesla|quadro|titan|gpus?|graphics|card)\b)");
  std::string model;
  for (const auto& line : paste_text::lines_of(text)) {
    if (!context.search(line)) continue;
    if (auto m = knowledge::gpu_model(models, line)) {
      if (!model.empty() && model != m->name) return "";
      model = m->name;
    }
  }
  return model;
}

// The text the statements are read from: all of it, or, when pip says it could not install a pin ("No matching
// distribution found for torch==1.10.0+cu113"), its lines without a pin: they state nothing installed.
std::string without_failed_pins(std::string_view text) {
  if (text.find("No matching distribution") == std::string_view::npos &&
      text.find("Could not find a version that satisfies") == std::string_view::npos)
    return std::string(text);
  std::string out;
  for (const auto& line : paste_text::lines_of(text))
    if (line.find("==") == std::string::npos) out += line + "\n";
  return out;
}

}  // namespace

std::optional<PastedFacts> read_prose_statements(std::string_view pasted, const std::vector<knowledge::GpuModel>& models,
                                                 bool beside_report) {
  static const TextPattern python("(?i)" GPUCHECK_PROSE_BEFORE "python" GPUCHECK_PROSE_BETWEEN R"(([23]\.[0-9]{1,2}(?:\.[0-9]{1,3})?)\b)");
  static const TextPattern driver(R"((?i)\bdriver[`'"*]*[ \t]*(?:version[ \t]*)?(?:is[ \t]+)?(?:==|=|:)?[ \t]*v?([0-9]{3}\.[0-9]{2,3}(?:\.[0-9]{1,3})?)\b)");
  const std::string stated = without_failed_pins(pasted);
  const std::string_view text = stated;
  PastedFacts f;
  f.format = "an environment stated in sentences";
  int facts = 0;
  if (const std::string torch = agreed(torch_statements(text)); !torch.empty()) {
    f.torch_version = torch;
    f.packages.emplace("torch", torch);
    ++facts;
  }
  if (const std::string v = agreed(statements(text, python)); !v.empty()) {
    f.python_version = v;
    ++facts;
  }
  if (const std::string v = agreed(statements(text, driver)); !v.empty()) {
    f.driver_version = v;
    ++facts;
  }
  if (const std::string gpu = stated_gpu(text, models); !gpu.empty()) {
    f.gpus.push_back({gpu, ""});
    ++facts;
  }
  for (const auto& [name, versions] : package_statements(text)) {
    // torch and Python are taken above, by their own statements; "cuda==12.4" typed in a sentence is no package.
    if (name == "torch" || name == "python" || name.find("cuda") != std::string::npos || name.find("cudnn") != std::string::npos)
      continue;
    if (const std::string v = agreed(versions); !v.empty() && f.packages.emplace(name, v).second) ++facts;
  }
  // torch's version, an NVIDIA GPU or the driver's version, beside one other stated fact (or beside a report's
  // format, such as nvidia-smi's table, torch alone).
  const bool anchored = !f.torch_version.empty() || !f.gpus.empty() || !f.driver_version.empty();
  if (!anchored || (facts < 2 && !(beside_report && !f.torch_version.empty()))) return std::nullopt;
  return f;
}

}  // namespace gpucheck::inventory
