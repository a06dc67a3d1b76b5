// Fuzz target: gpucheck's command-line parser (CLI11, every subcommand's options and checks) on an argv
// made of the input's NUL-separated words. Parsing only (Stage::parse): nothing runs, and nothing may end
// the process (a `--help` prints and returns). The result is 0 (a command was selected) or the usage code.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <streambuf>
#include <string>
#include <vector>

#include "cli/entry.h"
#include "core/errors.h"

namespace {
struct NullBuffer : std::streambuf {
  int overflow(int c) override { return c; }
};
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // --help and the usage lines would flood the fuzzer's log: the parser's streams go nowhere. Only the
  // C++ streams: libFuzzer and the sanitizers write to fd 2 themselves and must still be heard.
  static NullBuffer null;
  if (!std::getenv("GPUCHECK_FUZZ_SHOW_OUTPUT")) {
    std::cout.rdbuf(&null);
    std::cerr.rdbuf(&null);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words{"gpucheck"};
  std::string word;
  for (std::size_t i = 0; i < size && words.size() < 64; ++i) {
    if (data[i] == 0) {
      words.push_back(word);
      word.clear();
    } else {
      word += static_cast<char>(data[i]);
    }
  }
  if (words.size() < 64) words.push_back(word);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int code = gpucheck::cli::run_command_line(static_cast<int>(words.size()), argv.data(), gpucheck::cli::Stage::parse);
  if (code != gpucheck::kExitOk && code != gpucheck::kExitUsage) std::abort();
  return 0;
}
