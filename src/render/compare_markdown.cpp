// `gpucheck compare` in Markdown, for a CI comment: the verdict, the context notes and one table row per
// benchmark. Text from documents is escaped so it cannot break the table or inject markup.
#include <fmt/format.h>

#include "model/compare_details.h"
#include "render/compare_rows.h"
#include "render/markdown_escape.h"
#include "render/render.h"
#include "render/text_blocks.h"

namespace gpucheck::render {

namespace {


std::string mark(const std::string& verdict) {
  if (verdict == "regression") return "**regression**";
  if (verdict == "undecidable") return "too few repetitions";
  return verdict;
}

}  // namespace

void text::markdown_compare(const model::Report& r, std::ostream& out) {
  // The heading, the verdict line (counts, threshold, alpha) and the next step are render_markdown()'s.
  if (const std::string key = model::compare_details(r).key; !key.empty()) out << "key " << markdown::code(key) << "\n\n";
  if (const auto* s = r.find_section("benchmarks"))
    for (const auto& f : s->findings)
      if (f.id.rfind("compare.", 0) == 0) {
        out << "> **" << markdown::text(f.title) << "**: " << markdown::text(f.summary) << "\n";
        for (const auto& e : f.evidence) out << "> - " << markdown::text(e.what) << ": " << markdown::text(e.value) << "\n";
        out << "\n";
      }
  auto rows = compare::rows(r);
  if (!rows.empty()) {
    out << "| benchmark | base | new | change | p | verdict |\n|---|---:|---:|---:|---:|---|\n";
    for (const auto& row : rows) {
      const std::string verdict = mark(row.verdict);
      out << "| " << markdown::text(row.name) << " | " << row.base << " | " << row.now << " | " << row.shown_change << " | "
          << row.p << " | " << verdict << " |\n";
    }
    out << "\n";
  }
  for (const auto& n : r.notes) out << "- " << markdown::text(n) << "\n";
}

}  // namespace gpucheck::render
