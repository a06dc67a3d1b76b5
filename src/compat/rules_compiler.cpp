// Host compiler vs the range the build toolkit's nvcc accepts (include/crt/host_config.h checks the major).
#include "compat/fix_commands.h"
#include "compat/rules.h"
#include "compat/version.h"
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

std::vector<FixStep> fixes_for(const DoctorContext& ctx, const HostCompilerRange& range, bool clang) {
  std::vector<FixStep> fixes;
  int rank = 1;
  int lo = clang ? range.clang_min : range.gcc_min, hi = clang ? range.clang_max : range.gcc_max;
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
  if (!range || !c) return;
  auto v = Version::parse(c->version);
  if (!v) return;
  bool clang = is_clang(*c);
  int lo = clang ? range->clang_min : range->gcc_min, hi = clang ? range->clang_max : range->gcc_max;
  if (v->major() >= lo && v->major() <= hi) return;
  bool too_new = v->major() > hi;
  std::string family = clang ? "clang" : "gcc";
  Finding f;
  f.id = too_new ? "compiler.too_new_for_nvcc" : "compiler.too_old_for_nvcc";
  f.severity = too_new ? Severity::kError : Severity::kWarn;
  f.title = family + " " + c->version + " is " + (too_new ? "newer" : "older") + " than nvcc " +
            major_minor(tk->version) + " supports (" + family + " " + std::to_string(lo) + " to " +
            std::to_string(hi) + ")";
  f.evidence = {{"host compiler", c->path.empty() ? c->name : c->path, how},
                {family + " version", c->version, c->source.empty() ? "--version" : c->source},
                {"nvcc", tk->version, tk->root},
                {"supported " + family, std::to_string(lo) + " .. " + std::to_string(hi), "data/compat/host_compilers.json"}};
  f.explanation = too_new ? "nvcc stops every CUDA compile with \"#error -- unsupported GNU version! gcc versions "
                            "later than " + std::to_string(hi) + " are not supported!\" (-allow-unsupported-compiler "
                            "only moves the failure into the standard headers)."
                          : "nvcc " + major_minor(tk->version) + " is not tested with " + family + " " +
                                std::to_string(v->major()) + "; C++17 code in torch headers may not compile.";
  f.fixes = fixes_for(ctx, *range, clang);
  if (too_new) {
    // A newer installed toolkit that accepts this compiler is the other way out.
    for (const auto& t : ctx.inv.toolkits) {
      auto r = ctx.kb.host_compilers(t.version);
      if (&t == tk || !r || t.nvcc.empty()) continue;
      if (v->major() <= (clang ? r->clang_max : r->gcc_max)) {
        f.fixes.push_back(use_toolkit_step(t, static_cast<int>(f.fixes.size()) + 1));
        break;
      }
    }
  }
  f.references.push_back(range->source);
  out.push_back(std::move(f));
}

}  // namespace gpucheck::compat
