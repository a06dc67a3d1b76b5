// `gpucheck abi` on a terminal: per target its status and path, then what is wrong (missing libraries with
// where the loader looked, symbol groups with their fix, the C++ ABI, device code per GPU), the notes and
// one closing count. Reads only the Report: each target Finding's details (abi::to_json(TargetReport))
// and Report.details {seconds, objects_parsed}.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/text.h"
#include "render/text_blocks.h"

namespace gpucheck::render::text {
namespace {

using nlohmann::json;

/// j[key], or null when j is not an object or lacks it (a null iterates as empty).
const json& member(const json& j, const char* key) {
  static const json kNull;
  if (!j.is_object()) return kNull;
  auto it = j.find(key);
  return it != j.end() ? *it : kNull;
}

std::string str(const json& j, const char* key) {
  const json& v = member(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::size_t number(const json& j, const char* key) {
  const json& v = member(j, key);
  return v.is_number_unsigned() || v.is_number_integer() ? v.get<std::size_t>() : 0;
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  for (const auto& v : member(j, key))
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

/// "SECTION: N entries; SASS sm_80 sm_90 [z]; PTX compute_90 (ISA 8.4)", from the per-target summary
/// (kept for every section, even those too large for the full entry list).
void fatbin_line(const json& f, std::ostream& out) {
  std::vector<std::string> sass, ptx;
  for (const auto& agg : member(f, "by_target")) {
    const bool is_ptx = str(agg, "kind") == "ptx";
    const std::string shown = str(agg, "target") + (is_ptx ? " (ISA " + str(agg, "ptx_isa") + ")" : "");
    const std::size_t count = number(agg, "count"), compressed = number(agg, "compressed");
    auto& into = is_ptx ? ptx : sass;
    if (compressed < count) into.push_back(shown);
    if (compressed > 0) into.push_back(shown + " [z]");
  }
  sass = sorted_unique(std::move(sass));
  ptx = sorted_unique(std::move(ptx));
  out << "      " << str(f, "section") << ": " << number(f, "entries") << " entries; SASS "
      << (sass.empty() ? "none" : join(sass, " ")) << "; PTX " << (ptx.empty() ? "none" : join(ptx, " ")) << "\n";
  if (!str(f, "error").empty()) out << "        " << str(f, "error") << "\n";
}

void target_block(const Finding& f, std::ostream& out, bool verbose) {
  const json& d = f.details;
  out << to_string(f.status) << "  " << f.title << "\n";
  if (!str(d, "error").empty()) {
    out << "      " << str(d, "error") << "\n";
    return;
  }
  for (const auto& dep : member(d, "dependencies")) {
    if (member(dep, "found") != false) continue;
    out << "      missing " << str(dep, "name") << " (needed by " << str(dep, "requested_by") << "): " << str(dep, "error") << "\n";
    std::size_t shown = 0;
    for (const auto& a : member(dep, "searched"))
      if (verbose || shown++ < 6)
        out << "        searched " << str(a, "path") << " [" << str(a, "source") << "] " << str(a, "outcome") << "\n";
  }
  for (const auto& g : member(member(d, "symbols"), "groups")) {
    const std::vector<std::string> names = strings(g, "symbols");
    out << "      " << names.size() << " " << str(g, "category") << ": " << str(g, "cause") << "\n";
    for (std::size_t i = 0; i < names.size() && (verbose || i < 8); ++i) out << "        " << names[i] << "\n";
    if (!verbose && names.size() > 8) out << "        ... " << names.size() - 8 << " more (--verbose)\n";
    for (const auto& rem : strings(g, "remedy")) out << "      fix: " << rem << "\n";
  }
  const json& cxx = member(d, "cxx_abi");
  const json& torch = member(d, "torch");
  if (member(torch, "mismatch") == true)
    out << "      C++ ABI: object " << str(cxx, "macro") << ", torch (" << str(torch, "path") << ") "
        << str(member(torch, "cxx_abi"), "macro") << "\n";
  else if (verbose && cxx.is_object() && str(cxx, "abi") != "unknown")
    out << "      C++ ABI: " << str(cxx, "macro") << "\n";
  const json& cuda = member(d, "cuda");
  for (const auto& fb : member(cuda, "fatbins")) fatbin_line(fb, out);
  for (const auto& v : member(cuda, "gpus"))
    out << "      " << str(v, "gpu") << ": " << str(v, "verdict") << " - " << str(v, "detail") << "\n";
  const std::string disagreement = str(member(cuda, "cuobjdump"), "disagreement");
  if (!disagreement.empty()) out << "      cuobjdump disagrees: " << disagreement << "\n";
}

}  // namespace

void abi(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  static const std::vector<Finding> kNone;
  const report::Section* s = r.find_section("targets");
  const std::vector<Finding>& targets = s ? s->findings : kNone;
  for (const auto& f : targets) target_block(f, out, o.verbose);
  for (const auto& n : r.notes) out << "note: " << n << "\n";
  std::size_t bad = 0;
  for (const auto& f : targets)
    if (f.status != Status::kPass) ++bad;
  const json& seconds = member(r.details, "seconds");
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", seconds.is_number() ? seconds.get<double>() : 0.0);
  out << targets.size() << " object(s), " << bad << " with problems, " << number(r.details, "objects_parsed")
      << " ELF files parsed in " << secs << " s\n";
}

}  // namespace gpucheck::render::text
