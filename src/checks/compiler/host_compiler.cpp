#include "checks/compiler/host_compiler.h"

#include <algorithm>
#include <cctype>

#include "checks/doctor/fix_commands.h"
#include "core/text.h"
#include "inventory/compilers.h"
#include "inventory/host_compiler_range.h"
#include "knowledge/version.h"
#include "platform/root_fs.h"

namespace gpucheck::compiler {

using inventory::Compiler;
using inventory::HostCompilerRange;
using inventory::Inventory;
using inventory::Toolkit;

namespace {

// "12.2.0" -> {12, 2}; a bound "15" -> {15, -1} (any minor).
std::pair<int, int> major_minor_of(const std::string& v) {
  auto parts = split(v, '.');
  auto num = [](const std::string& s) {
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return -1;
    return std::atoi(s.c_str());
  };
  return {parts.empty() ? -1 : num(parts[0]), parts.size() < 2 ? -1 : num(parts[1])};
}

bool below(const std::pair<int, int>& v, const std::string& min) {
  auto b = major_minor_of(min);
  if (v.first != b.first || b.second < 0) return v.first < b.first;
  return v.second >= 0 && v.second < b.second;
}

bool above(const std::pair<int, int>& v, const std::string& max) {
  auto b = major_minor_of(max);
  if (v.first != b.first || b.second < 0) return v.first > b.first;
  return v.second > b.second;
}

std::string kind(bool enforced) { return enforced ? "enforced by host_config.h" : "support policy, not enforced by nvcc"; }

std::string or_unknown(const std::string& s) { return s.empty() ? "?" : s; }

std::string toolkit_major_minor(const Toolkit& tk) {
  auto v = knowledge::Version::parse(tk.version);
  return v ? v->major_minor() : or_unknown(tk.version);
}

const HostCompilerRange* range_of(const std::vector<HostCompilerRange>& ranges, const std::string& family) {
  auto it = std::find_if(ranges.begin(), ranges.end(), [&](const HostCompilerRange& r) { return r.compiler == family; });
  return it == ranges.end() ? nullptr : &*it;
}

// A compiler nvcc can be pointed at with -ccbin: the C++ driver of its family.
bool is_cxx(const Compiler& c) {
  return c.name == "c++" || c.name == "g++" || c.name == "clang++" || ends_with(c.path, "++") ||
         c.name.find("g++") != std::string::npos;
}

// Ranked ways out for a compiler outside `r`: an installed compiler of the family that fits, else the
// distribution's g++-N, else conda's; for a compiler too new, also an installed toolkit that takes it.
void add_fixes(Finding& f, const Inventory& inv, const Toolkit& tk, const std::vector<HostCompilerRange>& ranges,
               const HostCompilerRange& r, const HostCompilerChoice& choice, bool too_new,
               const knowledge::KnowledgeBase* kb) {
  const std::string& family = choice.family;
  for (const auto& c : inv.compilers) {
    if (compiler_family(c) != family || !is_cxx(c)) continue;
    if (fit_host_compiler(ranges, &c, family).status != "inside") continue;
    f.add_fix("Let nvcc use the installed " + c.name + " " + c.version,
              {"export NVCC_PREPEND_FLAGS=" + shell_quote("-ccbin " + c.path), "export CXX=" + shell_quote(c.path)},
              "nothing to install; affects this shell only");
    break;
  }
  std::string hi = or_unknown(r.max);
  if (f.fixes.empty() && family == "gcc" && !r.max.empty() &&
      (inv.system.os_id == "ubuntu" || inv.system.os_id == "debian")) {
    f.add_fix("Install g++-" + hi + " and let nvcc use it",
              {"sudo apt-get install -y g++-" + hi, "export NVCC_PREPEND_FLAGS='-ccbin /usr/bin/g++-" + hi + "'",
               "export CXX=/usr/bin/g++-" + hi},
              "needs root; about 60 MB; the default compiler stays as it is");
  }
  if (f.fixes.empty()) {
    f.add_fix("Install a " + family + " between " + or_unknown(r.min) + " and " + hi +
                  " (e.g. conda install -c conda-forge gxx_linux-64=" + hi + ") and pass it with -ccbin",
              {"conda install -y -c conda-forge gxx_linux-64=" + hi}, "about 200 MB into the active conda environment");
  }
  if (!too_new) return;
  for (const auto& t : inv.toolkits) {
    if (t.root == tk.root || t.nvcc.empty()) continue;
    if (fit_host_compiler(host_compiler_ranges(t, kb), &*choice.compiler, family).status != "inside") continue;
    auto step = doctor::use_toolkit_step(t, 0);
    f.add_fix(step.summary, step.commands, step.cost);
    break;
  }
}

nlohmann::json range_json(const HostCompilerRange* r) {
  if (!r) return nullptr;
  return {{"compiler", r->compiler},     {"min", r->min},
          {"max", r->max},               {"min_source", r->min_source},
          {"max_source", r->max_source}, {"min_enforced", r->min_enforced},
          {"max_enforced", r->max_enforced}};
}

}  // namespace

std::string compiler_family(const Compiler& c) {
  for (const auto* s : {&c.name, &c.path})
    if (base_name(*s).find("clang") != std::string::npos) return "clang";
  return "gcc";
}

HostCompilerChoice choose_host_compiler(const Inventory& inv) {
  HostCompilerChoice choice;
  std::string how;
  const Compiler* rule = inventory::nvcc_compiler_entry(inv.compilers, &how);
  if (!inv.nvcc_host_compiler.empty()) {
    // The collector recorded it; its version is on the compiler entry with that path.
    choice.how = inv.nvcc_host_compiler_source.empty() ? "nvcc_host_compiler (inventory)" : inv.nvcc_host_compiler_source;
    if (rule && rule->path == inv.nvcc_host_compiler) choice.compiler = *rule;
    for (const auto& c : inv.compilers)
      if (!choice.compiler && c.path == inv.nvcc_host_compiler) choice.compiler = c;
    if (!choice.compiler) choice.compiler = Compiler{"nvcc host compiler", inv.nvcc_host_compiler, "", "not among the compilers listed"};
  } else if (rule) {
    choice.compiler = *rule;
    choice.how = how;
  }
  if (choice.compiler) choice.family = compiler_family(*choice.compiler);
  return choice;
}

HostCompilerFit fit_host_compiler(const std::vector<HostCompilerRange>& ranges, const Compiler* compiler,
                                  const std::string& family) {
  HostCompilerFit f;
  f.status = "unknown";
  if (!compiler) {
    f.reason = "no host compiler found (NVCC_CCBIN unset, no gcc on PATH)";
    return f;
  }
  f.compiler = compiler->path, f.family = family, f.version = compiler->version;
  const HostCompilerRange* r = range_of(ranges, family);
  auto v = major_minor_of(compiler->version);
  if (!r) {
    f.reason = "no " + family + " range known for this toolkit";
  } else if (v.first < 0) {
    f.reason = "version of " + compiler->path + " unknown (" + compiler->source + ")";
  } else if (!r->max.empty() && above(v, r->max)) {
    f.status = "above_max", f.enforced = r->max_enforced;
    f.reason = family + " " + compiler->version + " is newer than " + r->max + ", the newest this nvcc takes (" +
               kind(r->max_enforced) + (r->max_enforced ? ": nvcc stops with #error" : "") + ")";
  } else if (!r->min.empty() && below(v, r->min)) {
    f.status = "below_min", f.enforced = r->min_enforced;
    f.reason = family + " " + compiler->version + " is older than " + r->min + ", the oldest this nvcc takes (" +
               kind(r->min_enforced) + (r->min_enforced ? ": nvcc stops with #error" : "") + ")";
  } else {
    f.status = "inside";
    f.reason = family + " " + compiler->version + " is within " + or_unknown(r->min) + " .. " + or_unknown(r->max);
  }
  return f;
}

std::vector<HostCompilerRange> host_compiler_ranges(const Toolkit& tk, const knowledge::KnowledgeBase* kb) {
  auto policy = kb && !tk.version.empty() ? kb->host_compilers(tk.version) : std::nullopt;
  return inventory::complete_host_compiler_ranges(tk.host_compilers, policy);
}

Finding judge_host_compiler(const Inventory& inv, const Toolkit& tk, const knowledge::KnowledgeBase* kb) {
  const HostCompilerChoice choice = choose_host_compiler(inv);
  const auto ranges = host_compiler_ranges(tk, kb);
  const HostCompilerFit fit = fit_host_compiler(ranges, choice.compiler ? &*choice.compiler : nullptr, choice.family);
  const HostCompilerRange* r = choice.compiler ? range_of(ranges, choice.family) : nullptr;
  const std::string mm = toolkit_major_minor(tk);
  const std::string& family = choice.family;

  Finding f;
  f.summary = fit.reason;
  f.details = {{"toolkit", tk.root},
               {"toolkit_version", tk.version},
               {"compiler", fit.compiler},
               {"family", fit.family},
               {"version", fit.version},
               {"chosen_by", choice.how},
               {"fit", fit.status},
               {"enforced", fit.enforced},
               {"range", range_json(r)}};
  if (choice.compiler) {
    const Compiler& c = *choice.compiler;
    f.evidence.add("host compiler", c.path.empty() ? c.name : c.path, choice.how);
    f.evidence.add(family + " version", or_unknown(c.version), c.source.empty() ? "--version" : c.source);
  }
  f.evidence.add("nvcc", or_unknown(tk.version), tk.root);
  if (r) {
    bool lower = fit.status == "below_min";
    f.evidence.add("supported " + family, or_unknown(r->min) + " .. " + or_unknown(r->max),
                   lower ? r->min_source : r->max_source);
  }
  if (kb && !tk.version.empty())
    if (auto row = kb->host_compilers(tk.version)) f.references.push_back(row->source);

  const std::string between = r ? family + " " + or_unknown(r->min) + " to " + or_unknown(r->max) : "";
  if (fit.status == "inside") {
    f.id = "compiler.fits_nvcc";
    f.status = Status::kPass;
    f.title = family + " " + fit.version + " is within what nvcc " + mm + " supports (" + between + ")";
    return f;
  }
  if (fit.status == "unknown") {
    f.id = "compiler.fit_unknown";
    f.status = Status::kSkip;
    f.title = "Whether nvcc " + mm + " takes its host compiler is not known";
    f.explanation = fit.reason + ".";
    return f;
  }
  const bool too_new = fit.status == "above_max";
  const auto version = knowledge::Version::parse(fit.version);
  f.id = too_new ? "compiler.too_new_for_nvcc" : "compiler.too_old_for_nvcc";
  // Both matter only to what compiles CUDA code here: prebuilt wheels run whatever gcc is on PATH. A compiler
  // too new stops every nvcc compile, so it is an error when the goal is a source build (details.fatal_for_build,
  // as nvcc against torch's CUDA: core/verdict.cpp apply_goal) and a warning otherwise; too old warns.
  f.status = Status::kWarn;
  if (too_new) f.details["fatal_for_build"] = true;
  f.title = family + " " + fit.version + " is " + (too_new ? "newer" : "older") + " than nvcc " + mm + " supports (" +
            between + (too_new || fit.enforced ? "" : "; support policy, not enforced by nvcc") + ")";
  f.explanation = too_new ? "nvcc stops every CUDA compile with \"#error -- unsupported GNU version! gcc versions "
                            "later than " + or_unknown(r->max) + " are not supported!\" (-allow-unsupported-compiler "
                            "only moves the failure into the standard headers)."
                          : "nvcc " + mm + " is not tested with " + family + " " +
                                (version ? std::to_string(version->major()) : fit.version) +
                                "; C++17 code in torch headers may not compile." +
                                (fit.enforced ? " Its host_config.h refuses it outright (#error)."
                                              : " nvcc does not refuse it: the minimum is NVIDIA's support policy.");
  add_fixes(f, inv, tk, ranges, *r, choice, too_new, kb);
  return f;
}

std::vector<Finding> judge_host_compilers(const Inventory& inv, const knowledge::KnowledgeBase* kb) {
  std::vector<Finding> out;
  for (const auto& tk : inv.toolkits) out.push_back(judge_host_compiler(inv, tk, kb));
  return out;
}

}  // namespace gpucheck::compiler
