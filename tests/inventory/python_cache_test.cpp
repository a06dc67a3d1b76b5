// The per-environment cache of Python probe answers (inventory/python_env_cache.h), on real venvs whose
// packages write a line to a log each time they are imported: what the log shows is what really ran.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/python_env_cache.h"
#include "test_support.h"

namespace gpucheck::inventory {
namespace {

using testing::TempDir;
using testing::write_file;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A venv with a torch and three checked packages; each import appends its name to imports.log.
struct LoggedVenv {
  TempDir tmp;
  std::string site, python, log, cache;

  LoggedVenv() {
    auto r = run_subprocess({"/usr/bin/python3", "-m", "venv", "--without-pip", tmp / "venv"});
    EXPECT_TRUE(r.ok()) << r.describe() << r.err;
    python = tmp / "venv/bin/python";
    site = trim(run_subprocess({python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"}).out);
    log = tmp / "imports.log";
    cache = tmp / "cache/gpucheck/python-envs";
    package("torch", "torch", "2.5.1", "__version__ = '2.5.1'\n", "Requires-Dist: filelock\n");
    package("filelock", "filelock", "3.16.1", "", "");
    package("flash-attn", "flash_attn", "2.6.3", "raise ImportError('undefined symbol: _ZN3c104cuda9SetDeviceEi')\n",
            "Requires-Dist: torch\n");
    package("xformers", "xformers", "0.0.28", "", "Requires-Dist: torch\n");
    package("torchvision", "torchvision", "0.20.1", "", "Requires-Dist: torch\n");
  }

  void package(const std::string& dist, const std::string& module, const std::string& version,
               const std::string& body, const std::string& requires_dist) {
    write_file(site + "/" + module + "/__init__.py",
               "open(" + nlohmann::json(log).dump() + ", 'a').write('" + module + "\\n')\n" + body);
    const std::string info = site + "/" + module + "-" + version + ".dist-info";
    write_file(info + "/METADATA", "Metadata-Version: 2.1\nName: " + dist + "\nVersion: " + version + "\n" + requires_dist);
    write_file(info + "/RECORD", module + "/__init__.py,sha256=x,10\n");
  }

  // The environment as probed through the cache, and where each part came from.
  std::pair<PythonEnv, FactsFrom> probe(const std::string& cache_dir) {
    std::filesystem::remove(log);
    FactsFrom from;
    PythonEnv p = probe_python_cached(python, "--python", ProbeRequest{}, cache_dir, &from);
    return {p, from};
  }
  std::string imported() const { return read_text(log); }
  std::string cache_file() const {
    for (const auto& e : std::filesystem::directory_iterator(cache)) return e.path().string();
    return "";
  }
};

std::map<std::string, std::string> all(const std::string& from, const std::vector<std::string>& parts) {
  std::map<std::string, std::string> m;
  for (const auto& p : parts) m[p] = from;
  return m;
}
const std::vector<std::string> kParts = {"interpreter", "torch", "import flash-attn", "import xformers", "import torchvision"};

TEST(InvPythonCache, SecondProbeOfAnUnchangedVenvRunsNothingAndSaysSo) {
  LoggedVenv v;
  auto [first, first_from] = v.probe(v.cache);
  ASSERT_TRUE(first.error.empty()) << first.error;
  EXPECT_EQ(first_from, all("probe", kParts));
  EXPECT_NE(v.imported().find("flash_attn\n"), std::string::npos);
  ASSERT_EQ(first.import_errors.count("flash_attn"), 1u);

  auto [second, second_from] = v.probe(v.cache);
  EXPECT_EQ(second_from, all("cache", kParts));
  EXPECT_EQ(cached_facts_note(v.python, second_from),
            "python " + v.python + ": from the cache (files unchanged; --no-cache looks afresh): import flash-attn, "
            "import torchvision, import xformers, interpreter, torch");
  EXPECT_EQ(v.imported(), "");  // nothing imported: no interpreter ran
  EXPECT_EQ(second.probe_seconds, 0);
  // The same facts.
  EXPECT_EQ(second.import_errors, first.import_errors);
  EXPECT_EQ(second.torch_version, "2.5.1");
  EXPECT_EQ(second.packages, first.packages);
  EXPECT_EQ(second.mapped_libraries, first.mapped_libraries);
  EXPECT_EQ(second.site_packages, first.site_packages);
  EXPECT_EQ(second.executable, first.executable);
  // The file is this user's only: mode 0700 directory.
  struct stat st {};
  ASSERT_EQ(::stat(v.cache.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST(InvPythonCache, AChangedPackageInvalidatesOnlyItsOwnParts) {
  LoggedVenv v;
  v.probe(v.cache);
  // xformers reinstalled in place: its RECORD changes (content and mtime), nothing else does.
  write_file(v.site + "/xformers-0.0.28.dist-info/RECORD", "xformers/__init__.py,sha256=y,11\n");
  auto [p, from] = v.probe(v.cache);
  auto expect = all("cache", kParts);
  expect["import xformers"] = "probe";
  expect["interpreter"] = "probe";  // the interpreter ran, so its own facts are the fresh ones
  EXPECT_EQ(from, expect);
  EXPECT_EQ(v.imported(), "torch\nxformers\n");  // torch (the import runs after it) and xformers only
  EXPECT_EQ(p.import_errors.count("flash_attn"), 1u);  // still known, from the cache

  // A dependency of torch changes: torch and every import after it are looked at again.
  write_file(v.site + "/filelock-3.16.1.dist-info/RECORD", "filelock/__init__.py,sha256=z,12\n");
  std::tie(p, from) = v.probe(v.cache);
  expect = all("probe", kParts);
  EXPECT_EQ(from, expect);
  EXPECT_NE(v.imported().find("flash_attn\n"), std::string::npos);
}

TEST(InvPythonCache, ACorruptFileIsNoCache) {
  LoggedVenv v;
  v.probe(v.cache);
  const std::string file = v.cache_file();
  ASSERT_FALSE(file.empty());
  for (const std::string garbage : {std::string("{\"format\": 1, \"parts\": {\"torch\": 7}"), std::string("\x00\xff", 2),
                                    std::string("{\"format\": 1, \"interpreter\": 3, \"parts\": []}")}) {
    write_file(file, garbage);
    auto [p, from] = v.probe(v.cache);
    ASSERT_TRUE(p.error.empty()) << p.error;
    EXPECT_EQ(from, all("probe", kParts));
    EXPECT_EQ(p.import_errors.count("flash_attn"), 1u);
  }
  EXPECT_EQ(v.probe(v.cache).second, all("cache", kParts));  // rewritten, valid again
}

TEST(InvPythonCache, AFileOrDirectoryOfAnotherUserIsNeitherReadNorWritten) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
  LoggedVenv v;
  v.probe(v.cache);
  const std::string file = v.cache_file();
  ASSERT_EQ(::chown(file.c_str(), 65534, 65534), 0);
  EXPECT_EQ(v.probe(v.cache).second, all("probe", kParts));  // not trusted
  // Replaced by this user's own file, so trusted again.
  EXPECT_EQ(v.probe(v.cache).second, all("cache", kParts));

  // A link in the cache directory is never followed.
  const std::string target = v.tmp / "elsewhere.json";
  std::filesystem::rename(file, target);
  std::filesystem::create_symlink(target, file);
  EXPECT_EQ(v.probe(v.cache).second, all("probe", kParts));
  std::filesystem::remove(file);
  v.probe(v.cache);

  // The directory itself belongs to another user, or others may write into it: not used at all.
  ASSERT_EQ(::chown(v.cache.c_str(), 65534, 65534), 0);
  EXPECT_EQ(v.probe(v.cache).second, all("probe", kParts));
  ASSERT_EQ(::chown(v.cache.c_str(), 0, 0), 0);
  ASSERT_EQ(::chmod(v.cache.c_str(), 0777), 0);
  EXPECT_EQ(v.probe(v.cache).second, all("probe", kParts));
}

TEST(InvPythonCache, SizeIsBounded) {
  LoggedVenv v;
  // More environments than the bound: the oldest files go.
  std::filesystem::create_directories(v.cache);
  ::chmod(v.cache.c_str(), 0700);
  for (std::size_t i = 0; i < kMaxCachedEnvironments + 5; ++i) {
    const std::string old = v.cache + "/python-old" + std::to_string(i) + ".json";
    write_file(old, "{}");
    std::filesystem::last_write_time(old, std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
  }
  v.probe(v.cache);
  std::size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(v.cache)) n += e.path().extension() == ".json";
  EXPECT_EQ(n, kMaxCachedEnvironments);
  // A file over the bound is not read, even when it is a valid answer.
  EXPECT_EQ(v.probe(v.cache).second, all("cache", kParts));
  for (const auto& e : std::filesystem::directory_iterator(v.cache)) {
    auto j = nlohmann::json::parse(read_text(e.path().string()), nullptr, false);
    if (!j.is_object() || !j.contains("parts")) continue;
    j["padding"] = std::string(kMaxCacheFileBytes, 'x');
    write_file(e.path().string(), j.dump());
  }
  EXPECT_EQ(v.probe(v.cache).second, all("probe", kParts));
}

TEST(InvPythonCache, NoCacheOptionLooksAfresh) {
  LoggedVenv v;
  // The inventory's note that names what came from the cache ("" when nothing did).
  auto env = [&](std::vector<std::string> extra) {
    SubprocessOptions o;
    o.set_env = {{"XDG_CACHE_HOME", v.tmp / "cache"}};
    std::vector<std::string> argv = {testing::gpucheck_binary(), "env", "--python", v.python, "--json"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto r = run_subprocess(argv, o);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    for (const auto& n : j["inventory"]["notes"])
      if (n.is_string() && n.get<std::string>().find("from the cache") != std::string::npos) return n.get<std::string>();
    return std::string();
  };
  EXPECT_EQ(env({}), "");
  EXPECT_NE(env({}).find("python " + v.python + ": from the cache (files unchanged; --no-cache looks afresh): "),
            std::string::npos);
  EXPECT_EQ(env({"--no-cache"}), "");
  EXPECT_NE(env({}), "");  // --no-cache neither read nor wrote it
}

}  // namespace
}  // namespace gpucheck::inventory
