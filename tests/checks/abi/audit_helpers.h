#pragma once
#include "checks/abi/audit.h"
#include "fixture.h"

namespace abitest {

/// An audit of one file with this host's loader and the given LD_LIBRARY_PATH.
inline gpucheck::abi::TargetReport audit_one(const std::string& path, const std::vector<std::string>& llp = {},
                                             const std::vector<std::string>& preload = {}) {
  static gpucheck::platform::LdCache cache = gpucheck::platform::LdCache::load();
  gpucheck::abi::AuditOptions o;
  o.loader = gpucheck::abi::LoaderConfig::for_this_host(&cache);
  o.loader.ld_library_path = llp;
  o.preload = preload;
  gpucheck::abi::Auditor a(o);
  return a.audit(path);
}

inline const gpucheck::abi::SymbolGroup* group_of(const gpucheck::abi::TargetReport& t, const std::string& category) {
  for (const auto& g : t.groups)
    if (g.category == category) return &g;
  return nullptr;
}

/// `ldd -r` stderr+stdout, for the loader's own verdict.
inline std::string ldd_r(const std::string& path, const std::vector<std::string>& llp = {}) {
  gpucheck::SubprocessOptions o;
  if (!llp.empty()) o.set_env["LD_LIBRARY_PATH"] = gpucheck::join(llp, ":");
  else o.unset_env = {"LD_LIBRARY_PATH"};
  auto r = gpucheck::run_subprocess({"ldd", "-r", path}, o);
  return r.out + r.err;
}

}  // namespace abitest
