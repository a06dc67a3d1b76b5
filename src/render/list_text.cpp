// `gpucheck list`: one line per probe (id, levels, timeout, title) from the report's "probes" section.
// The id column is as wide as the longest id and the levels are short ("all" for every level), so the
// title keeps most of an 80-column line; a longer title wraps under its own column (render/wrap.h).
#include <algorithm>

#include <fmt/format.h>

#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

std::string levels_text(const std::vector<std::string>& levels) {
  const std::vector<std::string> every{"quick", "standard", "long"};
  return levels == every ? "all" : join(levels, ",");
}

}  // namespace

void list(const model::Report& r, std::ostream& out, const RenderOptions&) {
  const auto* probes = r.find_section("probes");
  std::size_t id_width = 2, levels_width = 6;  // "ID", "LEVELS"
  std::vector<std::string> levels;
  if (probes)
    for (const auto& f : probes->findings) {
      levels.push_back(levels_text(model::probe_listing(f).levels));
      id_width = std::max(id_width, f.id.size());
      levels_width = std::max(levels_width, levels.back().size());
    }
  out << fmt::format("{:<{}}  {:<{}}  {:>7}  {}\n", "ID", id_width, "LEVELS", levels_width, "TIMEOUT", "TITLE");
  if (!probes) return;
  for (std::size_t i = 0; i < probes->findings.size(); ++i) {
    const auto& f = probes->findings[i];
    const model::ProbeListing p = model::probe_listing(f);
    out << fmt::format("{:<{}}  {:<{}}  {:>6.0f}s  {}\n", f.id, id_width, levels[i], levels_width, p.timeout_s, f.title);
  }
}

}  // namespace gpucheck::render::text
