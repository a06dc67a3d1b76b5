// A pasted environment report is input: `doctor --from-text FILE` judges a real collect_env output, and
// `explain` recognises one inside a log; and explain gathers this machine's facts only when a fix asks.
#include <algorithm>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"

namespace {

const std::string kBin = std::string(GPUCHECK_STAGE_BIN) + "/gpucheck";
const std::string kData = std::string(GPUCHECK_TEST_DATA);
const char* kNoPath = "(the nvcc the pasted report ran; path not in the report)";

gpucheck::SubprocessResult gpucheck_run(std::vector<std::string> args, std::optional<std::string> stdin_data = {}) {
  args.insert(args.begin(), kBin);
  gpucheck::SubprocessOptions o;
  o.stdin_data = std::move(stdin_data);
  return gpucheck::run_subprocess(args, o);
}

std::vector<nlohmann::json> findings(const nlohmann::json& doc, const std::string& section) {
  for (const auto& s : doc["sections"])
    if (s["name"] == section) return s["findings"].get<std::vector<nlohmann::json>>();
  return {};
}

}  // namespace

TEST(DoctorFromText, JudgesARealCollectEnvReportWithoutQuotingPathsItLacks) {
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/collect_env/vllm-3842-torch-2.1.txt", "--json"});
  // nvcc 12.1 under torch cu118 stops only a source build, which plain doctor is not asked about: a warning
  // (issue 31), so the pasted stack passes.
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["details"]["inventory_source"], "--from-text " + kData + "/collect_env/vllm-3842-torch-2.1.txt");
  EXPECT_EQ(doc["inventory"]["pythons"][0]["torch_version"], "2.1.2+cu121");
  bool mismatch = false;
  for (const auto& f : findings(doc, "findings")) {
    mismatch |= f["id"] == "cuda.nvcc_torch_major_mismatch" && f["status"] == "warn" && f["concern"] == "at_risk";
    EXPECT_EQ(f["title"].get<std::string>().find(kNoPath), std::string::npos) << f["id"];
    for (const auto& fx : f["fixes"])
      for (const auto& c : fx["commands"]) EXPECT_EQ(c.get<std::string>().find(kNoPath), std::string::npos) << c;
  }
  EXPECT_TRUE(mismatch) << r.out;
}

TEST(DoctorFromText, TextThatIsNotAReportIsBadInput) {
  // A log that states no fact about the environment (vllm-1060.log states nvcc's and torch's CUDA: read).
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/logs/alphapose-765.log"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not an environment report"), std::string::npos) << r.err;
  EXPECT_EQ(gpucheck::split(gpucheck::trim(r.err), '\n').size(), 1u);
  EXPECT_EQ(gpucheck_run({"doctor", "--from-text", "/dev/zero"}).exit_code, 2);
}

TEST(ExplainEnvReport, ACollectEnvInsideALogIsJudgedAndUsedForTheFixes) {
  std::string paste = gpucheck::read_file(kData + "/collect_env/vllm-3842-torch-2.1.txt") + "\n" +
                      gpucheck::read_file(kData + "/logs/vllm-1060.log");
  auto r = gpucheck_run({"explain", "-", "--json"}, paste);
  EXPECT_EQ(r.exit_code, 1) << "the environment has an error finding";
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(findings(doc, "causes").at(0)["id"], "cuda.nvcc_torch_major_mismatch");
  // One id for one cause in every command; the signature that matched stays beside it.
  EXPECT_EQ(findings(doc, "causes").at(0)["details"]["signature"], "cuda-mismatch-nvcc-torch");
  // A build log: the build is the goal, so the mismatch that stops it is an error here (core/verdict.h).
  bool mismatch = false;
  for (const auto& f : findings(doc, "environment"))
    mismatch |= f["id"] == "cuda.nvcc_torch_major_mismatch" && f["status"] == "fail";
  EXPECT_TRUE(mismatch);
  EXPECT_EQ(doc["details"]["environment_report"]["kind"], "collect_env");
  EXPECT_EQ(doc["inventory"]["pythons"][0]["torch_version"], "2.1.2+cu121") << "the fixes used the pasted stack";
  auto text = gpucheck_run({"explain", kData + "/collect_env/vllm-10034-torch-2.4.txt"});
  EXPECT_NE(text.out.find("environment report in the log (collect_env)"), std::string::npos) << text.out;
}

TEST(ExplainLazyInventory, TheLogAloneDecidesAndNoMachineFactIsGatheredUnasked) {
  // Unknown log: no fix, so nothing about this machine is gathered.
  auto r = gpucheck_run({"explain", kData + "/logs/heldout-detectron2-5162.log", "--json"});
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["inventory"].is_null());
  bool note = false;
  for (const auto& n : doc["notes"]) note |= n.get<std::string>().find("environment: not needed") == 0;
  EXPECT_TRUE(note) << doc["notes"].dump();
  // A fix that names a toolkit path and the planner's torch for nvcc's CUDA: the toolkits are gathered, and
  // the Python probe runs because kb_torch_install plans for this machine's interpreter (and only then).
  auto m = gpucheck_run({"explain", kData + "/logs/vllm-1060.log", "--json"});
  auto mdoc = nlohmann::json::parse(m.out);
  EXPECT_FALSE(mdoc["inventory"].is_null());
  std::string notes = mdoc["notes"].dump();
  EXPECT_NE(notes.find("read for the fixes: the CUDA toolkits, the torch to install (use --no-env"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("no Python probe"), std::string::npos) << notes;
  // The note is the first line of the text: in the user's words, no internal fact names (issue 35).
  EXPECT_EQ(notes.find("env_"), std::string::npos) << notes;
  EXPECT_EQ(notes.find("kb_"), std::string::npos) << notes;
  // Without an environment the same fixes plan for an unknown machine and nothing is gathered.
  auto n = gpucheck_run({"explain", kData + "/logs/vllm-1060.log", "--json", "--no-env"});
  auto ndoc = nlohmann::json::parse(n.out);
  EXPECT_TRUE(ndoc["inventory"].is_null()) << ndoc["notes"].dump();
}

TEST(ExplainEnvReport, AnXformersWarningInsideALogIsJudgedByTheDoctor) {
  std::string paste = gpucheck::read_file(kData + "/pasted_env/facebookresearch-xformers-971.txt") + "\n" +
                      gpucheck::read_file(kData + "/logs/vllm-1060.log");
  auto r = gpucheck_run({"explain", "-", "--json", "--no-env"}, paste);
  EXPECT_EQ(r.exit_code, 1) << "the environment has an error finding";
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["details"]["environment_report"]["kind"], "xformers.info");
  // xFormers' own words say it was built for another torch: that finding, not the bare import failure.
  bool built_for_other = false;
  for (const auto& f : findings(doc, "environment"))
    built_for_other |= f["id"] == "ext.built_for_other_torch" && f["status"] == "fail";
  EXPECT_TRUE(built_for_other) << r.out;
  EXPECT_EQ(doc["details"]["environment_report"]["inventory"]["pythons"][0]["torch_version"], "2.1.0+cpu");
}

TEST(DoctorFromText, APipFreezeWithTwoCudaMajorsOfCudnnWarnsAndKeepsTorchs) {
  // pip freeze lines as pip prints them; torch 2.1.0+cu121 needs the cu12 cuDNN wheel.
  const std::string path = testing::TempDir() + "/freeze-two-cudnn.txt";
  gpucheck::write_file_atomic(path, "numpy==1.26.0\ntorch==2.1.0+cu121\nnvidia-cudnn-cu11==8.5.0.96\n"
                                    "nvidia-cudnn-cu12==8.9.2.26\nnvidia-nccl-cu12==2.18.1\n");
  auto r = gpucheck_run({"doctor", "--from-text", path, "--json"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  bool warned = false;
  for (const auto& f : findings(doc, "findings"))
    if (f["id"] == "python.cuda_wheels_two_majors") {
      warned = f["status"] == "warn";
      std::string cmds = f["fixes"].dump();
      EXPECT_NE(cmds.find("pip uninstall -y nvidia-cudnn-cu11"), std::string::npos) << cmds;
      EXPECT_NE(cmds.find("nvidia-cudnn-cu12==8.9.2.26"), std::string::npos) << cmds;
    }
  EXPECT_TRUE(warned) << r.out;
  // A CUDA build of torch stated by its tag, and no driver or toolkit in the paste: nothing claims their absence.
  for (const auto& f : findings(doc, "findings")) {
    EXPECT_NE(f["id"], "driver.missing");
    EXPECT_NE(f["id"], "cuda.no_toolkit");
  }
}

// facebookresearch-xformers-939 (opened): xformers.info of 0.0.22.post7+cu118, every attention operator
// "unavailable", beside torch 2.0.1+cu118 and no "built for" line. Its PyPI wheel requires torch==2.1.0
// (data/compat/pypi.json): the pin names the mismatch; a torch that meets it gets no such finding.
TEST(DoctorFromText, AnExtensionsPublishedTorchPinJudgesAPastedTorch) {
  const std::string paste = gpucheck::read_file(kData + "/pasted_env/facebookresearch-xformers-939.txt");
  auto judged = [&](const std::string& text) {
    const std::string path = testing::TempDir() + "/xformers-info.txt";
    gpucheck::write_file_atomic(path, text);
    auto r = gpucheck_run({"doctor", "--from-text", path, "--json"});
    EXPECT_NE(r.exit_code, 2) << r.err;
    return nlohmann::json::parse(r.out);
  };
  nlohmann::json pin;
  auto doc = judged(paste);
  for (const auto& f : findings(doc, "findings"))
    if (f["id"] == "ext.torch_out_of_range") pin = f;
  ASSERT_FALSE(pin.is_null()) << doc.dump(1);
  EXPECT_EQ(pin["status"], "fail");
  EXPECT_EQ(pin["title"], "xformers 0.0.22.post7+cu118 requires torch==2.1.0, installed is 2.0.1+cu118");
  EXPECT_NE(pin["evidence"].dump().find("data/compat/pypi.json"), std::string::npos);
  std::string same = paste;
  same.replace(same.find("2.0.1+cu118"), 11, "2.1.0+cu118");
  for (const auto& f : findings(judged(same), "findings")) EXPECT_NE(f["id"], "ext.torch_out_of_range") << f.dump();
}

TEST(DoctorFromText, TorchsOwnNotCompatibleWarningFailsEvenWithAnOlderArchsPtx) {
  // detectron2#3076: torch 1.6's "RTX 3090 with CUDA capability sm_86 is not compatible" with its list
  // "sm_37 ... sm_75 compute_37": the PTX of 3.7 predates Ampere's CUDA (11.1), so torch's check refuses it.
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/pasted_env/facebookresearch-detectron2-3076.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  nlohmann::json arch;
  for (const auto& f : findings(doc, "findings"))
    if (f["id"] == "gpu.arch_not_in_torch") arch = f;
  ASSERT_FALSE(arch.is_null()) << r.out;
  EXPECT_EQ(arch["status"], "fail");
  EXPECT_NE(arch["title"].get<std::string>().find("sm_86"), std::string::npos) << arch["title"];
  EXPECT_NE(arch["explanation"].get<std::string>().find("CUDA 11.1"), std::string::npos) << arch["explanation"];
}

TEST(DoctorFromText, AROCmCollectEnvHasNoNvidiaGpuWaitingForADriver) {
  // pytorch#44106: a ROCm 3.7 torch on an AMD GPU ("Device 66a1"), "Nvidia driver version: Could not collect".
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/pasted_env/pytorch-pytorch-44106.txt", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_TRUE(doc["inventory"]["gpus"].empty()) << doc["inventory"]["gpus"].dump();
  for (const auto& f : findings(doc, "findings")) EXPECT_NE(f["id"], "driver.missing") << f.dump();
}

TEST(DoctorFromText, AVllmImportWarningAloneIsAnImportFailureOfAnotherTorchBuild) {
  // vllm#5501: the reporter's environment section is two lines, vLLM's own "Failed to import from vllm._C",
  // whose undefined symbol is torch's and passes a std::string, beside no torch version: another release or
  // the other ABI, another build of torch either way.
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/pasted_env/vllm-project-vllm-5501.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  bool failed = false;
  for (const auto& f : findings(nlohmann::json::parse(r.out), "findings"))
    failed |= f["id"] == "ext.built_for_other_torch" && f["evidence"].dump().find("undefined symbol") != std::string::npos;
  EXPECT_TRUE(failed) << r.out;
}

TEST(DoctorFromText, TorchaoBuiltForANewerTorchIsAtRiskNotBrokenWhileItImports) {
  // sglang#3944: torchao 0.8.0 beside torch 2.5.1 on a serving node that works: `import torchao` succeeds
  // with another torch, only its C++ ops do not load (data/compat/extensions.json, measured). A warning.
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/pasted_env/sgl-project-sglang-3944.txt", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  bool warned = false;
  for (const auto& f : findings(nlohmann::json::parse(r.out), "findings"))
    if (f["id"] == "ext.torch_out_of_range") {
      warned = f["status"] == "warn";
      EXPECT_NE(f["explanation"].get<std::string>().find("compiled operators do not load"), std::string::npos) << f.dump();
    }
  EXPECT_TRUE(warned) << r.out;
}

TEST(DoctorFromText, AnOldCollectEnvWithoutItsFirstColonStillJudgesTheDriver) {
  // pytorch#37212: "PyTorch version 1.5.0" (no colon), "GPU 0\uff1a Tesla P100" (fullwidth colons), CUDA 10.2
  // torch with driver 410.104, which supports CUDA 10.0 at most.
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/pasted_env/pytorch-pytorch-37212.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  bool failed = false;
  for (const auto& f : findings(nlohmann::json::parse(r.out), "findings")) failed |= f["id"] == "driver.too_old_for_torch";
  EXPECT_TRUE(failed) << r.out;
}

TEST(DoctorFromText, NumpysAbiWarningAloneIsNumpyAbi) {
  // MotionGPT3#14: numpy 2.3.0's own warning about a module compiled against numpy 1.x, then the traceback.
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/pasted_env/OpenMotionLab-MotionGPT3-14.txt", "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  bool failed = false;
  for (const auto& f : findings(nlohmann::json::parse(r.out), "findings"))
    failed |= f["id"] == "python.numpy_abi" && f["title"].get<std::string>().find("numpy 2.3.0") != std::string::npos;
  EXPECT_TRUE(failed) << r.out;
}

namespace {

// doctor --from-text on a corpus paste: its exit code and the findings by id.
struct Judged {
  int exit_code = -1;
  std::map<std::string, nlohmann::json> by_id;
  std::string out;
};
Judged judge(const std::string& corpus_case) {
  auto r = gpucheck_run({"doctor", "--from-text", kData + "/pasted_env/" + corpus_case + ".txt", "--json"});
  Judged j{r.exit_code, {}, r.out + r.err};
  if (r.exit_code == 2) return j;
  for (const auto& f : findings(nlohmann::json::parse(r.out), "findings")) j.by_id.emplace(f["id"].get<std::string>(), f);
  return j;
}

std::vector<std::string> commands_of(const nlohmann::json& finding) {
  std::vector<std::string> out;
  for (const auto& fx : finding["fixes"])
    for (const auto& c : fx["commands"]) out.push_back(c.get<std::string>());
  return out;
}

}  // namespace

TEST(DoctorFromText, AProgramsRefusalOfTheDriverWithoutItsVersionIsTooOldForItsRuntime) {
  // llama-cpp-python 1436: CUDA error 35 from ggml beside `nvcc --version`, no driver stated.
  auto error35 = judge("abetlen-llama-cpp-python-1436");
  EXPECT_EQ(error35.exit_code, 1) << error35.out;
  ASSERT_TRUE(error35.by_id.count("driver.too_old_for_runtime")) << error35.out;
  EXPECT_EQ(error35.by_id["driver.too_old_for_runtime"]["status"], "fail");
  // ctransformers 162: error 222, the PTX of a newer CUDA than the driver's, typed beside prose only.
  auto ptx = judge("marella-ctransformers-162");
  ASSERT_TRUE(ptx.by_id.count("driver.too_old_for_runtime")) << ptx.out;
  EXPECT_NE(ptx.by_id["driver.too_old_for_runtime"]["explanation"].get<std::string>().find("222"), std::string::npos);
  // JAX 19821: XLA's warning that the driver (CUDA 12.2) is older than its ptxas: slower, not broken.
  auto xla = judge("jax-ml-jax-19821");
  EXPECT_EQ(xla.exit_code, 0) << xla.out;
  ASSERT_TRUE(xla.by_id.count("driver.too_old_for_runtime")) << xla.out;
  EXPECT_EQ(xla.by_id["driver.too_old_for_runtime"]["status"], "warn");
}

TEST(DoctorFromText, DockersRefusalOfGpusIsAMissingRuntimeWithItsRegistrationAsTheFix) {
  auto j = judge("huggingface-text-generation-inference-904");
  EXPECT_EQ(j.exit_code, 1) << j.out;
  ASSERT_TRUE(j.by_id.count("driver.missing")) << j.out;
  const auto cmds = commands_of(j.by_id["driver.missing"]);
  EXPECT_NE(std::find(cmds.begin(), cmds.end(), "sudo nvidia-ctk runtime configure --runtime=docker"), cmds.end())
      << j.by_id["driver.missing"].dump();
}

TEST(DoctorFromText, PipsOwnTorchPinIsJudgedWithACommandOnlyWhereOneWorks) {
  // LLaVA 1648: a package PyPI's table does not hold, pinned to torch 2.1.2: that torch, nothing else.
  auto llava = judge("haotian-liu-LLaVA-1648");
  ASSERT_TRUE(llava.by_id.count("ext.torch_out_of_range")) << llava.out;
  EXPECT_EQ(commands_of(llava.by_id["ext.torch_out_of_range"]),
            std::vector<std::string>{"python -m pip install torch==2.1.2"});
  // The evidence names the report, not an interpreter path the paste never had.
  for (const auto& e : llava.by_id["ext.torch_out_of_range"]["evidence"])
    EXPECT_EQ(e["source"].get<std::string>().find(" at python"), std::string::npos) << e.dump();
  // pytorch 40013: nightlies a day apart; no command (a nightly's pin leaves the index), the pair named.
  auto nightly = judge("pytorch-pytorch-40013");
  ASSERT_TRUE(nightly.by_id.count("ext.torch_out_of_range")) << nightly.out;
  EXPECT_TRUE(commands_of(nightly.by_id["ext.torch_out_of_range"]).empty());
  // pytorch 87075: the same beside a full collect_env, whose versions win.
  auto beside = judge("pytorch-pytorch-87075");
  EXPECT_TRUE(beside.by_id.count("ext.torch_out_of_range")) << beside.out;
}

TEST(DoctorFromText, AnUndefinedTorchSymbolOfTorchsOwnAbiIsAnotherTorchRelease) {
  // mmdetection 3991: "...ERKSs" (old-ABI std::string) beside pytorch=1.4.0, whose pip build is old ABI too.
  auto j = judge("open-mmlab-mmdetection-3991");
  EXPECT_TRUE(j.by_id.count("ext.built_for_other_torch")) << j.out;
  EXPECT_FALSE(j.by_id.count("ext.cxx11_abi_mismatch")) << j.out;
}

TEST(DoctorFromText, TheDriversLibraryMissingWhereAModuleRanIsNoDriverThere) {
  // xinference 2340: llama_cpp cannot load libcuda.so.1 in a container started without --gpus.
  auto j = judge("xorbitsai-inference-2340");
  ASSERT_TRUE(j.by_id.count("driver.missing")) << j.out;
  EXPECT_EQ(j.by_id["driver.missing"]["status"], "fail");
  EXPECT_FALSE(j.by_id.count("python.import_failed")) << "one finding for one cause";
}

TEST(DoctorFromText, GgmlsOwnKernelRefusalIsItsArchitectureList) {
  // ollama 11270: "no kernel image" from ggml-cuda.cu, the log's GPU at compute 6.1.
  auto j = judge("ollama-ollama-11270");
  ASSERT_TRUE(j.by_id.count("ext.arch_not_built")) << j.out;
  const auto cmds = commands_of(j.by_id["ext.arch_not_built"]);
  ASSERT_FALSE(cmds.empty());
  EXPECT_NE(cmds.front().find("-DCMAKE_CUDA_ARCHITECTURES=61"), std::string::npos) << cmds.front();
}

TEST(DoctorFromText, XlasDsoMismatchIsTheDriversPartsDisagreeing) {
  auto j = judge("jax-ml-jax-15961");
  EXPECT_TRUE(j.by_id.count("driver.library_mismatch")) << j.out;
}

TEST(DoctorFromText, CudaThirteensUnsuffixedWheelsBesideCu12OnesAreTwoMajors) {
  auto j = judge("vllm-project-vllm-44335");
  ASSERT_TRUE(j.by_id.count("python.cuda_wheels_two_majors")) << j.out;
  const auto& f = j.by_id["python.cuda_wheels_two_majors"];
  EXPECT_NE(f["explanation"].get<std::string>().find("nvidia/cu13"), std::string::npos) << f.dump();
  for (const auto& c : commands_of(f)) EXPECT_EQ(c.find("uninstall"), std::string::npos) << "nothing shares a file";
}

TEST(DoctorFromText, CoquiTtsEnvironmentJsonIsReadAndAFineOneIsNotFlagged) {
  // TTS 1516: four Tesla M40 (sm_52) under torch 1.11.0+cu102, which ships sm_50 SASS.
  auto j = judge("coqui-ai-TTS-1516");
  EXPECT_EQ(j.exit_code, 0) << j.out;
}

TEST(DoctorFromText, ABuildStoppedByItsOwnCudaCheckIsJudgedForThatBuild) {
  // apex 214: apex's setup.py refuses nvcc 10.1 beside torch's CUDA 10.2 (a minor mismatch torch only warns
  // about): the paste is that build, stopped, so the mismatch is an error and says why.
  auto j = judge("NVIDIA-apex-214");
  EXPECT_EQ(j.exit_code, 1) << j.out;
  ASSERT_TRUE(j.by_id.count("cuda.nvcc_torch_minor_mismatch")) << j.out;
  const auto& f = j.by_id["cuda.nvcc_torch_minor_mismatch"];
  EXPECT_EQ(f["status"], "fail");
  EXPECT_EQ(f["summary"].get<std::string>().rfind("The pasted source build stopped on this", 0), 0u) << f.dump();
}

TEST(DoctorFromText, APackagesOwnRefusalOfTorchIsOutOfRange) {
  // unsloth 2895: "RuntimeError: Torch = 2.6.0+cu124 too new!".
  auto j = judge("unslothai-unsloth-2895");
  ASSERT_TRUE(j.by_id.count("ext.torch_out_of_range")) << j.out;
  const auto cmds = commands_of(j.by_id["ext.torch_out_of_range"]);
  ASSERT_EQ(cmds.size(), 1u);
  EXPECT_EQ(cmds.front(), "python -m pip install --upgrade unsloth");
}

TEST(DoctorFromText, TorchsOwnWordsStandBesideAnOlderCollectEnv) {
  // pytorch 10971: collect_env of torch 0.4.0 (CUDA 9.1, which driver 387.26 runs), then the updated torch's
  // "cuda runtime error (35)": torch refused the driver.
  auto j = judge("pytorch-pytorch-10971");
  EXPECT_TRUE(j.by_id.count("driver.too_old_for_torch")) << j.out;
  // pytorch 15752: ">>>import torch" then its ImportError, the traceback's frames left out.
  auto torch = judge("pytorch-pytorch-15752");
  EXPECT_TRUE(torch.by_id.count("torch.import_failed")) << torch.out;
}

TEST(DoctorFromText, ALibrarysArchitectureCheckNeedsNoGpuName) {
  auto j = judge("komikndr-raylight-68");
  ASSERT_TRUE(j.by_id.count("ext.arch_not_built")) << j.out;
  EXPECT_EQ(j.by_id["ext.arch_not_built"]["status"], "fail");
}

TEST(DoctorFromText, NvidiaSmisLibraryMismatchBesideTheHostsTable) {
  auto j = judge("YoshitakaMo-localcolabfold-127");
  EXPECT_TRUE(j.by_id.count("driver.library_mismatch")) << j.out;
}

TEST(DoctorFromText, ApexWithoutItsCompiledModulesDoesNotImport) {
  auto j = judge("NVIDIA-apex-1488");
  EXPECT_TRUE(j.by_id.count("python.import_failed")) << j.out;
}

TEST(DoctorFromText, ABuildsRefusalBesideACollectEnvGivesItsToolkitAndItsGoal) {
  // pytorch 73047: cpp_extension's refusal (nvcc 10.1) above a collect_env cut before its nvcc line.
  auto j = judge("pytorch-pytorch-73047");
  ASSERT_TRUE(j.by_id.count("cuda.nvcc_torch_major_mismatch")) << j.out;
  EXPECT_EQ(j.by_id["cuda.nvcc_torch_major_mismatch"]["status"], "fail");
}

TEST(DoctorFromText, ExtensionsBuiltWithoutTheGpusKernels) {
  // detectron2 55: "Detectron2 CUDA Compiler  not available" beside torch 1.3.0+cu92 and four RTX 2080 Ti.
  auto d2 = judge("facebookresearch-detectron2-55");
  ASSERT_TRUE(d2.by_id.count("ext.arch_not_built")) << d2.out;
  EXPECT_EQ(d2.by_id["ext.arch_not_built"]["status"], "fail");
  // nextcloud llm2 52: ggml's "has no device code compatible with CUDA arch 520".
  auto ggml = judge("nextcloud-llm2-52");
  EXPECT_TRUE(ggml.by_id.count("ext.arch_not_built")) << ggml.out;
}

TEST(DoctorFromText, TheLibraryALoaderSaysNeedsAVersionIsTheOneThatFails) {
  // pytorch 8318: "version `CXXABI_1.3.8' not found (required by .../torch/lib/libATen.so)": torch's import.
  auto j = judge("pytorch-pytorch-8318");
  EXPECT_TRUE(j.by_id.count("torch.import_failed")) << j.out;
}

TEST(DoctorFromText, XformersBuiltForTheSameTorchButAnotherPythonIsNoOtherTorch) {
  // jetson-inference 1946: "PyTorch 2.8.0 with CUDA 1209 (you have 2.8.0)", "Python 3.12.3 (you have 3.10.12)".
  auto j = judge("dusty-nv-jetson-inference-1946");
  EXPECT_FALSE(j.by_id.count("ext.built_for_other_torch")) << j.out;
  ASSERT_TRUE(j.by_id.count("python.import_failed")) << j.out;
  EXPECT_NE(j.by_id["python.import_failed"]["evidence"][0]["value"].get<std::string>().find("Python 3.12.3"),
            std::string::npos);
}

TEST(DoctorFromText, AWheelNamedForAnotherTorchOrTheOtherStringAbi) {
  // SageAttention 49: "sageattention-2.2.0+cu128torch2.9.0.post3-cp39-abi3-win_amd64" beside torch 2.8.0+cu129.
  auto other = judge("woct0rdho-SageAttention-49");
  ASSERT_TRUE(other.by_id.count("ext.built_for_other_torch")) << other.out;
  EXPECT_EQ(other.by_id["ext.built_for_other_torch"]["title"],
            "sageattention 2.2.0+cu128torch2.9.0.post3 was built for torch 2.9, installed is torch 2.8.0+cu129");
  // causal-conv1d 35: a cxx11abiTRUE wheel beside PyPI's torch 2.4.1 (the old ABI), its import failing: one
  // finding, an error, holding the import's error (no second python.import_failed for causal_conv1d_cuda).
  auto abi = judge("Dao-AILab-causal-conv1d-35");
  ASSERT_TRUE(abi.by_id.count("ext.cxx11_abi_mismatch")) << abi.out;
  EXPECT_EQ(abi.by_id["ext.cxx11_abi_mismatch"]["status"], "fail");
  EXPECT_FALSE(abi.by_id.count("python.import_failed")) << abi.out;
  // sglang 3065: flashinfer's torch2.4 wheel beside torch 2.5.1 in sglang's own image, nothing failing: at risk.
  // causal-conv1d 77: the loader's message wrapped after the path's colon, a std::__cxx11 symbol beside torch
  // 2.6.0+cu124 (PyTorch's old-ABI build of 2.6).
  auto wrapped = judge("Dao-AILab-causal-conv1d-77");
  EXPECT_TRUE(wrapped.by_id.count("ext.cxx11_abi_mismatch")) << wrapped.out;
  auto risk = judge("sgl-project-sglang-3065");
  ASSERT_TRUE(risk.by_id.count("ext.built_for_other_torch")) << risk.out;
  EXPECT_EQ(risk.by_id["ext.built_for_other_torch"]["status"], "warn");
}

TEST(DoctorFromText, AContainersRefusalAndErrorThirtySixAreTheDriverTooOld) {
  // TensorRT-LLM 23: the container's start-up refusal, wrapped after "but", beside nvidia-smi's 510.85.02.
  auto container = judge("NVIDIA-TensorRT-LLM-23");
  ASSERT_TRUE(container.by_id.count("driver.too_old_for_runtime")) << container.out;
  const auto& f = container.by_id["driver.too_old_for_runtime"];
  EXPECT_EQ(f["status"], "fail");
  EXPECT_NE(f["title"].get<std::string>().find("535.86 or later"), std::string::npos) << f.dump();
  EXPECT_NE(f["fixes"][0]["summary"].get<std::string>().find("Upgrade the host's NVIDIA driver to 535.86"),
            std::string::npos) << f.dump();
  // lmdeploy 340: "API call is not supported in the installed CUDA driver" beside driver 450.102.04.
  auto call = judge("InternLM-lmdeploy-340");
  ASSERT_TRUE(call.by_id.count("driver.too_old_for_runtime")) << call.out;
  EXPECT_NE(call.by_id["driver.too_old_for_runtime"]["explanation"].get<std::string>().find("error 36"), std::string::npos);
}

TEST(DoctorFromText, PtxTheDriverOrTritonsPtxasCannotTake) {
  // numba 8961: the driver's JIT refusing PTX 8.1 through cuLinkAddData (error 222): the driver is too old.
  auto numba = judge("numba-numba-8961");
  ASSERT_TRUE(numba.by_id.count("driver.too_old_for_runtime")) << numba.out;
  EXPECT_NE(numba.by_id["driver.too_old_for_runtime"]["evidence"][0]["value"].get<std::string>().find("Unsupported .version 8.1"),
            std::string::npos);
  // triton 8539: Triton's bundled ptxas does not know sm_121a; the fix points TRITON_PTXAS_PATH at a toolkit's.
  auto triton = judge("triton-lang-triton-8539");
  ASSERT_TRUE(triton.by_id.count("ext.arch_not_built")) << triton.out;
  EXPECT_NE(triton.by_id["ext.arch_not_built"]["fixes"][0]["commands"].dump().find("TRITON_PTXAS_PATH"), std::string::npos);
  // SageAttention 63: a cu128 wheel for torch 2.7.1 beside torch 2.7.1+cu118: another CUDA major's build.
  auto cuda = judge("woct0rdho-SageAttention-63");
  ASSERT_TRUE(cuda.by_id.count("ext.built_for_other_torch")) << cuda.out;
  EXPECT_NE(cuda.by_id["ext.built_for_other_torch"]["title"].get<std::string>().find("with CUDA 12"), std::string::npos);
}

TEST(DoctorFromText, APackagesOwnLoadFailureAndACompanionOfAnotherBuild) {
  // ComfyUI-Whisper 16: numba's own check, "Numba needs NumPy 1.24 or less", quoted by ComfyUI's loader.
  auto numba = judge("yuvraj108c-ComfyUI-Whisper-16");
  ASSERT_TRUE(numba.by_id.count("python.import_failed")) << numba.out;
  // rapidsai deployment 709: "CuPy failed to load libnvrtc.so.12" is cupy's import failing; cupy 9547's
  // show_config row of the runtime "(locally installed)" is not.
  EXPECT_TRUE(judge("rapidsai-deployment-709").by_id.count("python.import_failed"));
  EXPECT_FALSE(judge("cupy-cupy-9547").by_id.count("python.import_failed"));
  // pytorch 90272: pip's "Successfully installed torch-...+cu117 ... torchvision-...+cpu": two builds.
  auto mixed = judge("pytorch-pytorch-90272");
  ASSERT_TRUE(mixed.by_id.count("ext.built_for_other_torch")) << mixed.out;
  EXPECT_EQ(mixed.by_id["ext.built_for_other_torch"]["title"],
            "torchvision 0.15.0.dev20221205+cpu is a CPU-only build, torch 1.14.0.dev20221205+cu117 is a CUDA 11 one");
}

TEST(DoctorFromText, ATorchReleaseNoneOfWhoseBuildsRunsTheGpu) {
  // MinkowskiEngine 620: "- GPU: NVIDIA RTX 5090", "- PyTorch Version: 2.5.1" (its build not stated): no build of
  // torch 2.5 has sm_120, whichever was installed.
  auto j = judge("NVIDIA-MinkowskiEngine-620");
  ASSERT_TRUE(j.by_id.count("gpu.arch_not_in_torch")) << j.out;
  EXPECT_EQ(j.by_id["gpu.arch_not_in_torch"]["title"], "No CUDA build of torch 2.5 has kernels for NVIDIA RTX 5090 (sm_120)");
}

TEST(DoctorFromText, ACudaLibraryOfAPackageThatDoesNotLoad) {
  // ComfyUI-3D-Pack 222: onnxruntime's provider DLL, LoadLibrary error 126.
  auto ort = judge("MrForExample-ComfyUI-3D-Pack-222");
  ASSERT_TRUE(ort.by_id.count("python.import_failed")) << ort.out;
  EXPECT_EQ(ort.by_id["python.import_failed"]["title"], "onnxruntime's CUDA execution provider does not load in python");
  // bitsandbytes 1848: no libbitsandbytes_cuda131.so for torch's CUDA 13.1.
  auto bnb = judge("bitsandbytes-foundation-bitsandbytes-1848");
  ASSERT_TRUE(bnb.by_id.count("python.import_failed")) << bnb.out;
  EXPECT_EQ(bnb.by_id["python.import_failed"]["title"], "bitsandbytes' CUDA library does not load in python");
  // transformers 23815: transformers' lazy import naming the error of accelerate it met.
  EXPECT_TRUE(judge("huggingface-transformers-23815").by_id.count("python.import_failed"));
  // TensorRT-LLM 1839: "No module named 'tensorrt'" where the paste lists tensorrt as installed.
  auto trt = judge("NVIDIA-TensorRT-LLM-1839");
  ASSERT_TRUE(trt.by_id.count("python.import_failed")) << trt.out;
  EXPECT_NE(trt.by_id["python.import_failed"]["title"].get<std::string>().find("tensorrt"), std::string::npos);
}

TEST(DoctorFromText, TensorflowsLoaderOfCudasLibraries) {
  // tensorflow 34759: "Could not load dynamic library 'libcudart.so.10.1'" beside nvidia-smi: an error.
  auto gpu = judge("tensorflow-tensorflow-34759");
  ASSERT_TRUE(gpu.by_id.count("python.import_failed")) << gpu.out;
  EXPECT_EQ(gpu.by_id["python.import_failed"]["status"], "fail");
  EXPECT_EQ(gpu.by_id["python.import_failed"]["title"], "TensorFlow cannot load libcudart.so.10.1: it runs without the GPU");
  // transformers 13270: the same warning where the paste shows no GPU and no driver (TensorFlow prints it on
  // any machine): at risk, and libcuda.so.1's line is no finding about the driver.
  auto cpu = judge("huggingface-transformers-13270");
  ASSERT_TRUE(cpu.by_id.count("python.import_failed")) << cpu.out;
  EXPECT_EQ(cpu.by_id["python.import_failed"]["status"], "warn");
  EXPECT_FALSE(cpu.by_id.count("driver.missing")) << cpu.out;
}
