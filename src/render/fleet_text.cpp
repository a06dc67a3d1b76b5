// `fleet merge` on a terminal: one line per node with its verdict, then the outliers and the software
// drift that made nodes rejects, then the drain command (printed for the operator, never run).
#include <fmt/format.h>

#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

std::string clip(const std::string& s, std::size_t n) { return s.size() <= n ? s : s.substr(0, n - 3) + "..."; }

}  // namespace

void fleet(const model::Report& r, std::ostream& out, const RenderOptions& o) {
  const std::size_t width = o.width > 40 ? static_cast<std::size_t>(o.width) : 80;
  out << fmt::format("{:<20} {:<22} {}\n", "node", "GPUs", "verdict");
  for (const auto& s : r.sections) {
    if (s.name != "nodes") continue;
    for (const auto& f : s.findings) {
      std::string gpus = f.evidence.count("GPUs") ? f.evidence.at("GPUs") : "";
      std::string line = fmt::format("{:<20} {:<22} {}", clip(f.title, 20), clip(gpus.empty() ? "-" : gpus, 22),
                                     f.summary);
      out << clip(line, width) << "\n";
    }
  }
  for (const auto& s : r.sections) {
    if (s.name == "nodes" || s.findings.empty()) continue;
    out << "\n" << s.name << ":\n";
    for (const auto& f : s.findings) finding_block(f, out, o);
  }
  if (!r.notes.empty()) out << "\n";
  for (const auto& n : r.notes) out << "note: " << on_one_line(n) << "\n";  // e.g. two reports of one node
  out << "\n";
}

}  // namespace gpucheck::render::text
