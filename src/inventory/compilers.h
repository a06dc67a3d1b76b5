#pragma once
// Host compilers: gcc/g++/clang/clang++/cc/c++ on PATH and whatever CC/CXX/CUDAHOSTCXX/NVCC_CCBIN name, each with `--version`
// (run concurrently), plus the compiler nvcc would use: NVCC_CCBIN when set, else `gcc` on PATH (what
// `nvcc --dryrun` shows it invoking). Under --root nothing runs: compilers are listed without versions
// unless the file name carries one (gcc-12).
#include <cstddef>
#include <string>
#include <vector>

#include "inventory/model.h"
#include "platform/root_fs.h"
#include "inventory/toolkit_scan.h"

namespace gpucheck::inventory {

struct CompilerScan {
  std::vector<Compiler> compilers;
  std::string nvcc_host_compiler;
  std::ptrdiff_t nvcc_host_compiler_entry = -1;  // index of that compiler in `compilers`; -1: not among them
};

CompilerScan scan_compilers(const RootFs& fs, const EnvMap& env);

/// First line of `--version` output -> version: "gcc (Debian 12.2.0-14) 12.2.0" -> "12.2.0",
/// "Debian clang version 14.0.6" -> "14.0.6".
std::string parse_compiler_version(const std::string& output);

}  // namespace gpucheck::inventory
