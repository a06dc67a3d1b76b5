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
    const model::ProbeListing p = model::probe_listing(f);
    out << fmt::format("{:<24} {:<22} {:>7.0f}s  {}\n", f.id, join(p.levels, ","), p.timeout_s, f.title);
  }
}

}  // namespace gpucheck::render::text
