#include "inventory/library_version.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/json_input.h"
#include "core/cuda_version.h"
#include "core/paths.h"
#include "core/subprocess.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

const std::map<std::string, std::string>& version_functions() {
  static const std::map<std::string, std::string> kFunctions = {
      {"cudart", "cudaRuntimeGetVersion"}, {"cublas", "cublasGetProperty"}, {"cublasLt", "cublasLtGetVersion"},
      {"cudnn", "cudnnGetVersion"},        {"nccl", "ncclGetVersion"},       {"nvrtc", "nvrtcVersion"},
      {"nvjitlink", "nvJitLinkVersion"}};
  return kFunctions;
}

namespace {
std::string dotted(long long a, long long b) { return std::to_string(a) + "." + std::to_string(b); }
std::string dotted(long long a, long long b, long long c) { return dotted(a, b) + "." + std::to_string(c); }
}  // namespace

std::string decode_version(const std::string& name, const std::vector<long long>& raw) {
  if (raw.empty() || raw[0] <= 0) return "";
  long long v = raw[0];
  // cudaRuntimeGetVersion: 1000*major + 10*minor (CUDA Runtime API reference).
  if (name == "cudart") return cuda_int_to_string(static_cast<int>(v));
  if (name == "cublas" && raw.size() >= 3) return dotted(raw[0], raw[1], raw[2]);
  // cublasLtGetVersion returns CUBLAS_VERSION = major*10000 + minor*100 + patch (cublas_api.h).
  if (name == "cublasLt") return dotted(v / 10000, (v % 10000) / 100, v % 100);
  if (name == "cudnn") {
    // cuDNN 9 encodes major*10000 + minor*100 + patch; up to 8, major*1000 + minor*100 + patch
    // (CUDNN_VERSION in cudnn_version.h of each release; 9.x: /usr/local/cuda/include/cudnn_version.h here).
    if (v >= 90000) return dotted(v / 10000, (v % 10000) / 100, v % 100);
    return dotted(v / 1000, (v % 1000) / 100, v % 100);
  }
  if (name == "nccl") {
    // NCCL_VERSION(X,Y,Z): X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z from 2.9 on
    // (https://github.com/NVIDIA/nccl/blob/master/src/nccl.h.in).
    if (v >= 10000) return dotted(v / 10000, (v % 10000) / 100, v % 100);
    return dotted(v / 1000, (v % 1000) / 100, v % 100);
  }
  if ((name == "nvrtc" || name == "nvjitlink") && raw.size() >= 2) return dotted(raw[0], raw[1]);
  return "";
}

std::string version_helper_path() {
  std::string p = probe_dir() + "/gpucheck-libversion";
  return access(p.c_str(), X_OK) == 0 ? p : "";
}

std::string version_helper_audit_path() {
  std::string p = probe_dir() + "/gpucheck-libversion-audit.so";
  return access(p.c_str(), R_OK) == 0 ? p : "";
}

std::map<std::string, VersionReading> parse_version_helper_output(const std::string& text) {
  std::map<std::string, VersionReading> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto j = parse_json_or_discarded(line);
    if (j.is_discarded() || !j.is_object()) continue;
    try {  // value() throws on a field of another type: such a line is not the helper's
      std::string path = j.value("path", ""), name = j.value("name", "");
      VersionReading reading;
      reading.error = j.value("error", "");
      if (reading.error.empty()) {
        std::vector<long long> raw = j.value("raw", std::vector<long long>{});
        reading.version = decode_version(name, raw);
        auto fn = version_functions().find(name);
        reading.source = (fn == version_functions().end() ? name : fn->second) + " via dlopen";
        if (reading.version.empty()) reading.error = "version function returned " + j.value("raw", nlohmann::json()).dump();
      }
      out[path] = reading;
    } catch (const nlohmann::json::exception&) {
      continue;
    }
  }
  return out;
}

std::map<std::string, VersionReading> read_versions_in_child(const std::vector<VersionRequest>& requests) {
  std::map<std::string, VersionReading> out;
  if (requests.empty()) return out;
  std::string helper = version_helper_path();
  if (helper.empty()) {
    for (const auto& r : requests) out[r.path].error = "gpucheck-libversion helper not installed in " + probe_dir();
    return out;
  }
  std::vector<std::string> argv = {helper};
  for (const auto& r : requests) argv.push_back(r.name + "=" + r.path);
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(20);
  // Keep the child from finding the caller's CUDA libraries in place of the file it was asked about: no
  // preload, and the files' own directory first on LD_LIBRARY_PATH, so what they open by SONAME is their own
  // release (cuDNN 9's cudnnGetVersion answers from the libcudnn_graph it opened: with another release first
  // on LD_LIBRARY_PATH it named that one's number, issue 13).
  o.unset_env = {"LD_PRELOAD"};
  std::string own_dirs;
  for (const auto& r : requests) {
    const std::string dir = parent_dir(r.path);
    if (!dir.empty() && (":" + own_dirs + ":").find(":" + dir + ":") == std::string::npos)
      own_dirs += (own_dirs.empty() ? "" : ":") + dir;
  }
  const char* inherited = std::getenv("LD_LIBRARY_PATH");
  o.set_env["LD_LIBRARY_PATH"] = own_dirs + (inherited && *inherited ? std::string(":") + inherited : "");
  // Huge pages for the libraries' .bss (thp_audit.c): the same load, a third faster for libcublasLt.
  if (std::string audit = version_helper_audit_path(); !audit.empty()) o.set_env["LD_AUDIT"] = audit;
  else o.unset_env.push_back("LD_AUDIT");
  auto res = run_subprocess(argv, o);
  out = parse_version_helper_output(res.out);
  for (const auto& r : requests)
    if (!out.count(r.path)) out[r.path].error = "version helper " + res.describe() + " before reporting this library";
  return out;
}

}  // namespace gpucheck::inventory
