#include "checks/diff/inventory_diff.h"

#include <algorithm>
#include <set>

#include "core/text.h"
#include "knowledge/version.h"

namespace gpucheck::diff {
namespace {

using inventory::Inventory;
using inventory::PythonEnv;

std::string or_none(const std::string& s) { return s.empty() ? "(none)" : s; }

std::string driver_cuda(const Inventory& inv) {
  int v = inv.driver.cuda_version;
  return v > 0 ? std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10) : "";
}

std::string gpus(const Inventory& inv) {
  std::map<std::string, int> count;
  for (const auto& g : inv.gpus) ++count[g.name + " (sm_" + std::to_string(g.cc_major) + std::to_string(g.cc_minor) + ")"];
  std::vector<std::string> out;
  for (const auto& [name, n] : count) out.push_back(std::to_string(n) + " x " + name);
  return join(out, ", ");
}

std::string toolkits(const Inventory& inv) {
  std::set<std::string> v;
  for (const auto& t : inv.toolkits) {
    auto parsed = knowledge::Version::parse(t.version);
    v.insert(parsed ? parsed->major_minor() : t.version);
  }
  return join(std::vector<std::string>(v.begin(), v.end()), ", ");
}

// The loader's pick of each CUDA library, else every version found.
std::map<std::string, std::string> libraries(const Inventory& inv) {
  std::map<std::string, std::set<std::string>> all, picked;
  for (const auto& l : inv.libraries) {
    all[l.name].insert(l.version);
    if (l.loader_pick) picked[l.name].insert(l.version);
  }
  std::map<std::string, std::string> out;
  for (const auto& [name, versions] : all) {
    const auto& use = picked.count(name) ? picked[name] : versions;
    out[name] = join(std::vector<std::string>(use.begin(), use.end()), ", ");
  }
  return out;
}

int cuda_major(const std::string& v) {
  auto parsed = knowledge::Version::parse(v);
  return parsed ? parsed->major() : 0;
}

class Differ {
 public:
  Differ(const Inventory& a, const Inventory& b, const knowledge::KnowledgeBase& kb) : a_(a), b_(b), kb_(kb) {}

  // One Finding when `va` and `vb` differ.
  Finding* fact(const std::string& key, const std::string& name, const std::string& va, const std::string& vb,
                bool matters) {
    if (va == vb) return nullptr;
    Finding f;
    f.id = "diff." + key;
    f.status = matters ? Status::kFail : Status::kInfo;
    f.title = name;
    f.summary = name + ": " + or_none(va) + " vs " + or_none(vb);
    f.evidence["A"] = or_none(va);
    f.evidence["B"] = or_none(vb);
    f.details = {{"fact", name}, {"a", va}, {"b", vb}, {"matters", matters}};
    out_.push_back(std::move(f));
    return &out_.back();
  }

  // "torch 2.1.2+cu121 (CUDA 12.1) needs driver >= 530.30.02; B's driver 520.61.05 is older".
  std::string driver_consequence(const std::string& side, const std::string& cuda, const Inventory& other,
                                 std::vector<std::string>& refs) {
    auto min = kb_.driver_minimum(cuda);
    if (!min || !other.driver.present || knowledge::compare_versions(other.driver.version, min->min_driver) >= 0) return "";
    refs.push_back(min->source);
    return "CUDA " + cuda + " (" + side + "'s torch) needs driver >= " + min->min_driver + "; the other driver (" +
           other.driver.version + ") is older, so that torch cannot use the GPU there.";
  }

  std::vector<Finding> run() {
    fact("driver", "driver", a_.driver.present ? a_.driver.version : "", b_.driver.present ? b_.driver.version : "", true);
    fact("driver_cuda", "driver CUDA", driver_cuda(a_), driver_cuda(b_), true);
    fact("gpus", "GPUs", gpus(a_), gpus(b_), true);
    fact("toolkits", "CUDA toolkits", toolkits(a_), toolkits(b_), true);
    fact("glibc", "glibc", a_.system.glibc, b_.system.glibc, true);
    fact("os", "OS", a_.system.os_pretty, b_.system.os_pretty, false);
    fact("host_compiler", "nvcc host compiler", a_.nvcc_host_compiler, b_.nvcc_host_compiler, false);
    python_facts();
    auto la = libraries(a_), lb = libraries(b_);
    std::set<std::string> names;
    for (const auto& [n, v] : la) names.insert(n);
    for (const auto& [n, v] : lb) names.insert(n);
    for (const auto& n : names) fact("library." + n, "lib " + n, la[n], lb[n], true);
    return out_;
  }

 private:
  void python_facts() {
    const PythonEnv* pa = inventory::primary_python(a_);
    const PythonEnv* pb = inventory::primary_python(b_);
    static const PythonEnv kNone;
    const PythonEnv& x = pa ? *pa : kNone;
    const PythonEnv& y = pb ? *pb : kNone;
    auto minor = [](const std::string& v) {
      auto p = knowledge::Version::parse(v);
      return p ? p->major_minor() : v;
    };
    if (Finding* f = fact("python", "python", minor(x.version), minor(y.version), true))
      if (pa && pb)
        f->explanation = "Compiled extension modules are built for one Python minor version (their file names say "
                         "cpython-3XY): a wheel or build from one does not import in the other.";
    if (Finding* f = fact("torch", "torch", x.torch_version, y.torch_version, true))
      if (!x.torch_version.empty() && !y.torch_version.empty())
        f->explanation = "A C++/CUDA extension compiled against one torch version does not load into another "
                         "(torch's C++ ABI changes between releases: undefined symbol at import); rebuild it "
                         "against the torch it runs with.";
    if (Finding* f = fact("torch_cuda", "torch CUDA", x.torch_cuda, y.torch_cuda, true)) {
      std::vector<std::string> refs;
      std::string text;
      if (!x.torch_cuda.empty() && !y.torch_cuda.empty() && cuda_major(x.torch_cuda) != cuda_major(y.torch_cuda))
        text = "An extension built on one will not load on the other: it links the CUDA " +
               std::to_string(cuda_major(x.torch_cuda)) + " runtime (libcudart.so." + std::to_string(cuda_major(x.torch_cuda)) +
               ") and the other torch ships CUDA " + std::to_string(cuda_major(y.torch_cuda)) + "'s.";
      else if (x.torch_cuda.empty() != y.torch_cuda.empty())
        text = "One torch is a CPU build: CUDA extensions and GPU code run only with the other.";
      for (auto [side, cuda, other] : {std::tuple{"A", x.torch_cuda, &b_}, std::tuple{"B", y.torch_cuda, &a_}}) {
        std::string d = cuda.empty() ? "" : driver_consequence(side, cuda, *other, refs);
        if (!d.empty()) text += (text.empty() ? "" : " ") + d;
      }
      f->explanation = text;
      f->references = refs;
    }
    if (x.torch_cxx11_abi != y.torch_cxx11_abi && x.torch_cxx11_abi && y.torch_cxx11_abi)
      if (Finding* f = fact("torch_cxx11_abi", "torch C++11 ABI", *x.torch_cxx11_abi ? "1" : "0",
                            *y.torch_cxx11_abi ? "1" : "0", true))
        f->explanation = "Extensions built with one _GLIBCXX_USE_CXX11_ABI fail to load with the other "
                         "(undefined std::string/std::list symbols).";
    package_facts(x, y);
  }

  // Packages the knowledge base tracks (pypi.json) and the NVIDIA CUDA wheels matter; others are listed.
  void package_facts(const PythonEnv& x, const PythonEnv& y) {
    std::set<std::string> tracked;
    const knowledge::PypiIndex* pypi = nullptr;
    try {
      pypi = &kb_.pypi();
      for (const auto& p : pypi->packages()) tracked.insert(p.name);
    } catch (const std::exception&) {  // without pypi.json only the nvidia-* wheels count as tracked
    }
    std::set<std::string> names;
    for (const auto& [n, v] : x.packages) names.insert(n);
    for (const auto& [n, v] : y.packages) names.insert(n);
    for (const auto& n : names) {
      auto get = [&](const PythonEnv& e) { auto it = e.packages.find(n); return it == e.packages.end() ? std::string() : it->second; };
      const std::string va = get(x), vb = get(y);
      if (n == "torch" || va == vb) continue;  // torch has its own fact
      const bool matters = tracked.count(n) || starts_with(n, "nvidia-");
      Finding* f = fact("package." + n, n, va, vb, matters);
      if (!f || !pypi) continue;
      for (const auto& brk : pypi->abi_breaks()) {
        if (brk.package != n || va.empty() || vb.empty()) continue;
        const bool a_new = knowledge::compare_versions(va, brk.version) >= 0, b_new = knowledge::compare_versions(vb, brk.version) >= 0;
        if (a_new == b_new) continue;
        f->explanation = n + " " + brk.version + " broke its ABI: " + join(brk.dependents, ", ") + " wheels built against " +
                         n + " < " + brk.version + " fail to import with " + n + " >= " + brk.version + ".";
        f->references.push_back(brk.source);
      }
    }
  }

  const Inventory& a_;
  const Inventory& b_;
  const knowledge::KnowledgeBase& kb_;
  std::vector<Finding> out_;
};

}  // namespace

std::vector<Finding> diff_inventories(const Inventory& a, const Inventory& b, const knowledge::KnowledgeBase& kb) {
  return Differ(a, b, kb).run();
}

}  // namespace gpucheck::diff
