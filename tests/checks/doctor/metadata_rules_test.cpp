// The installed-metadata rules on dist-info trees this test writes: Requires-Dist (pip check), two wheels'
// RECORDs claiming one file (the bytes on disk decide whose it is), numpy ABI and import failures.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "checks/doctor/doctor.h"
#include "checks/doctor/torch_choice.h"
#include "inventory/python_distributions.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

// sha256 in RECORD form of "abc" and of the empty file (FIPS 180-2 test vectors, urlsafe base64).
const std::string kAbc = "sha256=ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0";
const std::string kEmpty = "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU";

const knowledge::KnowledgeBase& kb() {
  static knowledge::KnowledgeBase k = knowledge::KnowledgeBase::load(std::string(GPUCHECK_SOURCE_DIR) + "/data/compat");
  return k;
}

class Site : public ::testing::Test {
 protected:
  void SetUp() override {
    site_ = fs::temp_directory_path() / ("gpucheck_meta_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(site_);
    fs::create_directories(site_);
  }
  void TearDown() override { fs::remove_all(site_); }

  void dist(const std::string& dirname, const std::string& metadata, const std::string& record = "") {
    fs::create_directories(site_ / dirname);
    std::ofstream(site_ / dirname / "METADATA") << metadata;
    if (!record.empty()) std::ofstream(site_ / dirname / "RECORD") << record;
  }
  void file(const std::string& rel, const std::string& bytes) {
    fs::create_directories((site_ / rel).parent_path());
    std::ofstream(site_ / rel, std::ios::binary) << bytes;
  }

  inventory::Inventory inventory() {
    inventory::PythonEnv p;
    p.interpreter = "/venv/bin/python";
    p.version = "3.11.7";
    p.kind = "venv";
    p.found_via = {"--python"};
    p.site_packages = {site_.string()};
    p.torch_installed = true;
    p.torch_version = "2.1.2";
    inventory::read_python_distributions(platform::RootFs("/"), p);
    inventory::Inventory inv;
    inv.pythons = {p};
    return inv;
  }

  static std::vector<Finding> with_id(const std::vector<Finding>& all, const std::string& id) {
    std::vector<Finding> out;
    for (const auto& f : all)
      if (f.id == id) out.push_back(f);
    return out;
  }

  fs::path site_;
};

}  // namespace

TEST_F(Site, RequiresDistCheckedAsPipCheckDoes) {
  dist("torch-2.1.2.dist-info", "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.2\nRequires-Dist: filelock\n");
  dist("filelock-3.13.1.dist-info", "Name: filelock\nVersion: 3.13.1\n");
  dist("torchvision-0.17.0.dist-info",
       "Metadata-Version: 2.1\nName: torchvision\nVersion: 0.17.0\nRequires-Dist: numpy\n"
       "Requires-Dist: torch (==2.2.0)\nRequires-Dist: pillow (!=8.3.*,>=5.3.0)\n"
       "Requires-Dist: scipy ; extra == 'scipy'\nRequires-Dist: typing-extensions ; python_version < \"3.8\"\n"
       "\nRequires-Dist: not-a-header-line-in-the-body\n");
  dist("numpy-1.26.4.dist-info", "Name: numpy\nVersion: 1.26.4\n");
  dist("Pillow-8.3.2.dist-info", "Name: Pillow\nVersion: 8.3.2\n");
  auto inv = inventory();
  ASSERT_EQ(inv.pythons[0].distributions.size(), 5u);
  doctor::DoctorContext ctx(inv, kb());
  auto all = doctor::diagnose(ctx);
  auto conflicts = with_id(all, "python.requirement_conflict");
  ASSERT_EQ(conflicts.size(), 2u);
  std::vector<std::string> titles = {conflicts[0].title, conflicts[1].title};
  std::sort(titles.begin(), titles.end());
  EXPECT_EQ(titles[0], "torchvision 0.17.0 has requirement pillow!=8.3.*,>=5.3.0, but you have pillow 8.3.2");
  EXPECT_EQ(titles[1], "torchvision 0.17.0 has requirement torch==2.2.0, but you have torch 2.1.2");
  EXPECT_EQ(conflicts[0].status, Status::kFail);
  // No finding for the extra, the marker that does not hold, the body line, or what is met.
  EXPECT_TRUE(with_id(all, "python.requirement_missing").empty());
  for (const auto& c : conflicts) {
    SCOPED_TRACE(c.title);
    const bool on_torch = c.details.value("requires", "") == "torch";
    // On torch: the torchvision made for the installed torch (its METADATA pins torch==2.1.2), torch pinned
    // so pip cannot replace it. Pillow: the pillow torchvision declares. Never a --dry-run (it changes nothing).
    ASSERT_EQ(c.fixes.size(), 1u);
    if (on_torch)
      EXPECT_EQ(c.fixes[0].commands.back(), "/venv/bin/python -m pip install torch==2.1.2 torchvision==0.16.2 numpy==1.26.4");  // + the ABI pin
    else
      EXPECT_EQ(c.fixes[0].commands[0], "/venv/bin/python -m pip install 'pillow!=8.3.*,>=5.3.0'");
    for (const auto& fx : c.fixes)
      for (const auto& cmd : fx.commands) EXPECT_EQ(cmd.find("--dry-run"), std::string::npos) << cmd;
  }
}

TEST_F(Site, MissingRequirementIsAWarning) {
  dist("accelerate-1.0.0.dist-info",
       "Name: accelerate\nVersion: 1.0.0\nRequires-Dist: psutil\nRequires-Dist: huggingface-hub >=0.21.0\n");
  auto inv = inventory();
  doctor::DoctorContext ctx(inv, kb());
  auto missing = with_id(doctor::diagnose(ctx), "python.requirement_missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].title, "accelerate 1.0.0 requires psutil, huggingface-hub, which are not installed");
  EXPECT_EQ(missing[0].status, Status::kWarn);
  EXPECT_EQ(missing[0].fixes[0].commands[0], "/venv/bin/python -m pip install psutil 'huggingface-hub>=0.21.0'");
}

// Installed with --no-deps (issue 31): torchvision without Pillow stops at "No module named 'PIL'". That is
// the missing requirement's doing: an error, the root cause, the import failure folded into it (one finding,
// one fix). An import failing on a module no missing requirement installs stays python.import_failed.
TEST_F(Site, AMissingRequirementTheImportStopsOnIsTheRootCause) {
  dist("torchvision-0.16.2.dist-info", "Name: torchvision\nVersion: 0.16.2\nRequires-Dist: pillow (!=8.3.*,>=5.3.0)\n");
  dist("bmtrain-0.2.3.post2.dist-info", "Name: bmtrain\nVersion: 0.2.3.post2\nRequires-Dist: psutil\n");
  auto inv = inventory();
  inv.pythons[0].import_errors = {{"torchvision", "ModuleNotFoundError: No module named 'PIL'"},
                                  {"bmtrain", "ModuleNotFoundError: No module named 'torch'"}};
  doctor::DoctorContext ctx(inv, kb());
  auto all = doctor::diagnose(ctx);
  auto missing = with_id(all, "python.requirement_missing");
  ASSERT_EQ(missing.size(), 2u);
  const Finding& tv = missing[0].title.find("torchvision") != std::string::npos ? missing[0] : missing[1];
  const Finding& bm = &tv == &missing[0] ? missing[1] : missing[0];
  EXPECT_EQ(tv.status, Status::kFail);
  EXPECT_TRUE(tv.details.value("root", false));
  EXPECT_EQ(tv.title.rfind("import torchvision fails: ", 0), 0u) << tv.title;
  EXPECT_EQ(tv.fixes[0].commands[0], "/venv/bin/python -m pip install 'pillow!=8.3.*,>=5.3.0'");
  EXPECT_EQ(bm.status, Status::kWarn) << "psutil is not what `import bmtrain` missed";
  auto failed = with_id(all, "python.import_failed");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].title.find("import bmtrain"), 0u) << failed[0].title;
}

// bmtrain 0.2.2 declares numpy; next to torch 2.1.2 (built against numpy 1) the fix pins numpy 1, since a
// plain `pip install numpy` would install numpy 2 and break torch.from_numpy.
TEST_F(Site, MissingNumpyBesideATorchBuiltForNumpyOneIsPinned) {
  dist("torch-2.1.2.dist-info", "Name: torch\nVersion: 2.1.2\n");
  dist("bmtrain-0.2.2.dist-info", "Name: bmtrain\nVersion: 0.2.2\nRequires-Dist: numpy\n");
  auto inv = inventory();
  doctor::DoctorContext ctx(inv, kb());
  auto missing = with_id(doctor::diagnose(ctx), "python.requirement_missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].fixes[0].commands[0], "/venv/bin/python -m pip install numpy==1.26.4");
}

// After python.file_overwritten's fix (cu11 removed, cu12 reinstalled) bmtrain 0.2.3.post2 still declares
// nvidia-nccl-cu11: installing it would overwrite cu12's libnccl.so.2 again, so no fix installs it (issue 31).
TEST_F(Site, AMissingNcclOfAnotherCudaMajorIsNotReinstalledOverTheOneThere) {
  dist("nvidia_nccl_cu12-2.21.5.dist-info", "Name: nvidia-nccl-cu12\nVersion: 2.21.5\n");
  dist("bmtrain-0.2.3.post2.dist-info",
       "Name: bmtrain\nVersion: 0.2.3.post2\nRequires-Dist: nvidia-nccl-cu11>=2.14.3\nRequires-Dist: psutil\n");
  auto inv = inventory();
  doctor::DoctorContext ctx(inv, kb());
  auto missing = with_id(doctor::diagnose(ctx), "python.requirement_missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].title, "bmtrain 0.2.3.post2 requires nvidia-nccl-cu11, psutil, which are not installed");
  ASSERT_EQ(missing[0].fixes.size(), 2u);
  EXPECT_EQ(missing[0].fixes[0].commands, std::vector<std::string>{"/venv/bin/python -m pip install psutil"});
  EXPECT_TRUE(missing[0].fixes[1].commands.empty());
  EXPECT_NE(missing[0].fixes[1].summary.find("nvidia-nccl-cu11 (it would overwrite the files of the installed nvidia-nccl-cu12)"),
            std::string::npos) << missing[0].fixes[1].summary;
}

TEST_F(Site, TwoWheelsOneFileTheBytesOnDiskDecide) {
  // cu12 listed libnccl.so.2 first; cu11 installed later and overwrote it ("abc" is cu11's bytes).
  dist("nvidia_nccl_cu12-2.18.1.dist-info", "Name: nvidia-nccl-cu12\nVersion: 2.18.1\n",
       "nvidia/__init__.py," + kEmpty + ",0\nnvidia/nccl/lib/libnccl.so.2,sha256=3k6qYwb1re30tFWjNMnDubzwx8FBq7OqeAjeNj4OFCk,"
       "279451776\nnvidia_nccl_cu12-2.18.1.dist-info/RECORD,,\n");
  dist("nvidia_nccl_cu11-2.14.3.dist-info", "Name: nvidia-nccl-cu11\nVersion: 2.14.3\n",
       "nvidia/__init__.py," + kEmpty + ",0\n\"nvidia/nccl/lib/libnccl.so.2\"," + kAbc + ",3\n");
  file("nvidia/__init__.py", "");
  file("nvidia/nccl/lib/libnccl.so.2", "abc");
  auto inv = inventory();
  const auto& shared = inv.pythons[0].shared_files;
  ASSERT_EQ(shared.size(), 1u) << "the identical nvidia/__init__.py is no conflict";
  EXPECT_EQ(shared[0].path, (site_ / "nvidia/nccl/lib/libnccl.so.2").string());
  EXPECT_EQ(shared[0].content_of, "nvidia-nccl-cu11");
  doctor::DoctorContext ctx(inv, kb());
  auto f = with_id(doctor::diagnose(ctx), "python.file_overwritten");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].title, "libnccl.so.2 of nvidia-nccl-cu12 was overwritten by nvidia-nccl-cu11");
  EXPECT_EQ(shared[0].matched_by, "sha256");
  EXPECT_EQ(f[0].fixes[0].commands.back(), "/venv/bin/python -m pip install nvidia-nccl-cu12==2.18.1");

  file("nvidia/nccl/lib/libnccl.so.2", "xyz");  // cu11's size, other bytes: the hash says nobody's
  inv = inventory();
  ASSERT_EQ(inv.pythons[0].shared_files.size(), 1u);
  EXPECT_EQ(inv.pythons[0].shared_files[0].content_of, "");

  file("nvidia/nccl/lib/libnccl.so.2", "four");  // no owner's size: not read, nobody's
  inv = inventory();
  EXPECT_EQ(inv.pythons[0].shared_files[0].content_of, "");

  // Both RECORDs give the size on disk: only the hash tells them apart.
  dist("nvidia_nccl_cu12-2.18.1.dist-info", "Name: nvidia-nccl-cu12\nVersion: 2.18.1\n",
       "nvidia/nccl/lib/libnccl.so.2," + kEmpty + ",3\n");
  file("nvidia/nccl/lib/libnccl.so.2", "abc");
  inv = inventory();
  ASSERT_EQ(inv.pythons[0].shared_files.size(), 1u);
  EXPECT_EQ(inv.pythons[0].shared_files[0].content_of, "nvidia-nccl-cu11");
  EXPECT_EQ(inv.pythons[0].shared_files[0].matched_by, "sha256");
}

// reliability-3 N13: two RECORDs naming /etc/shadow (or ../../../../etc/shadow) made `env --python`, as root,
// hash it and say which guess was right. A path outside the environment's prefix is not read at all.
TEST_F(Site, RecordPathsOutsideTheEnvironmentAreNotRead) {
  const fs::path prefix = site_ / "venv", site = prefix / "lib" / "python3.11" / "site-packages";
  fs::create_directories(site);
  fs::create_directories(site_ / "outside");
  std::ofstream(site_ / "outside" / "secret") << "abc";
  std::ofstream(prefix / "inside") << "abc";
  fs::create_symlink(site_ / "outside" / "secret", site / "link-out");  // inside by name, outside by its link
  for (const std::string& d : {"guess_right-1.0.dist-info", "guess_wrong-1.0.dist-info"}) {
    fs::create_directories(site / d);
    std::ofstream(site / d / "METADATA") << "Name: " << d.substr(0, d.find('-')) << "\nVersion: 1.0\n";
    const std::string hash = d[6] == 'r' ? kAbc : kEmpty;
    std::ofstream(site / d / "RECORD") << "../../../../outside/secret," << hash << ",3\n"
                                       << (site_ / "outside" / "secret").string() << "," << hash << ",3\n"
                                       << "link-out," << hash << ",3\n"
                                       << "../../../inside," << hash << ",3\n";
  }
  inventory::PythonEnv p;
  p.interpreter = (prefix / "bin" / "python").string();
  p.site_packages = {site.string()};
  inventory::read_python_distributions(platform::RootFs("/"), p);
  std::map<std::string, std::string> content_of;
  for (const auto& f : p.shared_files) content_of[fs::path(f.path).lexically_relative(site_).string()] = f.content_of;
  ASSERT_EQ(content_of.size(), 3u);  // outside/secret (two spellings, one path), the link, inside
  EXPECT_EQ(content_of["outside/secret"], "");
  EXPECT_EQ(content_of["venv/lib/python3.11/site-packages/link-out"], "");
  EXPECT_EQ(content_of["venv/inside"], "guess-right") << "inside the environment the bytes still decide";
}

TEST_F(Site, OneFileSpelledTwoWaysIsStillShared) {
  // One RECORD names the file through "./" and "..": it is the same file, and only it is shared.
  dist("nvidia_nccl_cu12-2.18.1.dist-info", "Name: nvidia-nccl-cu12\nVersion: 2.18.1\n",
       "nvidia/./nccl/include/../lib/libnccl.so.2,sha256=3k6qYwb1re30tFWjNMnDubzwx8FBq7OqeAjeNj4OFCk,279451776\n"
       "nvidia/nccl/lib/only_cu12.so," + kAbc + ",3\n");
  dist("nvidia_nccl_cu11-2.14.3.dist-info", "Name: nvidia-nccl-cu11\nVersion: 2.14.3\n",
       "nvidia/nccl/lib/libnccl.so.2," + kAbc + ",3\nnvidia/nccl/lib/only_cu11.so," + kAbc + ",3\n");
  file("nvidia/nccl/lib/libnccl.so.2", "abc");
  auto inv = inventory();
  const auto& shared = inv.pythons[0].shared_files;
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_EQ(shared[0].path, (site_ / "nvidia/nccl/lib/libnccl.so.2").string());
  EXPECT_EQ(shared[0].owners, (std::vector<std::string>{"nvidia-nccl-cu11", "nvidia-nccl-cu12"}));
  EXPECT_EQ(shared[0].content_of, "nvidia-nccl-cu11");
}

TEST_F(Site, NumpyAbiAndImportFailuresAreErrors) {
  dist("numpy-2.1.3.dist-info", "Name: numpy\nVersion: 2.1.3\n");
  auto inv = inventory();
  inv.pythons[0].torch_numpy_error = "RuntimeError: Numpy is not available";
  inv.pythons[0].import_errors["torchvision"] = "RuntimeError: operator torchvision::nms does not exist";
  doctor::DoctorContext ctx(inv, kb());
  auto all = doctor::diagnose(ctx);
  auto np = with_id(all, "python.numpy_abi");
  ASSERT_EQ(np.size(), 1u);
  EXPECT_EQ(np[0].title, "torch 2.1.2 cannot use numpy 2.1.3: RuntimeError: Numpy is not available");
  // Pinned: the newest numpy 1.x with a wheel for this Python, from the planner's ABI pins (pypi.json).
  EXPECT_EQ(np[0].fixes[0].commands[0], "/venv/bin/python -m pip install numpy==1.26.4");
  // torchvision's operators missing from its torch: built for another torch build.
  auto imp = with_id(all, "ext.built_for_other_torch");
  ASSERT_EQ(imp.size(), 1u);
  EXPECT_EQ(imp[0].status, Status::kFail);
  EXPECT_EQ(imp[0].title, "torchvision was built for another torch than 2.1.2: import fails in /venv/bin/python");
  inv.pythons[0].import_errors["torchvision"] = "ImportError: libjpeg.so.8: cannot open shared object file";
  doctor::DoctorContext other(inv, kb());
  auto plain = with_id(doctor::diagnose(other), "python.import_failed");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].title, "import torchvision fails in /venv/bin/python");
}

// Without the extension's files (a document from another machine) only an undefined torch symbol proves
// another torch: bmtrain 0.2.2's `ncclRecv` is libnccl's (python.import_failed, no ext.* verdict), a c10
// symbol is ext.built_for_other_torch, whose fix is the planner's rebuild with this torch kept: the arch list
// nvcc 13.0 can build (bmtrain's default names 6.0-7.0), CUDA_HOME, `wheel`, and a forced reinstall.
TEST_F(Site, OnlyAnUndefinedTorchSymbolMeansAnotherTorch) {
  dist("bmtrain-0.2.2.dist-info", "Name: bmtrain\nVersion: 0.2.2\n");
  auto inv = inventory();
  auto& py = inv.pythons[0];
  py.torch_version = "2.11.0+cu130";
  py.torch_cuda = "13.0";
  py.packages = {{"torch", "2.11.0+cu130"}, {"bmtrain", "0.2.2"}, {"wheel", "0.48.0"}};
  inv.toolkits = {{"/usr/local/cuda-13.0", "13.0.88", "version.json", "/usr/local/cuda-13.0/bin/nvcc", {"CUDA_HOME"}}};
  inv.system.environment["CUDA_HOME"] = "/usr/local/cuda-13.0";
  const std::string so = site_.string() + "/bmtrain/nccl/_C.cpython-311-x86_64-linux-gnu.so";

  py.import_errors["bmtrain"] = "ImportError: " + so + ": undefined symbol: ncclRecv";
  {
    doctor::DoctorContext ctx(inv, kb());
    auto all = doctor::diagnose(ctx);
    EXPECT_TRUE(with_id(all, "ext.built_for_other_torch").empty());
    EXPECT_EQ(with_id(all, "python.import_failed").size(), 1u);
  }
  py.import_errors["bmtrain"] = "ImportError: " + so + ": undefined symbol: _ZN3c106detail14torchCheckFailEPKcS2_jS2_";
  doctor::DoctorContext ctx(inv, kb());
  auto all = doctor::diagnose(ctx);
  auto foreign = with_id(all, "ext.built_for_other_torch");
  ASSERT_EQ(foreign.size(), 1u);
  EXPECT_TRUE(with_id(all, "python.import_failed").empty());
  // wheel and ninja are installed: kept as they are, so nothing is installed before the build; the venv's
  // bin goes first on PATH, where torch's BuildExtension looks for ninja.
  py.packages["ninja"] = "1.13.2";
  {
    doctor::DoctorContext kept_ctx(inv, kb());
    const auto kept = with_id(doctor::diagnose(kept_ctx), "ext.built_for_other_torch").at(0).fixes.at(0).commands;
    EXPECT_EQ(kept, (std::vector<std::string>{
                        "export TORCH_CUDA_ARCH_LIST='7.5;8.0+PTX'", "export CUDA_HOME=/usr/local/cuda-13.0",
                        "export PATH=/venv/bin:\"$PATH\"",
                        "/venv/bin/python -m pip install --no-build-isolation --no-cache-dir --force-reinstall --no-deps bmtrain==0.2.2",
                        "export TORCH_USE_RTLD_GLOBAL=1"}))
        << "rebuilt against torch 2.11, nccl/_C still links no libnccl: TORCH_USE_RTLD_GLOBAL stays";
  }
  // Without wheel and ninja, the build needs them first (setuptools' bdist_wheel; ninja for a parallel
  // build), installed with torch pinned.
  py.packages.erase("wheel");
  py.packages.erase("ninja");
  doctor::DoctorContext bare(inv, kb());
  const auto cmds = with_id(doctor::diagnose(bare), "ext.built_for_other_torch").at(0).fixes.at(0).commands;
  EXPECT_EQ(cmds, (std::vector<std::string>{
                      "/venv/bin/python -m pip install wheel==0.48.0 ninja==1.13.2 torch==2.11.0",
                      "export TORCH_CUDA_ARCH_LIST='7.5;8.0+PTX'", "export CUDA_HOME=/usr/local/cuda-13.0",
                      "export PATH=/venv/bin:\"$PATH\"",
                      "/venv/bin/python -m pip install --no-build-isolation --no-cache-dir --force-reinstall --no-deps bmtrain==0.2.2",
                      "export TORCH_USE_RTLD_GLOBAL=1"}));
}

TEST_F(Site, APinToAnotherPatchReleaseOfTheInstalledTorchIsAWarning) {
  // xformers 0.0.23 pins torch==2.1.1; torch 2.1.2 is another patch release of 2.1: pip check's conflict, a
  // warning while the import is not seen failing. torchvision 0.17.0 (torch==2.2.0) is a minor apart: an error.
  dist("torch-2.1.2.dist-info", "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.2\n");
  dist("xformers-0.0.23.dist-info", "Metadata-Version: 2.1\nName: xformers\nVersion: 0.0.23\nRequires-Dist: torch ==2.1.1\n");
  dist("torchvision-0.17.0.dist-info", "Metadata-Version: 2.1\nName: torchvision\nVersion: 0.17.0\nRequires-Dist: torch (==2.2.0)\n");
  auto inv = inventory();
  doctor::DoctorContext ctx(inv, kb());
  auto conflicts = with_id(doctor::diagnose(ctx), "python.requirement_conflict");
  ASSERT_EQ(conflicts.size(), 2u);
  for (const auto& c : conflicts) {
    SCOPED_TRACE(c.title);
    const bool xformers = c.title.rfind("xformers", 0) == 0;
    EXPECT_EQ(c.status, xformers ? Status::kWarn : Status::kFail);
    EXPECT_EQ(c.explanation.find("Only the patch release differs") != std::string::npos, xformers);
  }
  EXPECT_TRUE(doctor::torch_pin_differs_in_patch_only("==2.3.0", "2.3.1+cu121"));
  EXPECT_FALSE(doctor::torch_pin_differs_in_patch_only("==2.3.0", "2.4.0+cu121"));
  EXPECT_FALSE(doctor::torch_pin_differs_in_patch_only(">=2.3.0", "2.3.1"));
  EXPECT_FALSE(doctor::torch_pin_differs_in_patch_only("==2.3.0", "2.3.0"));
  EXPECT_FALSE(doctor::torch_pin_differs_in_patch_only("==2.3", "2.3.1"));
  EXPECT_FALSE(doctor::torch_pin_differs_in_patch_only("==2.3.0,<3", "2.3.1"));
}
