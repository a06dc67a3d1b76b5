#pragma once
// Host compilers: gcc/g++/clang/clang++/cc/c++ on PATH and whatever CC/CXX/CUDAHOSTCXX/NVCC_CCBIN name, each with `--version`
// (run concurrently), plus the compiler nvcc would use: NVCC_CCBIN when set, else `gcc` on PATH (what
// `nvcc --dryrun` shows it invoking). Under --root nothing runs: compilers are listed without versions
// unless the file name carries one (gcc-12).
#include <string>
#include <vector>

#include "inventory/model.h"
#include "platform/root_fs.h"
#include "inventory/toolkit_scan.h"

namespace gpucheck::inventory {

struct CompilerScan {
  std::vector<Compiler> compilers;
  std::string nvcc_host_compiler;         // the path of nvcc_compiler_entry(compilers); "" when none
  std::string nvcc_host_compiler_source;  // how it was found: "NVCC_CCBIN" or "gcc on PATH, nvcc's default"
};

CompilerScan scan_compilers(const platform::RootFs& fs, const EnvMap& env);

/// The one rule for which compiler nvcc invokes, over compiler entries as scan_compilers lists them: the
/// entry NVCC_CCBIN names when that variable is set, else `gcc` on PATH (what `nvcc --dryrun` shows it
/// invoking). nullptr when neither is listed. `how` (optional) gets the source words stored in
/// Inventory::nvcc_host_compiler_source.
const Compiler* nvcc_compiler_entry(const std::vector<Compiler>& compilers, std::string* how = nullptr);

/// First line of `--version` output -> version: "gcc (Debian 12.2.0-14) 12.2.0" -> "12.2.0",
/// "Debian clang version 14.0.6" -> "14.0.6".
std::string parse_compiler_version(const std::string& output);

}  // namespace gpucheck::inventory
