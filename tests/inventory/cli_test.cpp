// `gpucheck env` as a user runs it: the JSON report on this machine (its inventory: real toolkit, real
// libcudart read through dlopen, validated against reports/schema/inventory.schema.json; the report against
// report.schema.json), --root on a built tree, --from a saved report, and bad input exiting 2 with one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "core/files.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/toolkit_scan.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

using testing::gpucheck_binary;
using testing::make_symlink;
using testing::TempDir;
using testing::write_file;

std::string parent_dir_of(const std::string& p) { return p.substr(0, p.find_last_of('/')); }
std::string base_name_of(const std::string& p) { return p.substr(p.find_last_of('/') + 1); }

SubprocessResult gpucheck(std::vector<std::string> args) {
  args.insert(args.begin(), gpucheck_binary());
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  o.set_env["COLUMNS"] = "250";  // whole lines to match here; tests/cli checks the wrapping at 80 and 60 columns
  return run_subprocess(args, o);
}

class InvLiveJson : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto r = gpucheck({"env", "--no-python", "--json", "--no-cache"});
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    report = nlohmann::json::parse(r.out);
    doc = report["inventory"];
  }
  static nlohmann::json report;  // the whole document
  static nlohmann::json doc;     // its inventory
};
nlohmann::json InvLiveJson::report;
nlohmann::json InvLiveJson::doc;

TEST_F(InvLiveJson, RealToolkitWithNvccVersion) {
  std::string real = trim(run_subprocess({"readlink", "-f", "/usr/local/cuda"}).out);
  auto nvcc = run_subprocess({real + "/bin/nvcc", "--version"});
  bool found = false;
  for (const auto& t : doc["toolkits"]) {
    if (t["root"] != real) continue;
    found = true;
    EXPECT_EQ(t["version"], parse_nvcc_version(nvcc.out));
    EXPECT_TRUE(t["is_usr_local_cuda"].get<bool>());
  }
  EXPECT_TRUE(found) << doc["toolkits"].dump(2);
}

TEST_F(InvLiveJson, LibcudartVersionFromTheLibraryAndTheLoadersPick) {
  // Independent expectation: CUDART_VERSION of the toolkit's own header.
  std::smatch m;
  std::string header = read_file("/usr/local/cuda/include/cuda_runtime_api.h");
  ASSERT_TRUE(std::regex_search(header, m, std::regex(R"(#define\s+CUDART_VERSION\s+(\d+))")));
  int v = std::stoi(m[1].str());
  std::string expected = std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  // And the loader's pick: the first libcudart.so.N line of ldconfig -p, resolved.
  std::string soname = "libcudart.so." + std::to_string(v / 1000);
  auto ld = run_subprocess({"/sbin/ldconfig", "-p"});
  std::smatch lm;
  ASSERT_TRUE(std::regex_search(ld.out, lm, std::regex("\\s" + std::regex_replace(soname, std::regex("\\."), "\\.") +
                                                       R"( \([^)]*\) => (\S+))")));
  std::string pick = trim(run_subprocess({"readlink", "-f", lm[1].str()}).out);
  int picks = 0;
  bool seen = false;
  for (const auto& l : doc["libraries"]) {
    if (l["name"] != "cudart") continue;
    if (l["soname"] == soname && l["loader_pick"].get<bool>()) {
      ++picks;
      EXPECT_EQ(l["path"], pick);
    }
    if (l["path"] == pick) {
      seen = true;
      EXPECT_EQ(l["version"], expected);
      EXPECT_EQ(l["version_source"], "cudaRuntimeGetVersion via dlopen");
    }
  }
  EXPECT_TRUE(seen) << doc["libraries"].dump(2);
  EXPECT_EQ(picks, 1);
}

TEST_F(InvLiveJson, MatchesTheSchema) {
  std::string src = GPUCHECK_SOURCE_DIR;
  auto probe = run_subprocess({"/usr/bin/python3", "-c", "import jsonschema"});
  if (!probe.ok()) GTEST_SKIP() << "python3-jsonschema not installed: cannot validate";
  TempDir tmp;
  write_file(tmp / "inv.json", doc.dump());
  auto r = run_subprocess({src + "/scripts/validate-json", src + "/reports/schema/inventory.schema.json", tmp / "inv.json"});
  EXPECT_TRUE(r.ok()) << r.out << last_lines(r.err, 5);
  // The schema must reject a document that breaks it (a check that cannot fail proves nothing).
  auto broken = doc;
  broken["libraries"] = nlohmann::json::array({{{"name", "libfoo"}}});
  write_file(tmp / "bad.json", broken.dump());
  auto bad = run_subprocess({src + "/scripts/validate-json", src + "/reports/schema/inventory.schema.json", tmp / "bad.json"});
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  // The report around it: command env, one host compiler verdict per toolkit.
  write_file(tmp / "report.json", report.dump());
  auto whole = run_subprocess({src + "/scripts/validate-json", src + "/reports/schema/report.schema.json", tmp / "report.json"});
  EXPECT_TRUE(whole.ok()) << whole.out << last_lines(whole.err, 5);
  EXPECT_EQ(report["command"], "env");
  ASSERT_EQ(report["sections"].size(), 1u);
  EXPECT_EQ(report["sections"][0]["name"], "host_compiler");
  EXPECT_EQ(report["sections"][0]["findings"].size(), doc["toolkits"].size());
}

TEST_F(InvLiveJson, FromASavedReportShowsTheSameInventory) {
  TempDir tmp;
  write_file(tmp / "env.json", report.dump());
  auto again = gpucheck({"env", "--json", "--from", tmp / "env.json"});
  ASSERT_TRUE(again.ok()) << again.err;
  auto doc2 = nlohmann::json::parse(again.out);
  EXPECT_EQ(doc2["inventory"], doc);
  EXPECT_EQ(doc2["sections"], report["sections"]);
  auto text = gpucheck({"env", "-v", "--from", tmp / "env.json"});
  ASSERT_TRUE(text.ok()) << text.err;
  EXPECT_NE(text.out.find("\nCUDA toolkits"), std::string::npos) << text.out;
  // A bare inventory document is read as well.
  write_file(tmp / "inv.json", doc.dump());
  auto bare = gpucheck({"env", "--json", "--from", tmp / "inv.json"});
  ASSERT_TRUE(bare.ok()) << bare.err;
  EXPECT_EQ(nlohmann::json::parse(bare.out)["inventory"], doc);
}

TEST_F(InvLiveJson, OnlyAllowListedVariables) {
  for (const auto& [k, v] : doc["system"]["environment"].items()) {
    EXPECT_NE(k, "HOME");
    EXPECT_NE(k, "USER");
  }
  EXPECT_TRUE(doc["pythons"].empty());  // --no-python
}

TEST(InvEnvCli, RootOnABuiltTree) {
  TempDir tmp;
  write_file(tmp / "usr/local/cuda-12.2/version.json", R"({"cuda":{"version":"12.2.2"}})");
  write_file(tmp / "usr/local/cuda-12.2/bin/nvcc", "#!/bin/sh\ntouch /tmp/gpucheck-env-must-not-run\n", true);
  write_file(tmp / "usr/local/cuda-12.2/lib64/libcudart.so.12.2.140", "not really ELF");
  make_symlink("libcudart.so.12.2.140", tmp / "usr/local/cuda-12.2/lib64/libcudart.so.12");
  make_symlink("/usr/local/cuda-12.2", tmp / "usr/local/cuda");
  write_file(tmp / "etc/os-release", "ID=ubuntu\nVERSION_ID=\"22.04\"\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\n");
  auto r = gpucheck({"env", "--json", "--root", tmp.path()});
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  auto doc = nlohmann::json::parse(r.out)["inventory"];
  EXPECT_EQ(doc["root"], tmp.path());
  EXPECT_EQ(doc["system"]["os_id"], "ubuntu");
  ASSERT_EQ(doc["toolkits"].size(), 1u);
  EXPECT_EQ(doc["toolkits"][0]["root"], "/usr/local/cuda-12.2");
  EXPECT_EQ(doc["toolkits"][0]["version"], "12.2.2");
  ASSERT_EQ(doc["libraries"].size(), 1u);
  EXPECT_EQ(doc["libraries"][0]["path"], "/usr/local/cuda-12.2/lib64/libcudart.so.12.2.140");
  EXPECT_EQ(doc["libraries"][0]["version"], "12.2.140");
  EXPECT_EQ(doc["libraries"][0]["version_source"], "file name");
  EXPECT_EQ(doc["libraries"][0]["links"], nlohmann::json::array({"/usr/local/cuda-12.2/lib64/libcudart.so.12"}));
  EXPECT_EQ(doc["libraries"][0]["soname"], "");  // not an ELF file: nothing invented
  EXPECT_EQ(doc["gpus"].size(), 0u);
  EXPECT_FALSE(std::filesystem::exists("/tmp/gpucheck-env-must-not-run"));
  for (const auto& c : doc["toolkit_choices"]) EXPECT_EQ(c["root"], "/usr/local/cuda-12.2") << c.dump();
  // A relative --root is relative to the working directory.
  SubprocessOptions in_parent;
  in_parent.working_dir = parent_dir_of(tmp.path());
  auto rel = run_subprocess({gpucheck_binary(), "env", "--json", "--root", base_name_of(tmp.path())}, in_parent);
  ASSERT_TRUE(rel.ok()) << rel.err;
  EXPECT_EQ(nlohmann::json::parse(rel.out)["inventory"]["toolkits"].size(), 1u);
  auto text = gpucheck({"env", "--root", tmp.path()});
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text.out.find("12.2.2"), std::string::npos) << text.out;
}

TEST(InvEnvCli, BadInputExitsTwoWithOneLine) {
  TempDir tmp;
  write_file(tmp / "plain.txt", "not a program\n");
  write_file(tmp / "script.sh", "#!/bin/sh\necho hello\n", true);
  struct Case {
    std::vector<std::string> args;
    std::string says;
  } cases[] = {{{"env", "--root", "/nonexistent/image"}, "not a directory"},
               {{"env", "--root", "/etc/hostname"}, "not a directory"},
               {{"env", "--python", "/nonexistent/python"}, "no such file"},
               {{"env", "--python", tmp / "plain.txt"}, "not an executable"},
               {{"env", "--python", tmp / "script.sh"}, "not a Python interpreter"},
               {{"env", "--python", "/usr/bin/python3", "--root", tmp.path()}, "cannot be combined"},
               {{"env", "--python", "/bin/true"}, "not a Python interpreter"}};
  for (const auto& c : cases) {
    auto r = gpucheck(c.args);
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2) << join(c.args, " ") << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(InvEnvCli, VersionCacheReusedThenBypassed) {
  TempDir tmp;
  SubprocessOptions o;
  o.set_env["XDG_CACHE_HOME"] = tmp.path();
  auto source_of_cudart = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {gpucheck_binary(), "env", "--no-python", "--json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto r = run_subprocess(argv, o);
    EXPECT_TRUE(r.ok()) << r.err;
    auto doc = nlohmann::json::parse(r.out)["inventory"];
    for (const auto& l : doc["libraries"])
      if (l["name"] == "cudart" && l["loader_pick"].get<bool>()) return l["version_source"].get<std::string>();
    return std::string("none");
  };
  EXPECT_EQ(source_of_cudart({}), "cudaRuntimeGetVersion via dlopen");
  EXPECT_TRUE(std::filesystem::exists(tmp / "gpucheck/library-versions.json"));
  EXPECT_EQ(source_of_cudart({}), "cudaRuntimeGetVersion via dlopen (cached)");
  EXPECT_EQ(source_of_cudart({"--no-cache"}), "cudaRuntimeGetVersion via dlopen");
}

TEST(InvEnvCli, HumanSummary) {
  auto r = gpucheck({"env", "--no-python", "-v"});  // every section; the first screen is tests/cli/first_screen_test
  ASSERT_TRUE(r.ok()) << r.err;
  for (const char* section : {"System", "Driver", "GPUs", "CUDA toolkits", "Libraries", "Compilers"})
    EXPECT_NE(r.out.find(std::string("\n") + section), std::string::npos) << section;
  EXPECT_NE(r.out.find("torch_cpp_extension"), std::string::npos);
  // Each toolkit's host compiler range names what backs each bound, and where nvcc's compiler falls in it.
  EXPECT_NE(r.out.find("host compilers: gcc "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" (host_config.h)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nvcc's host compiler: "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpucheck::inventory
