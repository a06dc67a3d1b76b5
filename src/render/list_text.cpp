// `gpucheck list`: one line per probe (id, levels, timeout, title) from the report's "probes" section.
#include <fmt/format.h>

#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {

void list(const report::Report& r, std::ostream& out, const RenderOptions&) {
  out << fmt::format("{:<24} {:<22} {:>8}  {}\n", "ID", "LEVELS", "TIMEOUT", "TITLE");
  const auto* probes = r.find_section("probes");
  if (!probes) return;
  for (const auto& f : probes->findings) {
    const auto& d = f.details;
    auto levels = d.is_object() ? d.value("levels", std::vector<std::string>{}) : std::vector<std::string>{};
    double timeout = d.is_object() ? d.value("timeout_s", 0.0) : 0.0;
    out << fmt::format("{:<24} {:<22} {:>7.0f}s  {}\n", f.id, join(levels, ","), timeout, f.title);
  }
}

}  // namespace gpucheck::render::text
