#include "report/report.h"

#include <unistd.h>

#include <filesystem>

#include "core/errors.h"

namespace gpucheck::report {

Summary summarize(const std::vector<Result>& results, bool strict) {
  Summary s;
  for (const char* name : {"pass", "warn", "skip", "fail", "error"}) s.counts[name] = 0;
  for (auto& r : results) s.counts[to_string(r.status)]++;
  if (s.counts["fail"] > 0) s.exit_code = kExitFailed;
  else if (s.counts["error"] > 0) s.exit_code = kExitNoVerdict;
  else if (strict && s.counts["skip"] > 0) s.exit_code = kExitFailed;
  else s.exit_code = kExitOk;
  s.verdict = s.exit_code == kExitOk ? "PASS" : s.exit_code == kExitFailed ? "FAIL" : "NO VERDICT";
  return s;
}

nlohmann::json to_json(const Report& r) {
  Summary s = summarize(r.results, r.meta.strict);
  nlohmann::json j;
  j["schema_version"] = kReportSchemaVersion;
  j["kind"] = "gpucheck.report";
  j["tool"] = {{"name", "gpucheck"}, {"version", r.meta.tool_version}};
  j["host"] = r.meta.hostname;
  j["started_at"] = r.meta.started_at;
  j["finished_at"] = r.meta.finished_at;
  j["command_line"] = r.meta.command_line;
  j["level"] = r.meta.level;
  j["strict"] = r.meta.strict;
  j["environment"] = r.meta.environment;
  j["summary"] = {{"counts", s.counts}, {"exit_code", s.exit_code}, {"verdict", s.verdict}};
  j["results"] = r.results;
  j["inventory"] = r.inventory;
  return j;
}

Report report_from_json(const nlohmann::json& j) {
  if (!j.is_object() || j.value("kind", "") != "gpucheck.report")
    throw InputError("not a gpucheck report (kind != gpucheck.report)");
  try {
    Report r;
    r.meta.tool_version = j.at("tool").at("version").get<std::string>();
    r.meta.hostname = j.at("host").get<std::string>();
    r.meta.started_at = j.value("started_at", "");
    r.meta.finished_at = j.value("finished_at", "");
    r.meta.command_line = j.value("command_line", std::vector<std::string>{});
    r.meta.level = j.value("level", "");
    r.meta.strict = j.value("strict", false);
    r.meta.environment = j.value("environment", std::map<std::string, std::string>{});
    for (auto& rj : j.at("results")) {
      Result res;
      from_json(rj, res);
      r.results.push_back(std::move(res));
    }
    r.inventory = j.value("inventory", nlohmann::json());
    return r;
  } catch (const std::exception& e) {
    throw InputError(std::string("malformed gpucheck report: ") + e.what());
  }
}

bool looks_secret(const std::string& name) {
  for (const char* word : {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL", "AUTH"})
    if (name.find(word) != std::string::npos) return true;
  return false;
}

bool is_allowed_variable(const std::string& name) {
  static const char* exact[] = {"CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
                                "LD_LIBRARY_PATH", "LD_PRELOAD", "PATH", "TORCH_CUDA_ARCH_LIST",
                                "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "VIRTUAL_ENV", "PYTHONPATH",
                                "CC", "CXX", "CUDAHOSTCXX", "NVCC_CCBIN", "NVCC_APPEND_FLAGS",
                                "NVCC_PREPEND_FLAGS", "OMP_NUM_THREADS", "SLURM_JOB_ID", "SLURM_NODELIST",
                                "SLURM_PROCID", "SLURM_LOCALID", "OMPI_COMM_WORLD_RANK",
                                "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE"};
  for (auto* e : exact)
    if (name == e) return true;
  for (const char* prefix : {"NCCL_", "CUDA_MODULE_", "CUDA_LAUNCH_", "PYTORCH_", "NVIDIA_", "GPUCHECK_"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

std::map<std::string, std::string> allowed_environment(char** envp) {
  std::map<std::string, std::string> out;
  for (char** e = envp; e && *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (!is_allowed_variable(name)) continue;
    out[name] = looks_secret(name) ? "<redacted>" : entry.substr(eq + 1);
  }
  return out;
}

std::string default_report_path(const std::string& dir, const std::string& host, const std::string& compact_time) {
  std::string base = dir + "/" + host + "-" + compact_time;
  std::string path = base + ".json";
  std::error_code ec;
  for (int n = 2; std::filesystem::exists(path, ec); ++n) path = base + "-" + std::to_string(n) + ".json";
  return path;
}

std::string hostname() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "unknown-host";
  std::string h(buf);
  for (char& c : h)
    if (c == '/' || c == ' ') c = '_';
  return h.empty() ? "unknown-host" : h;
}

}  // namespace gpucheck::report
