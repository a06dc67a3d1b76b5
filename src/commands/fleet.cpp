#include "commands/fleet.h"

#include <algorithm>
#include <filesystem>

#include "core/errors.h"
#include "core/files.h"
#include "core/json_input.h"
#include "core/text.h"

namespace gpucheck::commands {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> report_files(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<std::string> here;
      for (auto& e : fs::directory_iterator(in, ec))
        if (e.path().extension() == ".json" && e.is_regular_file(ec)) here.push_back(e.path().string());
      std::sort(here.begin(), here.end());
      files.insert(files.end(), here.begin(), here.end());
    } else if (fs::exists(in, ec)) {
      files.push_back(in);
    } else {
      throw InputError(in + ": no such file or directory");
    }
  }
  if (files.empty()) throw InputError("no report (*.json) in " + join(inputs, ", "));
  return files;
}

// The file is the JSON of one multi-node probe (collectives.nccl --json): an object with an id and
// per-rank devices, not a report.
bool is_probe_result(const nlohmann::json& j) {
  return j.is_object() && j.contains("id") && j["id"].is_string() && j.contains("devices") && !j.contains("sections");
}

report::FleetFile read_fleet_file(const std::string& path) {
  report::FleetFile f;
  f.path = path;
  try {
    nlohmann::json doc = parse_json_or_discarded(read_file(path));
    if (is_probe_result(doc)) {
      Finding probe;
      try {
        from_json(doc, probe);
      } catch (const std::exception& e) {
        throw InputError(path + ": not a probe result: " + e.what());
      }
      f.probe = std::move(probe);
      return f;
    }
    f.report = model::read_report_file(path);
  } catch (const InputError& e) {
    f.problem = e.what();  // an incomplete node, named by its file
  }
  return f;
}

}  // namespace

model::Report fleet_merge(const std::vector<std::string>& inputs, const report::FleetOptions& o, model::Report base) {
  std::vector<report::FleetFile> files;
  for (const auto& path : report_files(inputs)) files.push_back(read_fleet_file(path));
  return report::fleet_report(std::move(base), inputs, std::move(files), o);
}

}  // namespace gpucheck::commands
