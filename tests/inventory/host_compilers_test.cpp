// nvcc's host compiler range per toolkit: the real CUDA 13 host_config.h of this machine, synthetic headers in
// the shapes older toolkits use (CUDA 7's gcc minor guard, 11.x, 12.x with HOS/Grace guards before the generic
// clang one, a header with its #error edited out, commented-out guards, garbage), the support policy for the
// bounds no guard enforces, where the compiler nvcc would use falls (fake gcc/clang executables on PATH /
// NVCC_CCBIN in a live collect), the JSON round trip including documents that only had host_compiler_max,
// and doctor reading the range (the toolkit's enforced bound over the policy; policy minimums said as such).
// The verdict is checks/compiler's: on the live collector's output `env` and `doctor` judge the same
// compiler with the same status (also when gcc and c++ on PATH are different compilers).
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "checks/compiler/host_compiler.h"
#include "checks/doctor/doctor_context.h"
#include "support/doctor_run.h"
#include "core/files.h"
#include "core/verdict.h"
#include "inventory/collect.h"
#include "inventory/host_compiler_range.h"
#include "inventory/pp_condition.h"
#include "report/env_report.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

using compiler::fit_host_compiler;
using testing::TempDir;
using testing::write_file;

const HostCompilerRange* range_of(const std::vector<HostCompilerRange>& rs, const std::string& compiler) {
  for (const auto& r : rs)
    if (r.compiler == compiler) return &r;
  return nullptr;
}

std::string gcc_error(const std::string& n) {
  return "#error -- unsupported GNU version! gcc versions later than " + n + " are not supported!\n";
}
std::string clang_error(const std::string& n) {
  return "#error -- unsupported clang version! clang version must be less than " + n + " and greater than 3.2 .\n";
}
const std::string kGccErr = gcc_error("9");

TEST(InvPpCondition, EvaluatesLikeThePreprocessor) {
  std::map<std::string, long long> m = {{"__GNUC__", 4}, {"__GNUC_MINOR__", 9}};
  EXPECT_EQ(eval_pp_condition("__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9)", m), 0);
  m["__GNUC_MINOR__"] = 10;
  EXPECT_EQ(eval_pp_condition("__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9)", m), 1);
  EXPECT_EQ(eval_pp_condition("defined(__GNUC__) && !defined __clang__", m), 1);
  EXPECT_EQ(eval_pp_condition("__UNDEFINED_MACRO__ == 0", m), 1);  // an undefined identifier is 0
  EXPECT_EQ(eval_pp_condition("_MSC_VER < 1910 || _MSC_VER >= 1950", m), 1);
  EXPECT_EQ(eval_pp_condition("2 + 3 * 4 == 14 && 0x10 == 16 && 10L / 3 == 3", m), 1);
  EXPECT_EQ(eval_pp_condition("__has_include(<x.h>)", m), std::nullopt);  // function-like: beyond it
  EXPECT_EQ(eval_pp_condition("(__GNUC__ > 4", m), std::nullopt);
  EXPECT_EQ(eval_pp_condition("1 / 0", m), std::nullopt);
  EXPECT_EQ(eval_pp_condition("", m), std::nullopt);
  EXPECT_EQ(eval_pp_condition("4.9 > 3", m), std::nullopt);
  EXPECT_EQ(eval_pp_condition(std::string(100000, '(') + "1" + std::string(100000, ')'), m), std::nullopt);
  EXPECT_EQ(eval_pp_condition(std::string(100000, '!') + "0", m), std::nullopt);
  EXPECT_EQ(eval_pp_condition("((((1))))", m), 1);
}

TEST(InvHostConfig, RealCuda13HeaderOfThisMachine) {
  const std::string path = "/usr/local/cuda/include/crt/host_config.h";
  if (!std::filesystem::is_regular_file(path)) GTEST_SKIP() << path << " not present";
  std::string text = read_file(path);
  auto rs = parse_host_config(text, path);
  // What the #error messages of the same file say, read independently of the #if conditions the parser uses.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, std::regex(R"(unsupported GNU version! gcc versions later than (\d+))")));
  std::string gcc_max = m[1].str();
  ASSERT_TRUE(std::regex_search(
      text, m, std::regex(R"(unsupported clang version! clang version must be less than (\d+) and greater than (\d+)\.(\d+))")));
  std::string clang_max = std::to_string(std::stoi(m[1].str()) - 1);
  std::string clang_min = m[2].str() + "." + std::to_string(std::stoi(m[3].str()) + 1);

  const auto* gcc = range_of(rs, "gcc");
  ASSERT_NE(gcc, nullptr);
  EXPECT_EQ(gcc->max, gcc_max);
  EXPECT_EQ(gcc->max, "15");  // CUDA 13.0
  EXPECT_TRUE(gcc->max_enforced);
  EXPECT_EQ(gcc->max_source, path);
  EXPECT_EQ(gcc->min, "");  // no guard below: only the support policy has a minimum
  EXPECT_FALSE(gcc->min_enforced);
  const auto* clang = range_of(rs, "clang");
  ASSERT_NE(clang, nullptr);
  EXPECT_EQ(clang->min, clang_min);
  EXPECT_EQ(clang->max, clang_max);
  EXPECT_EQ(clang->min, "3.3");
  EXPECT_EQ(clang->max, "20");
  EXPECT_TRUE(clang->min_enforced && clang->max_enforced);
}

TEST(InvHostConfig, Cuda7ShapeBoundsTheGccMinor) {
  auto rs = parse_host_config(
      "#if defined(__GNUC__)\n"
      "#if __GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9)\n"
      "#error -- unsupported GNU version! gcc versions later than 4.9 are not supported!\n"
      "#endif /* __GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9) */\n"
      "#if defined(__APPLE__) && defined(__MACH__) && !defined(__clang__)\n"
      "#error -- clang and clang++ are the only supported host compilers on Mac OS X!\n"
      "#endif\n#endif /* __GNUC__ */\n",
      "/cuda-7.0/include/host_config.h");
  ASSERT_EQ(rs.size(), 1u);  // the Mac OS X #error is not a version guard
  EXPECT_EQ(rs[0].compiler, "gcc");
  EXPECT_EQ(rs[0].max, "4.9");
  EXPECT_EQ(rs[0].min, "");
  // 4.9.4 is inside, 4.10 and 5 are not.
  Compiler c{"gcc", "/usr/bin/gcc", "4.9.4", "--version"};
  EXPECT_EQ(fit_host_compiler(rs, &c, "gcc").status, "inside");
  c.version = "5.4.0";
  EXPECT_EQ(fit_host_compiler(rs, &c, "gcc").status, "above_max");
}

TEST(InvHostConfig, Cuda11ShapeNestedGuards) {
  std::string text = "#if defined(__GNUC__)\n\n#if __GNUC__ > 11\n\n" + gcc_error("11") +
                     "\n#endif /* __GNUC__ > 11 */\n\n"
                     "#if defined(__clang__) && !defined(__ibmxl_vrm__) && !defined(__ICC) && !defined(__HORIZON__) && "
                     "!defined(__APPLE__)\n\n"
                     "#if (__clang_major__ >= 15) || (__clang_major__ < 3) || ((__clang_major__ == 3) &&  (__clang_minor__ < 3))\n" +
                     clang_error("15") +
                     "\n#endif\n\n#endif\n\n#endif /* __GNUC__ */\n"
                     "#if defined(_WIN32)\n#if _MSC_VER < 1910 || _MSC_VER >= 1940\n"
                     "#error -- unsupported Microsoft Visual Studio version!\n#endif\n#endif\n";
  auto rs = parse_host_config(text, "h");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].compiler, "gcc");
  EXPECT_EQ(rs[0].max, "11");
  EXPECT_EQ(rs[1].compiler, "clang");
  EXPECT_EQ(rs[1].min, "3.3");
  EXPECT_EQ(rs[1].max, "14");
}

TEST(InvHostConfig, Cuda12ShapeIgnoresHosAndGraceClangGuards) {
  // 12.x puts a Grace clang guard (16..18) and an HOS clang guard before the generic one; only the generic
  // one is about the clang nvcc runs on Linux x86.
  std::string text =
      "#if !__NV_NO_HOST_COMPILER_CHECK\n"
      "#if defined(__GRCO_CLANG_COMPILER__)\n"
      "#if (__GRCO_CLANG_COMPILER__ == 1) && ((__clang_major__ < 16) || (__clang_major__ > 18))\n"
      "#error -- unsupported Grace clang version! The version must be 16.x to 18.x.\n#endif\n#endif\n"
      "#if defined(__GNUC__)\n#if __GNUC__ > 13\n" +
      gcc_error("13") +
      "#endif /* __GNUC__ > 13 */\n"
      "#if defined(__HORIZON__)\n"
      "#if (__clang_major__ >= 12) || (__clang_major__ < 3) || ((__clang_major__ == 3) &&  (__clang_minor__ < 3))\n"
      "#error -- unsupported HOS clang version! The version must be must be less than 12 and greater than 3.2 .\n"
      "#endif\n#endif\n"
      "#if defined(__clang__) && !defined(__HORIZON__) && !defined(__GRCO_CLANG_COMPILER__)\n"
      "#if (__clang_major__ >= 19) || (__clang_major__ < 3) || \\\n    ((__clang_major__ == 3) &&  (__clang_minor__ < 3))\n" +
      clang_error("19") + "#endif\n#endif\n#endif /* __GNUC__ */\n#endif\n";
  auto rs = parse_host_config(text, "h");
  const auto* clang = range_of(rs, "clang");
  ASSERT_NE(clang, nullptr);
  EXPECT_EQ(clang->min, "3.3");
  EXPECT_EQ(clang->max, "18");  // not 17 (HOS) nor 16..18's minimum (Grace)
  ASSERT_NE(range_of(rs, "gcc"), nullptr);
  EXPECT_EQ(range_of(rs, "gcc")->max, "13");
}

TEST(InvHostConfig, EditedOrCommentedOutGuardsEnforceNothing) {
  // A header whose #error lines were deleted by hand (seen in the wild) keeps its #if but refuses nothing.
  EXPECT_TRUE(parse_host_config("#if defined(__GNUC__)\n#if __GNUC__ > 9\n\n\n#endif /* __GNUC__ > 9 */\n#endif\n", "h").empty());
  EXPECT_TRUE(parse_host_config("// #if __GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9)\n"
                                "// #error -- unsupported GNU version! gcc versions later than 4.9 are not supported!\n"
                                "// #endif\n",
                                "h")
                  .empty());
  EXPECT_TRUE(parse_host_config("#if __GNUC__ > 9\n/*\n" + kGccErr + "*/\n#endif\n", "h").empty());
  // A guard in an #else branch has no condition this reader can trust.
  EXPECT_TRUE(parse_host_config("#if __GNUC__ > 9\n#else\n" + kGccErr + "#endif\n", "h").empty());
}

TEST(InvHostConfig, GarbageGivesNoRangeAndNoCrash) {
  EXPECT_TRUE(parse_host_config("", "h").empty());
  EXPECT_TRUE(parse_host_config(std::string("\x7f" "ELF\x02\x01\x01\0\0\0garbage\n#endif\n#endif\n#else\n", 28), "h").empty());
  EXPECT_TRUE(parse_host_config("#error -- unsupported GNU version!\n", "h").empty());  // no #if around it
  EXPECT_TRUE(parse_host_config("#if __has_include(<features.h>)\n" + kGccErr + "#endif\n", "h").empty());
  EXPECT_TRUE(parse_host_config("#if __GNUC__ >\n" + kGccErr + "#endif\n", "h").empty());
  EXPECT_TRUE(parse_host_config("#if 1\n" + kGccErr + "#endif\n", "h").empty());  // rejects every version: no range
  EXPECT_TRUE(parse_host_config("#if 0\n" + kGccErr + "#endif\n", "h").empty());
  std::string noise;
  for (int i = 0; i < 5000; ++i) noise += static_cast<char>((i * 7919) % 251 + 1);
  EXPECT_NO_THROW(parse_host_config(noise, "h"));
}

TEST(InvHostCompilerPolicy, FillsOnlyWhatNoGuardEnforces) {
  auto enforced = parse_host_config("#if __GNUC__ > 15\n" + kGccErr + "#endif\n", "/tk/include/crt/host_config.h");
  knowledge::HostCompilerPolicy p{"13.0", 6, 14, 7, 20, "", "https://example"};
  auto rs = complete_host_compiler_ranges(enforced, p);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].compiler, "gcc");
  EXPECT_EQ(rs[0].min, "6");
  EXPECT_FALSE(rs[0].min_enforced);
  EXPECT_EQ(rs[0].min_source, "data/compat/host_compilers.json (CUDA 13.0: https://example)");
  EXPECT_EQ(rs[0].max, "15");  // the header wins over the policy's 14
  EXPECT_TRUE(rs[0].max_enforced);
  EXPECT_EQ(rs[0].max_source, "/tk/include/crt/host_config.h");
  EXPECT_EQ(rs[1].compiler, "clang");
  EXPECT_EQ(rs[1].min, "7");
  EXPECT_EQ(rs[1].max, "20");
  EXPECT_FALSE(rs[1].min_enforced || rs[1].max_enforced);
  EXPECT_TRUE(complete_host_compiler_ranges({}, std::nullopt).empty());
  // Completing a complete range again changes nothing (the checks do it for documents without ranges).
  auto again = complete_host_compiler_ranges(rs, p);
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].max_source, "/tk/include/crt/host_config.h");
  EXPECT_EQ(again[1].min_source, rs[1].min_source);
}

TEST(InvHostCompilerFit, InsideAboveBelowAndWhetherNvccEnforcesIt) {
  std::vector<HostCompilerRange> rs = {{"gcc", "6", "15", "policy", "h", false, true},
                                       {"clang", "3.3", "20", "h", "h", true, true}};
  Compiler gcc{"gcc", "/usr/bin/gcc", "12.2.0", "--version"};
  auto f = fit_host_compiler(rs, &gcc, "gcc");
  EXPECT_EQ(f.status, "inside");
  EXPECT_EQ(f.compiler, "/usr/bin/gcc");
  gcc.version = "15.2.1";  // "15" takes every 15.x
  EXPECT_EQ(fit_host_compiler(rs, &gcc, "gcc").status, "inside");
  gcc.version = "16.0.1";
  f = fit_host_compiler(rs, &gcc, "gcc");
  EXPECT_EQ(f.status, "above_max");
  EXPECT_TRUE(f.enforced);
  EXPECT_NE(f.reason.find("#error"), std::string::npos) << f.reason;
  gcc.version = "5.4.0";
  f = fit_host_compiler(rs, &gcc, "gcc");
  EXPECT_EQ(f.status, "below_min");
  EXPECT_FALSE(f.enforced);
  EXPECT_NE(f.reason.find("policy, not enforced"), std::string::npos) << f.reason;
  Compiler clang{"clang", "/usr/bin/clang", "3.2", "--version"};
  f = fit_host_compiler(rs, &clang, "clang");
  EXPECT_EQ(f.status, "below_min");
  EXPECT_TRUE(f.enforced);
  clang.version = "3.3.0";
  EXPECT_EQ(fit_host_compiler(rs, &clang, "clang").status, "inside");
  clang.version = "";
  EXPECT_EQ(fit_host_compiler(rs, &clang, "clang").status, "unknown");
  EXPECT_EQ(fit_host_compiler(rs, nullptr, "").status, "unknown");
  EXPECT_EQ(fit_host_compiler({}, &gcc, "gcc").status, "unknown");
}

// A live collect: a toolkit tree in CUDA_HOME with a CUDA-13-shaped header, and fake compilers that print
// versions nvcc 13 refuses (gcc 16 on PATH) or that its guard rejects from below (clang 3.2 via NVCC_CCBIN).
class InvHostCompilerLive : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(dir / "cuda/version.json", R"({"cuda":{"name":"CUDA SDK","version":"13.0.2"}})");
    write_file(dir / "cuda/bin/nvcc", "#!/bin/sh\nexit 99\n", true);
    write_file(dir / "cuda/include/crt/host_config.h",
               "#if defined(__GNUC__)\n#if __GNUC__ > 15\n" + gcc_error("15") +
                   "#endif\n#if defined(__clang__)\n"
                   "#if (__clang_major__ >= 21) || (__clang_major__ < 3) || ((__clang_major__ == 3) && (__clang_minor__ < 3))\n" +
                   clang_error("21") + "#endif\n#endif\n#endif\n");
    write_file(dir / "bin/gcc", "#!/bin/sh\necho 'gcc (GCC) 16.1.0'\n", true);
    // c++ is another compiler that nvcc 13 would take: a judge that picked it instead of gcc would say "fits".
    write_file(dir / "bin/c++", "#!/bin/sh\necho 'c++ (GCC) 12.2.0'\n", true);
    write_file(dir / "bin/clang-old", "#!/bin/sh\necho 'clang version 3.2.0 (tags/RELEASE_32/final)'\n", true);
  }
  // The verdict env and doctor share, for toolkit `tk` of the collected inventory.
  nlohmann::json fit_of(const Toolkit& tk) { return compiler::judge_host_compiler(inv, tk, nullptr).details; }
  const Toolkit& collected(std::map<std::string, std::string> env) {
    CollectOptions o;
    o.python = false;
    o.read_library_versions = false;
    env["PATH"] = dir / "bin";
    env["CUDA_HOME"] = dir / "cuda";
    o.environment = env;
    inv = collect(o);
    for (const auto& t : inv.toolkits)
      if (t.root == dir / "cuda") return t;
    throw std::runtime_error("toolkit in CUDA_HOME not found");
  }
  TempDir dir;
  Inventory inv;
};

TEST_F(InvHostCompilerLive, GccOnPathNewerThanTheGuardIsAnEnforcedMiss) {
  const auto& tk = collected({});
  EXPECT_EQ(inv.nvcc_host_compiler, dir / "bin/gcc");
  EXPECT_EQ(inv.nvcc_host_compiler_source, "gcc on PATH, nvcc's default");
  auto fit = fit_of(tk);
  EXPECT_EQ(fit["compiler"], dir / "bin/gcc");
  EXPECT_EQ(fit["version"], "16.1.0");
  EXPECT_EQ(fit["fit"], "above_max");
  EXPECT_TRUE(fit["enforced"].get<bool>());
  const auto* gcc = range_of(tk.host_compilers, "gcc");
  ASSERT_NE(gcc, nullptr);
  EXPECT_EQ(gcc->max_source, dir / "cuda/include/crt/host_config.h");
  EXPECT_FALSE(gcc->min.empty()) << "the support policy for 13.0 should give gcc's minimum";
}

TEST_F(InvHostCompilerLive, NvccCcbinClangBelowTheGuard) {
  const auto& tk = collected({{"NVCC_CCBIN", dir / "bin/clang-old"}});
  EXPECT_EQ(inv.nvcc_host_compiler, dir / "bin/clang-old");
  EXPECT_EQ(inv.nvcc_host_compiler_source, "NVCC_CCBIN");
  auto fit = fit_of(tk);
  EXPECT_EQ(fit["family"], "clang");
  EXPECT_EQ(fit["version"], "3.2.0");
  EXPECT_EQ(fit["fit"], "below_min");
  EXPECT_TRUE(fit["enforced"].get<bool>());
}

// `gpucheck env`'s report and `gpucheck doctor` on one inventory from the live collector: for the toolkit
// an extension build would use, env's host_compiler finding and doctor's (doctor reports only what needs
// attention) name the same compiler with the same status.
void expect_env_and_doctor_agree(const Inventory& inv) {
  auto kb = knowledge::KnowledgeBase::load();
  doctor::DoctorContext ctx(inv, kb);
  if (!ctx.build.toolkit) GTEST_SKIP() << "no toolkit an extension build would use";
  auto env = report::env_report_for(inv, &kb);
  const Finding* from_env = nullptr;
  for (const auto& f : env.section("host_compiler").findings)
    if (f.details.value("toolkit", "") == ctx.build.toolkit->root) from_env = &f;
  ASSERT_NE(from_env, nullptr) << "env judged no host compiler for " << ctx.build.toolkit->root;
  EXPECT_EQ(from_env->details["compiler"], inv.nvcc_host_compiler) << "env judged another compiler than nvcc's";
  const model::Report doctor = gpucheck::testing::run_doctor(inv, kb);
  const Finding* from_doctor = nullptr;
  for (const auto& f : gpucheck::testing::doctor_findings(doctor))
    if (f.id.rfind("compiler.", 0) == 0) from_doctor = &f;
  if (!from_doctor) {
    EXPECT_TRUE(from_env->status == Status::kPass || from_env->status == Status::kSkip)
        << "doctor is silent but env says " << to_string(from_env->status) << ": " << from_env->title;
    return;
  }
  EXPECT_EQ(from_doctor->id, from_env->id);
  EXPECT_EQ(from_doctor->status, from_env->status);
  EXPECT_EQ(from_doctor->title, from_env->title);
  std::string doctor_compiler;
  for (const auto& e : from_doctor->evidence)
    if (e.what == "host compiler") doctor_compiler = e.value;
  EXPECT_EQ(doctor_compiler, from_env->details["compiler"].get<std::string>());
}

TEST(InvHostCompilerVerdict, EnvAndDoctorAgreeOnThisMachine) {
  CollectOptions o;
  o.python = false;
  o.read_library_versions = false;
  expect_env_and_doctor_agree(collect(o));
}

TEST_F(InvHostCompilerLive, EnvAndDoctorAgreeWhenGccIsRefusedAndCxxWouldFit) {
  const auto& tk = collected({});
  expect_env_and_doctor_agree(inv);
  // Both say it is gcc 16 on PATH that nvcc refuses, not c++ 12 beside it.
  auto doctor = gpucheck::testing::run_doctor(inv, knowledge::KnowledgeBase::load());
  bool refused = false;
  for (const auto& f : gpucheck::testing::doctor_findings(doctor)) refused = refused || f.id == "compiler.too_new_for_nvcc";
  EXPECT_TRUE(refused);
  EXPECT_EQ(fit_of(tk)["fit"], "above_max");
}

TEST_F(InvHostCompilerLive, EnvAndDoctorAgreeOnNvccCcbin) {
  collected({{"NVCC_CCBIN", dir / "bin/clang-old"}});
  expect_env_and_doctor_agree(inv);
}

TEST(InvHostCompilerRoot, ToolkitTreesOfOtherEras) {
  // Built here and read through --root: CUDA 7.5 keeps its guards in include/host_config.h (no crt/), with
  // the gcc minor guard; no policy row is that old, so only the enforced bound is known. A 12.4 tree whose
  // header is garbage gets the policy range only.
  TempDir dir;
  write_file(dir / "usr/local/cuda-7.5/version.txt", "CUDA Version 7.5.18\n");
  write_file(dir / "usr/local/cuda-7.5/include/host_config.h",
             "#if defined(__GNUC__)\n#if __GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ > 9)\n"
             "#error -- unsupported GNU version! gcc versions later than 4.9 are not supported!\n#endif\n#endif\n");
  write_file(dir / "usr/local/cuda-12.4/version.json", R"({"cuda":{"version":"12.4.1"}})");
  write_file(dir / "usr/local/cuda-12.4/include/crt/host_config.h", std::string("\x7f" "ELF\0\0#if ((\n#error", 20));
  CollectOptions o;
  o.root = dir.path();
  auto inv = collect(o);
  const Toolkit* t75 = nullptr;
  const Toolkit* t124 = nullptr;
  for (const auto& t : inv.toolkits) {
    if (t.root == "/usr/local/cuda-7.5") t75 = &t;
    if (t.root == "/usr/local/cuda-12.4") t124 = &t;
  }
  ASSERT_NE(t75, nullptr);
  ASSERT_EQ(t75->host_compilers.size(), 1u);
  EXPECT_EQ(t75->host_compilers[0].compiler, "gcc");
  EXPECT_EQ(t75->host_compilers[0].max, "4.9");
  EXPECT_TRUE(t75->host_compilers[0].max_enforced);
  EXPECT_EQ(t75->host_compilers[0].max_source, "/usr/local/cuda-7.5/include/host_config.h");
  EXPECT_EQ(t75->host_compilers[0].min, "");
  ASSERT_NE(t124, nullptr);
  ASSERT_EQ(t124->host_compilers.size(), 2u);
  for (const auto& r : t124->host_compilers) {
    EXPECT_FALSE(r.min_enforced || r.max_enforced) << r.compiler;
    EXPECT_NE(r.max_source.find("CUDA 12.4"), std::string::npos) << r.max_source;
  }
  EXPECT_EQ(t124->host_compilers[0].max, "13");  // NVIDIA's policy for 12.4
}

TEST(InvHostCompilerJson, RoundTripAndOldDocuments) {
  Inventory inv;
  Toolkit tk;
  tk.root = "/usr/local/cuda-12.1";
  tk.version = "12.1.105";
  tk.host_compilers = {{"gcc", "6", "12", "policy", "/usr/local/cuda-12.1/include/crt/host_config.h", false, true}};
  inv.toolkits.push_back(tk);
  inv.nvcc_host_compiler = "/usr/bin/gcc";
  inv.nvcc_host_compiler_source = "gcc on PATH, nvcc's default";
  nlohmann::json j;
  to_json(j, inv);
  Inventory back;
  from_json(j, back);
  ASSERT_EQ(back.toolkits.size(), 1u);
  ASSERT_EQ(back.toolkits[0].host_compilers.size(), 1u);
  EXPECT_EQ(back.toolkits[0].host_compilers[0].max, "12");
  EXPECT_TRUE(back.toolkits[0].host_compilers[0].max_enforced);
  EXPECT_EQ(back.nvcc_host_compiler, "/usr/bin/gcc");
  EXPECT_EQ(back.nvcc_host_compiler_source, "gcc on PATH, nvcc's default");
  // A document from before host_compilers: its newest GCC major is kept as an enforced gcc maximum.
  nlohmann::json old = {{"schema_version", "1"},
                        {"toolkits", {{{"root", "/usr/local/cuda-11.8"}, {"version", "11.8.0"}, {"found_via", {"PATH"}},
                                       {"host_compiler_max", "11"},
                                       {"host_compiler_max_source", "/usr/local/cuda-11.8/include/crt/host_config.h"}}}}};
  old["nvcc_host_compiler"] = "/usr/bin/gcc (gcc on PATH, nvcc's default)";  // path and how, in one string
  from_json(old, back);
  EXPECT_EQ(back.nvcc_host_compiler, "/usr/bin/gcc");
  EXPECT_EQ(back.nvcc_host_compiler_source, "gcc on PATH, nvcc's default");
  ASSERT_EQ(back.toolkits[0].host_compilers.size(), 1u);
  EXPECT_EQ(back.toolkits[0].host_compilers[0].compiler, "gcc");
  EXPECT_EQ(back.toolkits[0].host_compilers[0].max, "11");
  EXPECT_TRUE(back.toolkits[0].host_compilers[0].max_enforced);
}

// An inventory whose torch build toolkit is `tk` and whose nvcc would use gcc `version`.
Inventory doctor_input(const Toolkit& tk, const std::string& version) {
  Inventory inv;
  inv.toolkits.push_back(tk);
  inv.toolkit_choices.push_back({"torch_cpp_extension", tk.root, tk.version, "CUDA_HOME=" + tk.root});
  inv.compilers.push_back({"gcc", "/usr/bin/gcc", version, "--version"});
  inv.nvcc_host_compiler = "/usr/bin/gcc";
  inv.system.os_id = "debian";
  return inv;
}

const Finding* finding(const model::Report& r, const std::string& id) {
  for (const auto& f : gpucheck::testing::doctor_findings(r))
    if (f.id == id) return &f;
  return nullptr;
}

Toolkit cuda13(const std::string& gcc_max) {
  Toolkit tk;
  tk.root = "/usr/local/cuda-13.0";
  tk.version = "13.0.88";
  tk.nvcc = tk.root + "/bin/nvcc";
  tk.host_compilers = {{"gcc", "6", gcc_max, "data/compat/host_compilers.json (CUDA 13.0: u)",
                        tk.root + "/include/crt/host_config.h", false, true}};
  return tk;
}

TEST(InvHostCompilerDoctor, PolicyMinimumIsAWarningThatSaysNvccDoesNotEnforceIt) {
  auto kb = knowledge::KnowledgeBase::load();
  auto r = gpucheck::testing::run_doctor(doctor_input(cuda13("15"), "5.4.0"), kb);
  const auto* f = finding(r, "compiler.too_old_for_nvcc");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->status, Status::kWarn);
  EXPECT_NE(f->title.find("gcc 5.4.0 is older than nvcc 13.0 supports (gcc 6 to 15; support policy, not enforced by nvcc)"),
            std::string::npos)
      << f->title;
  EXPECT_EQ(finding(gpucheck::testing::run_doctor(doctor_input(cuda13("15"), "12.2.0"), kb), "compiler.too_old_for_nvcc"), nullptr);
}

TEST(InvHostCompilerDoctor, TheToolkitsOwnGuardWinsOverThePolicy) {
  // The knowledge base says 13.0 takes gcc 15; this toolkit's header stops at 13 (an edited or odd build):
  // gcc 14 is refused by this nvcc, and the evidence names the header.
  auto kb = knowledge::KnowledgeBase::load();
  auto r = gpucheck::testing::run_doctor(doctor_input(cuda13("13"), "14.1.0"), kb);
  const auto* f = finding(r, "compiler.too_new_for_nvcc");
  ASSERT_NE(f, nullptr);
  // A warning for prebuilt wheels, an error when the goal is a source build (nvcc refuses every compile).
  EXPECT_EQ(f->status, Status::kWarn);
  std::vector<Finding> goal{*f};
  apply_goal(goal, Goal::kSourceBuild);
  EXPECT_EQ(goal[0].status, Status::kFail);
  bool header_named = false;
  for (const auto& e : f->evidence) header_named = header_named || e.source == "/usr/local/cuda-13.0/include/crt/host_config.h";
  EXPECT_TRUE(header_named);
}

}  // namespace
}  // namespace gpucheck::inventory
