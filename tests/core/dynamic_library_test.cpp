// core/dynamic_library.h, which the cuBLASLt, cudart and NVML loaders bind through, on a real library of
// this machine (glibc's libc.so.6, always loaded) and on one that does not exist.
#include <gtest/gtest.h>

#include <cstring>

#include "core/dynamic_library.h"

namespace gpucheck {
namespace {

TEST(DynamicLibrary, BindsARealFunctionAndSaysWhichFileItCameFrom) {
  std::string error;
  void* h = open_library("libc.so.6", error);
  ASSERT_NE(h, nullptr) << error;
  EXPECT_EQ(error, "");
  std::size_t (*len)(const char*) = nullptr;
  ASSERT_TRUE(bind_symbol(h, "strlen", len));
  EXPECT_EQ(len("gpucheck"), 8u);
  EXPECT_EQ(len, &std::strlen);  // the very function the program already uses, not a copy
  std::string path = loaded_path(h, "fallback");
  EXPECT_EQ(path.front(), '/') << path;
  EXPECT_NE(path.find("libc.so.6"), std::string::npos) << path;
}

TEST(DynamicLibrary, AMissingSymbolIsNullNotACrash) {
  std::string error;
  void* h = open_library("libc.so.6", error);
  ASSERT_NE(h, nullptr) << error;
  int (*f)() = reinterpret_cast<int (*)()>(1);
  EXPECT_FALSE(bind_symbol(h, "gpucheck_no_such_function", f));
  EXPECT_EQ(f, nullptr);
  EXPECT_EQ(find_symbol(nullptr, "strlen"), nullptr);  // a library that failed to load lends nothing
  EXPECT_EQ(loaded_path(nullptr, "asked-for.so"), "asked-for.so");
}

TEST(DynamicLibrary, AMissingLibraryGivesDlopensMessage) {
  std::string error;
  EXPECT_EQ(open_library("/nonexistent/libgpucheck-none.so.1", error), nullptr);
  EXPECT_NE(error.find("/nonexistent/libgpucheck-none.so.1"), std::string::npos) << error;
  EXPECT_NE(error.find("No such file"), std::string::npos) << error;
}

}  // namespace
}  // namespace gpucheck
