// The resolver over the real knowledge base: each plan it returns is re-checked here against the published
// metadata it rests on (versions exist, every Requires-Dist on torch and its companions holds, every ask
// holds, every GPU has a SASS build, the driver runs the build's CUDA), and conflicts name the pins.
#include <gtest/gtest.h>

#include <regex>

#include "core/errors.h"
#include "core/text.h"
#include "knowledge/pep440.h"
#include "knowledge/version.h"
#include "planner_support.h"

using namespace gpucheck;
using namespace gpucheck::testing;
namespace pep440 = gpucheck::knowledge::pep440;

namespace {

std::string mm(const std::string& v) {
  auto p = knowledge::pep440::Version::parse(v);
  return p && p->release.size() > 1 ? std::to_string(p->release[0]) + "." + std::to_string(p->release[1]) : "";
}

bool has_sass(const std::vector<std::string>& archs, const std::string& cc) {
  for (const auto& a : archs) {
    std::smatch m;
    if (std::regex_match(a, m, std::regex(R"(sm_(\d+)(\d))")) && m[1] == cc.substr(0, cc.find('.')) &&
        std::stoi(m[2]) <= std::stoi(cc.substr(cc.find('.') + 1)))
      return true;
  }
  return false;
}

/// No placeholder a user would have to fill in: no template braces, no '?', no <angle> words.
void expect_literal(const std::string& cmd) {
  EXPECT_EQ(cmd.find('{'), std::string::npos) << cmd;
  EXPECT_EQ(cmd.find('?'), std::string::npos) << cmd;
  EXPECT_FALSE(std::regex_search(cmd, std::regex("<[A-Za-z_ .-]+>"))) << cmd;
}

/// Everything a plan claims, checked against data/compat independently of the resolver's own code.
void expect_consistent(const planner::Plan& p, const planner::Machine& m, const std::vector<planner::Ask>& asks) {
  const auto& kb = planner_kb();
  std::map<std::string, std::string> versions;
  if (!p.torch.version.empty()) {
    versions["torch"] = p.torch.full_version();
    if (!p.torch.installed) {
      const auto* r = kb.pypi().package("torch")->find(p.torch.version);
      ASSERT_NE(r, nullptr) << p.torch.version << " is not a torch release on PyPI";
      if (!p.torch.index_url.empty()) {
        const auto* s = kb.torch_release(p.torch.version);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(s->latest_patch, p.torch.version) << "index builds are planned only for recorded patches";
        ASSERT_NE(s->build_for_cuda(p.torch.tag), nullptr) << p.torch.tag;
      }
      if (!m.python_version.empty()) {
        EXPECT_TRUE(r->has_wheel_for(mm(m.python_version))) << p.summary;
      }
      if (!m.driver_cuda.empty() && !p.torch.cuda.empty()) {
        EXPECT_LE(knowledge::compare_versions(p.torch.cuda, m.driver_cuda), 0) << p.summary;
      }
      for (const auto& cc : m.gpu_ccs)
        if (!p.torch.archs.empty()) {
          EXPECT_TRUE(has_sass(p.torch.archs, cc)) << p.summary << " on " << cc;
        }
    }
  }
  for (const auto& pkg : p.packages) {
    if (pkg.version.empty()) {  // a source tree (apex): the knowledge base's own steps, nothing from PyPI
      EXPECT_FALSE(pkg.install.empty()) << pkg.name;
      ASSERT_NE(kb.extension(pkg.name), nullptr);
      continue;
    }
    const auto* r = kb.pypi().package(pkg.name)->find(pkg.version);
    ASSERT_NE(r, nullptr) << pkg.name << " " << pkg.version << " does not exist";
    EXPECT_FALSE(r->yanked);
    versions[pkg.name] = pkg.version;
  }
  knowledge::pep440::MarkerEnv env;
  env.python_version = mm(m.python_version.empty() ? "3.11" : m.python_version);
  env.python_full_version = m.python_version;
  env.extras = {"torch"};
  for (const auto& pkg : p.packages) {
    if (pkg.version.empty()) continue;
    for (const auto& line : kb.pypi().package(pkg.name)->find(pkg.version)->requires_dist) {
      auto dep = knowledge::pep440::Requirement::parse(line);
      if (!dep.applies(env) || !versions.count(dep.name)) continue;
      EXPECT_TRUE(dep.specifiers.contains(versions[dep.name], true))
          << pkg.name << " " << pkg.version << " requires " << line << "; plan has " << versions[dep.name];
    }
  }
  for (const auto& a : asks)
    if (versions.count(a.req.name)) {
      EXPECT_TRUE(a.req.specifiers.contains(versions[a.req.name], true)) << a.label() << " vs " << versions[a.req.name];
    }
  ASSERT_FALSE(p.commands.empty()) << p.summary;
  for (const auto& c : p.commands) {
    expect_literal(c);
    if (c.find(" -m pip install ") != std::string::npos) {
      EXPECT_TRUE(starts_with(c, m.externally_managed ? ".venv/bin/python -m pip" : m.python + " -m pip")) << c;
      if (!p.torch.version.empty()) {
        EXPECT_NE(c.find("torch==" + p.torch.version), std::string::npos) << "every install keeps the planned torch: " << c;
      }
    }
  }
}

planner::Result plan_for(const planner::Machine& m, const std::vector<std::string>& specs) {
  auto a = asks(specs);
  planner::check_asks(planner_kb(), a);
  auto r = planner::resolve(planner_kb(), m, a);
  for (const auto& p : r.plans) expect_consistent(p, m, a);
  return r;
}

const std::vector<std::string> kEveryPackage = {"torch", "torchvision", "torchaudio", "triton", "transformers",
                                                "accelerate", "peft", "flash-attn", "xformers", "bitsandbytes",
                                                "deepspeed", "vllm", "apex", "bmtrain"};

}  // namespace

TEST(PlannerKnowledge, PypiTorchBuildsComeFromTheirRequiresDist) {
  const auto* torch = planner_kb().pypi().package("torch");
  ASSERT_NE(torch, nullptr);
  // PyPI's torch 2.11.0 is a CUDA 13.0 build: its METADATA requires cuda-toolkit[...]==13.0.*.
  EXPECT_EQ(knowledge::cuda_of_requires_dist(torch->find("2.11.0")->requires_dist), "13.0");
  EXPECT_EQ(knowledge::cuda_of_requires_dist(torch->find("2.5.1")->requires_dist), "12.4");
  EXPECT_EQ(knowledge::cuda_of_requires_dist(torch->find("1.13.1")->requires_dist), "11.7");
  for (const auto& r : torch->releases) EXPECT_TRUE(starts_with(r.source, "https://files.pythonhosted.org/")) << r.version;
}

TEST(PlannerKnowledge, EveryPlannedPackageIsRecorded) {
  auto known = planner::known_packages(planner_kb());
  for (const auto& p : kEveryPackage) EXPECT_NE(std::find(known.begin(), known.end(), p), known.end()) << p;
  EXPECT_TRUE(planner_kb().pypi().package("wheel") && !planner_kb().pypi().package("wheel")->releases.empty());
}

TEST(Planner, SeedRequirementsGetTorchBelow2AndABmtrainWheel) {
  // CPM-Bee's requirements.txt (tests/data/logs/cpm-bee-57-seed.log): torch<2.0.0,>=1.10 and bmtrain>=0.2.1,
  // Python 3.10 and a CUDA 12.1 driver.
  auto m = machine("3.10.0", "12.1", {});
  auto r = plan_for(m, {"torch<2.0.0,>=1.10", "bmtrain>=0.2.1"});
  ASSERT_FALSE(r.plans.empty());
  const auto& top = r.plans.front();
  EXPECT_EQ(top.torch.version, "1.13.1");
  EXPECT_TRUE(top.torch.index_url.empty()) << "PyPI's own build first: " << top.summary;
  ASSERT_EQ(top.packages.size(), 1u);
  EXPECT_EQ(top.packages[0].name, "bmtrain");
  EXPECT_FALSE(top.packages[0].build) << "bmtrain >= 0.2.3 has cp310 wheels: nothing to compile";
  // torch 1.13.1 was published before numpy 2.0.0 (PyPI upload dates): numpy is pinned below 2 with it.
  EXPECT_EQ(top.commands.front(), "/opt/venv/bin/python -m pip install torch==1.13.1 numpy==1.26.4");
  EXPECT_NE(join(top.notes, "\n").find("numpy 1.26.4 pinned: torch 1.13.1"), std::string::npos) << join(top.notes, "\n");
}

TEST(Planner, SeedRequirementsOnPython312NameBothPins) {
  auto m = machine("3.12.3", "12.1", {});
  auto r = plan_for(m, {"torch<2.0.0,>=1.10", "bmtrain>=0.2.1"});
  EXPECT_TRUE(r.plans.empty());
  ASSERT_EQ(r.conflicts.size(), 1u);
  std::string pins = join(r.conflicts[0].pins, " | ");
  EXPECT_NE(pins.find("torch<2.0.0,>=1.10 (--for)"), std::string::npos) << pins;
  EXPECT_NE(pins.find("Python 3.12.3"), std::string::npos) << pins;
}

TEST(Planner, AVersionThatDoesNotExistIsRefusedWithTheOnesThatDo) {
  try {
    planner::check_asks(planner_kb(), asks({"bmtrain==9.9"}));
    FAIL() << "bmtrain==9.9 accepted";
  } catch (const InputError& e) {
    std::string w = e.what();
    EXPECT_NE(w.find("no bmtrain release satisfies '==9.9'"), std::string::npos) << w;
    EXPECT_NE(w.find("1.0.1"), std::string::npos) << w;
    EXPECT_NE(w.find("0.2.2"), std::string::npos) << w;
  }
  EXPECT_THROW(planner::check_asks(planner_kb(), asks({"bmtrian"})), InputError);
}

TEST(Planner, NoNumpyPinForATorchBuiltAfterNumpy2) {
  auto r = plan_for(machine("3.11.7", "12.4", {"8.0"}), {"torch==2.5.1"});
  ASSERT_FALSE(r.plans.empty());
  EXPECT_TRUE(r.plans[0].abi_pins.empty());
}

TEST(Planner, TorchForThisDriverAndGpuPrefersPypi) {
  auto m = machine("3.11.7", "12.4", {"9.0", "8.0"});
  auto r = plan_for(m, {"torch"});
  ASSERT_FALSE(r.plans.empty());
  EXPECT_EQ(r.plans[0].torch.version, "2.6.0") << "newest PyPI build whose CUDA (12.4) the driver runs";
  EXPECT_TRUE(r.plans[0].torch.index_url.empty());
}

TEST(Planner, TorchOnACuda13DriverIsPypisCuda13Build) {
  auto m = machine("3.11.7", "13.0", {"9.0"});
  auto r = plan_for(m, {"torch"});
  ASSERT_FALSE(r.plans.empty());
  EXPECT_EQ(r.plans[0].torch.cuda, "13.0");
  EXPECT_TRUE(r.plans[0].torch.index_url.empty());
  auto pinned = plan_for(m, {"torch==2.11.0"});
  ASSERT_FALSE(pinned.plans.empty());
  EXPECT_EQ(pinned.plans[0].torch.cuda, "13.0") << "PyPI's torch 2.11.0 is a CUDA 13.0 build";
  EXPECT_TRUE(pinned.plans[0].torch.index_url.empty());
}

TEST(Planner, NeverABuildWithoutTheGpusArchitecture) {
  // A Blackwell GPU (12.0) on a CUDA 12.4 driver: every build the driver runs lacks sm_120.
  auto m = machine("3.11.7", "12.4", {"12.0"});
  auto r = plan_for(m, {"torch"});
  for (const auto& p : r.plans) ADD_FAILURE() << "planned " << p.summary;
  ASSERT_EQ(r.conflicts.size(), 1u);
  std::string pins = join(r.conflicts[0].pins, " | ");
  EXPECT_NE(pins.find("compute capability 12.0"), std::string::npos) << pins;
  EXPECT_NE(pins.find("the driver (CUDA <= 12.4)"), std::string::npos) << pins;
}

TEST(Planner, CompanionsPinnedToTheTorchTheyRequire) {
  auto m = machine("3.11.7", "12.4", {"8.0"});
  auto r = plan_for(m, {"torch", "torchvision", "torchaudio"});
  ASSERT_FALSE(r.plans.empty());
  const auto& top = r.plans.front();
  EXPECT_EQ(top.torch.version, "2.6.0");
  ASSERT_EQ(top.packages.size(), 2u);
  EXPECT_EQ(top.commands.front(),
            "/opt/venv/bin/python -m pip install torch==2.6.0 torchvision==" + top.packages[0].version +
                " torchaudio==" + top.packages[1].version);
}

TEST(Planner, XformersNeverUpgradesTorch) {
  auto m = machine("3.11.7", "12.4", {"8.0"});
  m.installed_torch = "2.5.1+cu124";
  m.installed_torch_cuda = "12.4";
  m.installed_torch_archs = {"sm_80", "sm_90"};
  auto r = plan_for(m, {"xformers"});
  ASSERT_FALSE(r.plans.empty());
  EXPECT_TRUE(r.plans[0].torch.installed) << r.plans[0].summary;
  ASSERT_EQ(r.plans[0].packages.size(), 1u);
  // The newest xformers built for torch 2.5.1 (its METADATA says torch==2.5.1; 0.0.29.post2 says 2.6.0).
  EXPECT_EQ(r.plans[0].packages[0].version, "0.0.29.post1");
  EXPECT_EQ(r.plans[0].commands.back(), "/opt/venv/bin/python -m pip install xformers==0.0.29.post1 torch==2.5.1");
}

TEST(Planner, TransformersWithATooOldTorchKeepsItFirst) {
  auto m = machine("3.11.7", "12.4", {"8.0"});
  m.installed_torch = "2.1.2+cu121";
  m.installed_torch_cuda = "12.1";
  auto r = plan_for(m, {"transformers"});
  ASSERT_GE(r.plans.size(), 2u);
  EXPECT_TRUE(r.plans[0].torch.installed);
  const auto& t = r.plans[0].packages.at(0);
  EXPECT_EQ(t.name, "transformers");
  // transformers 5.x says `torch>=2.6; extra == "torch"` in its METADATA: the kept torch 2.1.2 needs a 4.x
  // release (whose torch extra admits it; expect_consistent checked that line).
  EXPECT_EQ(t.version.substr(0, 2), "4.") << t.version;
  EXPECT_EQ(r.plans[1].packages.at(0).version, planner_kb().pypi().package("transformers")->versions().back());
  EXPECT_FALSE(r.plans[1].torch.installed) << "the second plan upgrades torch: " << r.plans[1].summary;
}

TEST(Planner, FlashAttnPlanNotRunHereNeedsAGpuCheckedAgainstKb) {
  auto m = machine("3.11.7", "13.0", {"9.0"}, "13.0");
  auto r = plan_for(m, {"flash-attn"});
  ASSERT_FALSE(r.plans.empty());
  const auto& top = r.plans.front();
  EXPECT_EQ(top.torch.cuda, "13.0") << "nvcc 13.0 needs a CUDA 13 torch";
  ASSERT_FALSE(top.wheel_version.empty());
  std::string all = join(top.commands, "\n");
  EXPECT_NE(all.find("wheel==" + top.wheel_version), std::string::npos) << all;
  // flash-attn passes its own -gencode flags from FLASH_ATTN_CUDA_ARCHS (default 80;90;100;120), so
  // TORCH_CUDA_ARCH_LIST would change nothing: the H100 build compiles sm_90 only, a quarter of the work.
  EXPECT_NE(all.find("export FLASH_ATTN_CUDA_ARCHS=90\n"), std::string::npos) << all;
  EXPECT_EQ(all.find("TORCH_CUDA_ARCH_LIST"), std::string::npos) << all;
  EXPECT_NE(join(top.notes, "\n").find("TORCH_CUDA_ARCH_LIST changes nothing in its build"), std::string::npos)
      << join(top.notes, "\n");
  EXPECT_NE(all.find("--no-build-isolation --no-cache-dir flash-attn=="), std::string::npos) << all;
  EXPECT_LT(all.find("wheel=="), all.find("--no-build-isolation")) << all;
  // The build compiles in parallel only with ninja, which torch's BuildExtension runs from PATH: the plan
  // installs it into the venv and puts the venv's bin first, as `python -m pip` alone does not.
  ASSERT_FALSE(top.ninja_version.empty());
  EXPECT_NE(all.find(" ninja==" + top.ninja_version), std::string::npos) << all;
  EXPECT_LT(all.find("export PATH=/opt/venv/bin:\"$PATH\"\n"), all.find("--no-build-isolation")) << all;
  auto pep668 = m;  // the plan's own .venv, relative to where it is pasted
  pep668.externally_managed = true;
  std::string own = join(plan_for(pep668, {"flash-attn"}).plans.front().commands, "\n");
  EXPECT_NE(own.find("export PATH=\"$PWD\"/.venv/bin:\"$PATH\"\n"), std::string::npos) << own;
  // flash-attn's setup.py passes -std=c++17 (through 2.8.3.post2); torch 2.13 and newer need C++20 in their
  // headers (torch.json cxx_standard): issue 31 measured plan 1 with torch 2.15.0 stopping in 42 s. Every
  // plan that builds flash-attn pairs it with a torch whose headers are C++17, and a newer one says why not.
  for (const auto& p : r.plans) {
    const auto* rel = planner_kb().torch_release(p.torch.version);
    ASSERT_NE(rel, nullptr) << p.torch.version;
    EXPECT_LE(rel->cxx_standard, 17) << p.summary;
  }
  auto newest = plan_for(m, {"flash-attn", "torch>=2.13"});
  ASSERT_TRUE(newest.plans.empty()) << newest.plans.front().summary;
  std::string why = join(newest.notes, "\n");
  for (const auto& c : newest.conflicts) why += "\n" + join(c.reasons, "\n");
  EXPECT_NE(why.find("need C++20 and its build passes -std=c++17"), std::string::npos) << why;
}

// The targets flash-attn's build compiles are set in its own variable: SASS for 8.0 serves an A10 (8.6) and an
// L4 (8.9), 9.0 an H100; a TORCH_CUDA_ARCH_LIST the user set is carried over in those terms; a build of every
// default target sets nothing; releases before 2.7.3 read no such variable and keep TORCH_CUDA_ARCH_LIST out
// of it as well (their -gencode flags are fixed).
TEST(Planner, FlashAttnTargetsAreSetInTheVariableItsSetupReads) {
  auto exports = [](const planner::Result& r) {
    std::vector<std::string> out;
    if (r.plans.empty()) return out;
    for (const auto& c : r.plans.front().commands)
      if (c.rfind("export ", 0) == 0 && c.find("CUDA_HOME") == std::string::npos && c.find("PATH=") != 7)
        out.push_back(c);
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(exports(plan_for(machine("3.11.7", "13.0", {"8.6", "8.9"}, "13.0"), {"flash-attn"})),
            V{"export FLASH_ATTN_CUDA_ARCHS=80"});
  EXPECT_EQ(exports(plan_for(machine("3.11.7", "13.0", {"8.0", "9.0"}, "13.0"), {"flash-attn"})),
            V{"export FLASH_ATTN_CUDA_ARCHS='80;90'"});
  auto no_gpu = machine("3.11.7", "", {}, "13.0");
  EXPECT_EQ(exports(plan_for(no_gpu, {"flash-attn"})), V{}) << "every default target: nothing to set";
  no_gpu.arch_list = "8.0 12.0+PTX";
  EXPECT_EQ(exports(plan_for(no_gpu, {"flash-attn"})), V{"export FLASH_ATTN_CUDA_ARCHS='80;120'"});
  EXPECT_EQ(exports(plan_for(machine("3.11.7", "13.0", {"9.0"}, "13.0"), {"flash-attn==2.7.2.post1"})), V{});
  const auto* fa = planner_kb().extension("flash-attn");
  ASSERT_NE(fa, nullptr);
  const auto* row = fa->release_for("2.8.3.post2");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->arch_env, "FLASH_ATTN_CUDA_ARCHS");
  EXPECT_EQ(row->arch_env_value("7.5;8.7;9.0a;10.3;12.1+PTX"), "80;90;100;120") << "7.5 has no target";
  EXPECT_EQ(row->arch_env_value("7.5"), "");
  EXPECT_EQ(row->arch_env_value("999999999999.0;x.5;8.;.6"), "") << "nonsense is skipped, never thrown";
}

TEST(Planner, ACudaExtensionIsNeverPlannedAgainstACpuTorchOrAnotherCudaMajor) {
  auto m = machine("3.11.7", "13.0", {"9.0"}, "12.4");
  auto r = plan_for(m, {"bmtrain==0.2.2"});
  ASSERT_FALSE(r.plans.empty());
  for (const auto& p : r.plans) EXPECT_EQ(p.torch.cuda.substr(0, 3), "12.") << p.summary;
  m.installed_torch = "2.5.1+cpu";
  auto r2 = plan_for(m, {"bmtrain==0.2.2"});
  ASSERT_FALSE(r2.plans.empty());
  EXPECT_FALSE(r2.plans[0].torch.installed) << "the CPU torch cannot build a CUDA extension";
}

TEST(Planner, ExternallyManagedPythonGetsAVenvFirst) {
  auto m = machine("3.11.2", "12.4", {"8.0"});
  m.python = "/usr/bin/python3";
  m.externally_managed = true;
  auto r = plan_for(m, {"torch"});
  ASSERT_FALSE(r.plans.empty());
  EXPECT_EQ(r.plans[0].commands.at(0), "/usr/bin/python3 -m venv .venv");
  EXPECT_TRUE(starts_with(r.plans[0].commands.at(1), ".venv/bin/python -m pip install torch=="));
}

// deepspeed installs from its sdist with nothing compiled (its ops are JIT-built at first use,
// data/compat/extensions.json): the plan must not promise "minutes to hours" of compiling.
TEST(Planner, DeepspeedsSdistCompilesNothingAtInstall) {
  auto m = machine("3.11.7", "13.0", {"9.0"}, "13.0");
  auto r = plan_for(m, {"deepspeed"});
  ASSERT_FALSE(r.plans.empty());
  const auto& p = r.plans[0];
  EXPECT_EQ(p.cost.find("compiles deepspeed"), std::string::npos) << p.cost;
  EXPECT_NE(p.cost.find("its CUDA ops compile at first use"), std::string::npos) << p.cost;
  EXPECT_NE(p.summary.find("(its sdist, nothing compiled)"), std::string::npos) << p.summary;
  // bmtrain's build does compile, and says so.
  auto b = plan_for(machine("3.11.7", "13.0", {"9.0"}, "13.0"), {"bmtrain==0.2.2"});
  ASSERT_FALSE(b.plans.empty());
  EXPECT_NE(b.plans[0].cost.find("compiles bmtrain 0.2.2 (minutes to hours)"), std::string::npos) << b.plans[0].cost;
}

TEST(Planner, RebuildKeepsTheEnvironmentsArchList) {
  auto m = machine("3.11.7", "12.4", {"8.0"}, "12.4");
  m.arch_list = "8.0 8.6+PTX";
  auto r = plan_for(m, {"bmtrain==0.2.2"});
  ASSERT_FALSE(r.plans.empty());
  std::string all = join(r.plans[0].commands, "\n");
  EXPECT_NE(all.find("export TORCH_CUDA_ARCH_LIST='8.0 8.6+PTX'"), std::string::npos) << all;
}

TEST(Planner, Bmtrain022WithTorch2ImportsOnlyWhenTorchIsLoadedGlobally) {
  // torch >= 2.0 keeps NCCL in its own libnccl.so.2, loaded RTLD_LOCAL; bmtrain 0.2.2's nccl/_C calls it
  // without linking it (extensions.json, BMTrain #102; the real build: docs/install-paths.md).
  auto m = machine("3.11.7", "13.0", {"9.0"}, "13.0");
  auto r = plan_for(m, {"bmtrain==0.2.2"});
  ASSERT_FALSE(r.plans.empty());
  for (const auto& p : r.plans) {
    ASSERT_EQ(p.torch.version.substr(0, 2), "2.") << p.summary;
    EXPECT_EQ(p.commands.back(), "export TORCH_USE_RTLD_GLOBAL=1") << join(p.commands, "\n");
    EXPECT_NE(p.cost.find("bmtrain imports only with TORCH_USE_RTLD_GLOBAL=1 set, in every shell"), std::string::npos)
        << p.cost;
    EXPECT_NE(join(p.notes, "\n").find("https://github.com/OpenBMB/BMTrain/issues/102"), std::string::npos)
        << join(p.notes, "\n");
  }
  // torch 1.13 links NCCL into libtorch_cuda.so, which the module links: nothing to add.
  auto old = machine("3.10.13", "11.7", {"8.0"}, "11.7");
  old.gcc = "11.4.0";
  auto r2 = plan_for(old, {"bmtrain==0.2.2", "torch<2.0.0,>=1.10"});
  ASSERT_FALSE(r2.plans.empty()) << (r2.conflicts.empty() ? "" : join(r2.conflicts[0].reasons, "; "));
  for (const auto& p : r2.plans) {
    EXPECT_EQ(p.torch.version.substr(0, 2), "1.") << p.summary;
    EXPECT_EQ(join(p.commands, "\n").find("TORCH_USE_RTLD_GLOBAL"), std::string::npos) << join(p.commands, "\n");
    EXPECT_EQ(p.cost.find("RTLD_GLOBAL"), std::string::npos) << p.cost;
  }
  // A wheel release (bmtrain 1.0.1 links what it calls) has no such need.
  auto r3 = plan_for(m, {"bmtrain"});
  ASSERT_FALSE(r3.plans.empty());
  EXPECT_EQ(join(r3.plans[0].commands, "\n").find("TORCH_USE_RTLD_GLOBAL"), std::string::npos);
}

TEST(Planner, EveryPackageGetsAPlanOrNamedConflict) {
  for (const auto& m : {machine("3.11.7", "12.4", {"8.0"}, "12.4"), machine("3.10.12", "13.0", {"9.0"}, "13.0"),
                        machine("3.12.3", "12.1", {"7.0"}, "12.1"), machine("", "", {})}) {
    for (const auto& p : kEveryPackage) {
      auto r = plan_for(m, {p});
      EXPECT_TRUE(!r.plans.empty() || (!r.conflicts.empty() && !r.conflicts[0].pins.empty()))
          << p << " on Python " << m.python_version;
      for (const auto& plan : r.plans)
        EXPECT_FALSE(planner::constraints_text(plan).empty());
    }
  }
}

TEST(Planner, ConstraintsBoundWithoutAsking) {
  auto m = machine("3.11.7", "12.4", {"8.0"});
  auto a = asks({"torch"});
  auto c = planner::ask_from_spec("torch<2.4", "constraints.txt:1");
  c.constraint = true;
  a.push_back(c);
  auto r = planner::resolve(planner_kb(), m, a);
  ASSERT_FALSE(r.plans.empty());
  EXPECT_EQ(r.plans[0].torch.version, "2.3.1");
  EXPECT_EQ(planner::constraints_text(r.plans[0]), "torch==2.3.1\nnumpy==1.26.4\n");  // 2.3.1 predates numpy 2
}

// bmtrain 0.2.3.post2 requires nvidia-nccl-cu11, whose wheel writes nvidia/nccl/lib/libnccl.so.2 over the one
// of a CUDA 13 torch (issue 31: `import torch` then fails on "undefined symbol: ncclCommResume"). One plan over
// all findings: the wheel is installed with --no-deps and its other requirements by name.
TEST(Planner, AWheelNeedingAnotherCudaMajorsLibraryIsInstalledWithoutIt) {
  auto m = machine("3.11.2", "", {}, "13.0");
  auto r = plan_for(m, {"bmtrain==0.2.3.post2"});
  ASSERT_FALSE(r.plans.empty());
  const auto& top = r.plans.front();
  ASSERT_EQ(top.torch.cuda.substr(0, 3), "13.") << top.summary;
  std::string all = join(top.commands, "\n");
  EXPECT_NE(all.find("-m pip install --no-deps bmtrain==0.2.3.post2 torch==" + top.torch.version + "\n"), std::string::npos) << all;
  EXPECT_NE(all.find(" numpy "), std::string::npos) << all;
  EXPECT_EQ(all.find("nvidia-nccl-cu11"), std::string::npos) << all;
  EXPECT_NE(join(top.notes, "\n").find("nvidia-nccl-cu11 (required by bmtrain 0.2.3.post2) is left out"), std::string::npos)
      << join(top.notes, "\n");
  // With a CUDA 11 torch the same requirement is that torch's own library: installed as declared.
  m = machine("3.10.12", "", {}, "11.8");
  auto r11 = plan_for(m, {"bmtrain==0.2.3.post2", "torch==2.0.1"});
  ASSERT_FALSE(r11.plans.empty());
  EXPECT_EQ(join(r11.plans.front().commands, "\n").find("--no-deps"), std::string::npos) << r11.plans.front().summary;
}
