#include "checks/planner/resolver.h"

#include <algorithm>
#include <map>
#include <set>

#include "checks/planner/plan_commands.h"
#include "core/errors.h"
#include "core/text.h"
#include "knowledge/version.h"

namespace gpucheck::planner {
namespace {

const std::set<std::string> kTorchFamily = {"torch", "torchvision", "torchaudio", "triton"};

std::string mm_of(const std::string& v) {
  auto p = knowledge::pep440::Version::parse(v);
  if (!p || p->release.size() < 2) return "";
  return std::to_string(p->release[0]) + "." + std::to_string(p->release[1]);
}

int cmp(const std::string& a, const std::string& b) { return knowledge::compare_versions(a, b); }

/// A pin or machine fact that can reject a candidate; `key` identifies it for conflict naming.
struct Rejection {
  std::string key;     // an ask label or "machine:<what>"
  std::string reason;
};

struct Candidate {
  const knowledge::pep440::Requirement* req = nullptr;
  std::vector<const Ask*> asks;  // every ask on this package (requirements and constraints)
  knowledge::pep440::SpecifierSet spec;
  bool asked = false;            // at least one ask is a requirement (not only -c)
};

/// A SASS build for compute capability `cc` among `archs` ("sm_80" runs on 8.6: same major, minor not above).
bool arch_covers(const std::vector<std::string>& archs, const std::string& cc) {
  auto want = knowledge::pep440::Version::parse(cc);
  if (!want || want->release.size() < 2) return false;
  for (const auto& a : archs) {
    if (a.rfind("sm_", 0) != 0) continue;
    std::string d = a.substr(3);
    if (d.empty() || !std::isdigit(static_cast<unsigned char>(d.back()))) continue;  // sm_90a: that GPU only
    int n = std::stoi(d);
    if (n / 10 == want->release[0] && n % 10 <= want->release[1]) return true;
  }
  return false;
}

std::string python_label(const Machine& m) { return "Python " + m.python_version + " (" + m.python + ")"; }

/// Every torch build known to exist: the installed one, PyPI's build of every release, and each PyTorch
/// index build of a series' latest patch (the one torch.json records).
std::vector<TorchOption> torch_options(const knowledge::KnowledgeBase& kb, const Machine& m) {
  std::vector<TorchOption> out;
  // A PEP 668 interpreter gets a new venv first: the torch installed beside it is not in that venv.
  if (!m.installed_torch.empty() && !m.externally_managed) {
    TorchOption o;
    auto v = knowledge::pep440::Version::parse(m.installed_torch);
    o.version = v ? v->public_str() : m.installed_torch;
    o.cuda = mm_of(m.installed_torch_cuda);
    o.installed = true;
    o.archs = m.installed_torch_archs;
    o.source = "the installed torch";
    out.push_back(o);
  }
  const auto* pkg = kb.pypi().package("torch");
  if (!pkg) return out;
  for (auto it = pkg->releases.rbegin(); it != pkg->releases.rend(); ++it) {
    const auto& r = *it;
    if (r.yanked) continue;
    const knowledge::TorchRelease* series = kb.torch_release(r.version);
    TorchOption pypi;
    pypi.version = r.version;
    pypi.cuda = knowledge::cuda_of_requires_dist(r.requires_dist);
    if (pypi.cuda.empty() && series) pypi.cuda = series->pypi_default_cuda;
    if (series && !pypi.cuda.empty())
      if (const auto* b = series->build_for_cuda(pypi.cuda)) pypi.archs = b->archs;
    pypi.source = r.source;
    out.push_back(pypi);
    if (!series || cmp(series->latest_patch, r.version) != 0) continue;
    for (auto b = series->builds.rbegin(); b != series->builds.rend(); ++b) {
      if (mm_of(b->cuda) == mm_of(pypi.cuda)) continue;  // the same build PyPI serves
      TorchOption o;
      o.version = r.version;
      o.cuda = b->cuda;
      o.tag = b->tag;
      o.index_url = b->index_url;
      o.archs = b->archs;
      o.source = series->source;
      out.push_back(o);
    }
  }
  return out;
}

const knowledge::PypiRelease* pypi_release(const knowledge::KnowledgeBase& kb, const std::string& name,
                                        const std::string& version) {
  const auto* p = kb.pypi().package(name);
  return p ? p->find(version) : nullptr;
}

/// The driver runs a build of CUDA `cuda`: not newer than its own CUDA, or the same major within NVIDIA's
/// minor-version compatibility (driver >= that major's floor, driver.json).
bool driver_runs(const knowledge::KnowledgeBase& kb, const Machine& m, const std::string& cuda) {
  if (m.driver_cuda.empty() || cuda.empty() || cmp(cuda, m.driver_cuda) <= 0) return true;
  auto c = knowledge::pep440::Version::parse(cuda), d = knowledge::pep440::Version::parse(m.driver_cuda);
  if (!c || !d || c->release[0] != d->release[0] || m.driver_version.empty()) return false;
  auto floor = kb.minor_compat_floor(static_cast<int>(c->release[0]));
  return floor && cmp(m.driver_version, floor->min_driver) >= 0;
}

/// Why the machine cannot run this torch build; empty when it can (unknown facts do not reject).
std::vector<Rejection> machine_rejects(const knowledge::KnowledgeBase& kb, const Machine& m, const TorchOption& t) {
  std::vector<Rejection> out;
  if (t.version.empty() || t.installed) {
    if (t.installed && !driver_runs(kb, m, t.cuda))
      out.push_back({"machine:driver", "the driver runs CUDA <= " + m.driver_cuda + "; " + t.describe() + " needs " + t.cuda});
    return out;
  }
  const auto* r = pypi_release(kb, "torch", t.version);
  std::string py = mm_of(m.python_version);
  if (r && !py.empty() && (!r->has_wheel_for(py) || !r->python_allowed(m.python_version)))
    out.push_back({"machine:python", t.describe() + " has no wheel for " + python_label(m) + " (wheels: " +
                                         join(r->linux_wheel_pythons, " ") + ")"});
  if (r && !m.glibc.empty() && !r->manylinux_glibc.empty() && cmp(r->manylinux_glibc, m.glibc) > 0)
    out.push_back({"machine:glibc", t.describe() + "'s wheels need glibc >= " + r->manylinux_glibc + " (manylinux); glibc here is " + m.glibc});
  if (!driver_runs(kb, m, t.cuda))
    out.push_back({"machine:driver", t.describe() + " needs a driver for CUDA " + t.cuda + "; this driver runs CUDA <= " + m.driver_cuda});
  if (!t.archs.empty())
    for (const auto& cc : m.gpu_ccs)
      if (!arch_covers(t.archs, cc))
        out.push_back({"machine:gpu " + cc, t.describe() + " has no build for compute capability " + cc + " (it has " +
                                                 join(t.archs, " ") + ")"});
  return out;
}

/// Why a source build of `row` against torch `t` fails here (nvcc, torch's CUDA, GPU archs, gcc); "" when it
/// can build.
std::string build_contract(const knowledge::KnowledgeBase& kb, const Machine& m, const knowledge::ExtensionRelease& row,
                           const TorchOption& t) {
  std::string torch_cuda = mm_of(t.cuda);
  if (t.version.empty()) return "a source build needs torch";
  if (!m.toolkit_known) return "";
  if (m.nvcc.empty()) return "a source build needs nvcc; no CUDA toolkit was found";
  if (torch_cuda.empty()) return "a CUDA build needs a CUDA torch; " + t.describe() + " is CPU-only";
  if (knowledge::pep440::Version::parse(m.nvcc)->release[0] != knowledge::pep440::Version::parse(torch_cuda)->release[0])
    return "nvcc " + m.nvcc + " and torch's CUDA " + torch_cuda + " differ in major version (cpp_extension stops)";
  if (row.strict_minor && m.nvcc != torch_cuda) return "needs nvcc " + torch_cuda + " exactly (torch's CUDA); nvcc is " + m.nvcc;
  if (!row.cuda_min.empty() && cmp(m.nvcc, row.cuda_min) < 0) return "needs nvcc >= " + row.cuda_min + "; nvcc is " + m.nvcc;
  // The package fixes -std=c++N in its own flags, so cpp_extension cannot raise it to what torch's headers need
  // (flash-attn <= 2.8.3.post2: -std=c++17; torch >= 2.13: C++20, "#error C++20 or later compatible compiler
  // is required to use ATen").
  if (const auto* rel = kb.torch_release(t.version); rel && row.cxx_std > 0 && rel->cxx_standard > row.cxx_std)
    return "torch " + t.version + "'s headers need C++" + std::to_string(rel->cxx_standard) + " and its build passes -std=c++" +
           std::to_string(row.cxx_std) + " (" + row.cxx_std_source + "; " + rel->source + ")";
  for (const auto& cc : m.gpu_ccs)
    if (!kb.cuda_can_build(m.nvcc, cc)) return "nvcc " + m.nvcc + " cannot compile compute capability " + cc;
  auto gcc = knowledge::pep440::Version::parse(m.gcc);
  if (auto hc = kb.host_compilers(m.nvcc); gcc && hc && hc->gcc_max > 0 && gcc->release[0] > hc->gcc_max)
    return "nvcc " + m.nvcc + " takes gcc <= " + std::to_string(hc->gcc_max) + "; gcc here is " + m.gcc;
  return "";
}

/// The TORCH_CUDA_ARCH_LIST a build of `row` compiles here: the environment's own (a rebuild keeps it), else
/// every GPU, else (no GPU visible) the package's default list cut to what this nvcc can build, PTX on the
/// last. `why` is set when nothing is buildable.
std::string build_arch_list(const knowledge::KnowledgeBase& kb, const Machine& m, const knowledge::ExtensionRelease& row,
                            std::string& why) {
  auto cc_of = [](const std::string& a) { return a.substr(0, a.find('+')); };
  if (!m.arch_list.empty()) {
    for (const auto& part : split(m.arch_list, ' '))
      for (const auto& a : split(part, ';'))
        if (!trim(a).empty() && m.toolkit_known && !m.nvcc.empty() && !kb.cuda_can_build(m.nvcc, cc_of(trim(a))))
          why = "TORCH_CUDA_ARCH_LIST names " + trim(a) + ", which nvcc " + m.nvcc + " cannot build";
    return m.arch_list;
  }
  if (!m.gpu_ccs.empty()) return join(m.gpu_ccs, ";");
  if (row.build != "torch_cpp_extension" || row.archs.empty() || !m.toolkit_known || m.nvcc.empty()) return "";
  std::vector<std::string> good;
  for (const auto& a : row.archs)
    if (kb.cuda_can_build(m.nvcc, cc_of(a))) good.push_back(cc_of(a));
  if (good.empty()) {
    why = "nvcc " + m.nvcc + " can build none of its default architectures (" + join(row.archs, " ") + ")";
    return "";
  }
  if (good.size() == row.archs.size() && row.archs.back().find("+PTX") != std::string::npos) return "";  // its own list builds
  good.back() += "+PTX";
  return join(good, ";");
}

/// Sets what a build of `row` compiles in the variable the package reads: TORCH_CUDA_ARCH_LIST, its own
/// (flash-attn >= 2.7.3 passes -gencode flags from FLASH_ATTN_CUDA_ARCHS, and cpp_extension then adds none
/// from TORCH_CUDA_ARCH_LIST: exporting that would change nothing and build all four default targets), or
/// none when its flags are fixed (older flash-attn).
void set_build_archs(PlannedPackage& p, const knowledge::ExtensionRelease& row, const std::string& arch_list) {
  p.arch_list = row.own_gencode && row.arch_env.empty() ? "" : arch_list;  // fixed flags: nothing to set
  if (row.arch_env.empty() || arch_list.empty()) return;
  p.arch_env = row.arch_env;
  p.arch_env_source = row.arch_env_source;
  p.arch_list = row.arch_env_value(arch_list);
  if (p.arch_list == join(row.arch_env_values, ";")) p.arch_list.clear();  // its own default: nothing to set
}

/// A package NVIDIA publishes only as a source tree (apex; PyPI's "apex" is another project): its install
/// steps from extensions.json, when the torch here can build it.
std::optional<PlannedPackage> source_tree_package(const knowledge::KnowledgeBase& kb, const Machine& m,
                                                  const Candidate& c, const TorchOption& t, std::string& why) {
  const knowledge::ExtensionInfo* ext = kb.extension(c.req->name);
  if (!ext || !c.spec.empty()) return std::nullopt;
  for (const auto& row : ext->releases) {
    if (row.distribution != "source" || row.install.empty()) continue;
    std::string no = row.torch.empty() || t.version.empty() || knowledge::satisfies(t.version, row.torch)
                         ? std::string() : "needs torch " + row.torch;
    if (no.empty() && row.needs_nvcc) no = build_contract(kb, m, row, t);
    if (!no.empty()) {
      why = "its source tree (" + row.source + "): " + no;
      return std::nullopt;
    }
    PlannedPackage p;
    p.name = c.req->name;
    p.build = true;
    p.no_build_isolation = row.setup_imports_torch;
    p.install = row.install;
    p.source = row.source;
    p.note = "built from its source tree (" + row.source + ")";
    set_build_archs(p, row, build_arch_list(kb, m, row, why));
    if (!why.empty()) return std::nullopt;
    if (const auto* other = kb.pypi().package(c.req->name); other && !other->releases.empty() &&
                                                            !other->releases.back().summary.empty())
      p.note += "; PyPI's '" + c.req->name + "' is another project: \"" + other->releases.back().summary + "\"";
    return p;
  }
  return std::nullopt;
}

struct PackageFit {
  const knowledge::PypiRelease* release = nullptr;
  PlannedPackage planned;
};

/// The newest release of `c` that works with torch `t` here; the reasons of every release that did not.
std::optional<PackageFit> fit_package(const knowledge::KnowledgeBase& kb, const Machine& m, const Candidate& c,
                                      const TorchOption& t, const std::map<std::string, std::string>& family,
                                      std::string& why) {
  const auto* pkg = kb.pypi().package(c.req->name);
  std::string py = mm_of(m.python_version);
  std::vector<std::string> reasons;
  if (auto tree = source_tree_package(kb, m, c, t, why)) return PackageFit{nullptr, *tree};
  if (!why.empty()) return std::nullopt;
  if (!pkg) {  // a package PyPI's table does not hold (llava, named by pip's resolver in a paste)
    why = c.req->name + ": not in the knowledge base's PyPI releases (data/compat/pypi.json)";
    return std::nullopt;
  }
  for (auto it = pkg->releases.rbegin(); it != pkg->releases.rend(); ++it) {
    const auto& r = *it;
    if (r.yanked || !c.spec.contains(r.version)) continue;
    std::string no;
    if (!py.empty() && !r.python_allowed(m.python_version)) no = "Requires-Python " + r.requires_python;
    bool wheel = py.empty() ? !r.linux_wheel_pythons.empty() : r.has_wheel_for(py);
    const knowledge::ExtensionInfo* ext = kb.extension(c.req->name);
    const knowledge::ExtensionRelease* row = ext ? ext->release_for(r.version) : nullptr;
    bool from_source = row && row->distribution == "source";
    if (no.empty() && !wheel && !r.sdist && !from_source) no = "no wheel for Python " + py + " and no sdist";
    bool build = from_source || !wheel;
    knowledge::pep440::MarkerEnv env;
    env.python_version = py.empty() ? "3.11" : py;
    env.python_full_version = m.python_version.empty() ? env.python_version + ".0" : m.python_version;
    env.extras.insert(c.req->extras.begin(), c.req->extras.end());
    env.extras.insert("torch");  // a torch user: transformers' torch extra states the torch it needs
    for (const auto& line : r.requires_dist) {
      if (!no.empty()) break;
      knowledge::pep440::Requirement dep;
      try {
        dep = knowledge::pep440::Requirement::parse(line);
        if (!kTorchFamily.count(dep.name) || !dep.applies(env)) continue;
      } catch (const InputError&) {
        continue;  // published metadata pip would also skip
      }
      auto have = family.find(dep.name);
      std::string version = dep.name == "torch" ? (t.version.empty() ? "" : t.full_version())
                                                : (have == family.end() ? "" : have->second);
      if (dep.name == "torch" && t.version.empty()) no = "needs torch (" + line + ")";
      else if (!version.empty() && !dep.specifiers.contains(version, true))
        no = "Requires-Dist " + dep.str() + " (" + t.describe() + ")";
    }
    // torchaudio releases since 2.1 are made for the torch of the same major.minor (torchaudio's compatibility
    // matrix, https://pytorch.org/audio/main/installation.html#compatibility-matrix); 2.11.0's METADATA has no
    // torch line at all, and "no pin" is not "fits any torch" (issue 31: 2.11.0 offered for torch 2.5.1).
    if (no.empty() && c.req->name == "torchaudio" && !t.version.empty() && cmp(r.version, "2.1") >= 0 &&
        mm_of(r.version) != mm_of(t.version))
      no = "made for torch " + mm_of(r.version) + " (torchaudio's compatibility matrix; " + t.describe() + ")";
    if (no.empty() && row) {
      if (!row->torch.empty() && !t.version.empty() && !knowledge::satisfies(t.version, row->torch))
        no = "needs torch " + row->torch + " (" + row->source + ")";
      if (no.empty() && !row->min_cc.empty())
        for (const auto& cc : m.gpu_ccs)
          if (cmp(cc, row->min_cc) < 0) no = "needs compute capability >= " + row->min_cc + "; a GPU here is " + cc;
      if (no.empty() && build && row->needs_nvcc) no = build_contract(kb, m, *row, t);
    }
    std::string arch_list, toolkit_root;
    if (!no.empty() && build && row && row->needs_nvcc && m.toolkit_known) {
      // Another installed toolkit that fits this torch (the one to point CUDA_HOME at instead of replacing torch).
      for (const auto& [mm, root] : m.other_toolkits) {
        Machine alt = m;
        alt.nvcc = mm;
        alt.nvcc_root = root;
        std::string why_alt = knowledge::satisfies(t.version.empty() ? "0" : t.version, row->torch.empty() ? ">=0" : row->torch)
                                  ? build_contract(kb, alt, *row, t) : "torch";
        if (why_alt.empty() && no.find("nvcc") != std::string::npos) {
          no.clear();
          toolkit_root = root;
          arch_list = build_arch_list(kb, alt, *row, no);
          break;
        }
      }
    } else if (no.empty() && build && row && row->needs_nvcc) {
      arch_list = build_arch_list(kb, m, *row, no);
    }
    if (!no.empty()) {
      if (reasons.size() < 3) reasons.push_back(r.version + ": " + no);
      continue;
    }
    PackageFit fit;
    fit.release = &r;
    fit.planned.name = c.req->name;
    fit.planned.version = r.version;
    fit.planned.build = build;
    fit.planned.jit_ops = build && row && row->build == "jit_ops";
    fit.planned.no_build_isolation = build && row && row->setup_imports_torch;
    if (from_source) fit.planned.install = row->install;
    fit.planned.source = row && build ? row->source : r.source;
    if (row) set_build_archs(fit.planned, *row, arch_list);
    fit.planned.toolkit_root = toolkit_root;
    if (!toolkit_root.empty()) fit.planned.note += "; built with the toolkit at " + toolkit_root;
    if (row && row->needs_rtld_global(t.version))
      fit.planned.rtld_global_why = row->rtld_global_why + " (" + row->rtld_global_source + ")";
    // One plan over all findings: a CUDA library wheel of another major than torch's would overwrite torch's
    // copy of the same library (python.file_overwritten), so it is left out and the rest installed by name.
    if (const std::string torch_major = t.cuda.empty() ? "" : t.cuda.substr(0, t.cuda.find('.')); !torch_major.empty()) {
      std::vector<std::string> clashing, rest;
      for (const auto& line : r.requires_dist) {
        auto dep = knowledge::pep440::Requirement::try_parse(line);
        if (!dep || !dep->applies(env)) continue;
        const auto cu = dep->name.rfind("-cu");
        if (starts_with(dep->name, "nvidia-") && cu != std::string::npos && dep->name.substr(cu + 3) != torch_major)
          clashing.push_back(dep->name);
        else
          rest.push_back(dep->str());
      }
      if (!clashing.empty()) {
        fit.planned.no_deps_why = join(clashing, ", ") + " (required by " + c.req->name + " " + r.version +
                                  ") is left out: torch's CUDA " + t.cuda + " libraries install the same files";
        fit.planned.deps_instead = rest;
      }
    }
    if (build)
      fit.planned.note = from_source ? "built from its source tree" : "no wheel for Python " + py + ": pip builds the sdist" +
                                                                          (m.nvcc.empty() ? "" : " with nvcc " + m.nvcc);
    return fit;
  }
  why = reasons.empty() ? "no release matches " + (c.spec.empty() ? std::string("(any)") : c.spec.str())
                        : join(reasons, "; ");
  return std::nullopt;
}

/// Lower is better.
std::tuple<int, int, int, int, int> rank_key(const TorchOption& t, const Machine& m) {
  int keep = t.installed ? 0 : (t.version.empty() && m.installed_torch.empty()) ? 0 : 1;
  // A build newer than the driver's CUDA runs only under minor-version compatibility (no PTX JIT): after.
  int compat = !m.driver_cuda.empty() && !t.cuda.empty() && cmp(t.cuda, m.driver_cuda) > 0 ? 1 : 0;
  int pypi = t.index_url.empty() ? 0 : 1;
  auto v = knowledge::pep440::Version::parse(t.version.empty() ? "0" : t.version);
  int ver = -static_cast<int>(v->release.size() > 0 ? v->release[0] * 10000 + (v->release.size() > 1 ? v->release[1] * 100 : 0) +
                                                          (v->release.size() > 2 ? v->release[2] : 0)
                                                    : 0);
  auto c = knowledge::pep440::Version::parse(t.cuda.empty() ? "0" : t.cuda);
  int cuda = -static_cast<int>(c->release[0] * 100 + (c->release.size() > 1 ? c->release[1] : 0));
  return {keep, compat, pypi, ver, cuda};
}

/// A torch wheel published before an ABI break of a package it links (numpy 2.0.0) needs that package below
/// it: the newest such release for this Python is pinned, with the rule's source in the plan's notes.
void abi_pins(const knowledge::KnowledgeBase& kb, const Machine& m, Plan& plan) {
  if (plan.torch.version.empty()) return;
  const auto* torch = kb.pypi().package("torch")->find(plan.torch.version);
  if (!torch || torch->uploaded.empty()) return;
  for (const auto& b : kb.pypi().abi_breaks()) {
    if (std::find(b.dependents.begin(), b.dependents.end(), "torch") == b.dependents.end()) continue;
    const auto* pkg = kb.pypi().package(b.package);
    const auto* first = pkg ? pkg->find(b.version) : nullptr;
    if (!first || first->uploaded.empty() || torch->uploaded >= first->uploaded) continue;
    auto below = knowledge::pep440::SpecifierSet::parse("<" + b.version);
    for (auto it = pkg->releases.rbegin(); it != pkg->releases.rend(); ++it)
      if (!it->yanked && below.contains(it->version) && it->python_allowed(m.python_version.empty() ? "3.11" : m.python_version) &&
          (mm_of(m.python_version).empty() || it->has_wheel_for(mm_of(m.python_version)))) {
        plan.abi_pins.push_back({b.package, it->version});
        plan.notes.push_back(b.package + " " + it->version + " pinned: torch " + plan.torch.version + " (published " +
                             torch->uploaded + ") predates " + b.package + " " + b.version + " (" + first->uploaded +
                             "), whose ABI break it cannot load (" + b.source + ")");
        break;
      }
  }
}

}  // namespace

std::string Ask::label() const { return req.str() + " (" + origin + ")"; }

std::string TorchOption::describe() const {
  if (version.empty()) return "no torch";
  std::string where = installed ? "installed" : index_url.empty() ? "PyPI" : index_url;
  return "torch " + version + " (" + where + (cuda.empty() ? "" : ", CUDA " + cuda) + ")";
}

std::string TorchOption::full_version() const { return tag.empty() ? version : version + "+" + tag; }

std::vector<std::string> known_packages(const knowledge::KnowledgeBase& kb) {
  std::vector<std::string> out;
  for (const auto& p : kb.pypi().packages()) out.push_back(p.name);
  std::sort(out.begin(), out.end());
  return out;
}

void check_asks(const knowledge::KnowledgeBase& kb, const std::vector<Ask>& asks) {
  for (const auto& a : asks) {
    const auto* pkg = kb.pypi().package(a.req.name);
    if (!pkg) {
      auto known = known_packages(kb);
      std::string guess = closest_match(a.req.name, known);
      throw InputError(a.origin + ": no knowledge about '" + a.req.name + "'" +
                       (guess.empty() ? "" : " (did you mean " + guess + "?)") + "; known: " + join(known, ", "));
    }
    if (!a.req.url.empty()) throw InputError(a.origin + ": '" + a.req.str() + "': a URL requirement cannot be planned");
    const knowledge::ExtensionInfo* ext = kb.extension(a.req.name);
    bool tree = ext && std::any_of(ext->releases.begin(), ext->releases.end(),
                                   [](const knowledge::ExtensionRelease& r) { return r.distribution == "source"; });
    if (tree && a.req.specifiers.empty()) continue;  // built from its source tree, not from PyPI
    bool any = std::any_of(pkg->releases.begin(), pkg->releases.end(), [&](const knowledge::PypiRelease& r) {
      return !r.yanked && a.req.specifiers.contains(r.version);
    });
    if (!any) {
      auto versions = pkg->versions();
      std::vector<std::string> shown = versions;
      if (shown.size() > 12) {
        shown.erase(shown.begin(), shown.end() - 12);
        shown.insert(shown.begin(), "...");
      }
      throw InputError(a.origin + ": no " + a.req.name + " release satisfies '" + a.req.specifiers.str() +
                       "'; PyPI has " + join(shown, ", ") + " (" + pkg->index + ")");
    }
  }
}

Result resolve(const knowledge::KnowledgeBase& kb, const Machine& m, const std::vector<Ask>& asks, int max_plans) {
  Result res;
  std::map<std::string, Candidate> cands;  // by package, in name order
  std::vector<std::string> order;          // packages as asked
  for (const auto& a : asks) {
    res.asked.push_back(a.label());
    auto& c = cands[a.req.name];
    if (!c.req) {
      c.req = &a.req;
      order.push_back(a.req.name);
    }
    if (!a.constraint) c.req = &a.req, c.asked = true;
    c.asks.push_back(&a);
    c.spec = c.spec & a.req.specifiers;
  }
  // The torch asks (and constraints) bound the torch options directly; its companions are packages.
  bool torch_needed = cands.count("torch") && cands["torch"].asked;
  for (const auto& name : order)
    if (name != "torch" && cands[name].asked) torch_needed = true;  // every package here is a torch user
  if (m.gpu_ccs.empty()) res.notes.push_back("no GPU visible: the plans are not checked against a GPU architecture");
  if (m.driver_cuda.empty()) res.notes.push_back("no driver found: the plans are not checked against a driver");
  if (m.python_version.empty()) res.notes.push_back("no Python known: the plans are not checked against a Python version");
  if (!m.toolkit_known) res.notes.push_back("no toolkit known: a source build is not checked against nvcc");

  std::vector<TorchOption> options = torch_options(kb, m);
  if (!torch_needed) options.insert(options.begin(), TorchOption{});
  std::stable_sort(options.begin(), options.end(),
                   [&](const TorchOption& a, const TorchOption& b) { return rank_key(a, m) < rank_key(b, m); });

  std::vector<std::pair<std::vector<Rejection>, const TorchOption*>> rejected;
  std::set<std::string> series_planned;  // one plan per torch series, CUDA and index: real alternatives
  for (const auto& t : options) {
    if (static_cast<int>(res.plans.size()) >= max_plans) break;
    std::string series = (t.installed ? "installed " : "") + mm_of(t.version) + " " + t.cuda + " " + t.index_url;
    std::vector<Rejection> no = machine_rejects(kb, m, t);
    if (auto it = cands.find("torch"); it != cands.end() && !t.version.empty() &&
                                       !it->second.spec.contains(t.full_version(), true))
      for (const auto* a : it->second.asks)
        if (!a->req.specifiers.contains(t.full_version(), true)) no.push_back({a->label(), t.describe() + " is outside " + a->req.str()});
    Plan plan;
    plan.torch = t;
    std::map<std::string, std::string> family;  // companion versions chosen so far
    if (no.empty()) {
      // Companions first: their exact torch pins decide; then the other packages see them.
      std::vector<std::string> names;
      for (const auto& n : order)
        if (n != "torch" && kTorchFamily.count(n)) names.push_back(n);
      for (const auto& n : order)
        if (!kTorchFamily.count(n)) names.push_back(n);
      for (const auto& n : names) {
        const Candidate& c = cands[n];
        if (!c.asked) continue;
        std::string why;
        auto fit = fit_package(kb, m, c, t, family, why);
        if (!fit) {
          for (const auto* a : c.asks) no.push_back({a->label(), n + " with " + t.describe() + ": " + why});
          break;
        }
        if (kTorchFamily.count(n)) family[n] = fit->planned.version;
        plan.packages.push_back(fit->planned);
      }
    }
    if (!no.empty()) {
      rejected.push_back({no, &t});
      continue;
    }
    std::stable_partition(plan.packages.begin(), plan.packages.end(), [](const PlannedPackage& p) { return !p.build; });
    bool isolation_off = std::any_of(plan.packages.begin(), plan.packages.end(),
                                     [](const PlannedPackage& p) { return p.no_build_isolation; });
    // setuptools' bdist_wheel needs the `wheel` package when pip does not provide it in an isolated build;
    // an installed wheel is kept as it is (changing its version is not what was asked).
    // So does `ninja`, which torch's BuildExtension compiles with in parallel: without it every file is compiled
    // one after another (flash-attn: 73 CUDA files), and an isolated build would have installed it from the
    // package's build requirements.
    auto newest_for_python = [&](const char* name) {
      if (const auto* w = kb.pypi().package(name))
        for (auto it = w->releases.rbegin(); it != w->releases.rend(); ++it)
          if (!it->yanked && it->python_allowed(m.python_version.empty() ? "3.11" : m.python_version)) return it->version;
      return std::string();
    };
    if (isolation_off && !m.installed.count("wheel")) plan.wheel_version = newest_for_python("wheel");
    const bool compiles_with_torch = std::any_of(plan.packages.begin(), plan.packages.end(), [&](const PlannedPackage& p) {
      const auto* ext = kb.extension(p.name);
      const auto* row = ext && !p.version.empty() ? ext->release_for(p.version) : nullptr;
      return p.no_build_isolation && row && row->build == "torch_cpp_extension";
    });
    if (compiles_with_torch && !m.installed.count("ninja")) plan.ninja_version = newest_for_python("ninja");
    plan.ninja_from_venv = compiles_with_torch;
    if (!series_planned.insert(series).second) continue;
    abi_pins(kb, m, plan);
    plan.notes.insert(plan.notes.begin(), res.notes.begin(), res.notes.end());
    render_plan(plan, m);
    res.plans.push_back(std::move(plan));
  }
  if (res.plans.empty()) {
    // The pins that cannot all hold: those whose dropping alone would leave a plan (fewest rejections).
    std::size_t fewest = SIZE_MAX;
    for (const auto& r : rejected) {
      std::set<std::string> keys;
      for (const auto& n : r.first) keys.insert(n.key);
      fewest = std::min(fewest, keys.size());
    }
    Conflict c;
    std::set<std::string> seen;
    for (const auto& r : rejected) {
      std::set<std::string> keys;
      for (const auto& n : r.first) keys.insert(n.key);
      if (keys.size() != fewest) continue;
      for (const auto& n : r.first) {
        if (seen.count(n.key) || c.pins.size() >= 8) continue;
        seen.insert(n.key);
        std::string pin = n.key;
        if (pin == "machine:python") pin = python_label(m);
        else if (pin == "machine:driver") pin = "the driver (CUDA <= " + m.driver_cuda + ")";
        else if (pin == "machine:glibc") pin = "glibc " + m.glibc;
        else if (starts_with(pin, "machine:gpu ")) pin = "a GPU of compute capability " + pin.substr(12);
        c.pins.push_back(pin);
        c.reasons.push_back(n.reason);
      }
    }
    if (!c.pins.empty()) res.conflicts.push_back(c);
  }
  return res;
}

std::optional<Plan> torch_for_cuda(const knowledge::KnowledgeBase& kb, Machine m, const std::string& cuda,
                                   const std::string& max_driver_cuda, const std::vector<Ask>& pins) {
  std::string want = mm_of(cuda);
  if (want.empty()) return std::nullopt;
  m.installed_torch.clear();  // a replacement is asked for, whatever is installed
  m.driver_version.clear();   // the limit below is strict: no minor-version compatibility beyond it
  for (const std::string& limit : {want, max_driver_cuda})
    if (!limit.empty() && (m.driver_cuda.empty() || cmp(limit, m.driver_cuda) < 0)) m.driver_cuda = limit;
  std::vector<Ask> asks = pins;
  if (std::none_of(asks.begin(), asks.end(), [](const Ask& a) { return a.req.name == "torch"; }))
    asks.insert(asks.begin(), Ask{knowledge::pep440::Requirement::parse("torch"), "the CUDA " + want + " build"});
  Result r = resolve(kb, m, asks, 64);
  const Plan* same_major = nullptr;
  for (const auto& p : r.plans) {
    if (p.torch.cuda.empty()) continue;
    if (mm_of(p.torch.cuda) == want) return p;  // torch.version.cuda == nvcc's: not even a minor warning
    if (!same_major && p.torch.cuda.substr(0, p.torch.cuda.find('.')) == want.substr(0, want.find('.'))) same_major = &p;
  }
  if (same_major) return *same_major;
  return std::nullopt;
}

std::string constraints_text(const Plan& plan) {
  std::string out;
  if (!plan.torch.version.empty()) out += "torch==" + plan.torch.version + "\n";
  for (const auto& p : plan.packages)
    if (p.name != "torch" && !p.version.empty()) out += p.name + "==" + p.version + "\n";
  if (!plan.wheel_version.empty()) out += "wheel==" + plan.wheel_version + "\n";
  if (!plan.ninja_version.empty()) out += "ninja==" + plan.ninja_version + "\n";
  for (const auto& [name, version] : plan.abi_pins) out += name + "==" + version + "\n";
  return out;
}

}  // namespace gpucheck::planner
