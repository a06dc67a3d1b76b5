#include "render/compare_rows.h"

#include <fmt/format.h>

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

std::vector<Row> rows(const report::Report& r) {
  std::vector<Row> out;
  const auto* s = r.find_section("benchmarks");
  if (!s) return out;
  for (const auto& f : s->findings) {
    if (f.id.rfind("bench.", 0) != 0 || !f.details.is_object()) continue;
    Row row;
    row.finding = &f;
    row.name = f.details.value("name", f.title);
    const std::string suffix = "/manual_time";
    if (row.name.size() > suffix.size() && row.name.compare(row.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      row.name.resize(row.name.size() - suffix.size());
    row.verdict = f.details.value("verdict", "");
    if (f.details.contains("base") && f.details["base"].is_object() && f.details.contains("p")) {
      row.base = format_time(f.details["base"].value("median_ns", 0.0));
      row.now = format_time(f.details["new"].value("median_ns", 0.0));
      row.change = fmt::format("{:+.1f}%", 100 * f.details.value("change", 0.0));
      double p = f.details.value("p", 1.0);
      row.p = p >= 0.001 ? fmt::format("{:.3f}", p) : fmt::format("{:.1e}", p);
    } else {
      row.base = row.now = row.change = row.p = "-";
    }
    out.push_back(row);
  }
  return out;
}

}  // namespace gpucheck::render::compare
