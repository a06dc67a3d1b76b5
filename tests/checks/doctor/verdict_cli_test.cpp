// The built binary's verdicts about driver and GPU presence (issue 31): a fake root whose sysfs shows an
// NVIDIA GPU and no driver (doctor exits 1 naming the minimum driver), one whose sysfs shows none (said
// once, a note; no next step sends the user to `run`), a pasted collect_env whose driver is older than
// torch's CUDA (not PASS), and `doctor` on this machine.
#include <gtest/gtest.h>

#include <cstring>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"

using namespace gpucheck;
namespace fs = std::filesystem;

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";
const std::string kData = std::string(GPUCHECK_TEST_DATA);

SubprocessResult run_gpucheck(std::vector<std::string> args) {
  args.insert(args.begin(), kBin);
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  o.set_env = {{"PATH", "/usr/bin:/bin"}, {"LD_LIBRARY_PATH", ""}, {"COLUMNS", "250"}};
  o.unset_env = {"VIRTUAL_ENV", "CONDA_PREFIX", "CUDA_HOME", "CUDA_PATH"};
  return run_subprocess(args, o);
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A mounted-image layout: torch 2.5.1+cu124 in /usr/local's site-packages, a CUDA 12.4 toolkit, and one PCI
// function in sysfs with the given vendor and class.
struct FakeRoot {
  fs::path dir;
  FakeRoot(const std::string& tag, const std::string& vendor, const std::string& cls) {
    dir = fs::temp_directory_path() / ("gpucheck_verdict_" + tag + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const fs::path site = dir / "usr/local/lib/python3.11/site-packages";
    write(site / "torch/version.py", "__version__ = '2.5.1+cu124'\ndebug = False\ncuda: Optional[str] = '12.4'\n");
    write(site / "torch-2.5.1.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1\n");
    write(dir / "usr/local/cuda-12.4/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "12.4.131"}})");
    const fs::path pci = dir / "sys/bus/pci/devices/0000:01:00.0";
    write(pci / "vendor", vendor + "\n");
    write(pci / "class", cls + "\n");
    write(pci / "device", "0x2330\n");
    fs::create_directories(dir / "dev");
  }
  ~FakeRoot() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// `doctor --from-text` on a real paste of tests/data/pasted_env, as JSON.
nlohmann::json judge_paste(const std::string& paste) {
  return nlohmann::json::parse(run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/" + paste, "--json"}).out);
}

std::vector<nlohmann::json> with_id(const nlohmann::json& doc, const std::string& id) {
  std::vector<nlohmann::json> out;
  for (const auto& s : doc.at("sections"))
    for (const auto& f : s.at("findings"))
      if (f.at("id") == id) out.push_back(f);
  return out;
}

std::string next_step_line(const std::string& text) {
  for (const auto& line : split(text, '\n'))
    if (starts_with(line, "Next step:")) return line;
  return "";
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

bool this_machine_has_no_nvidia_gpu() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/sys/bus/pci/devices", ec)) {
    std::ifstream v(e.path() / "vendor");
    std::string vendor;
    v >> vendor;
    if (vendor == "0x10de") return false;
  }
  for (const auto& e : fs::directory_iterator("/dev", ec))
    if (starts_with(e.path().filename().string(), "nvidia")) return false;
  return fs::is_directory("/sys/bus/pci/devices");
}

}  // namespace

TEST(GpuPresence, AnNvidiaGpuWithoutADriverFailsNamingTheMinimumDriver) {
  FakeRoot root("gpu", "0x10de", "0x030200");
  auto r = run_gpucheck({"doctor", "--root", root.dir.string(), "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 3000) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  auto missing = with_id(doc, "driver.missing");
  ASSERT_EQ(missing.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(missing[0]["status"], "fail");
  EXPECT_EQ(missing[0]["concern"], "broken_now");
  // torch 2.5.1+cu124 needs CUDA 12.4's driver, 550.54.14 (data/compat/driver.json), and so does the toolkit.
  EXPECT_NE(missing[0]["title"].get<std::string>().find("550.54.14"), std::string::npos) << missing[0].dump(1);
  EXPECT_EQ(missing[0]["fixes"][0]["summary"], "Install the NVIDIA driver 550.54.14 or newer");
  EXPECT_EQ(doc["inventory"]["gpu_presence"]["pci_devices"][0], "0000:01:00.0 (device 0x2330, class 0x030200)");
  // The text names the driver and its next step is that fix, not `run`.
  auto text = run_gpucheck({"doctor", "--root", root.dir.string()});
  EXPECT_EQ(text.exit_code, 1);
  std::string step = next_step_line(text.out);
  EXPECT_NE(step.find("[driver.missing]"), std::string::npos) << text.out;
}

TEST(GpuPresence, NoNvidiaGpuIsSaidOnceAndNothingPointsAtRun) {
  // An Intel display controller: a machine without an NVIDIA GPU.
  FakeRoot root("nogpu", "0x8086", "0x030000");
  auto r = run_gpucheck({"doctor", "--root", root.dir.string()});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(count(r.out, "No NVIDIA GPU on this machine"), 1u) << r.out;
  EXPECT_EQ(next_step_line(r.out).find(" run"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(run_gpucheck({"doctor", "--root", root.dir.string(), "--json"}).out);
  ASSERT_EQ(with_id(j, "gpu.none").size(), 1u);
  EXPECT_EQ(with_id(j, "gpu.none")[0]["status"], "info");
  EXPECT_TRUE(with_id(j, "driver.missing").empty());
}

// detectron2's collect_env lists the architectures in its binary ("arch flags"): a GPU older than all of
// them has no kernel (an error), a newer one only PTX the list does not show could run (a warning); the
// fix rebuilds it with the GPU's architecture added (detectron2 #235, #1621).
TEST(GpuPresence, AnExtensionBuiltWithoutTheGpusArchitectureIsFound) {
  auto table = [](const std::string& flags, const std::string& gpu) {
    return "----------------------  -------------------------------------------\n"
           "sys.platform            linux\n"
           "Python                  3.8.5 (default)\n"
           "detectron2              0.2.1 @/env/lib/python3.8/site-packages/detectron2\n"
           "detectron2 arch flags   " + flags + "\n"
           "PyTorch                 1.6.0+cu101 @/env/lib/python3.8/site-packages/torch\n"
           "GPU available           True\n"
           "GPU 0                   " + gpu + "\n";
  };
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_ext_arch_" + std::to_string(::getpid()) + ".txt");
  auto judge = [&](const std::string& text) {
    std::ofstream(tmp) << text;
    auto r = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
    EXPECT_TRUE(r.exited) << r.describe();
    return std::make_pair(r.exit_code, nlohmann::json::parse(r.out));
  };
  auto [older_code, older] = judge(table("7.5", "GeForce GTX TITAN X (arch=5.2)"));
  EXPECT_EQ(older_code, 1);
  auto found = with_id(older, "ext.arch_not_built");
  ASSERT_EQ(found.size(), 1u) << older.dump(1).substr(0, 3000);
  EXPECT_EQ(found[0]["status"], "fail");
  EXPECT_EQ(found[0]["fixes"][0]["commands"][0], "export TORCH_CUDA_ARCH_LIST='7.5 5.2'");
  auto [newer_code, newer] = judge(table("sm_37", "Tesla V100-SXM2-16GB (arch=7.0)"));
  ASSERT_EQ(with_id(newer, "ext.arch_not_built").size(), 1u);
  EXPECT_EQ(with_id(newer, "ext.arch_not_built")[0]["status"], "warn");
  auto [fine_code, fine] = judge(table("6.0, 7.0", "Tesla V100-SXM2-16GB (arch=7.0)"));
  EXPECT_TRUE(with_id(fine, "ext.arch_not_built").empty()) << fine.dump(1).substr(0, 2000);
  fs::remove(tmp);
}

TEST(GpuPresence, APastedReportWithADriverOlderThanTorchsCudaIsNotAPass) {
  // torch 1.6.0 built with CUDA 10.2, driver 418.67 (CUDA 10.1's), "Is CUDA available: No".
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/collect_env/driver-418-torch-1.6-cuda-10.2.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 3000) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  auto old = with_id(doc, "driver.too_old_for_torch");
  ASSERT_EQ(old.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(old[0]["title"].get<std::string>().find("418.67"), std::string::npos);
  bool names_minimum = false;
  for (const auto& e : old[0]["evidence"]) names_minimum |= e["value"] == "440.33";  // CUDA 10.2's minimum
  EXPECT_TRUE(names_minimum) << old[0].dump(1);
  // The same report as torch 1.3.0 (CUDA 10.1) with driver 410.104 (below 10.1's 418.39).
  std::string text = gpucheck::read_file(kData + "/collect_env/driver-418-torch-1.6-cuda-10.2.txt");
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"PyTorch version: 1.6.0", "PyTorch version: 1.3.0"}, {"PyTorch: 10.2", "PyTorch: 10.1"},
           {"torch==1.6.0", "torch==1.3.0"}, {"418.67", "410.104"}})
    text.replace(text.find(from), from.size(), to);
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_verdict_ce_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << text;
  auto r13 = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  EXPECT_EQ(r13.exit_code, 1) << r13.out.substr(0, 2000);
  auto d13 = nlohmann::json::parse(r13.out);
  ASSERT_EQ(with_id(d13, "driver.too_old_for_torch").size(), 1u);
  EXPECT_NE(with_id(d13, "driver.too_old_for_torch")[0]["title"].get<std::string>().find("410.104"), std::string::npos);
  fs::remove(tmp);
}

TEST(GpuPresence, TorchsOwnCudaAvailableOutweighsTheDriverTablesMinimum) {
  // vision 5729: torch 1.10.0+cu102 on driver 430.26 says "Is CUDA available: True": torch's CUDA 10.2 runtime
  // initialised on that driver, though the release notes list 440.33 as 10.2's minimum.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/pytorch-vision-5729.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 3000) << r.err;
  EXPECT_TRUE(with_id(nlohmann::json::parse(r.out), "driver.too_old_for_torch").empty());
  // The same report saying False is the driver's refusal again.
  std::string text = gpucheck::read_file(kData + "/pasted_env/pytorch-vision-5729.txt");
  text.replace(text.find("Is CUDA available: True"), 23, "Is CUDA available: False");
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_verdict_430_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << text;
  auto refused = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  EXPECT_EQ(refused.exit_code, 1) << refused.out.substr(0, 2000);
  EXPECT_EQ(with_id(nlohmann::json::parse(refused.out), "driver.too_old_for_torch").size(), 1u);
  fs::remove(tmp);
}

TEST(GpuPresence, PypisTorch28ArchListFromItsWheelJudgesPascalAndBlackwell) {
  // data/compat/torch.json: torch 2.8's PyPI build (cu128) holds SASS for sm_70 ... sm_120, read from its
  // libtorch_cuda.so by scripts/gen-torch-archs. A GTX 1070 (6.1) gets no kernels; an RTX 5090 (12.0) does.
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_arch28_" + std::to_string(::getpid()) + ".txt");
  auto judge = [&](const std::string& gpu) {
    std::ofstream(tmp) << "## System Information\n- **PyTorch Version:** 2.8.0+cu128\n## Devices\n\n- **Name:** cuda:0 "
                       << gpu << " : cudaMallocAsync\n";
    auto r = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
    return std::make_pair(r.exit_code, nlohmann::json::parse(r.out));
  };
  auto [pascal_code, pascal] = judge("NVIDIA GeForce GTX 1070");
  EXPECT_EQ(pascal_code, 1);
  ASSERT_EQ(with_id(pascal, "gpu.arch_not_in_torch").size(), 1u) << pascal.dump(1).substr(0, 2000);
  auto [blackwell_code, blackwell] = judge("NVIDIA GeForce RTX 5090");
  EXPECT_EQ(blackwell_code, 0) << blackwell.dump(1).substr(0, 2000);
  EXPECT_TRUE(with_id(blackwell, "gpu.arch_not_in_torch").empty());
  fs::remove(tmp);
}

TEST(PastedVerdicts, TwoBuildsOfOnePackageListedTogetherAreAWarningThatKeepsTheGpuBuild) {
  // onnxruntime 23833: onnxruntime and onnxruntime-gpu 1.20.1 side by side (uv's install summary).
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/microsoft-onnxruntime-23833.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 2000);
  auto twice = with_id(nlohmann::json::parse(r.out), "python.same_package_twice");
  ASSERT_EQ(twice.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(twice[0]["status"], "warn");
  EXPECT_EQ(twice[0]["fixes"][0]["commands"][1], "python -m pip install onnxruntime-gpu==1.20.1");
  // One of them alone is no finding.
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_onnx_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << "Package         Version\n--------------- -------\nonnxruntime-gpu 1.20.1\nnumpy           1.26.4\n"
                        "torch           2.5.1+cu124\n";
  auto one = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  EXPECT_TRUE(with_id(nlohmann::json::parse(one.out), "python.same_package_twice").empty());
  fs::remove(tmp);
}

TEST(PastedVerdicts, AnExtensionBuiltFromACheckoutIsNotHeldToItsPypiReleasesPin) {
  // xformers issue 1244: "0.0.30+c5c0720c.d20250414" (a commit and a build date) beside torch 2.8.0.dev: built
  // here against that torch, so PyPI's torch==2.7.0 pin of 0.0.30 does not describe it; the maintainer found
  // nothing broken. The same paste naming PyPI's 0.0.30 is held to that pin.
  const std::string paste = kData + "/pasted_env/facebookresearch-xformers-1244.txt";
  auto r = run_gpucheck({"doctor", "--from-text", paste, "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 3000) << r.err;
  EXPECT_TRUE(with_id(nlohmann::json::parse(r.out), "ext.torch_out_of_range").empty());
  std::string text = gpucheck::read_file(paste);
  for (std::size_t at; (at = text.find("0.0.30+c5c0720c.d20250414")) != std::string::npos;)
    text.replace(at, std::strlen("0.0.30+c5c0720c.d20250414"), "0.0.30");
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_verdict_xf_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << text;
  auto pypi = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  fs::remove(tmp);
  EXPECT_EQ(pypi.exit_code, 1) << pypi.out.substr(0, 2000);
  EXPECT_EQ(with_id(nlohmann::json::parse(pypi.out), "ext.torch_out_of_range").size(), 1u);
}

TEST(PastedVerdicts, ACompanionPinnedToAnotherTorchIsOutOfRangeFromItsPypiPin) {
  // sdnext 3531: `pip show` of torch 2.4.0+cu121 and torchvision 0.20.1+cu124, whose PyPI release pins
  // torch==2.5.1 (the +cu124 build of the same release declares the same pin); the reporter's torchvision
  // fails with "operator torchvision::nms does not exist".
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/vladmandic-sdnext-3531.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 3000) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  auto range = with_id(doc, "ext.torch_out_of_range");
  ASSERT_EQ(range.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(range[0]["title"].get<std::string>().find("torchvision 0.20.1+cu124 requires torch==2.5.1"), std::string::npos);
  EXPECT_EQ(with_id(doc, "ext.built_for_other_torch").size(), 1u) << "torchvision's nms operator missing from its torch";
  // A matching pair from a healthy ComfyUI report (torch 2.3.0+cu121, xformers 0.0.26.post1) stays clean.
  auto ok = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/ssitu-ComfyUI_UltimateSDUpscale-106.txt", "--json"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out.substr(0, 3000) << ok.err;
}

TEST(PastedVerdicts, APinToAnotherPatchReleaseOfTheSameTorchIsAWarningNotAnError) {
  // ComfyUI 5511: xformers 0.0.26.post1 (PyPI pins torch==2.3.0) beside torch 2.3.1+cu121, and the log shows
  // xformers in use with no "built for" warning: pip's conflict, a risk, not a failure seen (exit 0, WARN).
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/Comfy-Org-ComfyUI-5511.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 3000) << r.err;
  auto range = with_id(nlohmann::json::parse(r.out), "ext.torch_out_of_range");
  ASSERT_EQ(range.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(range[0]["status"], "warn");
  EXPECT_NE(range[0]["explanation"].get<std::string>().find("Only the patch release differs"), std::string::npos);
  // With xFormers' own "built for" warning in the paste, the same pair is an error.
  std::string text = gpucheck::read_file(kData + "/pasted_env/Comfy-Org-ComfyUI-5511.txt");
  text += "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
          "    PyTorch 2.3.0+cu121 with CUDA 1201 (you have 2.3.1+cu121)\n    Python  3.11.8 (you have 3.11.8)\n";
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_verdict_patch_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << text;
  auto broken = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  fs::remove(tmp);
  EXPECT_EQ(broken.exit_code, 1) << broken.out.substr(0, 3000);
}

TEST(PastedVerdicts, ACleanPasteClaimsOnlyWhatItStates) {
  // flash-attention 940: `nvcc --version` and a torch line; nothing wrong in it, and nothing more judged.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/Dao-AILab-flash-attention-940.txt"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Next step: none: nothing wrong in what the paste states"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nothing wrong in that stack"), std::string::npos) << r.out;
}

TEST(PastedVerdicts, APackageThatSaysItWasBuiltForAnotherTorchIsThatFinding) {
  // Its own words name the cause: xFormers' "built for PyTorch 2.3.0+cu121 ... (you have 2.4.0+cu121)"
  // (unsloth 1026) and DeepSpeed's "ops were compiled and installed with a different version" (DeepSpeed 6465).
  // torchvision's refusal wrapped by the terminal after "compiled with different" (Diffusion-ColabUI 108).
  for (const char* name : {"unslothai-unsloth-1026", "deepspeedai-DeepSpeed-6465", "acheong08-Diffusion-ColabUI-108"}) {
    auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/" + name + ".txt", "--json"});
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 1) << name << r.out.substr(0, 2000) << r.err;
    auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(with_id(doc, "ext.built_for_other_torch").size(), 1u) << name << r.out.substr(0, 3000);
    EXPECT_TRUE(with_id(doc, "python.import_failed").empty()) << name << ": one finding for one failure";
  }
  // torch's cpp_extension refusal pasted alone (EmbodiedOcc2 6): nvcc 12.2 against torch's CUDA 11.8.
  auto build = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/PKUHaoWang-EmbodiedOcc2-6.txt", "--json"});
  ASSERT_TRUE(build.exited) << build.describe();
  EXPECT_EQ(with_id(nlohmann::json::parse(build.out), "cuda.nvcc_torch_major_mismatch").size(), 1u) << build.out.substr(0, 3000);
}

TEST(PastedVerdicts, BuildChecksAndConflictsPastedAloneAreJudged) {
  // DeepSpeed's op builder refusal (DeepSpeed 3223): nvcc 12.1 against torch's CUDA 11.8, a build risk.
  auto ds = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/deepspeedai-DeepSpeed-3223.txt", "--json"});
  ASSERT_TRUE(ds.exited) << ds.describe();
  EXPECT_EQ(with_id(nlohmann::json::parse(ds.out), "cuda.nvcc_torch_major_mismatch").size(), 1u) << ds.out.substr(0, 3000);
  // pip's resolver (ComfyUI-PMRF 11): torchvision 0.19.1, whose PyPI release pins torch==2.4.1, beside torch 2.5.1.
  auto pip = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/2kpr-ComfyUI-PMRF-11.txt", "--json"});
  ASSERT_TRUE(pip.exited) << pip.describe();
  EXPECT_NE(pip.exit_code, 2) << pip.err;
  EXPECT_EQ(with_id(nlohmann::json::parse(pip.out), "ext.torch_out_of_range").size(), 1u) << pip.out.substr(0, 3000);
}

TEST(PastedVerdicts, ATorchOlderThanTheBuildCheckStillWarnsOfAnotherMajorsNvcc) {
  // detectron2 570: torch 1.3.1 (CUDA 10.1) has no cpp_extension CUDA check, and detectron2 was built by the
  // system's nvcc 8.0: nothing refused it, its code failed at run time ("no kernel image is available").
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/facebookresearch-detectron2-570.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  auto found = with_id(nlohmann::json::parse(r.out), "cuda.nvcc_torch_major_mismatch");
  ASSERT_EQ(found.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(found[0]["status"], "warn");
  EXPECT_NE(found[0]["summary"].get<std::string>().find("the build goes through"), std::string::npos);
  EXPECT_NE(found[0]["explanation"].get<std::string>().find("#59665"), std::string::npos);
}

TEST(PastedVerdicts, TorchsCapabilityWarningJudgesTheGpuAgainstItsOwnRows) {
  // InvokeAI 9532: a GTX 1060 (6.1) under a torch built for 7.5 and up. The fix names a build whose arch list
  // the knowledge base records with sm_6x (torch 2.15's only recorded build has no list: not promised).
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/invoke-ai-InvokeAI-9532.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000) << r.err;
  auto found = with_id(nlohmann::json::parse(r.out), "gpu.arch_not_in_torch");
  ASSERT_EQ(found.size(), 1u) << r.out.substr(0, 3000);
  ASSERT_FALSE(found[0]["fixes"].empty());
  EXPECT_EQ(found[0]["fixes"][0]["summary"].get<std::string>().find("torch 2.15"), std::string::npos) << found[0].dump();
  // A Jetson Orin (8.7) beside its sm_80 row: torch's note says it runs, and so does the verdict.
  const fs::path dir = fs::temp_directory_path() / ("gpucheck-orin-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write(dir / "orin.txt",
        "UserWarning: Found GPU0 Orin which is of compute capability (CC) 8.7.\n"
        "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
        "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n- 9.0 which supports hardware CC >=9.0,<10.0\n");
  auto orin = run_gpucheck({"doctor", "--from-text", (dir / "orin.txt").string(), "--json"});
  fs::remove_all(dir);
  ASSERT_TRUE(orin.exited) << orin.describe();
  EXPECT_EQ(orin.exit_code, 0) << orin.out.substr(0, 2000) << orin.err;
  EXPECT_TRUE(with_id(nlohmann::json::parse(orin.out), "gpu.arch_not_in_torch").empty());
}

TEST(PastedVerdicts, ACpuTorchBesideTheInstallersNvidiaSmiFails) {
  // kohya_ss 1608: "nVidia toolkit detected" (nvidia-smi is there) and "Torch 2.0.1+cpu".
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/bmaltais-kohya_ss-1608.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000) << r.err;
  EXPECT_EQ(with_id(nlohmann::json::parse(r.out), "torch.cpu_only_on_gpu_node").size(), 1u) << r.out.substr(0, 3000);
  // Without that line (the installer found no nvidia-smi), the same torch is no finding.
  const fs::path dir = fs::temp_directory_path() / ("gpucheck-kohya-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  write(dir / "cpu.txt", "17:21:01-622125 INFO     Using CPU-only Torch\n"
                         "17:21:03-277184 INFO     Torch: torch==2.0.1+cpu torchvision==0.15.2+cpu\n");
  auto cpu = run_gpucheck({"doctor", "--from-text", (dir / "cpu.txt").string(), "--json"});
  fs::remove_all(dir);
  ASSERT_TRUE(cpu.exited) << cpu.describe();
  EXPECT_EQ(cpu.exit_code, 0) << cpu.out.substr(0, 2000) << cpu.err;
  EXPECT_TRUE(with_id(nlohmann::json::parse(cpu.out), "torch.cpu_only_on_gpu_node").empty()) << cpu.out.substr(0, 2000);
}

TEST(GpuPresence, HereRunAndDoctorDoNotPointAtEachOther) {
  if (!this_machine_has_no_nvidia_gpu()) GTEST_SKIP() << "this machine has an NVIDIA GPU";
  auto doctor = run_gpucheck({"doctor"});
  ASSERT_TRUE(doctor.exited) << doctor.describe();
  EXPECT_EQ(next_step_line(doctor.out).find(" run"), std::string::npos) << doctor.out;
  EXPECT_LE(count(doctor.out, "No NVIDIA GPU on this machine"), 1u) << doctor.out;
  // A GPU probe and a host probe (this test builds both): the GPU one skips here.
  auto run = run_gpucheck({"run", "--only", "device.runtime,host.info", "--no-report"});
  ASSERT_TRUE(run.exited) << run.describe();
  std::string step = next_step_line(run.out);
  EXPECT_NE(step, "") << run.out;
  EXPECT_EQ(step.find("doctor"), std::string::npos) << run.out;
  EXPECT_NE(step.find("no NVIDIA GPU"), std::string::npos) << run.out;
}

// nvidia-smi's "Failed to initialize NVML: Driver/library version mismatch" (a driver upgraded without a
// reboot, illinois-scicomp/machine-shop-maintenance 60): broken now, and the next step is the reboot.
TEST(GpuPresence, ADriverWhoseModuleAndLibrariesDifferIsBrokenAndTheNextStepIsAReboot) {
  const std::string paste = std::string(GPUCHECK_TEST_DATA) + "/pasted_env/illinois-scicomp-machine-shop-maintenance-60.txt";
  auto r = run_gpucheck({"doctor", "--from-text", paste, "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 3000) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  auto mismatch = with_id(doc, "driver.library_mismatch");
  ASSERT_EQ(mismatch.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(mismatch[0]["status"], "fail");
  EXPECT_EQ(mismatch[0]["concern"], "broken_now");
  EXPECT_EQ(mismatch[0]["fixes"][0]["commands"].back(), "sudo reboot");
  EXPECT_TRUE(with_id(doc, "driver.missing").empty()) << "one finding for one cause";
  auto text = run_gpucheck({"doctor", "--from-text", paste});
  EXPECT_NE(next_step_line(text.out).find("[driver.library_mismatch]"), std::string::npos) << text.out;
}

TEST(PastedVerdicts, ACudaProgramRefusingTheDriverIsAnErrorThatNamesWhatTheDriverSupports) {
  // CTranslate2 1842: nvidia-smi's header (driver 470, CUDA 11.4) beside CTranslate2 4's "CUDA driver version is
  // insufficient for CUDA runtime version" (a CUDA 12 build).
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/OpenNMT-CTranslate2-1842.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000);
  auto refused = with_id(nlohmann::json::parse(r.out), "driver.too_old_for_runtime");
  ASSERT_EQ(refused.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(refused[0]["title"].get<std::string>().find("supports CUDA 11.4"), std::string::npos);
  EXPECT_EQ(refused[0]["fixes"][0]["commands"][0], "nvidia-smi");
  // The same nvidia-smi without the error: nothing is refused.
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_runtime_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << "NVIDIA-SMI 470.256.02   Driver Version: 470.256.02   CUDA Version: 11.4\n";
  auto quiet = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.out.substr(0, 2000);
  EXPECT_TRUE(with_id(nlohmann::json::parse(quiet.out), "driver.too_old_for_runtime").empty());
  // torch's own refusal, not naming itself, beside torch's CUDA: the torch finding alone.
  std::ofstream(tmp) << "NVIDIA-SMI 470.256.02   Driver Version: 470.256.02   CUDA Version: 11.4\n"
                     << "torch                    2.1.0+cu121\nnumpy                    1.26.4\n"
                     << "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version\n";
  auto torch = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  auto doc = nlohmann::json::parse(torch.out);
  EXPECT_EQ(with_id(doc, "driver.too_old_for_torch").size(), 1u) << torch.out.substr(0, 3000);
  EXPECT_TRUE(with_id(doc, "driver.too_old_for_runtime").empty());
  fs::remove(tmp);
}

TEST(PastedVerdicts, AnInstallerThatLeftACpuTorchOnAnNvidiaMachineIsThatFinding) {
  // Unsloth 4701: Unsloth Studio's installer found an NVIDIA GPU and warns that PyTorch is CPU-only.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/unslothai-unsloth-4701.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000);
  EXPECT_EQ(with_id(nlohmann::json::parse(r.out), "torch.cpu_only_on_gpu_node").size(), 1u) << r.out.substr(0, 3000);
}

TEST(PastedVerdicts, TorchsCudaInitializationFailureNamesTheDriversStateAndItsWayOut) {
  // kohya_ss 1387: nvidia-smi found by the installer, torch's "Error 802: system not yet initialized".
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/bmaltais-kohya_ss-1387.txt", "--json"});
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000);
  auto missing = with_id(nlohmann::json::parse(r.out), "driver.missing");
  ASSERT_EQ(missing.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(missing[0]["title"].get<std::string>().find("error 802"), std::string::npos);
  EXPECT_EQ(missing[0]["fixes"][0]["commands"][0], "systemctl status nvidia-fabricmanager");
  // vllm 8255: cudaGetDeviceCount's "Error 2: out of memory" is not a driver state: no finding about the driver.
  auto oom = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/vllm-project-vllm-8255.txt", "--json"});
  EXPECT_TRUE(with_id(nlohmann::json::parse(oom.out), "driver.missing").empty()) << oom.out.substr(0, 3000);
}

TEST(PastedVerdicts, ABuildWithoutARecordedArchListIsJudgedByWhatItsCudaCanCompile) {
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_cudaarch_" + std::to_string(::getpid()) + ".txt");
  auto judge = [&](const std::string& torch, const std::string& gpu) {
    std::ofstream(tmp) << "- PyTorch version: " << torch << "\n- GPU: " << gpu << "\n";
    auto r = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
    return with_id(nlohmann::json::parse(r.out), "gpu.arch_not_in_torch");
  };
  // A nightly's list is in no table; CUDA 12.1 predates compute capability 12.x (first in 12.8).
  auto blackwell = judge("2.6.0.dev20241112+cu121", "NVIDIA GeForce RTX 5070 Ti");
  ASSERT_EQ(blackwell.size(), 1u);
  EXPECT_NE(blackwell[0]["title"].get<std::string>().find("predates the GPU"), std::string::npos);
  // CUDA 13 builds no Pascal code any more.
  auto pascal = judge("2.10.0.dev20251101+cu130", "NVIDIA GeForce GTX 1080");
  ASSERT_EQ(pascal.size(), 1u);
  EXPECT_NE(pascal[0]["title"].get<std::string>().find("no longer builds"), std::string::npos);
  // An RTX 4090 (8.9) beside CUDA 11.7: 8.6's SASS runs on it, so no finding.
  EXPECT_TRUE(judge("2.0.0.dev20230101+cu117", "NVIDIA GeForce RTX 4090").empty());
  fs::remove(tmp);
  // pytorch 153928: torch's own warning, its version only in prose: torch's word is the finding.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/pytorch-pytorch-153928.txt", "--json"});
  auto said = with_id(nlohmann::json::parse(r.out), "gpu.arch_not_in_torch");
  ASSERT_EQ(said.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(said[0]["title"].get<std::string>().find("says it does not support"), std::string::npos);
}

TEST(PastedVerdicts, EachDriverStateCudaCannotUseHasItsOwnFinding) {
  // torch's "CUDA initialization:" warning for each state inventory::says_driver_unusable knows, beside a typed
  // environment: one driver.missing each, titled by the state, with its own first command.
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_init_" + std::to_string(::getpid()) + ".txt");
  const std::vector<std::pair<std::string, std::string>> states = {
      {"Unexpected error from cudaGetDeviceCount(). Error 802: system not yet initialized", "systemctl status nvidia-fabricmanager"},
      {"Unexpected error from cudaGetDeviceCount(). Error 804: forward compatibility was attempted on non supported HW",
       "echo \"$LD_LIBRARY_PATH\""},
      {"Unexpected error from cudaGetDeviceCount(). Error 34: CUDA driver is a stub library", "echo \"$LD_LIBRARY_PATH\""},
      {"CUDA driver initialization failed, you might not have a CUDA gpu.", "nvidia-smi"},
      {"CUDA unknown error - this may be due to an incorrectly set up environment", "sudo rmmod nvidia_uvm"}};
  std::set<std::string> titles;
  for (const auto& [said, command] : states) {
    std::ofstream(tmp) << "- PyTorch version: 2.1.1+cu121\n- GPU: NVIDIA GeForce RTX 3090\n"
                       << "torch/cuda/__init__.py:138: UserWarning: CUDA initialization: " << said
                       << " (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n";
    auto r = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
    auto missing = with_id(nlohmann::json::parse(r.out), "driver.missing");
    ASSERT_EQ(missing.size(), 1u) << said << "\n" << r.out.substr(0, 3000);
    EXPECT_EQ(missing[0]["fixes"][0]["commands"][0], command) << said;
    titles.insert(missing[0]["title"].get<std::string>());
  }
  EXPECT_EQ(titles.size(), states.size()) << "one title per state";
  fs::remove(tmp);
}

TEST(PastedVerdicts, AReportOfAnotherMachinesFactsDoesNotCarryThisHostsName) {
  // A paste's facts are the reporter's: its report's host is "pasted report", in JSON and Prometheus alike.
  const std::string paste = kData + "/pasted_env/OpenNMT-CTranslate2-1842.txt";
  auto json = run_gpucheck({"doctor", "--from-text", paste, "--json"});
  EXPECT_EQ(nlohmann::json::parse(json.out)["host"], "pasted report");
  auto prom = run_gpucheck({"doctor", "--from-text", paste, "--format", "prometheus"});
  EXPECT_NE(prom.out.find("hostname=\"pasted report\""), std::string::npos) << prom.out.substr(0, 1000);
  // --from FILE: the host the inventory was collected on.
  auto env = run_gpucheck({"env", "--no-python", "--json"});
  ASSERT_EQ(env.exit_code, 0) << env.err;
  auto inv = nlohmann::json::parse(env.out);
  ASSERT_TRUE(inv.contains("inventory")) << "env --json carries its inventory";
  inv["inventory"]["hostname"] = "node-17";
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_host_" + std::to_string(::getpid()) + ".json");
  std::ofstream(tmp) << inv.dump();
  auto from = run_gpucheck({"doctor", "--from", tmp.string(), "--json"});
  ASSERT_TRUE(from.exited) << from.describe();
  EXPECT_EQ(nlohmann::json::parse(from.out)["host"], "node-17") << from.out.substr(0, 1000);
  fs::remove(tmp);
}

TEST(PastedVerdicts, AnExtensionsMissingTorchSymbolNamesWhichTorchItWasBuiltFor) {
  // torch_scatter 414: torch::autograd's symbol, no std::string in it: built for another torch.
  auto scatter = judge_paste("rusty1s-pytorch_scatter-414.txt");
  ASSERT_EQ(with_id(scatter, "ext.built_for_other_torch").size(), 1u) << scatter.dump().substr(0, 2000);
  EXPECT_TRUE(with_id(scatter, "python.import_failed").empty());
  // flash-attn 1832: a std::__cxx11::basic_string symbol beside pip's torch 2.6.0 (PyPI's cu124, the old ABI).
  auto abi = judge_paste("Dao-AILab-flash-attention-1832.txt");
  ASSERT_EQ(with_id(abi, "ext.cxx11_abi_mismatch").size(), 1u) << abi.dump().substr(0, 2000);
  // AutoAWQ 298: an old-ABI std::string symbol beside its typed "Torch: 2.0.1 + cu11.8", whose pip build is
  // old-ABI too: not the string ABI, so another torch release.
  auto same_abi = judge_paste("casper-hansen-AutoAWQ-298.txt");
  EXPECT_EQ(with_id(same_abi, "ext.built_for_other_torch").size(), 1u) << same_abi.dump().substr(0, 2000);
  EXPECT_TRUE(with_id(same_abi, "ext.cxx11_abi_mismatch").empty());
  // Its error line alone, torch's version not pasted: another release or the other ABI, which is not known,
  // but another build of torch either way, and the title says both.
  const fs::path alone = fs::temp_directory_path() / ("gpucheck_awq_" + std::to_string(::getpid()) + ".txt");
  const std::string awq = gpucheck::read_file(kData + "/pasted_env/casper-hansen-AutoAWQ-298.txt");
  std::ofstream(alone) << awq.substr(0, awq.find("My env"));
  auto r = run_gpucheck({"doctor", "--from-text", alone.string(), "--json"});
  fs::remove(alone);
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto unknown = nlohmann::json::parse(r.out);
  EXPECT_TRUE(with_id(unknown, "python.import_failed").empty()) << r.out.substr(0, 2000);
  EXPECT_TRUE(with_id(unknown, "ext.cxx11_abi_mismatch").empty());
  auto either = with_id(unknown, "ext.built_for_other_torch");
  ASSERT_EQ(either.size(), 1u) << r.out.substr(0, 2000);
  EXPECT_NE(either[0]["title"].get<std::string>().find("another release, or the other C++11 ABI"), std::string::npos);
  // torchao 3817: it imports without its C++ ops: one warning, the knowledge base's range for 0.15.0 (its own
  // words are that finding's evidence, not a second finding).
  auto ao_doc = judge_paste("pytorch-ao-3817.txt");
  auto ao = with_id(ao_doc, "ext.torch_out_of_range");
  ASSERT_EQ(ao.size(), 1u) << ao_doc.dump().substr(0, 2000);
  EXPECT_EQ(ao[0]["status"], "warn");
  EXPECT_TRUE(with_id(ao_doc, "ext.built_for_other_torch").empty());
}

TEST(PastedVerdicts, NoKernelImageBesideATorchThatHasTheGpusKernelsIsAnExtensions) {
  // sglang 831: torch 2.4.0+cu124 lists sm_70; flashinfer's RMSNorm has no image for the V100.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/sgl-project-sglang-831.txt", "--json"});
  auto doc = nlohmann::json::parse(r.out);
  auto ext = with_id(doc, "ext.arch_not_built");
  ASSERT_EQ(ext.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(ext[0]["status"], "fail");
  EXPECT_NE(ext[0]["title"].get<std::string>().find("sm_70"), std::string::npos);
  EXPECT_TRUE(with_id(doc, "gpu.arch_not_in_torch").empty());
  // The same error beside a torch without the GPU's kernels is torch's: no extension is blamed.
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_kimg_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << "- PyTorch version: 2.0.1+cu117\n- GPU: NVIDIA GeForce RTX 5090\n"
                     << "RuntimeError: CUDA error: no kernel image is available for execution on the device\n";
  auto old = nlohmann::json::parse(run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"}).out);
  EXPECT_TRUE(with_id(old, "ext.arch_not_built").empty());
  EXPECT_EQ(with_id(old, "gpu.arch_not_in_torch").size(), 1u);
  // Without torch's version, CUDA's error names no library: nothing is said; FlashAttention's own check is its.
  std::ofstream(tmp) << "- GPU: Tesla V100-SXM2-32GB\n- Driver: 535.104.05\n"
                     << "RuntimeError: CUDA error: no kernel image is available for execution on the device\n";
  auto bare = nlohmann::json::parse(run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"}).out);
  EXPECT_TRUE(with_id(bare, "ext.arch_not_built").empty());
  std::ofstream(tmp) << "- GPU: Tesla V100-SXM2-32GB\n- Driver: 535.104.05\n"
                     << "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n";
  auto fa = nlohmann::json::parse(run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"}).out);
  EXPECT_EQ(with_id(fa, "ext.arch_not_built").size(), 1u);
  fs::remove(tmp);
}

TEST(PastedVerdicts, AContainerStartedWithoutTheGpuAndColossalAisToolkitCheck) {
  // llama-cpp-python 1882: NVIDIA's banner, then libcuda.so.1 missing: the driver is missing for CUDA, FAIL, and
  // the way out is on the host (no command to paste into the container).
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/abetlen-llama-cpp-python-1882.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000);
  auto missing = with_id(nlohmann::json::parse(r.out), "driver.missing");
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0]["status"], "fail");
  EXPECT_NE(missing[0]["title"].get<std::string>().find("container"), std::string::npos);
  // ColossalAI 2973: `colossalai check -i` states torch's CUDA 11.7 and CUDA_HOME's 10.1.
  auto c = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/hpcaitech-ColossalAI-2973.txt", "--json"});
  EXPECT_EQ(with_id(nlohmann::json::parse(c.out), "cuda.nvcc_torch_major_mismatch").size(), 1u) << c.out.substr(0, 2000);
}

TEST(PastedVerdicts, TorchsOwnImportFailingIsJudgedAsTheLiveDoctorJudgesIt) {
  // pytorch 165812: a frame cut before 'File "' through torch/__init__.py, then libcudnn.so.9 missing, above a
  // collect_env whose "PyTorch version" is N/A; pytorch 131662: Windows' DLL error inside a notebook's JSON.
  for (const char* paste : {"pytorch-pytorch-165812.txt", "pytorch-pytorch-131662.txt"}) {
    auto doc = judge_paste(paste);
    ASSERT_EQ(with_id(doc, "torch.import_failed").size(), 1u) << paste << "\n" << doc.dump().substr(0, 2000);
    EXPECT_TRUE(with_id(doc, "python.import_failed").empty()) << paste;
  }
  // axolotl 892: "python3 -c 'import torch;import flash_attn_2_cuda'": the loader names flash_attn_2_cuda, and
  // torch (the one-liner's first import) is not blamed.
  auto one_liner = judge_paste("axolotl-ai-cloud-axolotl-892.txt");
  EXPECT_TRUE(with_id(one_liner, "torch.import_failed").empty());
  EXPECT_EQ(with_id(one_liner, "ext.built_for_other_torch").size(), 1u) << one_liner.dump().substr(0, 2000);
}

TEST(PastedVerdicts, DocTrsCollectEnvWithoutTheDriversRowIsAWorkingMachine) {
  // docTR 1879: "PyTorch version: 2.4.0+cu121 (torchvision 0.19.0+cu121)", "Is CUDA available (PyTorch): Yes",
  // an empty "Nvidia driver version:": torch used CUDA, so a driver answered.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/mindee-doctr-1879.txt", "--json"});
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 3000);
  EXPECT_TRUE(with_id(doc, "driver.missing").empty());
  EXPECT_EQ(doc["inventory"]["pythons"][0]["torch_version"], "2.4.0+cu121");
  EXPECT_EQ(doc["inventory"]["pythons"][0]["torch_cuda"], "12.1");
}

TEST(PastedVerdicts, TheContainerToolkitsRequirementNamesTheDriverItsCudaNeeds) {
  // tabbyAPI 324: "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8" beside nvidia-smi
  // (driver 550.144.03, CUDA 12.4): the oldest driver for CUDA 12.8 comes from data/compat/driver.json.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/theroyallab-tabbyAPI-324.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000);
  auto refused = with_id(nlohmann::json::parse(r.out), "driver.too_old_for_runtime");
  ASSERT_EQ(refused.size(), 1u) << r.out.substr(0, 3000);
  const std::string title = refused[0]["title"];
  EXPECT_NE(title.find("570."), std::string::npos) << title;
  EXPECT_NE(title.find("(CUDA 12.8)"), std::string::npos) << title;
  EXPECT_NE(title.find("supports CUDA 12.4"), std::string::npos) << title;
}

TEST(PastedVerdicts, TheToolkitsStubLibcudaLoadedIsADriverMissingWithItsWayOut) {
  // numba 9732: numba's library test mapped /usr/local/cuda-11.8/.../stubs/libcuda.so.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/numba-numba-9732.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000);
  auto stub = with_id(nlohmann::json::parse(r.out), "driver.missing");
  ASSERT_EQ(stub.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(stub[0]["title"].get<std::string>().find("stub libcuda.so"), std::string::npos);
  EXPECT_EQ(stub[0]["fixes"][0]["commands"][1], "ldconfig -p | grep libcuda");
  // CUDA's own name for error 34, in any program's words.
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_stub_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << "torch                    2.1.0+cu121\nnumpy                    1.26.4\n"
                     << "CudaAPIError: [34] Call to cuInit results in CUDA_ERROR_STUB_LIBRARY\n";
  auto said = run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"});
  EXPECT_EQ(with_id(nlohmann::json::parse(said.out), "driver.missing").size(), 1u) << said.out.substr(0, 3000);
  fs::remove(tmp);
}

TEST(PastedVerdicts, ATorchSymbolOfUnstatedAbiIsAnotherTorchBuild) {
  // RL2 8: flash_attn_2_cuda misses c10::Error(SourceLocation, std::__cxx11::string) and the pip freeze is cut
  // before torch: another release or the other ABI, which is another build of torch either way.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/ChenmienTan-RL2-8.txt", "--json"});
  auto other = with_id(nlohmann::json::parse(r.out), "ext.built_for_other_torch");
  ASSERT_EQ(other.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(other[0]["title"].get<std::string>().find("another release, or the other C++11 ABI"), std::string::npos);
}

TEST(PastedVerdicts, ACollectEnvGpuRowCutShortNamesNoGpu) {
  // pytorch 123087: "GPU models and configuration: N" (its "N/A" cut) beside a CPU-only torch: no GPU, no finding.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/pytorch-pytorch-123087.txt", "--json"});
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["inventory"]["gpus"].empty()) << r.out.substr(0, 2000);
  EXPECT_TRUE(with_id(doc, "torch.cpu_only_on_gpu_node").empty());
}

TEST(PastedVerdicts, DockersRefusalOfTheNvidiaDriverBesideAWorkingHostIsTheRuntimeMissing) {
  // gpu-hot 18: nvidia-smi on the host (driver 550.163.01), then compose's 'could not select device driver
  // "nvidia" with capabilities: [[gpu]]': the host's driver keeps its source, Docker is what is missing.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/psalias2006-gpu-hot-18.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out.substr(0, 2000);
  auto missing = with_id(nlohmann::json::parse(r.out), "driver.missing");
  ASSERT_EQ(missing.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(missing[0]["title"].get<std::string>().find("no NVIDIA container runtime"), std::string::npos);
  EXPECT_EQ(missing[0]["evidence"][1]["source"], "pasted nvidia-smi");
  EXPECT_EQ(missing[0]["fixes"][0]["commands"][0], "sudo nvidia-ctk runtime configure --runtime=docker");
}

TEST(PastedVerdicts, TorchsAssertionThatItHasNoCudaIsACpuTorchTheProgramWantedOnTheGpu) {
  // ChatGLM-6B 920: the traceback ends in torch's "AssertionError: Torch not compiled with CUDA enabled".
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/zai-org-ChatGLM-6B-920.txt", "--json"});
  auto cpu = with_id(nlohmann::json::parse(r.out), "torch.cpu_only_on_gpu_node");
  ASSERT_EQ(cpu.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(cpu[0]["status"], "fail");
  // Its driver (527.56, CUDA 12.0) and nvcc 11.8 choose CUDA 11.8; the stated release "2.0" (torchvision 0.15.1
  // and torchaudio 2.0.1 +cu118 beside it) comes first, the newest torch for that CUDA second.
  EXPECT_EQ(cpu[0]["fixes"][0]["commands"][0],
            "python -m pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118");
  EXPECT_NE(cpu[0]["fixes"][1]["summary"].get<std::string>().find("built for CUDA 11.8"), std::string::npos);
  // Without the driver or a toolkit in the paste, the driver's CUDA is read first.
  const fs::path tmp = fs::temp_directory_path() / ("gpucheck_cpu_torch_" + std::to_string(::getpid()) + ".txt");
  std::ofstream(tmp) << "torch==2.1.0+cpu\nnumpy==1.26.4\nAssertionError: Torch not compiled with CUDA enabled\n";
  auto bare = with_id(nlohmann::json::parse(run_gpucheck({"doctor", "--from-text", tmp.string(), "--json"}).out),
                      "torch.cpu_only_on_gpu_node");
  fs::remove(tmp);
  ASSERT_EQ(bare.size(), 1u);
  EXPECT_EQ(bare[0]["title"], "torch 2.1.0+cpu is a CPU-only build but the program asks it for CUDA");
  EXPECT_EQ(bare[0]["fixes"][0]["commands"][0], "nvidia-smi");
  // A1111's memory monitor prints the words as a caught warning when the web UI runs on the CPU on purpose
  // (stable-diffusion-webui 12174, launched with --use-cpu all): that is no request of CUDA.
  auto cpu_on_purpose =
      run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/AUTOMATIC1111-stable-diffusion-webui-12174.txt", "--json"});
  if (cpu_on_purpose.exit_code != 2)
    EXPECT_TRUE(with_id(nlohmann::json::parse(cpu_on_purpose.out), "torch.cpu_only_on_gpu_node").empty());
}

TEST(PastedVerdicts, LibrariesThatSayTheyCannotLoadAreTitledByWhatDoesNotLoad) {
  // GPT-SoVITS 607: faster-whisper's CTranslate2 "Library cublas64_12.dll is not found or cannot be loaded".
  auto ct2 = with_id(judge_paste("RVC-Boss-GPT-SoVITS-607.txt"), "python.import_failed");
  ASSERT_EQ(ct2.size(), 1u);
  EXPECT_EQ(ct2[0]["title"], "CTranslate2 cannot load cublas64_12.dll in python");
  // SEINE 21: xFormers' block with the installed torch and Python: its extensions do not load, cause unnamed.
  auto xf = with_id(judge_paste("Vchitect-SEINE-21.txt"), "python.import_failed");
  ASSERT_EQ(xf.size(), 1u);
  EXPECT_EQ(xf[0]["title"], "xFormers' C++/CUDA extensions do not load in python");
  // MSMDFusion 32: spconv's own check of its prebuilt kernels ("your gpu arch (8, 9) isn't compiled in prebuilt").
  auto spconv = with_id(judge_paste("SxJyJay-MSMDFusion-32.txt"), "ext.arch_not_built");
  ASSERT_EQ(spconv.size(), 1u);
  EXPECT_NE(spconv[0]["title"].get<std::string>().find("(8, 9)"), std::string::npos);
}

TEST(PastedVerdicts, CompanionAndPygCudaChecksAreExtensionsBuiltForAnotherTorch) {
  // SillyTavern Extras 242: torchvision's refusal quoted whole by the reporter ("\"RuntimeError: Detected that
  // PyTorch and torchvision were compiled with different CUDA versions ...").
  EXPECT_EQ(with_id(judge_paste("SillyTavern-SillyTavern-Extras-242.txt"), "ext.built_for_other_torch").size(), 1u);
  // torch_sparse 117: PyG's check, its second sentence alone, beside torch 1.7.1+cu110.
  auto pyg = with_id(judge_paste("rusty1s-pytorch_sparse-117.txt"), "ext.built_for_other_torch");
  ASSERT_EQ(pyg.size(), 1u);
  EXPECT_NE(pyg[0]["title"].get<std::string>().find("torch_sparse"), std::string::npos);
}

TEST(PastedVerdicts, TheContainerToolkitsOtherAlternativeStillNamesTheCudaTheImageRequires) {
  // nvidia-docker 895: "--require=cuda>=10.0 brand=tesla,driver>=384,driver<385" refused on "brand = tesla",
  // beside `nvidia-container-cli info` (NVRM 384.130, CUDA 9.0, a GeForce 920M).
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/NVIDIA-nvidia-docker-895.txt", "--json"});
  auto doc = nlohmann::json::parse(r.out);
  auto refused = with_id(doc, "driver.too_old_for_runtime");
  ASSERT_EQ(refused.size(), 1u) << r.out.substr(0, 3000);
  EXPECT_NE(refused[0]["title"].get<std::string>().find("410.48 (CUDA 10.0)"), std::string::npos);
  EXPECT_NE(refused[0]["title"].get<std::string>().find("supports CUDA 9.0"), std::string::npos);
  EXPECT_EQ(doc["inventory"]["driver"]["version"], "384.130");
}

TEST(PastedVerdicts, VllmsAndOllamasOwnChecksAreRead) {
  // vLLM 463: "GPUs with compute capability less than 7.0 are not supported." beside an A100 and a P100.
  EXPECT_EQ(with_id(judge_paste("vllm-project-vllm-463.txt"), "ext.arch_not_built").size(), 1u);
  // ollama 6604: its cudart loader's "your nvidia driver is too old or missing".
  auto ollama = with_id(judge_paste("ollama-ollama-6604.txt"), "driver.too_old_for_runtime");
  ASSERT_EQ(ollama.size(), 1u);
  EXPECT_NE(ollama[0]["evidence"][0]["value"].get<std::string>().find("ollama could not use its bundled cudart"),
            std::string::npos);
}

TEST(PastedVerdicts, WhatTorchAndTheContainerToolkitSayOfAMissingDriverIsThatFinding) {
  // Fooocus 508: torch's _cuda_init raised "RuntimeError: Found no NVIDIA driver on your system." (no GPU listed).
  auto torch_said = with_id(judge_paste("lllyasviel-Fooocus-508.txt"), "driver.missing");
  ASSERT_EQ(torch_said.size(), 1u);
  EXPECT_EQ(torch_said[0]["status"], "fail");
  EXPECT_EQ(torch_said[0]["title"], "torch found no NVIDIA driver where the program ran: CUDA code cannot run there");
  // nvidia-container-toolkit 260: "nvidia-container-cli: initialization error: nvml error: driver not loaded".
  auto toolkit_said = with_id(judge_paste("NVIDIA-nvidia-container-toolkit-260.txt"), "driver.missing");
  ASSERT_EQ(toolkit_said.size(), 1u);
  EXPECT_EQ(toolkit_said[0]["title"], "The NVIDIA Container Toolkit finds no loaded NVIDIA driver on the host");
}

TEST(PastedVerdicts, CondasPlanToInstallTheCpuBuildBesideAnNvidiaGpuIsThatFinding) {
  // pytorch 30664: "pytorch  conda-forge/linux-64::pytorch-1.10.0-cpu_py37hf3cc979_0" in conda's plan, nvidia-smi's
  // table beside it.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/pytorch-pytorch-30664.txt", "--json"});
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(with_id(doc, "torch.cpu_only_on_gpu_node").size(), 1u) << r.out.substr(0, 3000);
  EXPECT_EQ(doc["inventory"]["pythons"][0]["torch_version"], "1.10.0");
}

TEST(PastedVerdicts, TheDriversPartsDisagreeingSaidAloneIsThatFinding) {
  for (const char* paste : {"tensorflow-tensorflow-4768.txt", "ollama-ollama-15918.txt"}) {
    auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/" + paste, "--json"});
    ASSERT_EQ(r.exit_code, 1) << paste << r.err;
    EXPECT_EQ(with_id(nlohmann::json::parse(r.out), "driver.library_mismatch").size(), 1u) << paste;
  }
}

TEST(PastedVerdicts, AProgramAskingCudaOfAnIntelXpuTorchIsItsOwnBug) {
  // CatVTON Wrapper 24: "Torch not compiled with CUDA enabled" from a node that hard-codes CUDA, beside ComfyUI's
  // "Device: xpu" with Intel's IPEX torch: nothing about the environment is wrong.
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/chflame163-ComfyUI_CatVTON_Wrapper-24.txt", "--json"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  EXPECT_TRUE(with_id(nlohmann::json::parse(r.out), "torch.cpu_only_on_gpu_node").empty()) << r.out.substr(0, 2000);
}

TEST(PastedVerdicts, NumbasDriverWithoutCuInitAndTorchvisionsMissingOperatorAreRead) {
  // numba 2629: numba -s "driver missing function: cuInit." with NUMBAPRO_CUDA_DRIVER set to libcudart.so.
  auto numba = with_id(judge_paste("numba-numba-2629.txt"), "driver.missing");
  ASSERT_EQ(numba.size(), 1u);
  EXPECT_EQ(numba[0]["fixes"][0]["commands"][0], "unset NUMBA_CUDA_DRIVER NUMBAPRO_CUDA_DRIVER");
  // ComfyUI 10517: torch 2.x's "RuntimeError: torchvision::nmd does not exist" (no "operator" before it).
  EXPECT_EQ(with_id(judge_paste("Comfy-Org-ComfyUI-10517.txt"), "ext.built_for_other_torch").size(), 1u);
}

TEST(PastedVerdicts, AJetsonsPlatformIsItsGpuAndItsTorchComesFromNvidia) {
  // lerobot 2363: "Platform: Linux-5.15.148-tegra-aarch64" (a Jetson's L4T kernel) beside "PyTorch version:
  // 2.7.1+cpu": the CPU torch is the finding, and its fix is NVIDIA's wheel for the JetPack release.
  auto cpu = with_id(judge_paste("huggingface-lerobot-2363.txt"), "torch.cpu_only_on_gpu_node");
  ASSERT_EQ(cpu.size(), 1u);
  EXPECT_EQ(cpu[0]["fixes"][0]["commands"][0], "cat /etc/nv_tegra_release");
  // pytorch 120186: a Jetson's collect_env with "Nvidia driver version: Could not collect" (no nvidia-smi there)
  // is no missing driver.
  EXPECT_TRUE(with_id(judge_paste("pytorch-pytorch-120186.txt"), "driver.missing").empty());
}

TEST(PastedVerdicts, SageAttentionsMissingKernelIsAnExtensionWithoutTheGpusArchitecture) {
  // SageAttention 50: "Error running sage attention: SM89 kernel is not available. Make sure you GPUs with compute
  // capability 8.9., using pytorch attention instead." (its wheel built without that architecture).
  auto r = run_gpucheck({"doctor", "--from-text", kData + "/pasted_env/woct0rdho-SageAttention-50.txt", "--json"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  EXPECT_EQ(with_id(nlohmann::json::parse(r.out), "ext.arch_not_built").size(), 1u) << r.out.substr(0, 2000);
}
