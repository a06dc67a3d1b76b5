#include "checks/doctor/arch_coverage.h"

#include <cctype>

#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::doctor {
namespace {

struct Target {
  int major = 0, minor = 0;
  bool sass = false, ptx = false, arch_specific = false;
};

bool parse_target(const std::string& raw, Target& t) {
  std::string s = trim(raw);
  std::string digits;
  if (starts_with(s, "sm_") || starts_with(s, "compute_")) {
    bool compute = starts_with(s, "compute_");
    std::string rest = s.substr(compute ? 8 : 3);
    std::size_t i = 0;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) digits += rest[i++];
    if (digits.size() < 2) return false;
    t.arch_specific = i < rest.size();  // sm_90a, sm_100f
    t.major = std::stoi(digits.substr(0, digits.size() - 1));
    t.minor = digits.back() - '0';
    t.sass = !compute;
    t.ptx = compute;
    return true;
  }
  bool plus_ptx = ends_with(s, "+PTX");
  if (plus_ptx) s = s.substr(0, s.size() - 4);
  auto v = knowledge::Version::parse(s);
  if (!v || v->parts.size() < 2) return false;
  t.major = v->major();
  t.minor = v->minor();
  t.arch_specific = !v->suffix.empty();
  t.sass = true;
  t.ptx = plus_ptx;
  return true;
}

}  // namespace

std::string arch_to_cc(const std::string& target) {
  Target t;
  if (!parse_target(target, t)) return "";
  return std::to_string(t.major) + "." + std::to_string(t.minor);
}

Coverage arch_coverage(const std::string& cc, const std::vector<std::string>& targets) {
  auto v = knowledge::Version::parse(cc);
  if (!v) return Coverage::kNone;
  int gm = v->major(), gn = v->minor();
  bool ptx = false;
  for (const auto& raw : targets) {
    Target t;
    if (!parse_target(raw, t)) continue;
    if (t.sass) {
      bool ok = t.arch_specific ? (t.major == gm && t.minor == gn) : (t.major == gm && t.minor <= gn);
      if (ok) return Coverage::kSass;
    }
    if (t.ptx && !t.arch_specific && (t.major < gm || (t.major == gm && t.minor <= gn))) ptx = true;
  }
  return ptx ? Coverage::kPtxOnly : Coverage::kNone;
}

}  // namespace gpucheck::doctor
