#include "inventory/toolkit_scan.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/json_input.h"
#include "core/cuda_version.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "platform/dist_info.h"
#include "inventory/host_compiler_range.h"
#include "knowledge/text_pattern.h"
#include "platform/environment.h"

namespace gpucheck::inventory {

namespace {

// The places a toolkit keeps its headers: classic layout, then the targets/ layout of conda and newer
// runfile installs.
const std::vector<std::string> kIncludeDirs = {"include", "targets/x86_64-linux/include",
                                               "targets/sbsa-linux/include"};

bool looks_like_toolkit(const platform::RootFs& fs, const std::string& root) {
  for (const char* marker : {"bin/nvcc", "bin/ptxas", "version.json", "version.txt"})
    if (fs.exists(path_join(root, marker))) return true;
  for (const auto& inc : kIncludeDirs)
    if (fs.exists(path_join(root, inc + "/cuda_runtime_api.h"))) return true;
  return false;
}

std::string first_existing_include(const platform::RootFs& fs, const std::string& root, const std::string& rel) {
  for (const auto& inc : kIncludeDirs) {
    std::string p = path_join(root, inc + "/" + rel);
    if (fs.is_file(p)) return p;
  }
  return "";
}

// conda-meta/<name>-<version>-<build>.json -> version of the first package in `names` present.
std::string conda_meta_version(const platform::RootFs& fs, const std::string& prefix, const std::vector<std::string>& names,
                               std::string& which) {
  auto files = fs.list(path_join(prefix, "conda-meta"));
  for (const auto& name : names) {
    for (const auto& f : files) {
      if (!starts_with(f, name + "-") || !ends_with(f, ".json")) continue;
      std::string rest = f.substr(name.size() + 1, f.size() - name.size() - 6);
      auto dash = rest.find('-');
      std::string version = rest.substr(0, dash);
      if (version.empty() || !std::isdigit(static_cast<unsigned char>(version[0]))) continue;
      which = f;
      return version;
    }
  }
  return "";
}

// A pip toolkit lives in site-packages/nvidia/cuda_nvcc (or nvidia/cu13); its dist-info sits in site-packages.
std::string pip_site_packages_of(const std::string& root) {
  std::string parent = parent_dir(root);
  if (base_name(parent) == "nvidia") return parent_dir(parent);
  return "";
}

}  // namespace

std::string parse_version_txt(const std::string& text) {
  static const knowledge::TextPattern re(R"(CUDA Version[[:space:]]+([0-9][0-9.]*))");
  auto m = re.search(text);
  return m ? m->str(1) : "";
}

std::string parse_version_json(const std::string& text) {
  auto j = parse_json_or_discarded(text);
  if (j.is_discarded() || !j.is_object()) return "";
  if (j.contains("cuda") && j["cuda"].is_object() && j["cuda"].contains("version") && j["cuda"]["version"].is_string())
    return j["cuda"]["version"].get<std::string>();
  return "";
}

std::string parse_cuda_h_version(const std::string& text) {
  // At most 9 digits: a longer number is no CUDA version (and would not fit an int).
  static const knowledge::TextPattern re(R"(#define[[:space:]]+CUDA_VERSION[[:space:]]+([0-9]{1,9})(?:[^0-9]|$))");
  auto m = re.search(text);
  if (!m) return "";
  return cuda_int_to_string(std::stoi(m->str(1)));
}

std::string parse_nvcc_version(const std::string& text) {
  static const knowledge::TextPattern full(R"(release[[:space:]]+[0-9.]+,[[:space:]]+V([0-9][0-9.]*))");
  static const knowledge::TextPattern rel(R"(release[[:space:]]+([0-9][0-9.]*))");
  if (auto m = full.search(text)) return m->str(1);
  if (auto m = rel.search(text)) return m->str(1);
  return "";
}

void read_toolkit_version(const platform::RootFs& fs, Toolkit& tk, bool allow_exec) {
  const std::string& root = tk.root;
  if (auto v = parse_version_json(fs.read(path_join(root, "version.json"), 1u << 20)); !v.empty()) {
    tk.version = v, tk.version_source = "version.json";
    return;
  }
  if (auto v = parse_version_txt(fs.read(path_join(root, "version.txt"), 4096)); !v.empty()) {
    tk.version = v, tk.version_source = "version.txt";
    return;
  }
  // Wheel-assembled toolkits (like this repo's CI machine) keep the wheels' dist-info/ beside bin/;
  // pip toolkits have it in the site-packages above nvidia/.
  std::vector<std::string> dist_dirs = {path_join(root, "dist-info")};
  if (auto sp = pip_site_packages_of(root); !sp.empty()) dist_dirs.push_back(sp);
  for (const auto& dir : dist_dirs) {
    auto pkgs = platform::read_dist_infos(fs, dir);
    for (const char* name : {"nvidia-cuda-nvcc", "nvidia-cuda-nvcc-cu13", "nvidia-cuda-nvcc-cu12", "nvidia-cuda-nvcc-cu11",
                             "nvidia-cuda-runtime", "nvidia-cuda-runtime-cu12", "nvidia-cuda-runtime-cu11"}) {
      auto it = pkgs.find(name);
      if (it == pkgs.end() || it->second.empty()) continue;
      // In a site-packages only the nvcc wheel describes nvidia/cuda_nvcc; the runtime wheel is another package.
      if (dir != dist_dirs[0] && std::string(name).find("nvcc") == std::string::npos) continue;
      tk.version = it->second, tk.version_source = "dist-info " + std::string(name);
      return;
    }
  }
  std::string which;
  if (auto v = conda_meta_version(fs, root, {"cuda-nvcc", "cuda-version", "cudatoolkit"}, which); !v.empty()) {
    tk.version = v, tk.version_source = "conda-meta/" + which;
    return;
  }
  if (auto h = first_existing_include(fs, root, "cuda.h"); !h.empty()) {
    if (auto v = parse_cuda_h_version(fs.read(h, 1u << 20)); !v.empty()) {
      tk.version = v, tk.version_source = "cuda.h CUDA_VERSION";
      return;
    }
  }
  if (allow_exec && fs.live() && !tk.nvcc.empty()) {
    SubprocessOptions o;
    o.timeout = std::chrono::seconds(10);
    auto r = run_subprocess({tk.nvcc, "--version"}, o);
    if (auto v = parse_nvcc_version(r.out); !v.empty()) tk.version = v, tk.version_source = "nvcc --version";
  }
}

std::vector<Toolkit> scan_toolkits(const platform::RootFs& fs, const ToolkitScanInput& in) {
  struct Candidate {
    std::string path;  // as found, before resolving
    std::string via;
  };
  std::vector<Candidate> cands;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH", "CUDAToolkit_ROOT", "CUDA_ROOT"})
    if (auto v = platform::env_value(in.env, var); !v.empty()) cands.push_back({v, var});
  if (auto v = platform::env_value(in.env, "CUDACXX"); !v.empty()) cands.push_back({parent_dir(parent_dir(fs.resolve(v))), "CUDACXX"});
  if (auto nvcc = fs.which("nvcc", platform::env_value(in.env, "PATH")); !nvcc.empty())
    cands.push_back({parent_dir(parent_dir(fs.resolve(nvcc))), "PATH"});
  if (fs.exists("/usr/local/cuda")) cands.push_back({"/usr/local/cuda", "/usr/local/cuda"});
  for (const auto& p : fs.glob_prefix("/usr/local", "cuda-")) cands.push_back({p, "/usr/local/cuda-*"});
  for (const auto& p : fs.glob_prefix("/opt", "cuda")) cands.push_back({p, "/opt/cuda*"});
  for (const auto& prefix : in.conda_roots) cands.push_back({prefix, "conda:" + prefix});
  for (const auto& sp : in.site_packages)
    for (const char* sub : {"nvidia/cuda_nvcc", "nvidia/cu13"})
      if (fs.is_dir(path_join(sp, sub))) {
        auto pkgs = platform::read_dist_infos(fs, sp);
        std::string pkg = "nvidia-cuda-nvcc";
        for (const auto& [name, version] : pkgs)
          if (starts_with(name, "nvidia-cuda-nvcc")) pkg = name;
        cands.push_back({path_join(sp, sub), "pip:" + pkg});
      }

  std::vector<Toolkit> out;
  std::string usr_local_cuda = fs.resolve("/usr/local/cuda");
  for (const auto& c : cands) {
    std::string real = fs.resolve(c.path);
    if (real.empty() || !fs.is_dir(real) || !looks_like_toolkit(fs, real)) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const Toolkit& t) { return t.root == real; });
    if (it == out.end()) {
      Toolkit tk;
      tk.root = real;
      out.push_back(tk);
      it = out.end() - 1;
    }
    if (std::find(it->found_via.begin(), it->found_via.end(), c.via) == it->found_via.end())
      it->found_via.push_back(c.via);
    if (c.path != real && std::find(it->aliases.begin(), it->aliases.end(), c.path) == it->aliases.end())
      it->aliases.push_back(c.path);
  }
  for (auto& tk : out) {
    if (fs.is_executable(path_join(tk.root, "bin/nvcc"))) tk.nvcc = path_join(tk.root, "bin/nvcc");
    tk.is_usr_local_cuda = !usr_local_cuda.empty() && usr_local_cuda == tk.root;
    // CUDA 9 moved the guards to crt/host_config.h (include/host_config.h became a wrapper); up to 8 they
    // are in include/host_config.h itself.
    auto h = first_existing_include(fs, tk.root, "crt/host_config.h");
    if (h.empty()) h = first_existing_include(fs, tk.root, "host_config.h");
    if (!h.empty()) {
      // The enforced bounds only; collect() adds the support policy for the rest.
      tk.host_compilers = parse_host_config(fs.read(h, 1u << 20), h);
    }
    read_toolkit_version(fs, tk, in.allow_exec);
  }
  return out;
}

}  // namespace gpucheck::inventory
