#include "checks/abi/findings.h"

#include <algorithm>

namespace gpucheck::abi {
namespace {

std::string complete_line(const TargetReport& t) {
  return "complete: " + std::to_string(t.graph.objects.size()) + " objects in its load closure" +
         (t.symbols_checked ? ", every symbol binds" : " (symbols not checked)");
}

bool known(const CxxAbiUse& u) { return u.abi == CxxAbi::kOld || u.abi == CxxAbi::kNew; }

}  // namespace

Finding to_finding(const TargetReport& t) {
  Finding f;
  f.id = "abi." + (t.problem_kinds.empty() ? std::string("complete") : t.problem_kinds.front());
  f.status = t.status;
  f.title = t.path;
  f.summary = t.problems.empty() ? complete_line(t) : t.problems.front();
  for (std::size_t i = 0; i < t.problems.size(); ++i)
    f.evidence.add(i < t.problem_kinds.size() ? t.problem_kinds[i] : "problem", t.problems[i]);
  if (t.error.empty()) {
    if (known(t.cxx_abi)) f.evidence.add("C++ ABI", t.cxx_abi.macro());
    if (!t.torch_path.empty()) f.evidence.add("torch C++ ABI", t.torch_cxx_abi.macro(), t.torch_path);
    // A clean object: the oldest glibc/libstdc++ it loads on (its problems say more when it has any).
    if (t.problems.empty()) {
      std::string needs;
      for (const auto& [ns, v] : t.version_needs)
        if (ns == "GLIBC" || ns == "GLIBCXX" || ns == "CXXABI") needs += (needs.empty() ? "" : ", ") + v;
      if (!needs.empty()) f.evidence.add("newest versions needed", needs);
    }
  }
  for (const auto& g : t.groups)
    for (const auto& fx : g.remedy) {
      bool seen = std::any_of(f.fixes.begin(), f.fixes.end(), [&](const Fix& have) {
        return have.summary == fx.summary && have.commands == fx.commands;
      });
      if (!seen) f.add_fix(fx.summary, fx.commands, fx.cost);
    }
  f.details = to_json(t);
  return f;
}

Finding to_result(const AuditReport& r, const std::string& id, const std::string& title) {
  Finding res;
  res.id = id;
  res.title = title;
  res.status = r.status;
  std::size_t bad = 0;
  for (const auto& t : r.targets)
    if (t.status != Status::kPass) ++bad;
  res.summary = std::to_string(r.targets.size()) + " object(s) audited, " + std::to_string(bad) + " with problems";
  res.add_metric("objects_audited", static_cast<double>(r.targets.size()), "count");
  res.add_metric("objects_with_problems", static_cast<double>(bad), "count", "lower");
  for (const auto& t : r.targets)
    if (t.status != Status::kPass && !t.problems.empty()) res.evidence[t.path] = t.problems.front();
  res.details = to_json(r);
  return res;
}

Finding import_failure_finding(const std::string& package, const std::string& error) {
  Finding f;
  f.id = "python.import_failed";
  f.status = Status::kFail;
  f.title = "import " + package + " fails: it needs torch, which is not installed";
  f.summary = "Its shared objects may link, but the package cannot be used: every program importing it stops here.";
  f.evidence = {{"import " + package, error, "its shared objects' DT_NEEDED and the interpreter's site-packages"}};
  f.explanation = package + " was installed without torch (pip install --no-deps, or torch removed later): its "
                  "extensions need torch's libraries, which `import torch` loads first.";
  return f;
}

}  // namespace gpucheck::abi
