// Terminal rendering of a doctor report (the JSON document is to_json in doctor.cpp).
#include <sstream>

#include "checks/doctor/doctor.h"

namespace gpucheck::compat {
namespace {

const char* paint(Severity s, bool color) {
  if (!color) return "";
  switch (s) {
    case Severity::kError: return "\033[31m";
    case Severity::kWarn: return "\033[33m";
    case Severity::kInfo: return "\033[36m";
  }
  return "";
}

std::string label(Severity s) {
  switch (s) {
    case Severity::kError: return "ERROR";
    case Severity::kWarn: return "WARN ";
    case Severity::kInfo: return "INFO ";
  }
  return "";
}

void render_fix(std::ostringstream& o, const FixStep& fx, const std::string& indent) {
  o << indent << fx.rank << ". " << fx.summary << "\n";
  for (const auto& c : fx.commands) o << indent << "     $ " << c << "\n";
  if (!fx.cost.empty()) o << indent << "     cost: " << fx.cost << "\n";
}

void render_finding(std::ostringstream& o, const Finding& f, bool color, bool verbose) {
  const char* reset = color ? "\033[0m" : "";
  o << paint(f.severity, color) << label(f.severity) << reset << " " << f.title << "  [" << f.id << "]\n";
  for (const auto& e : f.evidence)
    o << "      " << e.what << ": " << e.value << (e.source.empty() ? "" : "  (" + e.source + ")") << "\n";
  if (!f.explanation.empty()) o << "      why: " << f.explanation << "\n";
  if (!f.fixes.empty()) o << "      fix, best first:\n";
  for (const auto& fx : f.fixes) render_fix(o, fx, "      ");
  if (verbose)
    for (const auto& r : f.references) o << "      source: " << r << "\n";
}

}  // namespace

std::string render_text(const DoctorReport& r, bool color, bool verbose) {
  std::ostringstream o;
  o << "gpucheck doctor (" << r.inventory_source << ")\n";
  o << "toolkits found:" << (r.toolkits.empty() ? " none" : "") << "\n";
  for (const auto& t : r.toolkits) o << "  " << t << "\n";
  for (const auto& n : r.notes) o << "inventory note: " << n << "\n";
  if (r.findings.empty()) o << "no findings about the installed stack\n";
  for (const auto& f : r.findings) render_finding(o, f, color, verbose);
  if (r.plan) {
    const auto& p = *r.plan;
    o << "\ninstall " << p.package << (p.version.empty() ? "" : "==" + p.version) << " (" << p.build
      << "): " << p.verdict << "\n";
    for (const auto& f : p.findings) render_finding(o, f, color, verbose);
    if (!p.paths.empty()) o << "  install paths, best first:\n";
    for (const auto& fx : p.paths) render_fix(o, fx, "  ");
  }
  o << r.errors() << " error(s), " << r.warnings() << " warning(s)\n";
  return o.str();
}

}  // namespace gpucheck::compat
