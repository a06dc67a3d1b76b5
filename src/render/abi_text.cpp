// `gpucheck abi` on a terminal: per target its status and path, then what is wrong (missing libraries with
// where the loader looked, symbol groups with their fix, the C++ ABI, device code per GPU), the notes and
// one closing count. Reads only the Report, typed: each target as model::abi_target() reads it and the
// AbiDetails (seconds, ELF files parsed).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

/// "SECTION: N entries; SASS sm_80 sm_90 [z]; PTX compute_90 (ISA 8.4)", from the per-target summary
/// (kept for every section, even those too large for the full entry list).
void fatbin_line(const model::Fatbin& f, std::ostream& out) {
  std::vector<std::string> sass, ptx;
  for (const auto& agg : f.by_target) {
    const bool is_ptx = agg.kind == "ptx";
    const std::string shown = agg.target + (is_ptx ? " (ISA " + agg.ptx_isa + ")" : "");
    auto& into = is_ptx ? ptx : sass;
    if (agg.compressed < agg.count) into.push_back(shown);
    if (agg.compressed > 0) into.push_back(shown + " [z]");
  }
  sass = sorted_unique(std::move(sass));
  ptx = sorted_unique(std::move(ptx));
  out << "      " << f.section << ": " << f.entries << " entries; SASS " << (sass.empty() ? "none" : join(sass, " "))
      << "; PTX " << (ptx.empty() ? "none" : join(ptx, " ")) << "\n";
  if (!f.error.empty()) out << "        " << f.error << "\n";
}

void target_block(const Finding& f, std::ostream& out, bool verbose) {
  const model::AbiTarget t = model::abi_target(f);
  out << to_string(f.status) << "  " << f.title << "\n";
  if (!t.error.empty()) {
    out << "      " << t.error << "\n";
    return;
  }
  for (const auto& dep : t.missing) {
    out << "      missing " << dep.name << " (needed by " << dep.requested_by << "): " << dep.error << "\n";
    std::size_t shown = 0;
    for (const auto& a : dep.searched)
      if (verbose || shown++ < 6) out << "        searched " << a.path << " [" << a.source << "] " << a.outcome << "\n";
  }
  for (const auto& g : t.symbol_groups) {
    out << "      " << g.symbols.size() << " " << g.category << ": " << g.cause << "\n";
    for (std::size_t i = 0; i < g.symbols.size() && (verbose || i < 8); ++i) out << "        " << g.symbols[i] << "\n";
    if (!verbose && g.symbols.size() > 8) out << "        ... " << g.symbols.size() - 8 << " more (--verbose)\n";
    for (const auto& rem : g.remedy) out << "      fix: " << rem << "\n";
  }
  if (t.torch_mismatch)
    out << "      C++ ABI: object " << t.cxx_macro << ", torch (" << t.torch_path << ") " << t.torch_macro << "\n";
  else if (verbose && t.cxx_abi != "unknown")
    out << "      C++ ABI: " << t.cxx_macro << "\n";
  for (const auto& fb : t.fatbins) fatbin_line(fb, out);
  for (const auto& v : t.gpus) out << "      " << v.gpu << ": " << v.verdict << " - " << v.detail << "\n";
  if (!t.cuobjdump_disagreement.empty()) out << "      cuobjdump disagrees: " << t.cuobjdump_disagreement << "\n";
}

}  // namespace

void abi(const model::Report& r, const model::AbiDetails& d, std::ostream& out, const RenderOptions& o) {
  static const std::vector<Finding> kNone;
  const model::Section* s = r.find_section("targets");
  const std::vector<Finding>& targets = s ? s->findings : kNone;
  for (const auto& f : targets) target_block(f, out, o.verbose);
  for (const auto& n : r.notes) out << "note: " << n << "\n";
  std::size_t bad = 0;
  for (const auto& f : targets)
    if (f.status != Status::kPass) ++bad;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", d.seconds);
  out << targets.size() << " object(s), " << bad << " with problems, " << d.objects_parsed << " ELF files parsed in "
      << secs << " s\n";
}

}  // namespace gpucheck::render::text
