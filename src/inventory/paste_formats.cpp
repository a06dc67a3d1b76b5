#include "inventory/paste_formats.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "core/cuda_version.h"
#include "core/text.h"
#include "inventory/collect_env_text.h"
#include "inventory/paste_text.h"
#include "knowledge/pep440.h"

namespace gpucheck::inventory {
namespace {

using paste_text::after;
using paste_text::clean;
using paste_text::distribution_name;
using paste_text::first_word;
using paste_text::is_version;
using paste_text::lines_of;
using paste_text::normalized;
using paste_text::nvcc_release;
using paste_text::small_number;
using paste_text::words_of;

// A Python module name: letters, digits and '_', not starting with a digit.
bool python_identifier(const std::string& s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// The code of a shell one-liner, `python3 -c "import torch; print(torch.__version__)"` after any prompt ("(env)
// user@host:~$ "): "import torch; print(torch.__version__)"; "" for any other line. A line cut before the
// closing quote keeps what it has.
std::string python_c_code(const std::string& line) {
  for (const char* flag : {" -c \"", " -c '"}) {
    const auto at = line.find(flag);
    if (at == std::string::npos) continue;
    const auto space = line.rfind(' ', at == 0 ? 0 : at - 1);
    const std::size_t start = space == std::string::npos ? 0 : space + 1;
    const std::string command = line.substr(start, at - start);
    const auto slash = command.rfind('/');
    if (!starts_with(slash == std::string::npos ? command : command.substr(slash + 1), "python")) continue;
    std::string code = line.substr(at + 5);
    return trim(code.substr(0, code.find(flag[4])));
  }
  return "";
}

// The expressions a one-liner's last statement prints: "import torch; print(torch.__version__,
// torch.version.cuda)" -> {"torch.__version__", "torch.version.cuda"}; empty when it prints nothing.
std::vector<std::string> printed_expressions(const std::string& code) {
  std::string last = trim(code.substr(code.rfind(';') == std::string::npos ? 0 : code.rfind(';') + 1));
  if (!starts_with(last, "print(") || !ends_with(last, ")")) return {};
  last = last.substr(6, last.size() - 7);
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  for (char c : last) {  // split at the commas outside parentheses: get_device_name(0) stays whole
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(current));
      current.clear();
    } else {
      current += c;
    }
  }
  out.push_back(trim(current));
  return out;
}

// U+2018 and U+2019 (what editors and chat clients turn ' into) as ASCII apostrophes.
std::string with_ascii_apostrophes(std::string s) {
  for (const char* curly : {"\xE2\x80\x98", "\xE2\x80\x99"})
    for (auto at = s.find(curly); at != std::string::npos; at = s.find(curly, at + 1)) s.replace(at, 3, "'");
  return s;
}

// The first word of `s` without the sentence's punctuation after it: "2.1.0+cu118." -> "2.1.0+cu118".
std::string word_before_punctuation(const std::string& s) {
  std::string w = first_word(s);
  while (!w.empty() && (w.back() == '.' || w.back() == ']' || w.back() == ',')) w.pop_back();
  return w;
}

// "GPU 0" -> 1, "GPU 0,1,2,3" -> 4 (one name for a group of the same model), any other key -> 0.
std::size_t gpu_group_size(const std::string& key) {
  if (!starts_with(key, "GPU ") || key.size() <= 4 || !std::isdigit(static_cast<unsigned char>(key[4]))) return 0;
  return std::min<std::size_t>(std::count(key.begin(), key.end(), ',') + 1, 256);
}

// "121" -> "12.1", "1201" -> "12.1" (xFormers' major*100+minor), "118" -> "11.8", "12.1" stays; "" otherwise.
std::string cuda_from_digits(const std::string& s) {
  if (s.find('.') != std::string::npos) {
    auto parts = split(s, '.');
    return parts.size() >= 2 ? parts[0] + "." + parts[1] : "";
  }
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); })) return "";
  if (s.size() == 4) return std::to_string(std::stoi(s.substr(0, 2))) + "." + std::to_string(std::stoi(s.substr(2)));  // digits only (checked above)
  if (s.size() == 3) return s.substr(0, 2) + "." + s.substr(2);
  if (s.size() == 2) return s.substr(0, 1) + "." + s.substr(1);
  return "";
}

void add_ccs(PastedFacts& f, const std::string& list) {
  // "['7.0', '7.0', '8.6']"
  std::string cur;
  for (char c : list + ",") {
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') cur += c;
    else if (c == ',' || c == ']') {
      if (is_version(cur)) f.gpus.push_back({"", cur});
      cur.clear();
    }
  }
}

}  // namespace

bool dotted_number(const std::string& v) {
  return !v.empty() && v.size() <= 24 && std::isdigit(static_cast<unsigned char>(v[0])) &&
         v.find_first_not_of("0123456789.") == std::string::npos;
}

bool says_built_for_another_torch(const std::string& error) {
  // torchvision's operators not registered in the torch it runs on ("operator torchvision::nms does not exist"):
  // its compiled ops were built for another torch build (another release, or CPU beside CUDA).
  // torch 2.x words it without "operator" ("RuntimeError: torchvision::nms does not exist", ComfyUI 10517).
  const bool torchvision_ops = error.find("torchvision::") != std::string::npos &&
                               error.find("does not exist") != std::string::npos;
  return error.find(kBuiltForPyTorch) != std::string::npos || error.find(kCompiledWithDifferent) != std::string::npos ||
         error.find(kDeepspeedOpsMismatch) != std::string::npos || torchvision_ops ||
         error.find(kTorchaoSkipsOps) != std::string::npos;
}

bool says_torch_out_of_range(const std::string& error) {
  return starts_with(error, kUnslothTorchLead) && ends_with(error, " too new!");
}

std::optional<std::string> torch_cuda_from_local_tag(const std::string& torch_version) {
  auto plus = torch_version.find('+');
  if (plus == std::string::npos) return std::nullopt;
  std::string tag = torch_version.substr(plus + 1);
  if (tag == "cpu" || starts_with(tag, "cpu.") || starts_with(tag, "cpu_")) return std::string();
  if (starts_with(tag, "cu")) {
    std::string digits = tag.substr(2);
    if (auto c = cuda_from_digits(digits); !c.empty()) return c;
  }
  return std::nullopt;
}

std::optional<PastedFacts> read_xformers_info(std::string_view text) {
  PastedFacts f;
  f.format = "xformers.info";
  bool seen = false, built_block = false;
  for (const auto& t : lines_of(text)) {
    if (t.find("xFormers was built for") != std::string::npos) seen = built_block = true;
    // The same warning pasted without its first line: "PyTorch 2.9.0+cu128 with CUDA 1208 (you have ...)"
    // is xFormers' own wording (torch's CUDA as an integer, then what is installed).
    if (!built_block && starts_with(t, "PyTorch ") && t.find(" with CUDA ") != std::string::npos &&
        t.find("(you have ") != std::string::npos)
      seen = built_block = true;
    if (t.find("xFormers wasn't build with CUDA support") != std::string::npos && !f.import_errors.count("xformers"))
      f.import_errors["xformers"] = t.substr(t.find("xFormers wasn't"));
    if (built_block && starts_with(t, "PyTorch ") && t.find("(you have ") != std::string::npos) {
      std::string built = trim(t.substr(8, t.find("(you have ") - 8));
      std::string have = t.substr(t.find("(you have ") + 10);
      have = have.substr(0, have.find(')'));
      if (f.torch_version.empty()) f.torch_version = have;
      // The same torch (jetson-inference 1946: "PyTorch 2.8.0 with CUDA 1209 (you have 2.8.0)") is not what
      // failed; the Python line below may be.
      if (first_word(built) != first_word(have))
        f.import_errors["xformers"] = std::string("xFormers can't load C++/CUDA extensions: ") + kBuiltForPyTorch +
                                      built + ", installed is " + have;
      continue;
    }
    if (built_block && starts_with(t, "Python ") && t.find("(you have ") != std::string::npos) {
      std::string have = t.substr(t.find("(you have ") + 10);
      f.python_version = have.substr(0, have.find(')'));
      const std::string built = first_word(trim(t.substr(7)));
      auto minor_of = [](const std::string& v) { return v.substr(0, v.find('.', v.find('.') + 1)); };  // "3.12"
      if (!f.import_errors.count("xformers") && !built.empty() && minor_of(built) != minor_of(f.python_version))
        f.import_errors["xformers"] = "xFormers can't load C++/CUDA extensions: built for Python " + built +
                                      ", installed is " + f.python_version;
      // The same torch and Python (SEINE 21: "PyTorch 2.0.1 with CUDA 1106 (you have 2.0.1)" on a Mac): its
      // extensions still do not load, for a reason the block does not name.
      else if (!f.import_errors.count("xformers") && !built.empty())
        f.import_errors["xformers"] = "xFormers can't load C++/CUDA extensions (its torch and Python are the "
                                      "installed ones: " + f.torch_version + ", " + f.python_version + ")";
      built_block = false;
      continue;
    }
    if (starts_with(t, "xFormers ") && is_version(first_word(t.substr(9)))) {
      f.packages["xformers"] = first_word(t.substr(9));
      seen = true;
    }
    auto colon = t.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 1));
    if (key == "pytorch.version") {
      seen = true;
      if (is_version(value)) f.torch_version = first_word(value);
    } else if (key == "pytorch.cuda") {
      f.cuda_available = value == "available";
    } else if (key == "gpu.compute_capability" && is_version(value)) {
      if (f.gpus.empty()) f.gpus.push_back({"", ""});
      f.gpus.front().cc = first_word(value);
    } else if (key == "gpu.name" && !value.empty() && value != "None") {
      if (f.gpus.empty()) f.gpus.push_back({"", ""});
      f.gpus.front().name = value;
    }
  }
  if (!seen) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_bitsandbytes_report(std::string_view text) {
  PastedFacts f;
  f.format = "python -m bitsandbytes";
  bool seen = false;
  for (const auto& t : lines_of(text)) {
    if (t.find("bitsandbytes v") != std::string::npos && t.find("===") != std::string::npos) {
      seen = true;
      if (auto v = after(t, "bitsandbytes v"); is_version(v)) f.packages["bitsandbytes"] = v;
    }
    // Its own banners and lines ("Welcome to bitsandbytes. For bug reports, ...", the failed set-up's message
    // indented inside a warning).
    if (starts_with(t, "CUDA SETUP:") || starts_with(t, "COMPILED_WITH_CUDA") || starts_with(t, "CUDA specs:") ||
        starts_with(t, "PyTorch settings found:") || t.find("BUG REPORT INFORMATION") != std::string::npos ||
        starts_with(t, "Welcome to bitsandbytes") || t.find("CUDA Setup failed despite GPU being available") != std::string::npos)
      seen = true;
    // bitsandbytes 0.43+ (cextension.py) when its native library does not load: every GPU op fails.
    for (const char* load : {"Could not load bitsandbytes native library", "bitsandbytes library load error",
                             "Could not find the bitsandbytes CUDA binary"})
      if (starts_with(t, load)) {
        seen = true;
        if (!f.import_errors.count("bitsandbytes")) f.import_errors["bitsandbytes"] = t;
      }
    if (auto at = t.find("/bitsandbytes-"); at != std::string::npos && !f.packages.count("bitsandbytes")) {
      std::string v = t.substr(at + 14);
      v = v.substr(0, v.find("-py"));
      if (is_version(v)) f.packages["bitsandbytes"] = v;
    }
    if (auto cc = after(t, "Highest compute capability among GPUs detected: "); is_version(cc) && f.gpus.empty())
      f.gpus.push_back({"", cc});
    if (auto at = t.find("COMPUTE_CAPABILITIES_PER_GPU = "); at != std::string::npos) {
      f.gpus.clear();
      add_ccs(f, t.substr(at + 31));
    }
    if (auto at = t.find("highest_compute_capability=("); at != std::string::npos && f.gpus.empty()) {
      std::string rest = t.substr(at + 28);
      std::string major = first_word(rest), minor = first_word(rest.substr(rest.find(',') + 1));
      if (is_version(major) && is_version(minor)) f.gpus.push_back({"", major + "." + minor});
    }
    if (auto v = after(t, "PyTorch settings found: CUDA_VERSION="); !v.empty())
      if (auto c = cuda_from_digits(v); !c.empty()) f.torch_cuda = c;
    if (starts_with(t, "PyTorch: ") && is_version(first_word(t.substr(9)))) f.torch_version = first_word(t.substr(9));
    if (auto g = after(t, "libc: glibc-"); is_version(g)) f.glibc = g;
    if (starts_with(t, "torch.cuda.is_available(): ")) f.cuda_available = t.find("True") != std::string::npos;
    for (const char* bad : {"CUDA Setup failed despite GPU being available", "CUDA detection failed",
                            "Required library version not found", "compiled without GPU support",
                            // bitsandbytes 0.37-0.41 cuda_setup/main.py: no CUDA runtime found, so it loads
                            // libbitsandbytes_cpu and every GPU op fails
                            "main CUDA runtime library was not detected", "No libcudart.so found!",
                            // its native library found but not loaded (a CUDA library of another major
                            // missing, "libcusparse.so.11: cannot open shared object file"), or no runtime
                            // at all ("ERROR: python: undefined symbol: cudaRuntimeGetVersion")
                            "cannot open shared object file", "undefined symbol: ",
                            // the same on Windows (ctypes' WinError 126 for its .dll or one it needs)
                            "Could not find module '",
                            "CUDA SETUP: Something unexpected happened",
                            // 0.35-0.37 (cuda_setup/main.py): no binary for the CUDA it detected, so it falls back
                            // to libbitsandbytes.so and its GPU ops fail; its own probe failing to reach a GPU
                            "compile library for specific version", "CUDA exception! Error code: "})
      if (t.find(bad) != std::string::npos && !f.import_errors.count("bitsandbytes")) f.import_errors["bitsandbytes"] = t;
  }
  if (!seen) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_torch_warnings(std::string_view text) {
  PastedFacts f;
  f.format = "torch's warnings";
  bool seen = false;
  // torch/cuda/__init__.py (_check_capability) and c10/cuda/CUDAFunctions.cpp print these verbatim.
  const std::string incompatible = " with CUDA capability sm_", tail = "is not compatible with the current PyTorch installation";
  const std::string supports = "The current PyTorch install supports CUDA capabilities";
  const std::string too_old = "driver on your system is too old (found version ";
  const std::string numpy1 = "A module that was compiled using NumPy 1.x cannot be run in";
  bool numpy_warning = false, archs_next = false;
  auto add_archs = [&f](const std::string& list) {
    for (auto word : split(list, ' ')) {
      while (!word.empty() && (word.back() == '.' || word.back() == ',')) word.pop_back();
      if (starts_with(word, "sm_") || starts_with(word, "compute_")) f.torch_archs.push_back(word);
    }
  };
  for (const auto& t : lines_of(text)) {
    if (archs_next) {  // the list wrapped onto the next line
      archs_next = false;
      add_archs(t);
    }
    // numpy 2's own warning when a module built against numpy 1 is imported (torch < 2.3, ...): the
    // version follows on the next line, "NumPy 2.0.2 as it may crash."
    if (t.find(numpy1) != std::string::npos) {
      numpy_warning = true;
      continue;
    }
    if (numpy_warning) {
      numpy_warning = false;
      if (std::string v = first_word(after(t, "NumPy ")); is_version(v) && v[0] == '2') {
        f.packages["numpy"] = v;
        f.numpy_abi_error = numpy1 + " NumPy " + v;
        seen = true;
      }
    }
    if (auto at = t.find(incompatible); at != std::string::npos && t.find(tail) != std::string::npos) {
      std::string name = t.substr(0, at);
      if (auto w = name.rfind("Warning: "); w != std::string::npos) name = name.substr(w + 9);
      name = trim(name);
      std::string sm = first_word(t.substr(at + incompatible.size()));
      int digits = 0;
      if (sm.size() >= 2 && small_number(sm, digits) && !name.empty()) {
        f.gpus.push_back({name, sm.substr(0, sm.size() - 1) + "." + sm.back()});
        if (f.torch_gpu_refusal.empty()) f.torch_gpu_refusal = trim(t.substr(t.find(name)));
        seen = true;
      }
    }
    // The same warning's last line, when the paste starts below its first: "If you want to use the NVIDIA GeForce
    // RTX 5090 GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/".
    const std::string want = "If you want to use the ", with = " GPU with PyTorch, please check the instructions";
    if (auto at = t.find(want), end = t.find(with); at != std::string::npos && end != std::string::npos && end > at + want.size()) {
      const std::string name = t.substr(at + want.size(), end - at - want.size());
      if (f.gpus.empty()) f.gpus.push_back({name, ""});
      if (f.torch_gpu_refusal.empty()) f.torch_gpu_refusal = trim(t.substr(at));
      seen = true;
    }
    if (auto at = t.find(supports); at != std::string::npos && f.torch_archs.empty()) {
      add_archs(t.substr(at + supports.size()));
      archs_next = f.torch_archs.empty();
    }
    // c10/cuda/CUDAFunctions.cpp's "Error 803: system has unsupported display driver / cuda driver combination"
    // (cudaGetDeviceCount failing with cudaErrorSystemDriverMismatch): the driver's parts disagree.
    if (auto at = t.find(kCudaSystemDriverMismatch); at != std::string::npos && f.driver_failure.empty()) {
      auto error = t.rfind("Error 803", at);
      f.driver_failure = trim(t.substr(error == std::string::npos ? at : error));
      seen = true;
    }
    int found = 0;
    if (auto at = t.find(too_old); at != std::string::npos) {
      std::string v = t.substr(at + too_old.size());
      v = v.substr(0, v.find(')'));
      if (small_number(v, found) && found > 0) {
        f.driver_cuda = found;
        f.driver_refusal = trim(t.substr(t.find("The NVIDIA driver") == std::string::npos ? at : t.find("The NVIDIA driver")));
        f.driver_refusal = f.driver_refusal.substr(0, f.driver_refusal.find(')') + 1);
        seen = true;
      }
    }
  }
  // torch >= 2.8 (torch/cuda/__init__.py, _check_capability) words it otherwise: "Found GPU0 NVIDIA GeForce
  // GTX 1060 which is of compute capability (CC) 6.1." then one row per architecture built, "- 7.5 which
  // supports hardware CC >=7.5,<8.0". The rows are torch's arch list; the rules judge the GPU against it as
  // against the older list (a Jetson Orin, 8.7, runs the sm_80 build: no finding, as torch's own note says).
  // A console that hard-wrapped the long line (InvokeAI 9532, 100 columns) splits the GPU's name: the next
  // line is joined when the first stops before the capability.
  // Before 2.8 a GPU outside the build's range was "Found GPU0 NVIDIA GeForce GTX 1080 with Max-Q Design which
  // is of cuda capability 6.1." with "Minimum and Maximum cuda capability supported by this version of PyTorch
  // is (7.5) - (12.0)" or "PyTorch no longer supports this GPU because it is too old.": torch's own refusal.
  const std::string found_gpu = "Found GPU", which_cc = " which is of compute capability (CC) ";
  const std::string which_cuda_cc = " which is of cuda capability ";
  const std::string row_tail = " which supports hardware CC >=";
  std::vector<std::string> built_rows;
  // torch >= 2.8 also prints the older "<GPU> with CUDA capability sm_120 is not compatible" warning (read
  // above) for the same GPU: each of those GPUs stands for one "Found GPU" line of its name, once.
  std::vector<bool> matched(f.gpus.size(), false);
  const auto all = lines_of(text);
  const auto raw = split(std::string(text), '\n');  // the same lines before clean(): a wrap at a blank keeps it
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& t = all[i];
    if (starts_with(t, "- ") && t.find(row_tail) != std::string::npos) {
      const std::string cc = first_word(t.substr(2));
      const auto dot = cc.find('.');
      if (dotted_number(cc) && dot != std::string::npos && cc.find('.', dot + 1) == std::string::npos)
        built_rows.push_back("sm_" + cc.substr(0, dot) + cc.substr(dot + 1));
      continue;
    }
    auto at = t.find(found_gpu);
    if (at == std::string::npos) continue;
    std::string line = t;
    const bool older_words = line.find(which_cuda_cc, at) != std::string::npos;
    if (line.find(which_cc, at) == std::string::npos && !older_words && i + 1 < all.size()) {
      std::string end = i < raw.size() ? raw[i] : "";
      if (!end.empty() && end.back() == '\r') end.pop_back();
      const bool blank = (!end.empty() && (end.back() == ' ' || end.back() == '\t')) ||
                         (i + 1 < raw.size() && !raw[i + 1].empty() && (raw[i + 1][0] == ' ' || raw[i + 1][0] == '\t'));
      line += (blank ? " " : "") + all[i + 1];
    }
    auto cc_at = line.find(older_words ? which_cuda_cc : which_cc, at);
    std::size_t name_at = at + found_gpu.size();
    while (name_at < line.size() && std::isdigit(static_cast<unsigned char>(line[name_at]))) ++name_at;
    if (cc_at == std::string::npos || name_at == at + found_gpu.size() || name_at >= cc_at) continue;
    std::string cc = first_word(line.substr(cc_at + (older_words ? which_cuda_cc : which_cc).size()));
    while (!cc.empty() && cc.back() == '.') cc.pop_back();
    const std::string name = trim(line.substr(name_at, cc_at - name_at));
    if (!dotted_number(cc) || name.empty()) continue;
    seen = true;
    if (older_words) {
      // Refused only when torch says so on this line or the next ones: the range, or "too old" (not for a note).
      auto refuses = [](const std::string& l) {
        return l.find("Minimum and Maximum cuda capability supported") != std::string::npos ||
               l.find("PyTorch no longer supports this GPU because it is too old") != std::string::npos;
      };
      std::string said = trim(line.substr(at));
      std::size_t j = i + 1;
      for (; j < all.size() && j <= i + 3 && !refuses(said); ++j) said += " " + trim(all[j]);
      if (j < all.size() && starts_with(trim(all[j]), "(")) said += " " + trim(all[j]);  // "(7.5) - (12.0)"
      // "(8.0) - (12.0)" beside a GB10 (12.1): the range is torch's, but 12.0's SASS runs on 12.1, so only a
      // GPU below the minimum or of a newer major than the maximum is refused.
      bool outside = said.find("too old") != std::string::npos;
      if (const auto range = said.find("PyTorch is ("); range != std::string::npos) {
        const std::string lo = first_word(said.substr(range + 12)), hi = first_word(after(said.substr(range), "- ("));
        const std::string low = lo.substr(0, lo.find(')')), high = hi.substr(0, hi.find(')'));
        // (major, minor) as numbers, whatever the C locale's decimal point.
        auto capability = [](const std::string& v) {
          return std::make_pair(std::stoi(v.substr(0, v.find('.'))), std::stoi(v.substr(v.find('.') + 1)));
        };
        if (dotted_number(low) && dotted_number(high) && low.find('.') != std::string::npos && high.find('.') != std::string::npos &&
            cc.find('.') != std::string::npos)
          outside = capability(cc) < capability(low) || capability(cc).first > capability(high).first;
      }
      if (refuses(said) && outside && f.torch_gpu_refusal.empty()) f.torch_gpu_refusal = said;
    }
    std::size_t older = 0;
    while (older < matched.size() && (matched[older] || f.gpus[older].name != name)) ++older;
    if (older < matched.size()) matched[older] = true;
    else f.gpus.push_back({name, cc});
  }
  if (f.torch_archs.empty() && !built_rows.empty() && seen) f.torch_archs = built_rows;
  if (!seen) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_interactive_session(std::string_view text) {
  PastedFacts f;
  f.format = "interactive session";
  bool seen = false;
  // The value one expression printed, taken when it is a fact this reader knows; false otherwise.
  auto answer = [&f](const std::string& asked, std::string value) {
    if (value.size() >= 2 && (value[0] == '\'' || value[0] == '"') && value.back() == value[0])
      value = value.substr(1, value.size() - 2);
    const std::string word = first_word(value);
    if (asked == "torch.version.cuda" && (value == "None" || dotted_number(value))) {
      f.torch_cuda = value == "None" ? "" : value;  // None: a CPU build
    } else if (asked == "torch.cuda.is_available()" && (value == "True" || value == "False")) {
      f.cuda_available = value == "True";
    } else if (asked == "sys.version" && dotted_number(word)) {
      f.python_version = word;
    } else if (ends_with(asked, ".__version__") && is_version(word) && value == word) {
      const std::string module = asked.substr(0, asked.size() - std::strlen(".__version__"));
      if (module == "torch") f.torch_version = word;
      else f.packages[normalized(module)] = word;
    } else {
      return false;
    }
    return true;
  };
  auto known = [](const std::string& expr) {
    const bool version_of_module =
        ends_with(expr, ".__version__") && python_identifier(expr.substr(0, expr.size() - std::strlen(".__version__")));
    return version_of_module || expr == "torch.version.cuda" || expr == "torch.cuda.is_available()" || expr == "sys.version";
  };
  // The expressions the line before printed: one typed at the prompt (which lines_of strips with the '>'), or
  // those of a shell one-liner's print(), whose answers share the next line ("2.1.0+cu121 12.1 True").
  std::vector<std::string> asked;
  for (const auto& t : lines_of(text)) {
    std::string line = trim(t);
    if (!asked.empty()) {
      bool answered = false;
      if (asked.size() == 1) {
        answered = answer(asked[0], line);
      } else if (const auto words = words_of(line); words.size() == asked.size()) {
        for (std::size_t i = 0; i < words.size(); ++i) answered = answer(asked[i], words[i]) || answered;
      }
      asked.clear();
      if (answered) {
        seen = true;
        continue;
      }
    }
    if (const std::string code = python_c_code(line); !code.empty()) {
      asked = printed_expressions(code);
      if (std::none_of(asked.begin(), asked.end(), known)) asked.clear();
      continue;
    }
    std::string expr = line;
    if (starts_with(expr, "print(") && ends_with(expr, ")")) expr = expr.substr(6, expr.size() - 7);
    if (known(expr)) asked = {expr};
  }
  if (!seen) return std::nullopt;
  return f;
}

namespace {

// The build refusals that state both CUDA versions, each as the words before nvcc's and before torch's.
struct CudaRefusal {
  const char* format;
  const char* nvcc_lead;
  const char* torch_lead;
  char close;  // what follows each number ('\0': anything)
};
constexpr CudaRefusal kCudaRefusals[] = {
    // torch/utils/cpp_extension.py CUDA_MISMATCH_MESSAGE
    {"torch's cpp_extension check", "The detected CUDA version (", "used to compile PyTorch (", ')'},
    // DeepSpeed op_builder/builder.py (CUDAMismatchException, and its warning for a minor mismatch)
    {"DeepSpeed's op builder check", "Installed CUDA version ", "the version torch was compiled with ", '\0'},
};

// The dotted number at `at` ("12.1" of "12.1) ..." or "12.1, unable ..."), followed by `close` when that is
// not '\0'; else "".
std::string dotted_number_at(const std::string& s, std::size_t at, char close) {
  std::size_t end = at;
  while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.')) ++end;
  if (close && (end >= s.size() || s[end] != close)) return "";
  std::string n = s.substr(at, end - at);
  if (!n.empty() && n.back() == '.') n.pop_back();  // a sentence's full stop
  return dotted_number(n) && n.size() <= 8 ? n : "";
}

}  // namespace

std::optional<PastedFacts> read_cpp_extension_check(std::string_view text) {
  // The lines are joined because pip indents and wraps the message.
  std::string joined;
  for (const auto& t : lines_of(text)) joined += trim(t) + " ";
  for (const auto& r : kCudaRefusals) {
    const std::string lead = r.nvcc_lead, compile = r.torch_lead;
    // Every occurrence: a traceback quotes the source line ("Installed CUDA version {sys_cuda_version}")
    // before the raised message.
    for (auto at = joined.find(lead); at != std::string::npos; at = joined.find(lead, at + 1)) {
      const std::string nvcc = dotted_number_at(joined, at + lead.size(), r.close);
      auto built = joined.find(compile, at);
      if (nvcc.empty() || built == std::string::npos || built - at > lead.size() + 120) continue;
      const std::string torch = dotted_number_at(joined, built + compile.size(), r.close);
      if (torch.empty()) continue;
      PastedFacts f;
      f.format = r.format;
      f.nvcc_version = nvcc;
      f.states_nvcc = true;
      f.torch_cuda = torch;
      f.torch_check_ran = true;
      // torch's and DeepSpeed's words for a minor mismatch only warn ("has a minor version mismatch", "accepting
      // this combination"); the rest stops the build.
      const std::string said = joined.substr(at, std::min<std::size_t>(240, joined.size() - at));
      if (said.find("minor version mismatch") == std::string::npos && said.find("accepting this combination") == std::string::npos)
        f.build_refusal = trim(said.substr(0, said.find(". ") == std::string::npos ? said.size() : said.find(". ") + 1));
      return f;
    }
  }
  // apex's setup.py (check_cuda_torch_binary_vs_bare_metal) prints `nvcc -V` after "Compiling cuda extensions
  // with", then "Cuda extensions are being compiled with a version of Cuda that does not match the version used to
  // compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 10.2." (a RuntimeError; a warning in
  // apex before 2019).
  const std::string apex = "Pytorch binaries were compiled with Cuda ";
  if (const auto at = joined.find(apex); at != std::string::npos) {
    std::string torch = dotted_number_at(joined, at + apex.size(), '\0');
    // nvcc's banner before the sentence, or after it when the paste quotes the error first and the build's
    // output below (apex 1171).
    auto compiling = joined.rfind("Compiling cuda extensions with", at);
    if (compiling == std::string::npos) compiling = joined.find("Compiling cuda extensions with", at);
    const auto release = compiling == std::string::npos ? std::string::npos : joined.find("release ", compiling);
    const bool banner = release != std::string::npos && (compiling > at || release < at) && release - compiling < 400;
    const std::string nvcc = banner ? dotted_number_at(joined, release + 8, ',') : "";
    if (!torch.empty() && !nvcc.empty()) {
      PastedFacts f;
      f.format = "apex's CUDA check";
      f.nvcc_version = nvcc;
      f.states_nvcc = true;
      f.torch_cuda = torch.substr(0, torch.find('.', torch.find('.') + 1));  // "9.0.176" -> "9.0"
      f.torch_check_ran = true;
      // From apex's sentence when it is there (rfind's npos is past `at`), through torch's CUDA.
      const std::size_t from = std::min(at, joined.rfind("Cuda extensions are being compiled", at));
      f.build_refusal = trim(joined.substr(from, at + apex.size() + torch.size() - from));
      return f;
    }
  }
  return std::nullopt;
}

std::string torch_cuda_init_failure(std::string_view text) {
  const auto lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto at = lines[i].find("CUDA initialization: ");
    if (at == std::string::npos) continue;
    // "Unexpected error from cudaGetDeviceCount(). Did you run ...?" with its "Error 802: ..." often on the next line.
    std::string said = trim(lines[i].substr(at + 21));
    for (std::size_t j = i + 1; j < lines.size() && j <= i + 2 && starts_with(said, "Unexpected error") &&
                                said.find("Error ") == std::string::npos;
         ++j)
      said += " " + trim(lines[j]);
    said = trim(said.substr(0, said.find("(Triggered internally")));
    // 803 and "too old" are read as what they are (the driver's parts disagree; the driver's CUDA).
    if (said.find(kCudaSystemDriverMismatch) != std::string::npos || said.find("too old (found version") != std::string::npos) continue;
    return said;
  }
  // torch's _cuda_init raising rather than warning when no libcuda answers: "RuntimeError: Found no NVIDIA driver
  // on your system. Please check that you have an NVIDIA GPU and installed a driver from ...".
  for (const auto& t : lines)
    if (const auto at = t.find(kTorchFoundNoDriver); at != std::string::npos) return std::string(kTorchFoundNoDriver) + ".";
  // The same state raised at first use rather than warned: THC's "cuda runtime error (802) : system not yet
  // initialized" (torch 1.x), "THCudaCheck FAIL file=... error=802 : system not yet initialized", torch 2's
  // "RuntimeError: CUDA error: system not yet initialized". Spelled as the warning spells it ("Error 802: ...").
  for (const auto& t : lines) {
    if (t.find("system not yet initialized") == std::string::npos) continue;
    if (t.find("(802)") == std::string::npos && t.find("error=802") == std::string::npos &&
        t.find("CUDA error: system not yet initialized") == std::string::npos)
      continue;
    std::string line = trim(t);
    if (line.size() > 160) line = line.substr(0, 160);
    return "Error 802: system not yet initialized (" + line + ")";
  }
  return "";
}

bool is_library_arch_check(const std::string& line) {
  // FlashAttention 2's; tiny-cuda-nn's ("Could not find compatible tinycudann extension for compute capability 75":
  // it loads one module per architecture it was built for); flash-attn 1.x's in TGI's images ("GPU with CUDA
  // capability 7 0 is not supported!"), not torch's own capability warnings.
  // ggml's: "ERROR: CUDA kernel mul_mat_vec has no device code compatible with CUDA arch 520. ggml-cuda.cu was
  // compiled for: 520".
  // ptxas not knowing the GPU's architecture: "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'".
  // spconv's check of its prebuilt kernels: "[WARNING]your gpu arch (8, 9) isn't compiled in prebuilt, may cause
  // invalid device function. available: {(7, 0), (6, 1), (8, 0), ...}".
  // SageAttention's dispatch finding no kernel built for the GPU: "SM89 kernel is not available. Make sure you GPUs
  // with compute capability 8.9." (its wheel was built without that architecture).
  // vLLM's build and start-up check: "RuntimeError: GPUs with compute capability less than 7.0 are not supported."
  return line.find("FlashAttention only supports Ampere GPUs or newer") != std::string::npos ||
         (line.find(" kernel is not available") != std::string::npos && line.find("SM") != std::string::npos &&
          line.find("compute capability") != std::string::npos) ||
         (line.find("GPUs with compute capability less than ") != std::string::npos &&
          line.find("are not supported") != std::string::npos) ||
         (line.find("your gpu arch") != std::string::npos && line.find("isn't compiled in prebuilt") != std::string::npos) ||
         line.find("is not defined for option 'gpu-name'") != std::string::npos ||
         line.find("has no device code compatible with CUDA arch") != std::string::npos ||
         (line.find("Could not find compatible") != std::string::npos &&
          line.find("extension for compute capability") != std::string::npos) ||
         (line.find("GPU with CUDA capability ") != std::string::npos && line.find("is not supported") != std::string::npos &&
          line.find("PyTorch") == std::string::npos);
}

std::string kernel_refusal(std::string_view text) {
  // ggml's CUDA backend (llama.cpp, ollama) reports it from its own source, "ggml-cuda.cu:2366": its kernels,
  // not torch's, whatever torch the paste also shows.
  const bool ggml = text.find("ggml-cuda.cu") != std::string_view::npos || text.find("ggml_cuda_") != std::string_view::npos;
  // Triton compiles its kernels with the ptxas it bundles (triton/backends/nvidia/bin/ptxas), at run time.
  const bool triton = text.find("PTXASError") != std::string_view::npos ||
                      text.find("triton/backends/nvidia/bin/ptxas") != std::string_view::npos;
  for (const auto& t : lines_of(text)) {
    if (t.find("no kernel image is available for execution on the device") == std::string::npos &&
        !is_library_arch_check(t))
      continue;
    std::string line = trim(t);
    line.erase(0, std::min(line.find_first_not_of("`>\"' "), line.size()));
    if (line.size() > 200) line = line.substr(0, 200);
    if (triton && line.find("is not defined for option 'gpu-name'") != std::string::npos) return kTritonPtxasRefusal + line;
    return ggml ? kGgmlKernelRefusal + line : line;
  }
  return "";
}

std::string cuda_runtime_refusal(std::string_view text) {
  // CUDA error 35; error 222 (ggml's "CUDA error 222 at ggml-cuda.cu:6045: the provided PTX was compiled with an
  // unsupported toolchain."); XLA's warning ("The NVIDIA driver's CUDA version is 12.2 which is older than the
  // ptxas CUDA version (12.3.107)").
  // Error 36 ("API call is not supported in the installed CUDA driver": a call of a newer CUDA than the driver's);
  // an NVIDIA container's start-up refusal, its CUDA newer than the host's driver ("ERROR: This container was
  // built for NVIDIA Driver Release 535.86 or later, but version 510.85.02 was detected and compatibility mode is
  // UNAVAILABLE.", wrapped after "but"; "[[ Forward compatibility was attempted on non supported HW (error 804) ]]"
  // when its compat library meets a GPU that has no forward compatibility); the NVIDIA Container Toolkit refusing
  // to start an image whose CUDA the host's driver is too old for.
  static const std::string kMarkers[] = {"CUDA driver version is insufficient for CUDA runtime version",
                                         "the provided PTX was compiled with an unsupported toolchain",
                                         "which is older than the ptxas CUDA version",
                                         "API call is not supported in the installed CUDA driver",
                                         "was detected and compatibility mode is UNAVAILABLE",
                                         "Forward compatibility was attempted on non supported HW (error 804)",
                                         // numba's link through the driver: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)
                                         "[222] Call to cuLinkAddData",
                                         // The NVIDIA Container Toolkit's check of the image's NVIDIA_REQUIRE_CUDA
                                         // against the host driver: "nvidia-container-cli: requirement error:
                                         // unsatisfied condition: cuda>=12.8, please update your driver ...".
                                         "requirement error: unsatisfied condition: cuda>=",
                                         // ollama's loader of its bundled cudart when the driver is older than
                                         // its CUDA (or absent): "your nvidia driver is too old or missing".
                                         "your nvidia driver is too old or missing"};
  std::vector<std::string> lines = lines_of(text);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (lines[i].find("This container was built for NVIDIA Driver Release") != std::string::npos &&
        lines[i].find(" was detected") == std::string::npos) {
      lines[i] = trim(lines[i]) + " " + trim(lines[i + 1]);
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
  // The Toolkit's refusal on another of the image's alternatives ("unsatisfied condition: brand = tesla", the
  // last it tried), its command line holding what the image requires: "--require=cuda>=10.0 brand=tesla,driver>=384".
  if (text.find("requirement error: unsatisfied condition: ") != std::string_view::npos)
    if (const auto req = text.find("--require=cuda>="); req != std::string_view::npos) {
      const std::string cuda = dotted_number_at(std::string(text.substr(req + 16, 12)) + " ", 0, ' ');
      if (!cuda.empty()) return "the container: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=" + cuda;
    }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& t = lines[i];
    std::size_t at = std::string::npos;
    std::string marker;
    for (const auto& m : kMarkers)
      if ((at = t.find(m)) != std::string::npos) {
        marker = m;
        break;
      }
    if (at == std::string::npos) continue;
    if (marker == kMarkers[2]) {  // XLA's sentence, with the two versions, from its start
      const auto start = t.find("The NVIDIA driver's CUDA version");
      const auto end = t.find(')', at);
      if (start != std::string::npos && end != std::string::npos) return "XLA: " + t.substr(start, end + 1 - start);
    }
    if (marker == kMarkers[6]) {  // numba's line whole, and the driver's JIT's reason when it follows
      std::string said = trim(t.substr(t.find("LinkerError") == std::string::npos ? at : t.find("LinkerError")));
      if (i + 1 < lines.size() && lines[i + 1].find("Unsupported .version") != std::string::npos)
        said += "; " + trim(lines[i + 1].substr(lines[i + 1].find("Unsupported .version")));
      return "a CUDA program: " + said;
    }
    if (marker == kMarkers[7]) {  // the toolkit's, through the CUDA the image requires
      const std::string cuda = dotted_number_at(t, at + marker.size(), ',');
      return "the container: nvidia-container-cli: " + marker + cuda;
    }
    if (marker == kMarkers[8])  // ollama's structured log: the library it loaded and its error, quoted
      return "a CUDA program: ollama could not use its bundled cudart: " + marker;
    if (marker == kMarkers[4] || marker == kMarkers[5]) {  // the container's, from its sentence's start
      const auto start = marker == kMarkers[4] ? t.find("This container was built") : at;
      if (start != std::string::npos) return "the container: " + trim(t.substr(start, at + marker.size() - start));
    }
    // torch's own words before 1.x's THC was gone: "cuda runtime error (35) : CUDA driver version is insufficient
    // for CUDA runtime version at /pytorch/aten/src/THC/THCGeneral.cpp:50".
    const bool torch = t.find("THC") != std::string::npos || t.find("/pytorch/") != std::string::npos ||
                       t.find("torch") != std::string::npos;
    // From the program's own words ("CUDA failed with error", "cudaGetDevice() failed. Status:") to the message.
    std::string line = trim(t.substr(0, at + marker.size()));
    if (line.size() > 160) line = trim(line.substr(line.size() - 160));
    line.erase(0, std::min(line.find_first_not_of("`>\"' "), line.size()));  // Markdown's quote or code marks
    return (torch ? "torch: " : "a CUDA program: ") + line;
  }
  return "";
}

std::optional<PastedFacts> read_wheel_names(std::string_view text) {
  PastedFacts f;
  f.format = "a wheel's file name";
  std::string spaced(text);
  static const std::string kSeparators = "\"'`()<>\n\r\t";  // quotes and brackets around a name, and lines
  for (char& c : spaced)
    if (kSeparators.find(c) != std::string::npos) c = ' ';
  for (std::string word : paste_text::words_of(spaced)) {
    word = word.substr(word.find_last_of("/\\") == std::string::npos ? 0 : word.find_last_of("/\\") + 1);
    while (!word.empty() && (word.back() == '.' || word.back() == ',' || word.back() == ':')) word.pop_back();
    if (ends_with(word, ".whl")) word.resize(word.size() - 4);
    // PEP 427: name-version[-build]-python-abi-platform.
    const auto parts = split(word, '-');
    if (parts.size() != 5 && parts.size() != 6) continue;
    const std::string& python = parts[parts.size() - 3];
    if (!(starts_with(python, "cp") || starts_with(python, "py")) || !is_version(parts[1])) continue;
    std::string version = parts[1];
    std::string local = version.substr(std::min(version.size(), version.find('+')));
    std::transform(local.begin(), local.end(), local.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (local.find("torch") == std::string::npos || !distribution_name(parts[0])) continue;
    f.packages.emplace(normalized(parts[0]), version);
  }
  if (f.packages.empty()) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_pip_conflicts(std::string_view text) {
  // pip's resolver after an install: "torchvision 0.19.1 requires torch==2.4.1, but you have torch 2.5.1
  // which is incompatible." (older pips: "has requirement", "you'll have"); `pip check`: "torchvision 0.17.0
  // has requirement torch==2.2.0, but you have torch 2.1.2." Both installed versions are facts.
  PastedFacts f;
  f.format = "pip's dependency conflicts";
  for (const auto& t : lines_of(text)) {
    std::string line = trim(t);
    if (starts_with(line, "ERROR: ")) line = line.substr(7);
    std::size_t verb = line.find(" requires "), verb_len = 10;
    if (verb == std::string::npos) verb = line.find(" has requirement "), verb_len = 17;
    std::size_t have = line.find(", but you have "), have_len = 15;
    if (have == std::string::npos) have = line.find(", but you'll have "), have_len = 18;
    if (verb == std::string::npos || have == std::string::npos || have < verb) continue;
    const auto owner = words_of(line.substr(0, verb));
    const auto installed = words_of(line.substr(have + have_len));
    if (owner.size() != 2 || installed.size() < 2) continue;
    std::string installed_version = installed[1];
    while (!installed_version.empty() && installed_version.back() == '.') installed_version.pop_back();
    if (!distribution_name(owner[0]) || !distribution_name(installed[0]) || !is_version(owner[1]) ||
        !is_version(installed_version))
      continue;
    const std::string installed_name = normalized(installed[0]);
    f.packages[normalized(owner[0])] = owner[1];
    f.packages[installed_name] = installed_version;
    // The requirement as printed ("torch==2.4.1,"): judged against the torch the report states.
    std::string required = first_word(line.substr(verb + verb_len));
    while (!required.empty() && (required.back() == ',' || required.back() == '.' || required.back() == ';')) required.pop_back();
    if (installed_name == "torch" && normalized(required.substr(0, std::min(required.find_first_of("=<>!~"), required.size()))) == "torch")
      f.torch_requirements[normalized(owner[0])] = required;
    if (installed_name == "torch") f.torch_version = installed_version;
  }
  if (f.packages.empty()) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_monai_config(std::string_view text) {
  PastedFacts f;
  f.format = "MONAI's print_config";
  bool seen = false;
  // "Pytorch version: 1.13.0+cu116", "TorchVision version: 0.14.0+cu116", "Numpy version: 1.23.4"; the
  // optional dependencies the same way ("Pytorch Ignite version: 0.4.10").
  for (const auto& t : lines_of(text)) {
    const std::string line = trim(t);
    if (line == "Printing MONAI config...") seen = true;
    auto at = line.find(" version: ");
    if (at == std::string::npos) continue;
    std::string name = normalized(line.substr(0, at));
    std::replace(name.begin(), name.end(), ' ', '-');
    const std::string v = first_word(line.substr(at + 10));
    if (!is_version(v)) continue;
    if (name == "monai") seen = true;
    if (name == "pytorch") f.torch_version = v;  // MONAI's name for torch
    else f.packages[name] = v;
  }
  if (!seen || f.torch_version.empty()) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_startup_banners(std::string_view text) {
  PastedFacts f;
  f.format = "a startup banner";
  bool seen = false, ultralytics = false;
  const auto lines = lines_of(text);
  // `yolo checks` pasted without its banner: its checked torch row ("torch    ✅ 2.6.0+cu126>=1.8.0") is
  // Ultralytics' own.
  for (const auto& t : lines) {
    const auto words = words_of(trim(t));
    if (words.size() == 3 && words[0] == "torch" && words[1] == "\xE2\x9C\x85") ultralytics = seen = true;
  }
  bool banner_gpu = false;
  for (const auto& t : lines) {
    const std::string line = trim(t);
    // YOLOv5's banner before Ultralytics': "YOLOv5 🚀 v7.0-72 Python-3.10.9 torch-1.13.1+cu117 CUDA:0 (...)",
    // "YOLOv5  2022-4-22 torch 1.11.0+cpu CPU", and its oldest "Using torch 1.6.0 CPU".
    std::string::size_type torch_at = std::string::npos, torch_len = 0;
    if ((starts_with(line, "Ultralytics ") || starts_with(line, "YOLOv5 ")) && line.find(" torch-") != std::string::npos)
      torch_at = line.find(" torch-"), torch_len = 7;
    else if (starts_with(line, "YOLOv5 ") && line.find(" torch ") != std::string::npos)
      torch_at = line.find(" torch "), torch_len = 7;
    else if (starts_with(line, "Using torch ") && (ends_with(line, " CPU") || line.find(" CUDA:") != std::string::npos))
      torch_at = 5, torch_len = 7;
    if (torch_at != std::string::npos && is_version(first_word(line.substr(torch_at + torch_len)))) {
      // "... Python-3.10.12 torch-2.2.0+cu121 CUDA:0 (NVIDIA A100-SXM4-80GB, 81051MiB)" or "... CPU (Intel ...)"
      // Several banners (a run before and after a reinstall): the last states the torch now installed and
      // where it runs; the GPUs any of them named are the machine's.
      ultralytics = seen = true;
      f.torch_version = first_word(line.substr(torch_at + torch_len));
      if (auto py = line.find(" Python-"); py != std::string::npos) f.python_version = first_word(line.substr(py + 8));
      std::vector<PastedGpu> named;
      for (auto cuda = line.find(" CUDA:"); cuda != std::string::npos; cuda = line.find(" CUDA:", cuda + 6)) {
        auto open = line.find('(', cuda), comma = line.find(',', cuda);
        if (open != std::string::npos && comma != std::string::npos && comma > open)
          named.push_back({trim(line.substr(open + 1, comma - open - 1)), ""});
      }
      f.cuda_available = !named.empty();  // torch runs on the device it named, or on the CPU
      if (!banner_gpu && !named.empty()) f.gpus = named;
      banner_gpu |= !named.empty();
      continue;
    }
    // Unsloth's banner: "GPU: NVIDIA RTX A6000. Max memory: ...", "Pytorch: 2.1.0+cu118. CUDA = 8.6. CUDA Toolkit
    // = 11.8." (CUDA is the GPU's compute capability there, the toolkit torch's CUDA), "Xformers = 0.0.22.post7";
    // since 2025 "Torch: 2.5.1+cu124. CUDA: 6.1. CUDA Toolkit: 12.4." (below).
    auto unsloth_torch_line = [&](const char* torch_key, const char* cc_key, const char* toolkit_key) {
      auto at = line.find(torch_key);
      if (at == std::string::npos || line.find(toolkit_key) == std::string::npos) return false;
      std::string v = word_before_punctuation(line.substr(at + std::strlen(torch_key)));
      if (is_version(v) && f.torch_version.empty()) f.torch_version = v, seen = true;
      std::string cc = word_before_punctuation(after(line, cc_key));
      if (is_version(cc) && f.gpus.size() == 1 && f.gpus[0].cc.empty()) f.gpus[0].cc = cc;
      std::string toolkit = word_before_punctuation(after(line, toolkit_key));
      if (is_version(toolkit)) f.torch_cuda = toolkit;
      return true;
    };
    if (unsloth_torch_line("Pytorch: ", "CUDA = ", "CUDA Toolkit = ")) continue;
    // Unsloth's banner since 2025, beside its ASCII sloth: "   \\   /|    NVIDIA GeForce GTX 1070. Num GPUs = 1.
    // Max memory: 7.909 GB.", "O^O/ \_/ \    Torch: 2.5.1+cu124. CUDA: 6.1. CUDA Toolkit: 12.4. Triton: 3.1.0",
    // "==((====))==  Unsloth 2025.3.9: Fast Qwen2 patching. Transformers: 4.49.0. vLLM: 0.7.3.".
    if (auto at = line.find(". Num GPUs = "); at != std::string::npos && f.gpus.empty()) {
      auto gap = line.rfind("  ", at);
      std::string name = trim(line.substr(gap == std::string::npos ? 0 : gap, at - (gap == std::string::npos ? 0 : gap)));
      if (!name.empty()) f.gpus.push_back({name, ""}), f.cuda_available = true;
      continue;
    }
    if (unsloth_torch_line("Torch: ", "CUDA: ", "CUDA Toolkit: ")) continue;
    if (auto at = line.find("==((====))==  Unsloth "); at != std::string::npos) {
      std::string v = word_before_punctuation(first_word(line.substr(at + std::strlen("==((====))==  Unsloth "))));
      if (!v.empty() && v.back() == ':') v.pop_back();
      if (is_version(v)) f.packages["unsloth"] = v;
      for (const auto& [key, pkg] : {std::pair<const char*, const char*>{"Transformers: ", "transformers"}, {"vLLM: ", "vllm"}}) {
        std::string pv = word_before_punctuation(after(line, key));
        if (is_version(pv)) f.packages[pkg] = pv;
      }
      continue;
    }
    if (auto at = line.find("GPU: "); at != std::string::npos && line.find(". Max memory:") != std::string::npos && f.gpus.empty()) {
      f.gpus.push_back({trim(line.substr(at + 5, line.find(". Max memory:") - at - 5)), ""});
      f.cuda_available = true;
      continue;
    }
    if (auto at = line.find("Xformers = "); at != std::string::npos) {
      std::string v = word_before_punctuation(line.substr(at + 11));
      if (is_version(v)) f.packages["xformers"] = v;
    }
    // pyannote.audio's checkpoint warning states the installed torch.
    if (auto at = line.find("Model was trained with torch "); at != std::string::npos) {
      if (auto yours = line.find(", yours is ", at); yours != std::string::npos && f.torch_version.empty()) {
        std::string v = word_before_punctuation(line.substr(yours + 11));
        if (is_version(v)) f.torch_version = v, seen = true;
      }
      continue;
    }
    if (!ultralytics) continue;
    // `yolo checks` rows: "torch               ✅ 2.3.0+cu121>=1.8.0", "CUDA                12.1".
    auto words = words_of(line);
    if (words.size() == 2 && words[0] == "CUDA") f.torch_cuda = words[1] == "None" ? "" : words[1];
    if (words.size() == 2 && words[0] == "Python" && is_version(words[1]) && f.python_version.empty()) f.python_version = words[1];
    // "GPU                 NVIDIA GeForce RTX 4080 SUPER, 16376MiB" (not "GPU count  1"); the banner's names win.
    if (words.size() >= 3 && words[0] == "GPU" && words[1] != "count" && !banner_gpu && line.find(',') != std::string::npos)
      f.gpus.push_back({trim(line.substr(3, line.find(',') - 3)), ""});
    if (words.size() == 3 && words[1] == "\xE2\x9C\x85") {  // the check mark
      std::string v = words[2].substr(0, words[2].find_first_of("<>=!,"));
      if (is_version(v)) f.packages[normalized(words[0])] = v;
      // The rows come from the installed metadata, as the other packages' do: judged together (the banner's
      // torch is what was imported, and a thread may paste the two from different moments).
      if (is_version(v) && words[0] == "torch") f.torch_version = v;
    }
  }
  if (!seen || f.torch_version.empty() || !is_version(f.torch_version)) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_detectron2_env(std::string_view text) {
  PastedFacts f;
  f.format = "detectron2 collect_env";
  bool seen = false, built_with = false;
  for (const auto& t : lines_of(text)) {
    if (starts_with(t, "PyTorch built with:")) {
      built_with = seen;
      continue;
    }
    if (built_with) {
      if (starts_with(t, "- CUDA Runtime ")) f.torch_cuda = first_word(t.substr(15));
      if (!starts_with(t, "-")) built_with = false;
      continue;
    }
    auto gap = t.find("  ");
    if (gap == std::string::npos) continue;
    std::string key = trim(t.substr(0, gap)), value = trim(t.substr(gap));
    if (key == "sys.platform") seen = true;
    if (!seen || key.empty() || key.find('-') == 0) continue;
    if (key == "Python") f.python_version = first_word(value);
    else if (key == "PyTorch" && is_version(value)) f.torch_version = first_word(value);
    else if (key == "GPU available" || key == "CUDA available") f.cuda_available = value == "True" || value == "Yes";
    else if (key == "Driver version" && is_version(value)) f.driver_version = first_word(value);
    else if ((key == "CUDA compiler" || key == "NVCC") && f.nvcc_version.empty()) {
      f.states_nvcc = true;
      f.nvcc_version = nvcc_release(value);
    }
    // "Detectron2 CUDA Compiler  not available": detectron2 was built with no nvcc, so its _C has no GPU kernels
    // (an empty arch list, PythonEnv::extension_archs).
    else if (key == "Detectron2 CUDA Compiler" && value == "not available")
      f.extension_archs.emplace("detectron2", std::vector<std::string>{});
    else if (key == "detectron2._C" && (value.find("fail") != std::string::npos || value.find("not built") != std::string::npos))
      f.import_errors["detectron2"] = "detectron2._C " + value;
    else if ((key == "detectron2" || key == "torchvision" || key == "fvcore" || key == "numpy") && is_version(value))
      f.packages[key] = first_word(value);
    else if (ends_with(key, " arch flags") && key.find(' ') == key.size() - 11) {
      // "detectron2 arch flags  3.7, 7.5" or "sm_35, sm_50": cuobjdump's list of the binary's SASS. A path
      // or "cannot find cuobjdump" instead means it could not be read: nothing is taken.
      std::vector<std::string> archs;
      bool all = true;
      for (const auto& part : split(value, ',')) {
        std::string a = trim(part);
        const bool sm = starts_with(a, "sm_") && a.size() >= 5 && a.size() <= 7 &&
                        a.find_first_not_of("0123456789", 3) == std::string::npos;
        const bool dotted = a.size() >= 3 && a.size() <= 5 && std::isdigit(static_cast<unsigned char>(a[0])) &&
                            a.find('.') != std::string::npos && a.find_first_not_of("0123456789.") == std::string::npos;
        if (!sm && !dotted) all = false;
        archs.push_back(a);
      }
      if (all && !archs.empty()) f.extension_archs[key.substr(0, key.size() - 11)] = archs;
    }
    else if (std::size_t count = gpu_group_size(key)) {
      // "GPU 0", "GPU 0,1,2,3": value "NVIDIA GeForce RTX 3090 (arch=8.6)"
      std::string name = value, cc;
      if (auto at = value.find(" (arch="); at != std::string::npos) {
        name = value.substr(0, at);
        cc = value.substr(at + 7);
        cc = cc.substr(0, cc.find(')'));
      }
      for (std::size_t i = 0; i < count; ++i) f.gpus.push_back({name, cc});
    }
  }
  // Cut before its PyTorch row (detectron2 2269): Python's version and a package's still make it a report.
  if (!seen || (f.torch_version.empty() && (f.python_version.empty() || f.packages.empty()))) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_ds_report(std::string_view text) {
  PastedFacts f;
  f.format = "DeepSpeed ds_report";
  bool seen = false, rocm = false;
  for (const auto& t : lines_of(text)) {
    if (t.find("DeepSpeed C++/CUDA extension op report") != std::string::npos ||
        t.find("DeepSpeed general environment info") != std::string::npos) {
      seen = true;
      continue;
    }
    // "torch version .................... 2.1.0+cu121": the key, a run of dots, the value.
    auto dots = t.find(" ...");
    if (!seen || dots == std::string::npos) continue;
    std::string key = trim(t.substr(0, dots));
    std::size_t at = dots + 1;
    while (at < t.size() && (t[at] == '.' || t[at] == ' ')) ++at;
    std::string value = trim(t.substr(at));
    if (key == "torch version" && is_version(value)) f.torch_version = first_word(value);
    else if (key == "torch cuda version") {
      if (is_version(value)) f.torch_cuda = first_word(value);
      else if (value == "None") f.torch_cuda = "";  // no CUDA: a CPU build, unless a HIP version says ROCm
    } else if (key == "torch hip version" && is_version(value)) {
      rocm = true;
    } else if (key == "nvcc version" && is_version(value)) {
      f.states_nvcc = true;
      f.nvcc_version = first_word(value);
    } else if (key == "deepspeed info" && is_version(value)) {
      f.packages["deepspeed"] = first_word(value.substr(0, value.find(',')));
    }
  }
  if (!seen) return std::nullopt;
  if (rocm && f.torch_cuda && f.torch_cuda->empty()) f.torch_cuda.reset();  // a ROCm torch is not CPU-only
  return f;
}

std::optional<PastedFacts> read_sglang_check_env(std::string_view text) {
  PastedFacts f;
  f.format = "sglang check_env";
  bool sglang = false, stack = false;
  std::map<std::string, std::string> ccs;  // "GPU 0,1" -> "8.6"
  for (const auto& t : lines_of(text)) {
    if (starts_with(t, "NVIDIA Topology")) break;
    // The command typed above its output names the report, even when the paste ends a few lines in.
    if (t.find("-m sglang.check_env") != std::string::npos) sglang = stack = true;
    auto colon = t.find(": ");
    if (colon == std::string::npos) continue;
    std::string key = trim(t.substr(0, colon)), value = trim(t.substr(colon + 2));
    if (key == "sglang" && is_version(value)) sglang = true;
    if (key == "PyTorch" || key == "CUDA Driver Version") stack = true;
    if (key == "Python") f.python_version = first_word(value);
    else if (key == "CUDA available") f.cuda_available = value == "True";
    else if (key == "PyTorch" && is_version(value)) f.torch_version = first_word(value);
    else if (key == "CUDA Driver Version" && is_version(value)) f.driver_version = first_word(value);
    else if (key == "NVCC") {
      f.states_nvcc = true;
      f.nvcc_version = nvcc_release(value);
    } else if (starts_with(key, "GPU ") && ends_with(key, " Compute Capability") && is_version(value)) {
      ccs[key.substr(0, key.size() - 19)] = first_word(value);
    } else if (std::size_t count = gpu_group_size(key)) {
      for (std::size_t i = 0; i < count; ++i) f.gpus.push_back({value, ""});
    } else if (is_version(value) && key.find(' ') == std::string::npos && key != "CUDA_HOME") {
      f.packages[normalized(key)] = first_word(value);
    }
  }
  // "GPU 0,1 Compute Capability: 8.0" beside "CUDA Driver Version:" is check_env's own layout, so a paste
  // cut before its package lines ("sglang: ...") is still one.
  if ((!sglang && ccs.empty()) || !stack) return std::nullopt;
  // One capability line per group of GPUs with the same model: it applies to all of them.
  if (ccs.size() == 1)
    for (auto& g : f.gpus) g.cc = ccs.begin()->second;
  return f;
}

std::optional<PastedFacts> read_comfyui_report(std::string_view text) {
  PastedFacts f;
  f.format = "ComfyUI's system information";
  bool seen = false, banner = false, cuda_device = false, vram_line = false;
  // "cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync" -> "NVIDIA GeForce RTX 4090"; "" for a CPU device.
  auto device_name = [](std::string d) {
    d = trim(d);
    if (!starts_with(d, "cuda:")) return std::string();
    d = d.substr(d.find(' ') == std::string::npos ? d.size() : d.find(' ') + 1);
    return trim(d.substr(0, d.rfind(" : ")));
  };
  // The startup banner's lines joined into one when pasted without line breaks: "** ComfyUI startup time: ...
  // ** Platform: Windows ** Python version: 3.10.9 (...)".
  std::string banner_lines(text);
  for (auto at = banner_lines.find(" ** "); at != std::string::npos; at = banner_lines.find(" ** ", at + 1))
    banner_lines[at] = '\n';
  std::string label;  // the line above: the settings panel copied as text puts each value below its label
  for (const auto& t : lines_of(banner_lines)) {
    std::string line = trim(t);
    const std::string above = label;
    label = line;
    // "Pytorch Version" then "2.7.0.dev20250307+cu128"; "Name" then "cuda:0 NVIDIA GeForce RTX 5090 D : cudaMallocAsync".
    if (above == "Pytorch Version" || above == "PyTorch Version") line = "PyTorch Version: " + line;
    else if (above == "Python Version") line = "Python Version: " + line;
    else if (above == "Name" && starts_with(line, "cuda:")) line = "Name: " + line;
    // A log wrapped after its key (ComfyUI-aki's console: "Device: " then "cuda:0 NVIDIA GeForce RTX 3060 ...").
    else if (!above.empty() && above.back() == ':' && !line.empty()) line = above + " " + line;
    // The bug report's markdown: "- **PyTorch Version:** 2.8.0+cu129", "- **Name:** cuda:0 NVIDIA ...".
    if (starts_with(line, "- **")) {
      line.erase(std::remove(line.begin(), line.end(), '*'), line.end());
      line = trim(line.substr(1));
    }
    std::string key, value;
    for (const char* k : {"PyTorch Version: ", "pytorch version: "})
      if (auto at = line.find(k); at != std::string::npos && key.empty()) key = "torch", value = line.substr(at + std::strlen(k));
    for (const char* k : {"Name: cuda:", "Device: cuda:"})
      if (auto at = line.find(k); at != std::string::npos && key.empty())
        key = "device", value = line.substr(at + std::strlen(k) - 5);  // from "cuda:"
    if (auto at = line.find("xformers version: "); at != std::string::npos && key.empty()) key = "xformers", value = line.substr(at + 18);
    if (starts_with(line, "Python Version: ") && key.empty()) key = "python", value = line.substr(16);
    // The startup banner: "** ComfyUI startup time: ...", "** Platform: Windows", "** Python version: 3.12.9 (main,
    // ...)", "** ComfyUI Path: ...". A paste cut before the torch lines still states Python.
    if (starts_with(line, "** ComfyUI startup time:") || starts_with(line, "** ComfyUI start up time:") ||
        starts_with(line, "** ComfyUI Path:"))
      banner = true;
    // model_management's first lines: "Total VRAM 22516 MB, total RAM 31737 MB" before "Device: cuda:0 ...".
    if (starts_with(line, "Total VRAM ") && line.find(", total RAM ") != std::string::npos) vram_line = true;
    if (starts_with(line, "** Python version: ") && key.empty()) key = "python", value = line.substr(19);
    if (key != "device") value = first_word(value);
    // A form's placeholder ("- **PyTorch Version**: 2.x (installed via pip)") is no version, and no ComfyUI.
    if (key == "torch" && knowledge::pep440::Version::parse(value)) {
      f.torch_version = value;
      seen = true;
    } else if (key == "device") {
      if (std::string name = device_name(value); !name.empty() && !cuda_device) {
        f.gpus.push_back({name, ""});
        cuda_device = true;  // ComfyUI names the one device torch runs on; the report repeats it in its log
      }
    } else if (key == "xformers" && is_version(value)) {
      f.packages["xformers"] = value;
    } else if (key == "python" && is_version(value)) {
      f.python_version = value;
    }
  }
  // A log cut above the torch line is still ComfyUI's when its memory line and its CUDA device are there.
  // Its banner and its memory line are ComfyUI's too when it ran on the CPU ("Device: cpu", --cpu).
  if (!seen && !(banner && (!f.python_version.empty() || vram_line)) && !(vram_line && cuda_device)) return std::nullopt;
  if (cuda_device) f.cuda_available = true;  // torch itself chose a CUDA device
  return f;
}

std::optional<PastedFacts> read_hf_env_list(std::string_view text) {
  PastedFacts f;
  f.format = "an `env` list (transformers-cli, accelerate, llamafactory-cli)";
  int rows = 0;
  bool torch_row = false;
  for (const auto& t : lines_of(text)) {
    if (!starts_with(t, "- ")) continue;
    auto colon = t.find(": ");
    if (colon == std::string::npos) continue;
    std::string key = trim(t.substr(2, colon - 2)), value = trim(t.substr(colon + 2));
    ++rows;
    // "PyTorch version (GPU?): 2.1.2+cu121 (True)", llamafactory's "PyTorch version: 2.3.0+cu121 (GPU)".
    if (starts_with(key, "PyTorch version")) torch_row = true;  // "not installed (NA)" too
    if (starts_with(key, "PyTorch version") && is_version(value)) {
      f.torch_version = first_word(value);
      if (value.find("(True)") != std::string::npos || value.find("(GPU)") != std::string::npos) f.cuda_available = true;
      if (value.find("(False)") != std::string::npos || value.find("(CPU)") != std::string::npos) f.cuda_available = false;
    } else if (key == "Python version") {
      f.python_version = first_word(value);
    } else if (key == "GPU type" && !value.empty()) {
      f.gpus.push_back({value, ""});
    } else if (ends_with(key, " version") && is_version(value)) {
      // "`transformers` version", "Accelerate version", "🤗 Diffusers version": the last word before " version".
      std::string name = key.substr(0, key.size() - 8);
      if (auto sp = name.rfind(' '); sp != std::string::npos) name = name.substr(sp + 1);
      name.erase(std::remove(name.begin(), name.end(), '`'), name.end());
      if (!name.empty() && name.find_first_of("()?") == std::string::npos) f.packages[normalized(name)] = first_word(value);
    }
  }
  if (!torch_row || rows < 4) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_lightning_env(std::string_view text) {
  PastedFacts f;
  f.format = "Lightning's collect_env_details";
  bool cuda_section = false, packages_section = false, gpu_list = false, torch_row = false;
  for (const auto& t : lines_of(text)) {
    const std::string line = trim(t);
    if (starts_with(line, "* ")) {
      cuda_section = line == "* CUDA:";
      // Lightning 1.9+ lists torch and its companions under "* Lightning:", the rest under "* Packages:".
      packages_section = line == "* Packages:" || line == "* Lightning:";
      gpu_list = false;
      continue;
    }
    if (!starts_with(line, "- ")) continue;
    auto colon = line.find(':');
    if (colon == std::string::npos) {  // a GPU name under "- GPU:"
      if (gpu_list && cuda_section) f.gpus.push_back({trim(line.substr(2)), ""});
      continue;
    }
    std::string key = trim(line.substr(2, colon - 2)), value = trim(line.substr(colon + 1));
    gpu_list = cuda_section && key == "GPU" && value.empty();
    if (cuda_section && key == "available") f.cuda_available = value == "True";
    // torch.version.cuda: "None" for a CPU build
    if (cuda_section && key == "version") f.torch_cuda = is_version(value) ? first_word(value) : "";
    if (packages_section && (key == "pyTorch_version" || key == "torch") && is_version(value)) {
      torch_row = true;
      f.torch_version = first_word(value);
    } else if (packages_section && is_version(value) && key.find(' ') == std::string::npos && key != "pyTorch_debug") {
      f.packages[normalized(key)] = first_word(value);
    }
    if (!cuda_section && !packages_section && key == "python" && is_version(value)) f.python_version = first_word(value);
  }
  if (!torch_row) return std::nullopt;
  return f;
}

namespace {

// mmcv's collect_env() printed with pprint instead of its "key: value" lines: "{'CUDA available': True,",
// " 'GPU 0,1': 'NVIDIA TITAN RTX',", and the compiling details as string pieces "'  - CUDA Runtime 10.2\n'".
// -> "CUDA available: True", "GPU 0,1: NVIDIA TITAN RTX", "- CUDA Runtime 10.2"; other lines unchanged.
std::string from_pprint_dict(std::string line) {
  if (starts_with(line, "{'")) line.erase(0, 1);
  if (line.size() < 2 || line[0] != '\'') return line;
  auto unquote = [](std::string v) {
    v = trim(v);
    while (!v.empty() && (v.back() == ',' || v.back() == '}')) v.pop_back();
    if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') v = v.substr(1, v.size() - 2);
    if (ends_with(v, "\\n")) v.resize(v.size() - 2);
    return trim(v);
  };
  auto sep = line.find("': ");
  if (sep == std::string::npos) return unquote(line);  // a continuation piece of a long string value
  return line.substr(1, sep - 1) + ": " + unquote(line.substr(sep + 3));
}

// A Python string literal at `at` ('...' or "..."), its escapes read (\n, \t, \', \", \\); `at` moves past
// it. A literal the paste cuts ends with the paste; nullopt when no literal starts at `at`.
std::optional<std::string> python_string(std::string_view s, std::size_t& at) {
  if (at >= s.size() || (s[at] != '\'' && s[at] != '"')) return std::nullopt;
  const char quote = s[at++];
  std::string out;
  while (at < s.size() && s[at] != quote) {
    char c = s[at++];
    if (c == '\\' && at < s.size()) {
      c = s[at++];
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
    }
    out += c;
  }
  if (at < s.size()) ++at;  // the closing quote
  return out;
}

// mmengine's collect_env() printed as it is, an OrderedDict on one line: "OrderedDict([('sys.platform',
// 'linux'), ('CUDA available', False), ('PyTorch compiling details', 'PyTorch built with:\n  - GCC 11.2\n')])"
// -> "sys.platform: linux", "CUDA available: False", "PyTorch compiling details: PyTorch built with:", "  - GCC
// 11.2", one per line; the same for a plain dict printed on one line ("{'sys.platform': 'linux', ...}": mmcv
// 1055); "" when `line` is neither.
// A paste cut inside it keeps what came before the cut.
std::string from_ordered_dict(std::string_view line) {
  const std::string_view head = "OrderedDict([(";
  const bool dict = line.substr(0, 2) == "{'" && line.find("', ") != std::string_view::npos;
  if (line.substr(0, head.size()) != head && !dict) return "";
  std::string out;
  std::size_t at = dict ? 1 : head.size() - 1;
  while (at < line.size() && (dict ? line[at] == '\'' : line[at] == '(')) {
    if (!dict) ++at;
    auto key = python_string(line, at);
    if (!key || line.substr(at, 2) != (dict ? ": " : ", ")) break;
    at += 2;
    std::string value;
    if (auto quoted = python_string(line, at)) {
      value = *quoted;
    } else {  // True, False, a number
      const std::size_t end = line.find_first_of(dict ? ",}" : ")", at);
      value = std::string(line.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
      at = end == std::string_view::npos ? line.size() : end;
    }
    out += *key + ": " + value + "\n";
    if (!dict) {
      if (at >= line.size() || line[at] != ')') break;
      ++at;
    }
    if (line.substr(at, 2) != ", ") break;
    at += 2;
  }
  return out;
}

}  // namespace

std::optional<PastedFacts> read_openmmlab_env(std::string_view pasted) {
  PastedFacts f;
  f.format = "OpenMMLab collect_env";
  bool seen = false, built_with = false, pprint = false;
  std::string text;
  for (const auto& t : lines_of(pasted)) {
    const std::string expanded = from_ordered_dict(trim(t));
    text += expanded.empty() ? t + "\n" : expanded;
    // lmdeploy's check_env is this report with its own rows after torch's ("LMDeploy: 0.10.2+"): a paste cut
    // above "sys.platform" is still one.
    seen |= starts_with(trim(t), "LMDeploy: ");
  }
  for (const auto& t : lines_of(text)) {
    if (starts_with(trim(t), "{'")) pprint = true;
    const std::string line = pprint ? from_pprint_dict(trim(t)) : trim(t);
    if (starts_with(line, "sys.platform: ") || (pprint && starts_with(line, "CUDA available: "))) seen = true;
    if (!seen) continue;
    if (built_with) {
      if (starts_with(line, "- CUDA Runtime ")) f.torch_cuda = first_word(line.substr(15));
      const bool string_piece = pprint && starts_with(trim(t), "'") && trim(t).find("': ") == std::string::npos;
      if (starts_with(line, "-") || string_piece) continue;
      built_with = false;
    }
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 2));
    if (key == "PyTorch compiling details") built_with = true;
    else if (key == "Python") f.python_version = first_word(value);
    else if (key == "CUDA available") f.cuda_available = value == "True";
    else if (key == "PyTorch" && is_version(value)) f.torch_version = first_word(value);
    else if (key == "NVCC") {
      f.states_nvcc = true;
      f.nvcc_version = nvcc_release(value);
    } else if (std::size_t count = gpu_group_size(key)) {
      for (std::size_t i = 0; i < count; ++i) f.gpus.push_back({value, ""});
    } else if ((key == "TorchVision" || key == "MMCV" || key == "MMEngine" || key == "LMDeploy") && is_version(value)) {
      f.packages[normalized(key)] = first_word(value);
    }
  }
  if (!seen || (f.torch_version.empty() && f.packages.empty())) return std::nullopt;
  return f;
}


std::optional<PastedFacts> read_nvidia_smi(std::string_view text) {
  PastedFacts f;
  f.format = "nvidia-smi";
  bool seen = false;
  // `nvidia-smi -q`: "==============NVSMI LOG==============", then "Key   : value" rows; each GPU's block
  // ("GPU 00000000:3A:00.0") names it in "Product Name". A paste may stop before any block.
  bool query_log = false;
  int attached = 0;
  std::vector<std::string> products;
  for (const auto& t : lines_of(text)) {
    if (t.find("=NVSMI LOG=") != std::string::npos) {
      seen = query_log = true;
      continue;
    }
    if (query_log && t.find(" : ") != std::string::npos) {
      const std::string key = trim(t.substr(0, t.find(" : "))), value = trim(t.substr(t.find(" : ") + 3));
      if ((key == "Driver Version" || key == "KMD Version") && f.driver_version.empty() && is_version(value))
        f.driver_version = value;
      else if ((key == "CUDA Version" || key == "CUDA UMD Version") && f.driver_cuda == 0 && is_version(value))
        f.driver_cuda = cuda_string_to_int(value);
      else if (key == "Attached GPUs") small_number(value, attached);
      else if (key == "Product Name" && !value.empty()) products.push_back(value);
      continue;
    }
    // The driver's own tool saying the kernel driver does not answer (not loaded, or built for another kernel).
    // (Pasted through an editor, "couldn't" may carry a typographic apostrophe.)
    if (std::string ascii = with_ascii_apostrophes(t); ascii.find(kNvidiaSmiNoDriver) != std::string::npos) {
      seen = true;
      f.driver_failure = trim(ascii.substr(ascii.find(kNvidiaSmiNoDriver)));
      continue;
    }
    // "Failed to initialize NVML: Driver/library version mismatch": the kernel module and the libraries differ.
    if (auto at = t.find(std::string("Failed to initialize NVML: ") + kNvmlDriverLibraryMismatch); at != std::string::npos) {
      seen = true;
      f.driver_failure = trim(t.substr(at));
      continue;
    }
    // The header; since R610 "KMD Version: 610.43.02  CUDA UMD Version: 13.3" (the kernel-mode driver and the
    // CUDA its user-mode driver supports) in place of "Driver Version:" and "CUDA Version:".
    if (t.find("NVIDIA-SMI") != std::string::npos &&
        (t.find("Driver Version:") != std::string::npos || t.find("KMD Version:") != std::string::npos)) {
      seen = true;
      f.driver_version = t.find("Driver Version:") != std::string::npos ? after(t, "Driver Version: ") : after(t, "KMD Version: ");
      if (auto c = after(t, "CUDA Version: "); is_version(c)) f.driver_cuda = cuda_string_to_int(c);
      else if (auto u = after(t, "CUDA UMD Version: "); is_version(u)) f.driver_cuda = cuda_string_to_int(u);
      continue;
    }
    if (starts_with(t, "GPU ") && t.find("(UUID: ") != std::string::npos && t.find(": ") != std::string::npos) {
      seen = true;
      std::string name = t.substr(t.find(": ") + 2);
      f.gpus.push_back({trim(name.substr(0, name.find(" (UUID"))), ""});
      continue;
    }
    // "|   0  NVIDIA GeForce RTX 3090        Off | 00000000:01:00.0 Off |                  N/A |"
    if (!seen || t.empty() || t[0] != '|') continue;
    auto bar = t.find('|', 1);
    if (bar == std::string::npos) continue;
    std::string cell = trim(t.substr(1, bar - 1)), next = t.substr(bar + 1);
    if (next.find("0000") == std::string::npos || next.find(':') == std::string::npos) continue;
    std::string index = first_word(cell);
    if (index.empty() || !std::all_of(index.begin(), index.end(), [](unsigned char c) { return std::isdigit(c); })) continue;
    std::string name = trim(cell.substr(index.size()));
    auto last = name.rfind(' ');
    if (last != std::string::npos) {
      std::string word = name.substr(last + 1);
      if (word == "Off" || word == "On" || word == "WDDM" || word == "TCC") name = trim(name.substr(0, last));
    }
    if (!name.empty()) f.gpus.push_back({name, ""});
  }
  if (!seen) return std::nullopt;
  if (f.gpus.empty() && attached > 0 && attached <= 64) {
    products.resize(static_cast<std::size_t>(attached));  // "" names: the paste stopped before their blocks
    for (const auto& p : products) f.gpus.push_back({p, ""});
  }
  return f;
}

namespace {

// ".../site-packages/torch_scatter/_version_cuda.so" -> "torch_scatter"; ".../site-packages/
// flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so" -> "flash_attn_2_cuda"; no packages folder -> "".
std::string module_of_installed_path(const std::string& path) {
  for (const char* dir : {"site-packages/", "dist-packages/", "site-packages\\", "dist-packages\\"}) {
    auto at = path.rfind(dir);
    if (at == std::string::npos) continue;
    std::string rest = path.substr(at + std::strlen(dir));
    std::string top = rest.substr(0, std::min(rest.find('/'), rest.find('\\')));
    if (top == rest) top = top.substr(0, top.find('.'));  // an extension module directly in site-packages
    const bool name = !top.empty() && std::all_of(top.begin(), top.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '_' || c == '-';
    });
    return name ? top : "";
  }
  return "";
}

// A compiled extension that does not load, as Python reports it at the end of a traceback:
// "ImportError: <path>.so: undefined symbol: ..." or "OSError: <path>.so: cannot open shared object file"
// (torch.ops.load_library), a path under site-packages naming the package. Without such a path
// ("ImportError: libcudart.so.11.0: cannot open ..."), the package is the last one the traceback's
// `File ".../site-packages/<pkg>/..."` lines went through. "" when the line is no such failure.
std::string failed_extension(const std::string& quoted_line, const std::string& last_package_in_traceback) {
  // The message quoted in the reporter's sentence: "\"OSError: .../torch_scatter/_version.so: undefined ...\""
  std::string line = quoted_line.substr(std::min(quoted_line.size(), quoted_line.find_first_not_of("\"'")));
  // Retyped without the loader's space (mmdetection 3991): ".../mmcv/_ext.cpython-37m-x86_64-linux-gnu.so:undefined
  // symbol: _ZN3c106Symbol...".
  if (auto glued = line.find(".so:undefined symbol: "); glued != std::string::npos) line.insert(glued + 4, " ");
  std::size_t at = std::string::npos;
  for (const char* error : {"ImportError: ", "OSError: "})
    if (starts_with(line, error)) at = std::strlen(error);
  // The loader's message quoted without the exception's name, alone or after a word of the reporter's:
  // "torch_scatter/_version_cuda.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb", "error:
  // ~/.local/lib/python3.7/site-packages/torch_scatter/_scatter_cuda.so: undefined symbol: ...".
  if (auto so = line.find(".so: undefined symbol: "); at == std::string::npos && so != std::string::npos) {
    auto space = line.rfind(' ', so);
    at = space == std::string::npos ? 0 : space + 1;
  }
  // Windows' loader: "OSError: [WinError 126] The specified module could not be found. Error loading
  // "C:\...\site-packages\torch\lib\fbgemm.dll" or one of its dependencies." (a DLL torch needs is missing);
  // also inside a notebook's JSON error, its quotes and backslashes escaped.
  if (auto loading = line.find("Error loading "); line.find("[WinError ") != std::string::npos && loading != std::string::npos) {
    std::string path = line.substr(loading + 14);
    path.erase(0, std::min(path.find_first_not_of("\\\""), path.size()));
    path = path.substr(0, path.find('"'));
    while (!path.empty() && path.back() == '\\') path.pop_back();  // the escape before a JSON string's closing quote
    for (auto twice = path.find("\\\\"); twice != std::string::npos; twice = path.find("\\\\", twice + 1)) path.erase(twice, 1);
    return ends_with(path, ".dll") || ends_with(path, ".pyd") ? module_of_installed_path(path) : "";
  }
  if (at == std::string::npos) return "";
  const std::string message = line.substr(at);
  auto so = message.find(".so");
  if (so == std::string::npos) return "";
  // The loader's own words: a missing symbol, a missing file, or a symbol version the library found does not
  // define ("libcublas.so.11: symbol cublasLtGetStatusString, version libcublasLt.so.11 not defined in file
  // libcublasLt.so.11 with link time reference": another release of a library it needs was loaded first).
  // "version `CXXABI_1.3.8' not found (required by .../torch/lib/libATen.so)": the library that needs it names
  // the package, not the older libstdc++ (or glibc) the loader found first.
  if (const auto by = message.find("' not found (required by "); by != std::string::npos) {
    const std::string needer = message.substr(by + 25, message.find(')', by + 25) - by - 25);
    return module_of_installed_path(needer);
  }
  const bool load_failure = message.find("undefined symbol") != std::string::npos ||
                            message.find("Symbol not found: ") != std::string::npos ||  // macOS's dyld
                            message.find("cannot open shared object file") != std::string::npos ||
                            message.find(" not defined in file ") != std::string::npos ||
                            ends_with(trim(message), ".so:");  // the message cut after the path
  if (!load_failure) return "";
  std::string path = message.substr(0, message.find(": "));
  std::string module = module_of_installed_path(path);
  if (module.empty() && path.find('/') == std::string::npos) module = last_package_in_traceback;
  if (module.empty() && message.find("undefined symbol") != std::string::npos) {
    // An extension outside site-packages (built in a checkout, "(...)/KNN_CUDA/knn_cuda/csrc/_ext/knn/knn.so",
    // or quoted relative, "torch_scatter/_version_cuda.so"): the package folder holding it, else the file
    // itself; a shared library (lib*.so) is not a module.
    const auto slash = path.find_last_of("/\\");
    const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
    const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash);
    const std::string parent = folder.substr(folder.find_last_of("/\\") == std::string::npos ? 0 : folder.find_last_of("/\\") + 1);
    const std::string stem = file.substr(0, file.find('.'));
    if (!starts_with(file, "lib")) module = python_identifier(parent) ? parent : python_identifier(stem) ? stem : "";
  }
  return module;
}

// A package's compiled part missing: "ModuleNotFoundError: No module named 'mmcv._ext'" (mmcv without its ops:
// mmcv-lite, or a build that skipped them), "... 'vllm._C'" (a checkout run unbuilt). The package itself
// imported; the private module it loads is not there. The top-level package, "" for any other line.
std::string missing_compiled_module(const std::string& line) {
  const std::string key = "ModuleNotFoundError: No module named '";
  const auto at = line.find(key);
  if (at == std::string::npos || (at > 0 && line[at - 1] != '`')) return "";
  const std::string module = line.substr(at + key.size(), line.find('\'', at + key.size()) - at - key.size());
  // apex's compiled extensions are top-level modules, built only with --cuda_ext / --cpp_ext (setup.py).
  static const std::set<std::string> kApexModules = {"fused_layer_norm_cuda", "amp_C", "apex_C", "syncbn",
                                                     "fused_adam_cuda", "fused_dense_cuda", "mlp_cuda"};
  if (kApexModules.count(module)) return "apex";
  const auto dot = module.rfind('.');
  if (dot == std::string::npos || dot + 2 >= module.size() || module[dot + 1] != '_' || module[dot + 2] == '_')
    return "";
  const std::string top = module.substr(0, module.find('.'));
  return python_identifier(top) && python_identifier(module.substr(dot + 1)) ? top : "";
}

// ">>> import torchvision" or ">>> from torchvision.ops import nms" typed in an interactive session (the
// prompt is gone: lines_of strips '>' as a quote mark): the top-level module, "" for any other line.
std::string interactive_import(const std::string& line) {
  // At the prompt ("import torch", the '>>>' gone) or as a shell one-liner's first statement.
  std::string code = python_c_code(line);
  code = code.empty() ? trim(line) : trim(code.substr(0, code.find(';')));
  std::string rest;
  if (starts_with(code, "import ")) rest = code.substr(7);
  else if (starts_with(code, "from ")) rest = code.substr(5);
  else return "";
  std::string module = first_word(rest);
  module = module.substr(0, module.find('.'));
  return python_identifier(module) ? module : "";
}

// "RuntimeError: operator torchvision::nms does not exist": the line that ends a Python traceback.
bool exception_line(const std::string& line) {
  auto colon = line.find(": ");
  if (colon == std::string::npos || colon == 0) return false;
  const std::string type = line.substr(0, colon);
  return (ends_with(type, "Error") || ends_with(type, "Exception")) &&
         std::all_of(type.begin(), type.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.'; });
}

// torchvision's and torchaudio's own refusal to load next to a torch built with another CUDA
// (torchvision/extension.py, torchaudio/_extension/utils.py), the message line of the RuntimeError, not the
// traceback's listing of the source that raises it: "RuntimeError: Detected that PyTorch and TorchAudio were
// compiled with different CUDA versions. PyTorch has CUDA version 12.1 whereas TorchAudio has CUDA version
// 11.8." -> "torchaudio"; "" when the line is no such refusal.
std::string companion_cuda_refusal(const std::string& quoted) {
  // At the line's start, after "RuntimeError: ", or after a program's own "Error: " (TTS WebUI's tab loader);
  // the source line a traceback quotes ("    193   \"Detected that ...\"") is not the refusal. The reporter's
  // own quotes around the whole message ("\"RuntimeError: Detected that ...", SillyTavern Extras 242) are not
  // part of it.
  const std::string line = quoted.substr(std::min(quoted.size(), quoted.find_first_not_of("\"'`")));
  const std::string lead = "Detected that PyTorch and ";
  const auto at = line.find(lead);
  if (at == std::string::npos) return "";
  const std::string prefix = line.substr(0, at);
  if (!prefix.empty() && (!ends_with(prefix, "Error: ") || prefix.find_first_of("\"' ") != prefix.size() - 1)) return "";
  std::string rest = line.substr(at + lead.size());
  if (rest.find(kCompiledWithDifferent) == std::string::npos) return "";  // a terminal may wrap after it
  std::string module = first_word(rest);
  std::transform(module.begin(), module.end(), module.begin(), [](unsigned char c) { return std::tolower(c); });
  return module == "torchvision" || module == "torchaudio" ? module : "";
}

}  // namespace

std::map<std::string, std::string> read_import_warnings(std::string_view text) {
  std::map<std::string, std::string> out;
  std::string last_package;       // of the traceback's File lines
  std::string innermost_package;  // of the last File line, "" when that frame is not in an installed package
  // An import typed at the interpreter's prompt, then a traceback: that import failed, whatever the
  // traceback's last line (recorded when pasted; a traceback cut before it still says the import raised).
  std::string typed_import, raising_import;
  // `python -m X` whose import of X raised: runpy's `__import__(pkg_name)` frame, then the package's own
  // frames (the first of them names X), whatever the last line says or whether the paste has it.
  bool runpy_import = false;
  std::string how = ">>> import ";
  auto close_traceback = [&](const std::string& message) {
    if (!raising_import.empty() && !out.count(raising_import))
      out[raising_import] = message.empty() ? how + raising_import + ": Traceback (the paste ends before its error)"
                                            : message;
    raising_import.clear();
  };
  bool source_line = false;  // the line after a traceback's `File "..."` line: the frame's code, not typed
  // A loader's message wrapped by the reporter's editor: ".../flash_attn_2_cuda...so: undefined" then
  // " symbol: _ZN3c10...": one line again.
  std::vector<std::string> lines = lines_of(text);
  // Or after the path's colon: ".../causal_conv1d_cuda.cpython-310-x86_64-linux-gnu.so:" then "undefined symbol: ...".
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if ((ends_with(trim(lines[i]), ".so: undefined") && starts_with(trim(lines[i + 1]), "symbol: ")) ||
        (ends_with(trim(lines[i]), ".so:") && starts_with(trim(lines[i + 1]), "undefined symbol: "))) {
      lines[i] = trim(lines[i]) + " " + trim(lines[i + 1]);
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    }
  // `ldd <extension>.so` pasted: the package whose library it lists, and the first dependency "=> not found".
  std::string ldd_package;
  for (const auto& t : lines) {
    const bool frame_code = source_line;
    if (const auto ldd = t.find("ldd "); ldd != std::string::npos && (ldd == 0 || t.compare(0, 2, "$ ") == 0)) {
      const std::string target = trim(t.substr(ldd + 4));
      ldd_package = target.find(".so") != std::string::npos ? module_of_installed_path(first_word(target)) : "";
    } else if (const auto missing = t.find(" => not found"); missing != std::string::npos && !ldd_package.empty() &&
               !out.count(ldd_package)) {
      // "libc10.so => not found (0)" (FreeBSD's ldd adds the count): the loader will refuse the module too.
      out[ldd_package] = "ldd: " + trim(t.substr(0, missing)) + " => not found";
    }
    source_line = starts_with(trim(t), "File \"");
    if (auto typed = frame_code ? "" : interactive_import(t); !typed.empty()) {
      close_traceback("");
      typed_import = typed;
    } else if (starts_with(t, "Traceback (most recent call last)") && !typed_import.empty()) {
      raising_import = typed_import;  // the traceback right below the import it interrupted
      how = ">>> import ";
      typed_import.clear();
    } else if (trim(t) == "__import__(pkg_name)") {
      runpy_import = true;
    } else if (!raising_import.empty() && exception_line(t)) {
      // A one-liner's first import is not always the one that raised ("import torch; import flash_attn_2_cuda"):
      // a loader's message naming another installed module is that module's.
      if (const std::string named = failed_extension(trim(t), ""); !named.empty() && named != raising_import)
        raising_import.clear();
      close_traceback(t);
    } else if (!typed_import.empty() && exception_line(trim(t)) &&
               (starts_with(trim(t), "ImportError: ") || starts_with(trim(t), "OSError: ") ||
                starts_with(trim(t), "ModuleNotFoundError: "))) {
      // The traceback's frames left out of the paste (pytorch 15752: ">>>import torch", "from torch._C import *",
      // "ImportError: libcudnn.so.6: ..."): the import typed just above raised it.
      raising_import = typed_import;
      how = ">>> import ";
      typed_import.clear();
      close_traceback(trim(t));
    } else if (!trim(t).empty()) {
      typed_import.clear();
    }
    // DeepSpeed's ops built by another torch (op_builder's check at import): "RuntimeError: PyTorch version
    // mismatch! DeepSpeed ops were compiled and installed with a different version than what is being used at
    // runtime."
    if (t.find(std::string("DeepSpeed ") + kDeepspeedOpsMismatch) != std::string::npos &&
        !out.count("deepspeed"))
      out["deepspeed"] = trim(t);
    // DGL's C++ library for this torch missing from the wheel (built for other torch releases): "FileNotFoundError:
    // Cannot find DGL C++ sparse library at .../libdgl_sparse_pytorch_1.9.0.so", "... graphbolt library ...".
    if (t.find("Cannot find DGL C++ ") != std::string::npos && !out.count("dgl")) out["dgl"] = trim(t);
    // torchvision's own refusal when its compiled ops do not load (torchvision/extension.py): "RuntimeError:
    // Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are incompatible".
    if (t.find("Couldn't load custom C++ ops") != std::string::npos && !out.count("torchvision"))
      out["torchvision"] = trim(t.substr(0, t.find(". This can happen")) + ".");
    // torchao's own check at import (0.13 and later): "Skipping import of cpp extensions due to incompatible torch
    // version 2.7.1+cu128 for torchao version 0.15.0": it imports, its C++ ops do not load.
    if (t.find(kTorchaoSkipsOps) != std::string::npos && !out.count("torchao")) out["torchao"] = trim(t.substr(t.find(kTorchaoSkipsOps)));
    // torchvision's operators missing from the torch it runs on (a torchvision built for another torch).
    if (t.find("torchvision::") != std::string::npos && t.find("does not exist") != std::string::npos &&
        !out.count("torchvision"))
      out["torchvision"] = trim(t);
    // JAX's CUDA plugin failing at start-up (jax/_src/xla_bridge.py), after which JAX runs on the CPU: "Jax plugin
    // configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()".
    const std::string jax_error = "Jax plugin configuration error: Exception when calling ";
    if (auto j = t.find(jax_error); j != std::string::npos) {
      std::string plugin = t.substr(j + jax_error.size());
      plugin = plugin.substr(0, plugin.find(".initialize()"));
      if (starts_with(plugin, "jax_plugins.") && !out.count(plugin)) out[plugin] = t.substr(j);
    }
    // Windows' loader since Python 3.8: "ImportError: DLL load failed while importing libtriton: The specified
    // module could not be found." (also quoted by a package: "Can't import SageAttention: DLL load failed ...").
    // A private module ("_C") is the package's whose frames the traceback went through; triton's is named.
    const std::string dll = "DLL load failed while importing ";
    if (auto d = t.find(dll); d != std::string::npos) {
      std::string module = first_word(t.substr(d + dll.size()));
      while (!module.empty() && module.back() == ':') module.pop_back();
      if (module == "libtriton") module = "triton";
      else if (starts_with(module, "_")) module = last_package;
      if (python_identifier(module) && !out.count(module)) out[module] = trim(t.substr(d));
    }
    // Unsloth's installer helper: "RuntimeError: Torch = 2.6.0+cu124 too new!".
    if (auto u = t.find(std::string("Error: ") + kUnslothTorchLead); u != std::string::npos && !out.count("unsloth")) {
      const std::string said = trim(t.substr(u + 7));
      if (says_torch_out_of_range(said)) out["unsloth"] = said;
    }
    // onnxruntime's CUDA execution provider not loading: "Failed to load library libonnxruntime_providers_cuda.so
    // with error: libcublasLt.so.11: cannot open shared object file", Windows' "LoadLibrary failed with error 126
    // ... onnxruntime_providers_cuda.dll".
    for (const char* ort : {"LoadLibrary failed", "Failed to load library"})  // Windows' words first, as both may stand
      if (auto o = t.find(ort); o != std::string::npos && t.find("onnxruntime_providers_cuda") != std::string::npos &&
                                !out.count("onnxruntime"))
        out["onnxruntime"] = trim(t.substr(o));
    // transformers' lazy modules: "Failed to import transformers.training_args because of the following error
    // (look up to see its traceback): cannot import name 'PartialState' from 'accelerate' (...)".
    if (auto l = t.find("Failed to import "); l != std::string::npos && t.find(" because of the following error") != std::string::npos) {
      const std::string module = first_word(t.substr(l + 17));
      const std::string top = module.substr(0, module.find('.'));
      if (python_identifier(top) && !out.count(top)) out[top] = trim(t.substr(l));
    }
    // bitsandbytes' loader finding no CUDA library for torch's CUDA: "bitsandbytes library load error: Configured
    // CUDA binary not found at .../libbitsandbytes_cuda131.so", "Could not find the bitsandbytes CUDA binary at
    // ...libbitsandbytes_cuda128.dll" (it then runs without its GPU kernels).
    for (const char* bnb : {"bitsandbytes library load error: ", "Could not find the bitsandbytes CUDA binary at "})
      if (auto b = t.find(bnb); b != std::string::npos && !out.count("bitsandbytes")) out["bitsandbytes"] = trim(t.substr(b));
    // TensorFlow's loader of CUDA's libraries (stream_executor's dso_loader): "Could not load dynamic library
    // 'libcudart.so.10.1'; dlerror: libcudart.so.10.1: cannot open shared object file". libcuda.so.1's line is
    // the driver's, and TensorFlow prints it on any machine without one.
    if (const auto d = t.find("Could not load dynamic library '"); d != std::string::npos && t.find("; dlerror: ") != std::string::npos &&
                                                                    t.find("'libcuda.so") == std::string::npos && !out.count("tensorflow"))
      out["tensorflow"] = trim(t.substr(d, t.find("; LD_LIBRARY_PATH") == std::string::npos ? std::string::npos : t.find("; LD_LIBRARY_PATH") - d));
    // numba's own check of numpy at import: "ImportError: Numba needs NumPy 1.24 or less" (2.1 or less. Got
    // NumPy 2.2.), also quoted by a program that loaded it ("Cannot import ...: Numba needs NumPy 1.24 or less").
    if (auto n = t.find("Numba needs NumPy "); n != std::string::npos && !out.count("numba")) out["numba"] = trim(t.substr(n));
    // CTranslate2's loader of CUDA's libraries (faster-whisper, whisperX): "RuntimeError: Library
    // cublas64_12.dll is not found or cannot be loaded", "Library libcublas.so.12 is not found or cannot be loaded".
    if (auto c = t.find("Library "); c != std::string::npos && t.find(" is not found or cannot be loaded") != std::string::npos &&
                                     !out.count("ctranslate2"))
      out["ctranslate2"] = trim(t.substr(c));
    // CuPy's loader: "RuntimeError: CuPy failed to load libnvrtc.so.12: OSError: libnvrtc.so.12: cannot open ...";
    // not cupy.show_config()'s row of the runtime it looks for beside its wheels' ("... (locally installed)").
    if (auto c = t.find("CuPy failed to load "); c != std::string::npos && t.find("(locally installed)") == std::string::npos &&
                                                 !out.count("cupy"))
      out["cupy"] = trim(t.substr(c));
    // vLLM: "WARNING 11-14 02:19:07 _custom_ops.py:20] Failed to import from vllm._C with ModuleNotFoundError(...)"
    auto at = t.find("Failed to import from vllm._C with ");
    if (at != std::string::npos && !out.count("vllm")) out["vllm"] = t.substr(at);
    const std::string line = trim(t);
    // A frame pasted without its start: 'venv/lib64/python3.11/site-packages/torch/__init__.py", line 427, in <module>'.
    const std::size_t quote = line.find_first_of("\"'");
    const bool cut_frame = !starts_with(line, "File \"") && quote != std::string::npos && quote >= 3 &&
                           line.compare(quote - 3, 11, ".py\", line ") == 0;
    if (starts_with(line, "File \"") || cut_frame) {
      std::string file = cut_frame ? line.substr(0, line.find('"')) : line.substr(6, line.find('"', 6) - 6);
      innermost_package = module_of_installed_path(file);
      if (!innermost_package.empty()) last_package = innermost_package;
      if (runpy_import && !innermost_package.empty()) {
        close_traceback("");
        raising_import = innermost_package;
        how = "python -m ";
      }
      runpy_import = false;
    }
    if (auto module = failed_extension(line, last_package); !module.empty() && !out.count(module)) out[module] = line;
    else if (auto top = missing_compiled_module(line); !top.empty() && !out.count(top)) out[top] = line;
    // An installed package's own import raising ImportError (not a missing optional module): "ImportError:
    // cannot import name 'ConvFwdAndBwdInput' from 'cumm.conv.main'" with the traceback's innermost frame in
    // site-packages/spconv: that package does not import.
    else if (starts_with(line, "ImportError: ") && !innermost_package.empty() && !out.count(innermost_package))
      out[innermost_package] = line;
    if (auto module = companion_cuda_refusal(line); !module.empty() && !out.count(module)) out[module] = line;
    // PyG's extensions check the same at import (torch_sparse/__init__.py), its second sentence often pasted
    // alone: "PyTorch has CUDA version 11.0 and torch_sparse has CUDA version 11.2".
    if (const auto pyg = line.find("PyTorch has CUDA version "); pyg != std::string::npos) {
      const auto words = words_of(line.substr(pyg));
      if (words.size() >= 10 && words[5] == "and" && words[7] == "has" && words[8] == "CUDA" &&
          starts_with(words[6], "torch_") && python_identifier(words[6]) && !out.count(words[6]))
        out[words[6]] = "PyTorch and " + words[6] + " " + kCompiledWithDifferent + " CUDA versions: " + trim(line.substr(pyg));
    }
  }
  close_traceback("");
  return out;
}

std::optional<PastedFacts> read_import_warning_report(std::string_view text) {
  PastedFacts f;
  f.format = "import warning";  // "the import warning report in X", "pasted import warning"
  f.import_errors = read_import_warnings(text);
  if (f.import_errors.empty()) return std::nullopt;
  // torchao's check names both versions.
  if (auto ao = f.import_errors.find("torchao"); ao != f.import_errors.end() && starts_with(ao->second, kTorchaoSkipsOps)) {
    const std::string& said = ao->second;
    const std::string torch = after(said, "incompatible torch version "), torchao = after(said, "for torchao version ");
    if (is_version(torch)) f.torch_version = torch;
    if (is_version(torchao)) f.packages["torchao"] = torchao;
  }
  return f;
}

// A conda list row without its header: "name  version  build  channel" with a conda build string
// ("pypi_0", "h2bbff1b_0", "py310h06a4308_0") or a known channel in the last column.
bool conda_row(const std::vector<std::string>& w) {
  if (w.size() != 3 && w.size() != 4) return false;
  if (!is_version(w[1])) return false;
  if (w.size() == 3 && w[2] == "<pip>") return true;  // conda < 4.6 marks pip's packages so (PyG 931)
  static const char* const channels[] = {"pypi", "conda-forge", "anaconda", "defaults", "pytorch", "nvidia"};
  // A channel's label too: "nvidia/label/cuda-12.1.0" (vLLM 2747).
  if (w.size() == 4)
    for (const char* c : channels)
      if (w[3] == c || starts_with(w[3], std::string(c) + "/label/")) return true;
  const std::string& b = w[2];
  auto us = b.rfind('_');
  return us != std::string::npos && us + 1 < b.size() &&
         std::all_of(b.begin() + us + 1, b.end(), [](unsigned char c) { return std::isdigit(c); }) &&
         std::all_of(b.begin(), b.begin() + us, [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.'; });
}

std::optional<PastedFacts> read_pip_show(std::string_view text) {
  PastedFacts f;
  f.format = "pip show";
  std::string name;
  bool pip_field = false;  // Summary/Location/Requires: what tells pip show from other "Name:" lines
  for (const auto& t : lines_of(text)) {
    const std::string line = trim(t);
    if (starts_with(line, "Name: ")) {
      name = trim(line.substr(6));
    } else if (starts_with(line, "Version: ") && !name.empty()) {
      const std::string version = first_word(line.substr(9));
      if (is_version(version) && name.find(' ') == std::string::npos) {
        f.packages[normalized(name)] = version;
        if (normalized(name) == "torch") f.torch_version = version;
      }
      name.clear();
    } else if (starts_with(line, "Summary:") || starts_with(line, "Location: ") || starts_with(line, "Requires:")) {
      pip_field = true;
    }
  }
  if (f.packages.empty() || !pip_field) return std::nullopt;
  return f;
}

std::optional<PastedFacts> read_package_list(std::string_view text) {
  PastedFacts f;
  int rows = 0;
  bool pip_table = false, conda = false;
  std::string pytorch_build, runtime_wheel;
  auto lines = lines_of(text);
  // collect_env's library rows pasted without the rest of the report: "[pip3] torch==2.1.0",
  // "[conda] pytorch-cuda  12.1  ha16c6d3_5  pytorch". The tag exists only in collect_env's output, so one
  // such row is a list; inside a whole collect_env its own reader reads them.
  int tagged_rows = 0;
  bool tagged_conda = false;
  if (!looks_like_collect_env(text))
    for (auto& t : lines)
      for (const char* tag : {"[pip3] ", "[pip] ", "[conda] "})
        if (starts_with(t, tag) && t.find("Could not collect") == std::string::npos) {
          tagged_conda |= tag[1] == 'c';
          t = trim(t.substr(std::string(tag).size()));
          ++tagged_rows;
        }
  // A JSON object of versions (InvokeAI's system information, cut above its "dependencies" key): `"torch" :
  // "2.7.1+cu128",` is the row "torch 2.7.1+cu128" when the name is a distribution's, the value a version, and a
  // neighbouring line is such a row too (a lone `"host": "127.0.0.1",` among a config's values is not).
  auto json_version_row = [](const std::string& t) -> std::string {
    if (t.size() < 8 || t[0] != '"' || t.find("==") != std::string::npos) return "";
    const std::string row = t.back() == ',' ? t.substr(0, t.size() - 1) : t;
    const auto close = row.find('"', 1), open = row.find('"', close + 1);
    if (close == std::string::npos || open == std::string::npos || row.back() != '"' || open + 1 >= row.size() - 1 ||
        trim(row.substr(close + 1, open - close - 1)) != ":")
      return "";
    const std::string name = row.substr(1, close - 1), version = row.substr(open + 1, row.size() - open - 2);
    return distribution_name(name) && is_version(version) && version.find(' ') == std::string::npos ? name + " " + version : "";
  };
  {
    std::vector<std::string> rows(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) rows[i] = json_version_row(lines[i]);
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (!rows[i].empty() && ((i > 0 && !rows[i - 1].empty()) || (i + 1 < lines.size() && !rows[i + 1].empty())))
        lines[i] = rows[i];
  }
  // A list pasted as a Markdown table ("blas  |  1.0  |  mkl |", its "--- | ---" rule: vision 1405) or with
  // a row emphasised ("**torchvision       0.3.0**", "*torch  2.0.0a0+8aa34602.nv23.3*"): the cells as words.
  for (auto& t : lines) {
    if (std::count(t.begin(), t.end(), '|') >= 2) {
      const bool rule = t.find_first_not_of("|-: ") == std::string::npos;
      std::replace(t.begin(), t.end(), '|', ' ');
      t = rule ? "" : trim(t);
    }
    // A freeze list inside JSON (AUTOMATIC1111's sysinfo "Packages": ["torch==2.0.1+cu118", ...]).
    if (t.size() > 4 && t[0] == '"' && t.find("==") != std::string::npos) {
      std::string row = t.back() == ',' ? t.substr(0, t.size() - 1) : t;
      if (row.size() > 2 && row.back() == '"' && row.find('"', 1) == row.size() - 1) t = row.substr(1, row.size() - 2);
    }
    // A version printed as a Python string: "torch '2.5.1+cu124'" (vision 8744).
    if (const auto words = words_of(t); words.size() == 2 && words[1].size() > 2 &&
                                        (words[1][0] == '\'' || words[1][0] == '"') && words[1].back() == words[1][0])
      t = words[0] + " " + words[1].substr(1, words[1].size() - 2);
    std::size_t lead = 0, tail = 0;
    while (lead < t.size() && lead < 2 && t[lead] == '*') ++lead;
    while (tail < t.size() - lead && tail < 2 && t[t.size() - 1 - tail] == '*') ++tail;
    if (lead > 0 && lead == tail && lead < t.size() && t[lead] != ' ') t = trim(t.substr(lead, t.size() - lead - tail));
  }
  // conda's plan before it installs ("The following NEW packages will be INSTALLED:", "  pytorch
  // conda-forge/linux-64::pytorch-1.10.0-cpu_py37hf3cc979_0"): each row as conda list prints it, "pytorch 1.10.0
  // cpu_py37hf3cc979_0 conda-forge". pytorch 30664: the solver's CPU build, about to be installed.
  int plan_rows = 0;
  bool plan_torch_family = false;
  for (auto& t : lines) {
    const auto words = words_of(t);
    const auto colons = words.size() == 2 ? words[1].find("::") : std::string::npos;
    if (colons == std::string::npos || !distribution_name(words[0])) continue;
    const std::string spec = words[1].substr(colons + 2), channel = words[1].substr(0, words[1].find('/'));
    if (!starts_with(spec, words[0] + "-")) continue;
    const std::string version_build = spec.substr(words[0].size() + 1);
    const auto dash = version_build.rfind('-');
    if (dash == std::string::npos || !is_version(version_build.substr(0, dash))) continue;
    t = words[0] + " " + version_build.substr(0, dash) + " " + version_build.substr(dash + 1) + " " + channel;
    ++plan_rows;
    plan_torch_family |= normalized(words[0]) == "pytorch" || normalized(words[0]) == "torch";
  }
  // A list retyped as Markdown bullets ("- torch                    2.3.1", AutoAWQ 559): the bullet goes
  // when the rest is a name and a version.
  for (auto& t : lines) {
    if (t.size() < 3 || (t[0] != '-' && t[0] != '*') || t[1] != ' ') continue;
    auto words = words_of(t.substr(2));
    if (words.size() == 2 && distribution_name(words[0]) && is_version(words[1])) t = trim(t.substr(2));
  }
  // The command typed above the rows ("$ pip list | grep nvidia", "~ pip3 list", "C:\venv>pip list"): rows
  // follow even when the filter left torch's family out (TransformerEngine 1853).
  bool typed_pip_list = false;
  for (const auto& t : lines) {
    auto words = words_of(t);
    // "pip", "pip3", "pip3.10", after a Windows prompt ("C:\venv>pip"): the name, then digits and dots.
    auto pip_command = [](std::string w) {
      if (auto gt = w.rfind('>'); gt != std::string::npos) w = w.substr(gt + 1);
      return starts_with(w, "pip") && w.find_first_not_of("0123456789.", 3) == std::string::npos;
    };
    // Up to "$ python -m pip list": a prompt, the interpreter and -m before it.
    for (std::size_t i = 0; i + 1 < words.size() && i < 5; ++i)
      typed_pip_list |= pip_command(words[i]) && words[i + 1] == "list";
  }
  auto torch_family_name = [](const std::string& n) {
    return n == "torch" || n == "pytorch" || n == "torchvision" || n == "torchaudio";
  };
  // conda list rows pasted without the "# Name Version Build Channel" header: three, or two with pytorch's
  // family among them ("pytorch 1.3.1 py3.6_cuda10.1.243_cudnn7.6.3_0 pytorch" and "cudatoolkit ...").
  int bare_conda_rows = 0;
  bool conda_torch_family = false;
  for (const auto& t : lines) {
    auto words = words_of(t);
    if (!conda_row(words)) continue;
    ++bare_conda_rows;
    conda_torch_family |= torch_family_name(normalized(words[0]));
  }
  if (bare_conda_rows >= 3 || (bare_conda_rows == 2 && conda_torch_family) || (plan_rows > 0 && plan_torch_family)) {
    conda = true;
    conda_torch_family |= plan_torch_family;
  }
  // pip list rows pasted without the "Package  Version" header ("torch  2.9.1+cu128"): two words, a name
  // and a version, at least two such rows and torch's family among them (so prose is not read as a list).
  // Without torch's family, a fragment of the table is still one when five or more rows of different
  // names have their versions in one column, as pip pads them (verl 974: the nvidia-* rows of a cut list),
  // and they are most of the paste (detectron2's table pads its "numpy  1.23.5" rows the same way).
  int bare_pip_rows = 0;
  bool torch_family = false;
  std::map<std::size_t, std::set<std::string>> names_by_version_column;
  for (const auto& t : lines) {
    auto words = words_of(t);
    if (words.size() != 2 || !distribution_name(words[0]) || !is_version(words[1])) continue;
    ++bare_pip_rows;
    torch_family |= torch_family_name(normalized(words[0]));
    names_by_version_column[t.rfind(words[1])].insert(normalized(words[0]));
  }
  bool padded_table = false;
  const auto non_empty = std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return !l.empty(); });
  for (const auto& column : names_by_version_column)
    padded_table |= column.second.size() >= 5 && 5 * column.second.size() >= 3 * static_cast<std::size_t>(non_empty);
  // Below a typed `pip list | grep X` one row is the list (sglang 7033).
  if (!conda && (bare_pip_rows >= 2 || (typed_pip_list && bare_pip_rows == 1)) &&
      (torch_family || typed_pip_list || padded_table))
    pip_table = true;
  bool freeze_torch_family = false;
  for (const auto& t : lines) {
    if (starts_with(t, "# packages in environment at") ||
        ((starts_with(t, "# Name") || starts_with(t, "Name ")) && t.find("Build") != std::string::npos)) {
      conda = true;
      continue;
    }
    if (starts_with(t, "Package") && t.find("Version") != std::string::npos) {
      pip_table = true;
      continue;
    }
    if (t.empty() || t[0] == '#' || starts_with(t, "---")) continue;
    std::string name, version;
    bool freeze_row = false;
    if (auto eq = t.find("=="); eq != std::string::npos && t.find(' ') == std::string::npos) {
      name = t.substr(0, eq);
      version = t.substr(eq + 2);
      freeze_row = true;
    } else if (pip_table || conda || tagged_conda) {
      auto words = words_of(t);
      if (words.size() < 2 || (pip_table && words.size() > 3 && !conda) || (conda && words.size() > 4)) continue;
      name = words[0];
      version = words[1];
      if (conda && words.size() >= 3 && (name == "pytorch" || name == "torch")) pytorch_build = words[2];
    }
    if (!distribution_name(name) || !is_version(version)) continue;
    std::string key = normalized(name);
    if (key == "pytorch") key = "torch";
    if (!f.packages.count(key)) f.packages[key] = version;
    ++rows;
    freeze_torch_family |= freeze_row && torch_family_name(key);
    if (key == "nvidia-cuda-runtime-cu12" || key == "nvidia-cuda-runtime-cu11") runtime_wheel = version;
  }
  // Two freeze rows are a list when torch's family is one of them ("torch==1.11.0+cu115", "dgl==1.0.1": DGL 5427);
  // two others may as well be a requirements file (jax 371's "jax==0.1.18", "jaxlib==0.1.7" stay unread).
  if (rows == 0 || (rows < 3 && tagged_rows == 0 && !(pip_table && (torch_family || typed_pip_list)) &&
                    !(conda && conda_torch_family) && !freeze_torch_family))
    return std::nullopt;
  f.format = tagged_rows > 0 ? "collect_env libraries" : conda ? "conda list" : pip_table ? "pip list" : "pip freeze";
  if (f.packages.count("torch")) {
    f.torch_version = f.packages["torch"];
    if (auto c = torch_cuda_from_local_tag(f.torch_version)) {
      f.torch_cuda = *c;
    } else if (conda && f.packages.count("cpuonly")) {
      f.torch_cuda = std::string();
    } else if (conda && !pytorch_build.empty()) {
      // pytorch's conda build string: "py3.10_cuda11.8_cudnn8.7.0_0", "cuda118_py310h...", "py3.9_cpu_0".
      if (pytorch_build.find("cpu") != std::string::npos) f.torch_cuda = std::string();
      else if (auto at = pytorch_build.find("cuda"); at != std::string::npos) {
        std::string digits;
        for (std::size_t i = at + 4; i < pytorch_build.size() && (std::isdigit(static_cast<unsigned char>(pytorch_build[i])) || pytorch_build[i] == '.'); ++i)
          digits += pytorch_build[i];
        if (auto c = cuda_from_digits(digits); !c.empty()) f.torch_cuda = c;
      }
    } else if (conda && f.packages.count("pytorch-cuda")) {
      f.torch_cuda = cuda_from_digits(f.packages["pytorch-cuda"]);
    } else if (!conda && !runtime_wheel.empty()) {
      // PyPI's torch >= 2.0 for Linux requires the nvidia-cuda-runtime wheel of the CUDA it was built with.
      f.torch_cuda = cuda_from_digits(runtime_wheel.substr(0, runtime_wheel.find('.', runtime_wheel.find('.') + 1)));
    }
  }
  return f;
}

}  // namespace gpucheck::inventory
