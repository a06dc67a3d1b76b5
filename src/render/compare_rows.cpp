#include "render/compare_rows.h"

#include <fmt/format.h>

#include "model/finding_details.h"

namespace gpucheck::render::compare {

std::string format_time(double ns) {
  const char* unit = "ns";
  double v = ns;
  if (ns >= 1e9) { v = ns / 1e9; unit = "s"; }
  else if (ns >= 1e6) { v = ns / 1e6; unit = "ms"; }
  else if (ns >= 1e3) { v = ns / 1e3; unit = "us"; }
  int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return fmt::format("{:.{}f} {}", v, decimals, unit);
}

std::vector<Row> rows(const model::Report& r) {
  std::vector<Row> out;
  const auto* s = r.find_section("benchmarks");
  if (!s) return out;
  for (const auto& f : s->findings) {
    if (f.id.rfind("bench.", 0) != 0) continue;
    const std::optional<model::BenchmarkComparison> c = model::benchmark_comparison(f);
    if (!c) continue;
    Row row;
    row.finding = &f;
    row.name = c->name;
    const std::string suffix = "/manual_time";
    if (row.name.size() > suffix.size() && row.name.compare(row.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      row.name.resize(row.name.size() - suffix.size());
    row.verdict = c->verdict;
    row.change = c->change;
    if (c->measured) {
      row.base = format_time(c->base_median_ns);
      row.now = format_time(c->new_median_ns);
      row.shown_change = fmt::format("{:+.1f}%", 100 * (std::isnan(c->change) ? 0.0 : c->change));
      row.p = c->p >= 0.001 ? fmt::format("{:.3f}", c->p) : fmt::format("{:.1e}", c->p);
    } else {
      row.base = row.now = row.shown_change = row.p = "-";
    }
    out.push_back(row);
  }
  return out;
}

}  // namespace gpucheck::render::compare
