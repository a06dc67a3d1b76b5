// An environment typed by hand, as issue templates ask for it: "- PyTorch Version (e.g., 1.0): 1.4", "-
// Python version: 3.7", "- GPU models and configuration: RTX 2080", "torch: 2.11.0+cu128", "- GPU: NVIDIA RTX
// 5060". Only what such a line states without doubt is taken: torch's version (its CUDA only from a local
// tag), Python, an NVIDIA GPU's name, a dotted driver version, whether CUDA is available, other "name: version"
// and "name version: version" rows as packages, also typed without a colon ("pytorch=1.4.0", "torch==2.1.2",
// "Python 3.13.6", a tab table, a list kept as "# " comments). A "CUDA: 11.8" row is left out: typed by hand,
// it may be the toolkit, the driver's or torch's.
#include <algorithm>
#include <cctype>
#include <set>

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

// "PyTorch Version (e.g., 1.0)" -> "pytorch version": lower case, the template's parenthesis and backticks gone.
std::string key_of(std::string key) {
  if (auto paren = key.find(" ("); paren != std::string::npos) key = key.substr(0, paren);
  key.erase(std::remove_if(key.begin(), key.end(), [](char c) { return c == '`' || c == '*'; }), key.end());  // Markdown
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return trim(key);
}

// The value's version: "v2.1.0" and "2.1.0" -> "2.1.0"; "" when it does not start as one.
std::string version_of(const std::string& value) {
  std::string v = first_word(value);
  // "2.9.1+cu130, CUDA (PyTorch): 13.0"; torch.__version__ printed with its quotes, "'2.1.0a0+4136153'".
  while (!v.empty() && (v.back() == ',' || v.back() == ';' || v.back() == '\'' || v.back() == '"')) v.pop_back();
  if (v.size() > 1 && (v[0] == 'v' || v[0] == 'V') && std::isdigit(static_cast<unsigned char>(v[1]))) v = v.substr(1);
  return is_version(v) ? v : "";
}

// A GPU name that is NVIDIA's by its words (an AMD or Apple GPU must not make a CPU-only torch a finding).
bool nvidia_gpu_name(const std::string& value) {
  for (const char* word : {"NVIDIA", "Nvidia", "nvidia", "GeForce", "RTX", "GTX", "Tesla", "Quadro", "TITAN", "Jetson"})
    if (value.find(word) != std::string::npos) return true;
  // Data-centre parts typed bare: "A100", "H100 80GB", "V100", "T4", "L40S", "4 x A100" (a count first).
  std::string w = first_word(value);
  if (const auto words = paste_text::words_of(value); words.size() > 2 && (words[1] == "x" || words[1] == "X") &&
                                                       words[0].find_first_not_of("0123456789") == std::string::npos)
    w = words[2];
  return w.size() >= 2 && std::string("AHVTLPKB").find(w[0]) != std::string::npos &&
         std::isdigit(static_cast<unsigned char>(w[1]));
}

// A GitHub issue form as rendered: each field a "### Name" heading with its one-line answer below it, a blank
// line between ("### Pytorch version", "", "2.7.0+cu128"): such pairs become "Name: answer" rows.
std::vector<std::string> with_form_fields_joined(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string heading = trim(lines[i]);
    std::size_t next = i + 1;
    while (next < lines.size() && trim(lines[next]).empty()) ++next;
    const bool answer = next < lines.size() && !starts_with(trim(lines[next]), "#") &&
                        (next + 1 == lines.size() || trim(lines[next + 1]).empty());
    if (starts_with(heading, "### ") && heading.find(':') == std::string::npos && answer) {
      out.push_back(trim(heading.substr(4)) + ": " + trim(lines[next]));
      i = next;
    } else {
      out.push_back(lines[i]);
    }
  }
  return out;
}

// Words that a row "name 1.2" or "name=1.2" may start with and that name no package: a system, a tool, a word.
bool not_a_package(const std::string& name) {
  static const std::set<std::string> kWords = {"version", "release", "build", "ubuntu", "debian", "centos", "windows",
                                               "macos", "driver", "gpu", "nvidia", "gcc", "cmake"};
  return kWords.count(key_of(name)) > 0;
}

// A row typed without a colon, read as "name: version": "pytorch=1.4.0", "mmcv=1.1.5" (conda's spelling),
// "torch==2.1.2" (pip's), one word; or a name and its dotted version as the line's only two words ("Python
// 3.13.6", "cuda 10.1", "torchvision	0.11.0", "flash-attn   2.5.8"). An environment variable
// ("TORCH_CUDA_ARCH_LIST=8.6", upper case) is no package; "Windows 10" or "RTX 3090" has no dotted version.
std::optional<std::string> name_version_row(const std::string& line) {
  const std::string t = trim(line);
  if (t.find(':') != std::string::npos) return std::nullopt;
  if (const auto eq = t.find('='); eq != std::string::npos && eq > 0) {
    const std::size_t value = t.compare(eq, 2, "==") == 0 ? eq + 2 : eq + 1;
    if (value >= t.size() || t.find_first_of(" \t=", value) != std::string::npos) return std::nullopt;
    const std::string name = t.substr(0, eq);
    const bool env_var = std::none_of(name.begin(), name.end(), [](unsigned char c) { return std::islower(c); });
    if (env_var || !distribution_name(name) || not_a_package(name) || version_of(t.substr(value)).empty())
      return std::nullopt;
    return name + ": " + t.substr(value);
  }
  std::string spaced = t;
  std::replace(spaced.begin(), spaced.end(), '\t', ' ');  // a table typed with tabs
  auto words = paste_text::words_of(spaced);
  // "torch version 2.4.1", "PyTorch version 2.2.0": the name, the word, the version.
  if (words.size() == 3 && key_of(words[1]) == "version") words.erase(words.begin() + 1);
  if (words.size() != 2 || !distribution_name(words[0])) return std::nullopt;
  if (not_a_package(words[0])) return std::nullopt;
  const std::string v = version_of(words[1]);
  if (v.empty() || v.find('.') == std::string::npos) return std::nullopt;
  return words[0] + ": " + words[1];
}

}  // namespace

std::optional<PastedFacts> read_typed_env_list(std::string_view text, bool beside_report) {
  PastedFacts f;
  f.format = "a typed environment list";
  int rows = 0;
  std::string stated_cc;  // "Compute capability: 8.7"
  for (const auto& raw : with_form_fields_joined(lines_of(text))) {
    std::string t = raw;
    // A list typed in Chinese (FastChat 2833): "cuda版本：12.1.0", "Driver版本: 535.54.03" (版本 = version, a
    // full-width colon).
    for (auto at = t.find("\xEF\xBC\x9A"); at != std::string::npos; at = t.find("\xEF\xBC\x9A")) t.replace(at, 3, ":");
    for (auto at = t.find("\xE7\x89\x88\xE6\x9C\xAC:"); at != std::string::npos; at = t.find("\xE7\x89\x88\xE6\x9C\xAC:"))
      t.replace(at, 6, " version");
    const bool bullet = starts_with(t, "- ") || starts_with(t, "* ");
    if (bullet) t = trim(t.substr(2));
    // A list kept as comments ("# Tested with", "# torch==2.1.2", "# cuda 12.1"); a Markdown heading's "##" is not.
    else if (starts_with(t, "# ")) t = trim(t.substr(2));
    // A numbered list: "5. Nvidia Driver:525.105.17", "6. GPU: GTX 1050Ti".
    if (const auto dot = t.find(". "); dot > 0 && dot <= 2 && t.find_first_not_of("0123456789") == dot) t = trim(t.substr(dot + 2));
    // lspci's line for the GPU: "01:00.0 VGA compatible controller: NVIDIA Corporation GA102 [GeForce RTX 3090]
    // (rev a1)", "3D controller: ..." (a laptop's): the model is in the brackets.
    if (const auto at = t.find("ontroller: "); at != std::string::npos &&
        (t.find("VGA compatible controller: ") != std::string::npos || t.find("3D controller: ") != std::string::npos ||
         t.find("3d controller: ") != std::string::npos)) {
      const std::string device = trim(t.substr(at + 11));
      const auto open = device.find('['), close = device.find(']');
      if (device.find("NVIDIA") != std::string::npos && f.gpus.empty()) {
        f.gpus.push_back({open != std::string::npos && close > open ? device.substr(open + 1, close - open - 1) : device, ""});
        ++rows;
      }
      continue;
    }
    // "torch == 2.7.0+cu128", "flash_attn == 1.0.9": pip's pin typed as a row, read as "torch: 2.7.0+cu128".
    if (const auto pin = t.find(" == "); pin != std::string::npos && t.find(':') == std::string::npos)
      t = t.substr(0, pin) + ": " + t.substr(pin + 4);
    else if (const auto is = t.find(" = "); is != std::string::npos && t.find(':') == std::string::npos)
      t = t.substr(0, is) + ": " + t.substr(is + 3);  // "- Pytorch = 0.4.1"
    else if (auto row = name_version_row(t)) t = *row;  // "pytorch=1.4.0", "Python 3.13.6", "cuda 10.1"
    const auto colon = t.find(':');
    // A bullet holding only a value, as some forms are filled in: "- NVIDIA GeForce GTX 1080 Ti", "- 2.8.0+cu128"
    // (a version with torch's local CUDA or CPU tag and a major of 1 or more is torch's).
    if (bullet && colon == std::string::npos) {
      const std::string v = version_of(t);
      if (!v.empty() && v == t && v[0] != '0' && (v.find("+cu") != std::string::npos || ends_with(v, "+cpu")) &&
          f.torch_version.empty()) {
        f.torch_version = v;
        f.packages.emplace("torch", v);
        ++rows;
      } else if (nvidia_gpu_name(t) && f.gpus.empty()) {
        f.gpus.push_back({t, ""});
        ++rows;
      }
      continue;
    }
    if (colon == std::string::npos || colon == 0 || colon > 64) continue;
    const std::string key = key_of(t.substr(0, colon));
    // The colon inside Markdown's bold or code ("- **torch:** 2.5.0", "`Python:` 3.10"): the marks left
    // after it are no part of the value.
    std::string value = trim(t.substr(colon + 1));
    value.erase(0, std::min(value.size(), value.find_first_not_of("*_`'\"")));
    value = trim(value);
    if (value.empty()) continue;
    if (key == "torch" || key == "pytorch" || key == "pytorch version" || key == "torch version" || key == "torch.__version__") {
      if (auto v = version_of(value); !v.empty() && f.torch_version.empty()) {
        f.torch_version = v;
        f.packages.emplace("torch", v);
        ++rows;
      }
    } else if (key == "python" || key == "python version") {
      if (auto v = version_of(value); !v.empty() && dotted_number(v)) {
        f.python_version = v;
        ++rows;
      }
    } else if (key == "gpu" || key == "gpus" || key == "gpu model" || key == "gpu models and configuration" ||
               key == "gpu type" || key == "graphics card" || key == "card" || key == "gpu model and memory" ||
               key == "gpu name" || key == "video card" || key == "device") {
      if (nvidia_gpu_name(value) && f.gpus.empty()) {
        f.gpus.push_back({value, ""});
        ++rows;
      }
    } else if (key == "compute capability" || key == "gpu compute capability") {
      // "Compute capability: sm_87" or "8.7": the stated GPU's (a row typed before or after its name).
      std::string cc = first_word(value);
      if (starts_with(cc, "sm_") && cc.size() >= 5 && cc.size() <= 6) cc = cc.substr(3, cc.size() - 4) + "." + cc.back();
      if (dotted_number(cc) && cc.size() <= 4) {
        stated_cc = cc;
        ++rows;
      }
    } else if (key == "nvidia driver" || key == "driver" || key == "driver version" || key == "nvidia driver version" ||
               key == "driver info") {
      if (auto v = first_word(value); dotted_number(v)) {
        f.driver_version = v;
        ++rows;
      }
    } else if (key == "torch.version.cuda" || key == "torch cuda" || key == "torch cuda version") {
      // torch's own CUDA, printed or typed by that name: "Torch.version.cuda: 12.9".
      if (auto v = version_of(value); !v.empty() && dotted_number(v) && !f.torch_cuda) {
        f.torch_cuda = v;
        ++rows;
      }
    } else if ((key == "cuda" || key == "cuda version" || key == "cudnn" || key == "cudnn version") && !version_of(value).empty()) {
      ++rows;  // stated, though typed by hand it may be the toolkit's, the driver's or torch's: not taken
    } else if (key == "os" || key == "operating system" || key == "platform" ||
               (ends_with(key, " version") && starts_with(key, "ubuntu"))) {
      ++rows;  // the system is a stated fact too, though no rule here reads it
    } else if (key == "cuda is available" || key == "cuda available" || key == "torch.cuda.is_available()") {
      // torch.cuda.is_available() printed: "CUDA is available: True" (segment-anything's notebooks).
      if (value == "True" || value == "False") {
        f.cuda_available = value == "True";
        ++rows;
      }
    } else {
      // A package: "transformers: 5.6.2", "Torchvision version: 0.14.1a0+59d9189".
      const std::string name = key.size() > 8 && ends_with(key, " version") ? key.substr(0, key.size() - 8) : key;
      if (distribution_name(name) && name.find("cuda") == std::string::npos && name.find("cudnn") == std::string::npos &&
          name != "os" && name != "gcc" && name != "nvcc" && name != "cmake" && !version_of(value).empty()) {
        f.packages.emplace(normalized(name), version_of(value));
        ++rows;
      }
    }
  }
  if (!stated_cc.empty() && !f.gpus.empty() && f.gpus.front().cc.empty()) f.gpus.front().cc = stated_cc;
  // torch's version, an NVIDIA GPU or the NVIDIA driver's version, beside at least one other stated fact; or,
  // without them, three versions of packages (Horovod's form: "Framework version: 2.1.0", "Horovod version: ...").
  // Python's version, a package's and a third stated row (optimum 769: "Optimum: 1.6.3", "Python: 3.10.4",
  // "Platform: Windows 10", "Cuda: 11.6") are one too.
  const bool anchored = !f.torch_version.empty() || !f.gpus.empty() || !f.driver_version.empty();
  const bool python_and_package = !f.python_version.empty() && !f.packages.empty() && rows >= 3;
  const bool torch_beside_report = beside_report && !f.torch_version.empty();
  if ((rows < 2 && !torch_beside_report) || (!anchored && f.packages.size() < 3 && !python_and_package)) return std::nullopt;
  return f;
}

}  // namespace gpucheck::inventory
