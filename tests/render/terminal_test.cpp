#include <gtest/gtest.h>

#include "render/terminal.h"

namespace gpucheck::render {
namespace {

TEST(Terminal, FailureShowsEvidenceAndFix) {
  Finding r;
  r.id = "device.runtime";
  r.status = Status::kFail;
  r.summary = "broken";
  r.evidence["cudaGetDeviceCount"] = "cudaErrorNoDevice (100)";
  r.add_fix("install the driver");
  std::string line = result_line(r, false);
  EXPECT_NE(line.find("FAIL"), std::string::npos);
  EXPECT_NE(line.find("device.runtime"), std::string::npos);
  std::string details = result_details(r, false);
  EXPECT_NE(details.find("cudaErrorNoDevice (100)"), std::string::npos);
  EXPECT_NE(details.find("1. install the driver"), std::string::npos);
}

TEST(Terminal, QuietPassHasNoDetailsAndColourIsOptional) {
  Finding r;
  r.id = "host.info";
  r.status = Status::kPass;
  r.evidence["os"] = "Debian";
  EXPECT_EQ(result_details(r, false), "");
  EXPECT_NE(result_details(r, true).find("os: Debian"), std::string::npos);
  EXPECT_EQ(result_line(r, false).find('\033'), std::string::npos);
  EXPECT_NE(result_line(r, true).find('\033'), std::string::npos);
}

TEST(Terminal, MultiLineEvidenceIsIndented) {
  Finding r;
  r.id = "a.b";
  r.status = Status::kError;
  r.evidence["stderr_tail"] = "line one\nline two";
  EXPECT_NE(result_details(r, false).find("| line two"), std::string::npos);
}

}  // namespace
}  // namespace gpucheck::report
