// The embedded interpreter against the real Pythons of this machine: the one the stand-in modules are
// built for, Debian's, and every pyenv version present (3.6 .. 3.13 here). One interpreter per process,
// so each Python is its own test (ctest runs each in its own process).
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>

#include "bmtrain_installed/bmtrain_peer.h"
#include "bmtrain_installed/embedded_python.h"

using namespace gpucheck::kernels;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> pythons() {
  std::vector<std::string> out = {GPUCHECK_TEST_PYTHON, "/usr/bin/python3"};
  const char* home = std::getenv("HOME");
  std::error_code ec;
  if (home)
    for (const auto& v : fs::directory_iterator(fs::path(home) / ".pyenv" / "versions", ec))
      if (fs::exists(v.path() / "bin" / "python3")) out.push_back((v.path() / "bin" / "python3").string());
  return out;
}

std::string name_of(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = std::to_string(info.index) + "_" + info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

class EmbeddedPython : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(EmbeddedPython, RunsCodeCallsFunctionsAndReportsErrors) {
  if (!fs::exists(GetParam())) GTEST_SKIP() << GetParam() << " is not installed";
  bmtrain::Install in = bmtrain::locate(GetParam());
  if (!in.python_ok) GTEST_SKIP() << GetParam() << " cannot run the locate script: " << in.python_error;
  const char* home_before = std::getenv("PYTHONHOME");
  std::string error;
  python::Embedded* py = python::Embedded::start(in.layout, error);
  if (!py && error.find("already") != std::string::npos) GTEST_SKIP() << "one interpreter per process: run under ctest";
  if (in.layout.library.empty()) {  // a static interpreter: refused with the reason, nothing loaded
    EXPECT_EQ(py, nullptr);
    EXPECT_NE(error.find("no shared libpython"), std::string::npos) << error;
    return;
  }
  ASSERT_NE(py, nullptr) << error;
  EXPECT_EQ(std::getenv("PYTHONHOME"), home_before) << "PYTHONHOME must not leak into children";
  EXPECT_EQ(py->exec("import sys\nv = '%d.%d.%d' % sys.version_info[:3]\n"), "");
  EXPECT_EQ(py->get_str("v"), in.python_version);
  EXPECT_EQ(py->exec("x = 6 * 7\n"), "");
  EXPECT_EQ(py->get_str("x"), "42");
  EXPECT_EQ(py->exec("1 / 0\n"), "ZeroDivisionError: division by zero");
  EXPECT_EQ(py->exec("raise SystemExit(3)\n"), "SystemExit: 3") << "must not end the process";
  EXPECT_EQ(py->call("pow", {std::int64_t{2}, std::int64_t{10}}), "");
  EXPECT_EQ(py->get_str("_gpucheck_ret"), "1024");
  EXPECT_EQ(py->call("max", {std::uint64_t{1} << 63, 2.5}), "");
  EXPECT_EQ(py->get_str("_gpucheck_ret"), "9223372036854775808");  // addresses above 2^63 survive
  EXPECT_NE(py->call("no_such_function", {}), "");
  // sys.path is the one the interpreter computed for itself (its venv/site-packages included).
  EXPECT_EQ(py->exec("import json\np = json.dumps(sys.path)\n"), "");
  for (const auto& entry : in.layout.sys_path) EXPECT_NE(py->get_str("p").find(entry), std::string::npos) << entry;
  EXPECT_EQ(py->get_str("undefined_name"), "");
}

INSTANTIATE_TEST_SUITE_P(ThisMachine, EmbeddedPython, ::testing::ValuesIn(pythons()), name_of);
