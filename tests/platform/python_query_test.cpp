// The one Python query (platform/python_query.h) on real interpreters: its facts agree with what the
// interpreter says when asked directly, the caller's script and arguments reach it unchanged, nothing the
// interpreter prints corrupts the answer, and every way of failing is an answer-less result with a reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/subprocess.h"
#include "core/text.h"
#include "platform/python_query.h"

namespace gpucheck::platform {
namespace {

const char* kSystemPython = "/usr/bin/python3";

std::string ask_directly(const std::string& python, const std::string& code) {
  auto r = run_subprocess({python, "-c", code});
  EXPECT_TRUE(r.ok()) << python << ": " << r.describe() << " " << r.err;
  return trim(r.out);
}

struct TempDir {
  std::string path;
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "gpucheck-pyq-XXXXXX").string();
    path = mkdtemp(t.data()) ? t : "";
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

TEST(PythonQuery, FactsOfAVenvAgreeWithTheInterpreterItself) {
  TempDir tmp;
  std::string venv = tmp.path + "/venv";
  ASSERT_TRUE(run_subprocess({kSystemPython, "-m", "venv", "--without-pip", venv}).ok());
  std::string py = venv + "/bin/python";
  auto f = query_python(py);
  ASSERT_TRUE(f.answered) << f.error;
  EXPECT_EQ(f.error, "");
  EXPECT_EQ(f.interpreter, py);
  EXPECT_EQ(f.version, ask_directly(py, "import platform; print(platform.python_version())"));
  EXPECT_EQ(f.kind, "venv");
  EXPECT_EQ(f.prefix, venv);
  EXPECT_EQ(f.base_prefix, ask_directly(py, "import sys; print(sys.base_prefix)"));
  EXPECT_EQ(f.base_exec_prefix, ask_directly(py, "import sys; print(sys.base_exec_prefix)"));
  EXPECT_EQ(f.executable, ask_directly(py, "import sys; print(sys.executable)"));
  // sys.path as the interpreter computes it for a script (sys.path[0] is "" for -c and is dropped).
  auto path = nlohmann::json::parse(ask_directly(py, "import sys, json; print(json.dumps([p for p in sys.path if p]))"));
  EXPECT_EQ(f.sys_path, path.get<std::vector<std::string>>());
  std::string purelib = ask_directly(py, "import sysconfig; print(sysconfig.get_paths()['purelib'])");
  EXPECT_NE(std::find(f.site_packages.begin(), f.site_packages.end(), purelib), f.site_packages.end()) << purelib;
  for (const auto& s : f.site_packages) EXPECT_TRUE(std::filesystem::is_directory(s)) << s;
  // Debian's python3 runs on a shared libpython3.X.so.1.0; it must be the file the loader maps.
  std::string shared = ask_directly(py, "import sysconfig; print(sysconfig.get_config_var('Py_ENABLE_SHARED'))");
  if (shared == "1") {
    ASSERT_FALSE(f.libpython.empty());
    EXPECT_TRUE(std::filesystem::exists(f.libpython)) << f.libpython;
    EXPECT_NE(f.libpython.find("libpython"), std::string::npos) << f.libpython;
  } else {
    EXPECT_EQ(f.libpython, "");
  }
  EXPECT_GT(f.seconds, 0.0);
}

TEST(PythonQuery, CallerScriptAndArgumentsReachTheInterpreterUnchanged) {
  PythonQuery q;
  q.extra_script = "o['argv'] = sys.argv[1:]\no['saw_dirs'] = dirs == [d for d in dirs if os.path.isdir(d)]\n"
                   "print('noise on stdout that is not JSON')\n";
  q.args = {"a b", "$HOME;rm -rf /", "'quoted'", ""};
  auto f = query_python(kSystemPython, q);
  ASSERT_TRUE(f.answered) << f.error;
  EXPECT_EQ(f.answer.at("argv").get<std::vector<std::string>>(), q.args);  // an argument vector, no shell
  EXPECT_TRUE(f.answer.at("saw_dirs").get<bool>());
  EXPECT_EQ(f.answer.at("version").get<std::string>(), f.version);  // base facts are in the answer too
}

TEST(PythonQuery, FailuresAreAnswerlessWithAReason) {
  PythonQuery raising;
  raising.extra_script = "raise RuntimeError('broken site customisation')\n";
  auto f = query_python(kSystemPython, raising);
  EXPECT_FALSE(f.answered);
  EXPECT_EQ(f.error.rfind("exit 1", 0), 0u) << f.error;
  EXPECT_NE(f.error.find("RuntimeError: broken site customisation"), std::string::npos) << f.error;
  EXPECT_TRUE(f.answer.is_null());

  auto not_python = query_python("/bin/true");
  EXPECT_FALSE(not_python.answered);
  EXPECT_EQ(not_python.error, "wrote no answer");

  auto missing = query_python("/nonexistent/python3");
  EXPECT_FALSE(missing.answered);
  EXPECT_EQ(missing.error.rfind("failed to start", 0), 0u) << missing.error;

  PythonQuery slow;
  slow.extra_script = "import time\ntime.sleep(60)\n";
  slow.timeout_s = 0.5;
  auto timed_out = query_python(kSystemPython, slow);
  EXPECT_FALSE(timed_out.answered);
  EXPECT_EQ(timed_out.error.rfind("timed out", 0), 0u) << timed_out.error;
  EXPECT_LT(timed_out.seconds, 10.0);

  EXPECT_FALSE(parse_python_answer("[1, 2]").answered);
  EXPECT_EQ(parse_python_answer("not json").error, "printed no valid JSON");
}

TEST(PythonQuery, RunAsExecutesAnotherFileForTheSameInterpreter) {
  PythonQuery q;
  q.run_as = kSystemPython;  // what a resolved pyenv shim does: the named path stays the one reported
  auto f = query_python("/some/shims/python3", q);
  ASSERT_TRUE(f.answered) << f.error;
  EXPECT_EQ(f.interpreter, "/some/shims/python3");
  EXPECT_EQ(f.executable, ask_directly(kSystemPython, "import sys; print(sys.executable)"));
}

TEST(PythonQuery, OldInterpretersAnswerToo) {
  // The base script must run on whatever a cluster still has: 2.7 and 3.6 where pyenv has them.
  int ran = 0;
  const char* home = std::getenv("HOME");
  for (const char* rel : {"/.pyenv/versions/2.7.18/bin/python", "/.pyenv/versions/3.6.15/bin/python3"}) {
    std::string py = std::string(home ? home : "/root") + rel;
    if (!std::filesystem::exists(py)) continue;
    ++ran;
    auto f = query_python(py);
    ASSERT_TRUE(f.answered) << py << ": " << f.error;
    auto v = run_subprocess({py, "-c", "import platform; print(platform.python_version())"});
    EXPECT_EQ(f.version, trim(v.out + v.err)) << py;
    EXPECT_FALSE(f.sys_path.empty()) << py;
  }
  if (ran == 0) GTEST_SKIP() << "no pyenv Python 2.7.18 / 3.6.15 on this machine";
}

}  // namespace
}  // namespace gpucheck::platform
