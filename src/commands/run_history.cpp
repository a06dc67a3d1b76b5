#include "commands/run_history.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <vector>

#include "core/text.h"
#include "model/report.h"

namespace gpucheck::commands {
namespace {

constexpr std::size_t kReportsRead = 5;  // enough for a run with --only and a full one; bounded time

}  // namespace

std::map<std::string, double> recorded_durations(const std::string& dir, const std::string& host,
                                                 const std::string& level) {
  namespace fs = std::filesystem;
  std::vector<std::string> names;  // host-20261205T070000Z.json: the UTC time sorts them
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > host.size() + 1 && starts_with(name, host + "-") &&
        std::isdigit(static_cast<unsigned char>(name[host.size() + 1])) && ends_with(name, ".json"))
      names.push_back(name);
  }
  std::sort(names.rbegin(), names.rend());
  std::map<std::string, double> out;
  for (std::size_t i = 0; i < names.size() && i < kReportsRead; ++i) {
    try {
      const model::Report r = model::read_report_file(dir + "/" + names[i]);
      if (r.meta.command != "run" || r.meta.level != level) continue;
      if (const auto* probes = r.find_section("probes"))
        for (const auto& f : probes->findings)
          if (f.duration_s > 0) out.emplace(f.id, f.duration_s);  // emplace: the newer report's stays
    } catch (const std::exception&) {  // not a report, unreadable, or another schema: no record from it
    }
  }
  return out;
}

}  // namespace gpucheck::commands
