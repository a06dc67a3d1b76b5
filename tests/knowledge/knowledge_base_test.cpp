// The shipped knowledge base loads, every fact in it has a source, and the validator rejects documents
// that lose one (the schema check the issue asks for).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "knowledge/kb_schema.h"
#include "knowledge/knowledge_base.h"
#include "core/errors.h"
#include "core/files.h"

using namespace gpucheck;
using namespace gpucheck::knowledge;
namespace fs = std::filesystem;

namespace {
const std::string kDir = std::string(GPUCHECK_SOURCE_DIR) + "/data/compat";

nlohmann::json load_doc(const std::string& file) { return read_json_file(kDir + "/" + file); }
}  // namespace

TEST(KnowledgeBaseSchema, EveryShippedFileIsValid) {
  for (const auto& file : compat_files()) {
    auto errors = validate_compat_document(load_doc(file), file);
    EXPECT_TRUE(errors.empty()) << file << ": " << (errors.empty() ? "" : errors.front());
  }
}

TEST(KnowledgeBaseSchema, RejectsAFactWithoutSource) {
  auto doc = load_doc("driver.json");
  doc["toolkit_min_driver"][3].erase("source");
  auto errors = validate_compat_document(doc, "driver.json");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "driver.json: toolkit_min_driver[3]: no source (every fact needs the URL it was taken from)");
}

TEST(KnowledgeBaseSchema, RejectsANonUrlSourceAndANestedReleaseWithoutSource) {
  auto doc = load_doc("extensions.json");
  doc["packages"][0]["releases"][1].erase("source");
  auto errors = validate_compat_document(doc, "extensions.json");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("packages[0].releases[1]: no source"), std::string::npos);

  auto torch = load_doc("torch.json");
  torch["releases"][0]["source"] = "I remember it";
  errors = validate_compat_document(torch, "torch.json");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("is not a URL"), std::string::npos);
}

TEST(KnowledgeBaseSchema, SharedPackageGroupsComeFromWheelsAndNeedTheirSources) {
  // scripts/gen-shared-packages read each member's wheel: onnxruntime and onnxruntime-gpu both install onnxruntime.
  auto kb = KnowledgeBase::load(kDir);
  const auto& groups = kb.shared_package_groups();
  auto onnx = std::find_if(groups.begin(), groups.end(), [](const SharedPackageGroup& g) {
    return std::find(g.distributions.begin(), g.distributions.end(), "onnxruntime-gpu") != g.distributions.end();
  });
  ASSERT_NE(onnx, groups.end());
  EXPECT_EQ(onnx->packages, std::vector<std::string>{"onnxruntime"});
  EXPECT_EQ(onnx->gpu_choice, "onnxruntime-gpu");
  EXPECT_EQ(onnx->sources.size(), onnx->distributions.size());
  auto doc = load_doc("shared_packages.json");
  doc["groups"][0]["sources"][1].erase("source");
  auto errors = validate_compat_document(doc, "shared_packages.json");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("groups[0].sources[1]: no source"), std::string::npos) << errors[0];
}

TEST(KnowledgeBaseSchema, AFactInsideAReleaseRowNeedsItsOwnFieldsAndSource) {
  auto doc = load_doc("extensions.json");
  auto& fact = doc["packages"][0]["releases"][0]["import_needs_rtld_global"];
  ASSERT_TRUE(fact.is_object()) << "bmtrain <=0.2.2 carries the fact";
  fact["source"] = "the forum";
  fact.erase("why");
  auto errors = validate_compat_document(doc, "extensions.json");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("releases[0].import_needs_rtld_global: missing field 'why'"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("import_needs_rtld_global: source 'the forum' is not a URL"), std::string::npos) << errors[1];
}

TEST(KnowledgeBaseSchema, RejectsWrongTypesAndMissingFields) {
  auto doc = load_doc("host_compilers.json");
  doc["nvcc_host_compilers"][0]["gcc_max"] = "11";
  doc["nvcc_host_compilers"][1].erase("cuda");
  auto errors = validate_compat_document(doc, "host_compilers.json");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NE(errors[0].find("field 'gcc_max' must be an integer"), std::string::npos);
  EXPECT_NE(errors[1].find("missing field 'cuda'"), std::string::npos);
}

TEST(KnowledgeBase, LoadRefusesADirectoryWithAnUnsourcedFact) {
  fs::path tmp = fs::temp_directory_path() / ("gpucheck_kb_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  for (const auto& file : compat_files()) fs::copy_file(kDir + "/" + file, tmp / file);
  auto doc = load_doc("torch.json");
  doc["releases"][4].erase("source");
  std::ofstream(tmp / "torch.json") << doc.dump(1);
  try {
    KnowledgeBase::load(tmp.string());
    FAIL() << "loaded a knowledge base with an unsourced fact";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("torch.json: releases[4]: no source"), std::string::npos) << e.what();
  }
  fs::remove_all(tmp);
}

TEST(KnowledgeBase, TypedAccessors) {
  auto kb = KnowledgeBase::load(kDir);
  EXPECT_EQ(kb.driver_minimum("11.8")->min_driver, "520.61.05");
  EXPECT_EQ(kb.driver_minimum("12.1.105")->min_driver, "530.30.02");
  EXPECT_FALSE(kb.driver_minimum("12.7"));
  EXPECT_EQ(kb.minor_compat_floor(11)->min_driver, "450.80.02");
  EXPECT_EQ(kb.host_compilers("11.8")->gcc_max, 11);
  EXPECT_EQ(kb.host_compilers("12.7")->gcc_max, 13);  // falls back to 12.6
  EXPECT_EQ(kb.host_compilers("13.0")->clang_max, 20);
  EXPECT_FALSE(kb.host_compilers("9.0"));

  auto a118 = kb.archs_for_cuda("11.8");
  ASSERT_FALSE(a118.empty());
  EXPECT_EQ(a118.front().cc, "3.5");
  EXPECT_EQ(a118.back().cc, "9.0");
  auto a130 = kb.archs_for_cuda("13.0.88");
  EXPECT_EQ(a130.front().cc, "7.5");
  EXPECT_EQ(a130.back().cc, "12.1");
  EXPECT_FALSE(kb.cuda_can_build("13.0", "7.0"));
  EXPECT_FALSE(kb.cuda_can_build("11.8", "12.0"));
  EXPECT_TRUE(kb.cuda_can_build("12.8", "12.0"));

  const TorchBuild* b = kb.torch_build("2.0.1+cu118", "11.8");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->index_url, "https://download.pytorch.org/whl/cu118");
  EXPECT_FALSE(b->cxx11_abi);
  EXPECT_EQ(kb.torch_release("2.0.1")->install_command(*b),
            "pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118");
  EXPECT_EQ(kb.torch_release("1.12.1")->install_command(*kb.torch_build("1.12", "cu116")),
            "pip install torch==1.12.1+cu116 --extra-index-url https://download.pytorch.org/whl/cu116");
  EXPECT_TRUE(kb.torch_release("2.0")->supports_python("3.10.12"));
  EXPECT_FALSE(kb.torch_release("1.13")->supports_python("3.12"));
  EXPECT_EQ(kb.torch_releases_with_cuda("12.1").front()->version, "2.5");
  EXPECT_EQ(kb.torch_release("2.7")->builds[0].cxx11_abi, true);

  EXPECT_EQ(kb.cuda_check_rule("2.0.1+cu118")->check, "major_fatal_minor_warn");
  EXPECT_TRUE(kb.cuda_check_rule("2.0.1")->old_setuptools_all_fatal);
  EXPECT_FALSE(kb.cuda_check_rule("2.4.0")->old_setuptools_all_fatal);
  EXPECT_EQ(kb.cuda_check_rule("1.9.0")->check, "none");
  EXPECT_EQ(kb.cuda_home_order().front(), "CUDA_HOME environment variable");
  auto known = kb.torch_known_archs("1.13.1");
  EXPECT_EQ(std::find(known.begin(), known.end(), "9.0"), known.end());

  const ExtensionInfo* bm = kb.extension("BMTrain");
  ASSERT_NE(bm, nullptr);
  EXPECT_TRUE(bm->release_for("0.2.2")->setup_imports_torch);
  EXPECT_EQ(bm->release_for("0.2.2")->distribution, "sdist");
  EXPECT_EQ(bm->release_for("0.2.3.post2")->distribution, "wheel");
  EXPECT_FALSE(bm->release_for("1.0.1")->torch_abi_coupled);
  EXPECT_NE(kb.extension("flash_attn"), nullptr);
  EXPECT_EQ(kb.extension("no-such-package"), nullptr);
}
