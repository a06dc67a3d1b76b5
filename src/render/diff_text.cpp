// `gpucheck diff` on a terminal: a table of the facts that differ (fact | A | B, 80 columns at width 80,
// long values cut in the middle), then the consequence of each difference that has one.
#include <fmt/format.h>

#include "model/diff_details.h"
#include "render/text_blocks.h"
#include "core/text.h"

namespace gpucheck::render::text {
namespace {

std::string side(const model::DiffSide& s) {
  if (!s.present) return "-";
  return (s.file.empty() ? "-" : s.file) + " (" + (s.hostname.empty() ? "?" : s.hostname) + ")";
}

}  // namespace

void diff(const model::Report& r, const model::DiffDetails& d, std::ostream& out, const RenderOptions& o) {
  out << "A: " << side(d.a) << "\nB: " << side(d.b) << "\n";
  const model::Section* s = r.find_section("differences");
  if (!s || s->findings.empty()) {
    out << "no difference in the facts compared\n";
    return;
  }
  // 2 marker + fact 18 + 2 x (1 + value) = width - 1.
  const std::size_t value = static_cast<std::size_t>(std::max(12, (o.width - 23) / 2));
  out << "\n" << fmt::format("  {:<18} {:<{}} {}\n", "FACT", "A", value, "B");
  for (const auto& f : s->findings) {
    const bool matters = f.status == Status::kFail;
    std::string mark = matters ? (o.color ? "\033[31m!\033[0m " : "! ") : "  ";
    out << mark
        << fmt::format("{:<18} {:<{}} {}\n", fit_middle(f.title, 18), fit_middle(f.evidence.at("A"), value), value,
                       fit_middle(f.evidence.at("B"), value));
  }
  out << "(! = can break something)\n";
  bool any = false;
  for (const auto& f : s->findings) {
    if (f.explanation.empty()) continue;
    if (!any) out << "\nconsequences:\n";
    any = true;
    out << "  " << f.title << ": " << f.explanation << "\n";
    if (o.verbose)
      for (const auto& ref : f.references) out << "    source: " << ref << "\n";
  }
}

}  // namespace gpucheck::render::text
