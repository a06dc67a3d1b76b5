// `gpucheck compare` on a terminal: one table row per benchmark (fits o.width, 80 by default), then what
// needs reading (the context check, each regression's reason) and the verdict line.
#include <fmt/format.h>

#include "render/compare_rows.h"
#include "render/text_blocks.h"
#include "core/text.h"

namespace gpucheck::render::text {

void compare(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  for (const auto& n : r.notes) out << "note: " << n << "\n";
  const auto* s = r.find_section("benchmarks");
  if (s)
    for (const auto& f : s->findings)
      if (f.id.rfind("compare.", 0) == 0) finding_block(f, out, o);
  auto rows = render::compare::rows(r);
  // Fixed columns: base 9, new 9, change 7, p 7, verdict 11 ("improvement") and 5 spaces: 79 columns at width 80.
  const std::size_t name_width = static_cast<std::size_t>(std::max(20, o.width - 49));
  if (!rows.empty()) {
    out << fmt::format("{:<{}} {:>9} {:>9} {:>7} {:>7} {}\n", "BENCHMARK", name_width, "BASE", "NEW", "CHANGE", "P", "VERDICT");
    for (const auto& row : rows) {
      if (o.quiet && row.verdict != "regression") continue;
      std::string verdict = row.verdict == "regression" ? (o.color ? "\033[31mREGRESSED\033[0m" : "REGRESSED")
                            : row.verdict == "undecidable" ? std::string("too few")
                                                           : row.verdict;
      out << fmt::format("{:<{}} {:>9} {:>9} {:>7} {:>7} {}\n", fit_middle(row.name, name_width), name_width, row.base,
                         row.now, row.shown_change, row.p, verdict);
    }
  }
  for (const auto& row : rows)
    if (row.verdict == "regression" || (o.verbose && row.finding)) {
      out << "\n";
      finding_block(*row.finding, out, o);
    }
}

}  // namespace gpucheck::render::text
