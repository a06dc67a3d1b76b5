// Host compiler vs the range the build toolkit's nvcc accepts (include/crt/host_config.h checks the major).
#include <optional>

#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "knowledge/version.h"
#include "core/text.h"


namespace gpucheck::compat {
namespace {

bool is_clang(const inventory::Compiler& c) {
  return c.name.find("clang") != std::string::npos || c.path.find("clang") != std::string::npos;
}

bool is_cxx(const inventory::Compiler& c) {
  return c.name == "c++" || c.name == "g++" || c.name == "clang++" || ends_with(c.path, "++") ||
         c.name.find("g++") != std::string::npos;
}

/// The compiler nvcc would call: NVCC_CCBIN / CUDAHOSTCXX, the collector's answer, else c++ on PATH.
const inventory::Compiler* host_compiler(const DoctorContext& ctx, std::string& how) {
  std::string want;
  for (const char* var : {"NVCC_CCBIN", "CUDAHOSTCXX"}) {
    if (ctx.has_env(var)) {
      want = ctx.env(var);
      how = std::string(var) + "=" + want;
      break;
    }
  }
  if (want.empty() && !ctx.inv.nvcc_host_compiler.empty()) {
    want = ctx.inv.nvcc_host_compiler;
    how = "nvcc_host_compiler (inventory)";
  }
  for (const auto& c : ctx.inv.compilers)
    if (!want.empty() && (c.path == want || c.name == want)) return &c;
  for (const char* name : {"c++", "g++", "gcc", "clang++"})
    for (const auto& c : ctx.inv.compilers)
      if (c.name == name) {
        how = std::string(name) + " on PATH";
        return &c;
      }
  return nullptr;
}

/// The majors nvcc of `tk` takes for a family: the inventory's own range (the toolkit's host_config.h, enforced)
/// where it has one, the knowledge base's support policy for the rest.
struct Bounds {
  int lo = 0, hi = 0;
  bool lo_enforced = false, hi_enforced = false;
  std::string lo_source, hi_source;
};

std::optional<Bounds> bounds_for(const inventory::Toolkit& tk, const std::optional<HostCompilerRange>& policy, bool clang) {
  Bounds b;
  if (policy) {
    b.lo = clang ? policy->clang_min : policy->gcc_min, b.hi = clang ? policy->clang_max : policy->gcc_max;
    b.lo_source = b.hi_source = "data/compat/host_compilers.json";
  }
  for (const auto& r : tk.host_compilers) {
    if (r.compiler != (clang ? "clang" : "gcc")) continue;
    auto lo = Version::parse(r.min), hi = Version::parse(r.max);
    if (lo) b.lo = lo->major(), b.lo_enforced = r.min_enforced, b.lo_source = r.min_source;
    if (hi) b.hi = hi->major(), b.hi_enforced = r.max_enforced, b.hi_source = r.max_source;
  }
  if (b.hi == 0) return std::nullopt;
  return b;
}

std::vector<Fix> fixes_for(const DoctorContext& ctx, const Bounds& b, bool clang) {
  std::vector<Fix> fixes;
  int rank = 1;
  int lo = b.lo, hi = b.hi;
  // An installed compiler of the same family within range needs no download.
  for (const auto& c : ctx.inv.compilers) {
    if (is_clang(c) != clang || !is_cxx(c)) continue;
    auto v = Version::parse(c.version);
    if (!v || v->major() < lo || v->major() > hi) continue;
    fixes.push_back({rank++, "Let nvcc use the installed " + c.name + " " + c.version,
                     {"export NVCC_PREPEND_FLAGS=" + shell_quote("-ccbin " + c.path), "export CXX=" + shell_quote(c.path)},
                     "nothing to install; affects this shell only"});
    break;
  }
  if (fixes.empty() && !clang && (ctx.inv.system.os_id == "ubuntu" || ctx.inv.system.os_id == "debian")) {
    std::string n = std::to_string(hi);
    fixes.push_back({rank++, "Install g++-" + n + " and let nvcc use it",
                     {"sudo apt-get install -y g++-" + n, "export NVCC_PREPEND_FLAGS='-ccbin /usr/bin/g++-" + n + "'",
                      "export CXX=/usr/bin/g++-" + n},
                     "needs root; about 60 MB; the default compiler stays as it is"});
  }
  if (fixes.empty()) {
    fixes.push_back({rank++, "Install a " + std::string(clang ? "clang" : "gcc") + " between " + std::to_string(lo) +
                                 " and " + std::to_string(hi) + " (e.g. conda install -c conda-forge gxx_linux-64=" +
                                 std::to_string(hi) + ") and pass it with -ccbin",
                     {"conda install -y -c conda-forge gxx_linux-64=" + std::to_string(hi)},
                     "about 200 MB into the active conda environment"});
  }
  return fixes;
}

}  // namespace

void check_host_compiler(const DoctorContext& ctx, std::vector<Finding>& out) {
  const inventory::Toolkit* tk = ctx.build.toolkit;
  if (!tk || tk->version.empty()) return;
  auto range = ctx.kb.host_compilers(tk->version);
  std::string how;
  const inventory::Compiler* c = host_compiler(ctx, how);
  if (!c) return;
  auto v = Version::parse(c->version);
  if (!v) return;
  bool clang = is_clang(*c);
  auto bounds = bounds_for(*tk, range, clang);
  if (!bounds) return;
  int lo = bounds->lo, hi = bounds->hi;
  if (v->major() >= lo && v->major() <= hi) return;
  bool too_new = v->major() > hi;
  std::string family = clang ? "clang" : "gcc";
  bool enforced = too_new ? bounds->hi_enforced : bounds->lo_enforced;
  std::string source = too_new ? bounds->hi_source : bounds->lo_source;
  Finding f;
  f.id = too_new ? "compiler.too_new_for_nvcc" : "compiler.too_old_for_nvcc";
  f.status = too_new ? Status::kFail : Status::kWarn;
  f.title = family + " " + c->version + " is " + (too_new ? "newer" : "older") + " than nvcc " +
            major_minor(tk->version) + " supports (" + family + " " + std::to_string(lo) + " to " +
            std::to_string(hi) + (too_new || enforced ? "" : "; support policy, not enforced by nvcc") + ")";
  f.evidence = {{"host compiler", c->path.empty() ? c->name : c->path, how},
                {family + " version", c->version, c->source.empty() ? "--version" : c->source},
                {"nvcc", tk->version, tk->root},
                {"supported " + family, std::to_string(lo) + " .. " + std::to_string(hi), source}};
  f.explanation = too_new ? "nvcc stops every CUDA compile with \"#error -- unsupported GNU version! gcc versions "
                            "later than " + std::to_string(hi) + " are not supported!\" (-allow-unsupported-compiler "
                            "only moves the failure into the standard headers)."
                          : "nvcc " + major_minor(tk->version) + " is not tested with " + family + " " +
                                std::to_string(v->major()) + "; C++17 code in torch headers may not compile." +
                                (enforced ? " Its host_config.h refuses it outright (#error)."
                                          : " nvcc does not refuse it: the minimum is NVIDIA's support policy.");
  f.fixes = fixes_for(ctx, *bounds, clang);
  if (too_new) {
    // A newer installed toolkit that accepts this compiler is the other way out.
    for (const auto& t : ctx.inv.toolkits) {
      if (&t == tk || t.nvcc.empty()) continue;
      auto b = bounds_for(t, ctx.kb.host_compilers(t.version), clang);
      if (b && v->major() <= b->hi) {
        f.fixes.push_back(use_toolkit_step(t, static_cast<int>(f.fixes.size()) + 1));
        break;
      }
    }
  }
  if (range) f.references.push_back(range->source);
  out.push_back(std::move(f));
}

}  // namespace gpucheck::compat
