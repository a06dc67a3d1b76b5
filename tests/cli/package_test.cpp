// Installed and packaged layouts: a node can run gpucheck from `cmake --install` or the CPack tarball,
// with no build tree and no environment overrides.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli_support.h"

namespace gpucheck::test {
namespace {

namespace fs = std::filesystem;

SubprocessOptions clean_env() {
  SubprocessOptions o;
  o.unset_env = {"GPUCHECK_DATA_DIR", "GPUCHECK_PROBE_DIR"};
  o.timeout = std::chrono::seconds(600);
  return o;
}

void expect_working_gpucheck(const fs::path& prefix) {
  std::string bin = (prefix / "bin" / "gpucheck").string();
  auto list = run_subprocess({bin, "list", "--json"}, clean_env());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  auto probes = nlohmann::json::parse(list.out)["sections"][0]["findings"];
  EXPECT_GE(probes.size(), 2u);
  for (auto& p : probes) {
    std::string exe = p["details"]["executable"];
    EXPECT_EQ(exe.rfind(prefix.string(), 0), 0u) << exe << " is outside " << prefix;
  }
  auto run = run_subprocess({bin, "run", "--only", "host.info,device.runtime", "--no-report", "--json"}, clean_env());
  EXPECT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  auto doc = nlohmann::json::parse(run.out);
  for (auto& r : doc["sections"][0]["findings"]) EXPECT_NE(r["status"], "error") << r.dump();
}

TEST(Package, InstallTreeIsSelfContained) {
  auto dir = fresh_temp_dir("install");
  auto r = run_subprocess({"cmake", "--install", GPUCHECK_BINARY_DIR, "--prefix", (dir / "root").string()},
                          clean_env());
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_TRUE(fs::exists(dir / "root/libexec/gpucheck/device.runtime"));
  EXPECT_TRUE(fs::exists(dir / "root/share/gpucheck/probes/device.runtime.json"));
  EXPECT_TRUE(fs::exists(dir / "root/share/gpucheck/schema/report.schema.json"));
  expect_working_gpucheck(dir / "root");
  fs::remove_all(dir);
}

TEST(Package, TarballUnpackedAnywhereWorks) {
  auto dir = fresh_temp_dir("cpack");
  SubprocessOptions o = clean_env();
  o.working_dir = dir.string();
  auto r = run_subprocess({"cpack", "-G", "TGZ", "--config", std::string(GPUCHECK_BINARY_DIR) + "/CPackConfig.cmake"}, o);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  fs::path tarball;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().string().size() > 7 && e.path().string().substr(e.path().string().size() - 7) == ".tar.gz")
      tarball = e.path();
  ASSERT_FALSE(tarball.empty());
  fs::create_directories(dir / "unpacked");
  auto x = run_subprocess({"tar", "-xzf", tarball.string(), "-C", (dir / "unpacked").string(), "--strip-components=1"});
  ASSERT_TRUE(x.ok()) << x.err;
  expect_working_gpucheck(dir / "unpacked");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test

namespace gpucheck::test {
namespace {

TEST(Package, DebianPackageInstallsUnderOpt) {
  auto dir = fresh_temp_dir("deb");
  SubprocessOptions o = clean_env();
  o.working_dir = dir.string();
  auto r = run_subprocess({"cpack", "-G", "DEB", "--config", std::string(GPUCHECK_BINARY_DIR) + "/CPackConfig.cmake"}, o);
  ASSERT_TRUE(r.ok()) << r.out << r.err;
  std::string deb;
  for (auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".deb") deb = e.path().string();
  ASSERT_FALSE(deb.empty());
  auto contents = run_subprocess({"dpkg-deb", "-c", deb});
  EXPECT_NE(contents.out.find("./opt/gpucheck/bin/gpucheck"), std::string::npos);
  EXPECT_NE(contents.out.find("./opt/gpucheck/libexec/gpucheck/device.runtime"), std::string::npos);
  EXPECT_NE(contents.out.find("./opt/gpucheck/share/gpucheck/probes/device.runtime.json"), std::string::npos);
  auto info = run_subprocess({"dpkg-deb", "-f", deb, "Package", "Depends"});
  EXPECT_NE(info.out.find("Package: gpucheck"), std::string::npos);
  EXPECT_NE(info.out.find("libc6"), std::string::npos) << info.out;  // shlibdeps computed the dependencies
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpucheck::test
