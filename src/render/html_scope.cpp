#include "render/html_scope.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/text.h"
#include "model/details.h"

namespace gpucheck::render::html {
namespace {

bool ran(Status s) { return s != Status::kSkip && s != Status::kError; }

std::string names(const std::vector<std::string>& ids, std::size_t most = 8) {
  std::vector<std::string> shown(ids.begin(), ids.begin() + static_cast<long>(std::min(most, ids.size())));
  return join(shown, ", ") + (ids.size() > most ? fmt::format(" and {} more", ids.size() - most) : "");
}

void run_scope(const model::Report& r, const model::RunDetails& d, Scope& s) {
  const auto& probes = d.gpu_probes;
  const std::set<std::string> gpu(probes.begin(), probes.end());
  std::vector<std::string> gpu_ran, gpu_not, host_ran, host_not;
  std::string first_reason;
  for (const auto* f : r.findings()) {
    const bool on_gpu = gpu.count(f->id) > 0;
    auto& bucket = on_gpu ? (ran(f->status) ? gpu_ran : gpu_not) : (ran(f->status) ? host_ran : host_not);
    bucket.push_back(f->id);
    if (on_gpu && !ran(f->status) && first_reason.empty()) first_reason = f->summary;
  }
  const std::string level = r.meta.level.empty() ? "" : " at level " + r.meta.level;
  if (!gpu.empty() && gpu_ran.empty())
    s.lines.push_back(fmt::format("{}one of the {} GPU probes{} ran on a GPU{}.",
                                  s.verdict == "NO GPU TESTED" ? "N" : "NO GPU TESTED: n", gpu.size(), level,
                                  first_reason.empty() ? "" : " (first reason: " + first_reason + ")"));
  else if (!gpu.empty())
    s.lines.push_back(fmt::format("GPU tested: {} of {} GPU probes{} ran ({}).", gpu_ran.size(), gpu.size(), level,
                                  names(gpu_ran)));
  if (!gpu_not.empty() && !gpu_ran.empty())
    s.lines.push_back(fmt::format("Not tested on a GPU: {}{}.", names(gpu_not),
                                  first_reason.empty() ? "" : " (" + first_reason + ")"));
  if (!host_ran.empty()) s.lines.push_back(fmt::format("Host-side checks that ran: {}.", names(host_ran)));
  if (!host_not.empty()) s.lines.push_back(fmt::format("Host-side checks without a result: {}.", names(host_not)));
  if (gpu.empty()) s.lines.push_back("This report names no GPU probe: nothing is known about the GPUs.");
}

void fleet_scope(const model::Report& r, Scope& s) {
  int accept = 0, reject = 0, incomplete = 0;
  if (const auto* nodes = r.find_section("nodes"))
    for (auto& f : nodes->findings)
      (f.status == Status::kPass ? accept : f.status == Status::kFail ? reject : incomplete)++;
  s.lines.push_back(fmt::format("{} node reports merged: {} accepted, {} rejected, {} incomplete.",
                                accept + reject + incomplete, accept, reject, incomplete));
  s.lines.push_back("Judged from the nodes' own run reports; this command ran nothing on the nodes.");
}

void compare_scope(const model::CompareDetails& d, Scope& s) {
  const std::string base = d.mode == "history" ? fmt::format("{} documents", d.base.size())
                           : d.base.empty()    ? "(none)"
                                               : d.base.front();
  s.lines.push_back("Compared benchmark documents: base " + base + ", new " +
                    (d.new_document.empty() ? "(none)" : d.new_document) + ".");
  s.lines.push_back("Nothing was measured now: the times are those recorded by gpucheck bench.");
}

}  // namespace

Scope tested_scope(const model::Report& r, const model::Verdict& v) {
  Scope s;
  s.verdict = v.word;
  s.tone = v.tone;
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, model::RunDetails>) run_scope(r, d, s);
        else if constexpr (std::is_same_v<T, model::FleetDetails>) fleet_scope(r, s);
        else if constexpr (std::is_same_v<T, model::CompareDetails>) compare_scope(d, s);
        else if constexpr (std::is_same_v<T, model::BenchDetails>)
          s.lines.push_back(fmt::format("Benchmarks ran on this machine: {} in all, {} of them skipped; the times are "
                                        "in the benchmark document.",
                                        d.benchmarks ? std::to_string(*d.benchmarks) : "?", d.skipped.size()));
        else if constexpr (std::is_same_v<T, model::ListDetails> || std::is_same_v<T, model::VersionDetails>)
          s.lines.push_back("A listing: nothing was tested.");
        else
          s.lines.push_back("The installed stack was read (files, versions, libraries); nothing ran on a GPU.");
      },
      model::details_of(r));
  return s;
}

}  // namespace gpucheck::render::html
