#include "inventory/compilers.h"

#include <future>

#include "core/subprocess.h"
#include "core/text.h"
#include "knowledge/text_pattern.h"
#include "platform/environment.h"

namespace gpucheck::inventory {

std::string parse_compiler_version(const std::string& output) {
  std::string first = output.substr(0, output.find('\n'));
  static const knowledge::TextPattern clang(R"(version[[:space:]]+([0-9]+\.[0-9]+(?:\.[0-9]+)?))");
  static const knowledge::TextPattern any(R"(([0-9]+\.[0-9]+(?:\.[0-9]+)?))");
  if (auto m = clang.search(first)) return m->str(1);
  // gcc prints the version last on the line; take the last dotted number.
  auto all = any.search_all(first);
  return all.empty() ? "" : all.back().str(1);
}

CompilerScan scan_compilers(const platform::RootFs& fs, const EnvMap& env) {
  struct Want {
    std::string name, path, source;
  };
  std::vector<Want> wants;
  std::string path_list = platform::env_value(env, "PATH");
  // cmake too: which CMake builds an extension is one of the facts an issue asks for (as collect_env).
  for (const char* n : {"gcc", "g++", "clang", "clang++", "cc", "c++", "cmake"})
    if (auto p = fs.which(n, path_list); !p.empty()) wants.push_back({n, p, "--version"});
  for (const char* var : {"CC", "CXX", "CUDAHOSTCXX", "NVCC_CCBIN"}) {
    std::string v = platform::env_value(env, var);
    if (v.empty()) continue;
    auto words = split(trim(v), ' ');  // "ccache g++" -> the compiler is the last word
    std::string exe = words.empty() ? v : words.back();
    std::string p = exe.find('/') != std::string::npos ? exe : fs.which(exe, path_list);
    wants.push_back({var, p.empty() ? exe : p, std::string(var) + "=" + v});
  }
  std::vector<std::future<Compiler>> jobs;
  for (const auto& w : wants) {
    jobs.push_back(std::async(std::launch::async, [w, &fs] {
      Compiler c;
      c.name = w.name;
      c.path = w.path;
      c.source = w.source;
      // clang is slow to start (~0.1-0.4 s); its resource directory <prefix>/lib/clang/<version> names the
      // same version `clang --version` prints, so read that first.
      if (w.name.find("clang") != std::string::npos) {
        std::string prefix = parent_dir(parent_dir(fs.resolve(w.path)));
        std::vector<std::string> dotted;
        for (const auto& v : fs.list(path_join(prefix, "lib/clang")))
          if (v.find('.') != std::string::npos) dotted.push_back(v);
        if (dotted.size() == 1) {
          c.version = dotted[0];
          c.source = path_join(prefix, "lib/clang/" + dotted[0]);
          return c;
        }
      }
      if (fs.live()) {
        SubprocessOptions o;
        o.timeout = std::chrono::seconds(10);
        auto r = run_subprocess({w.path, "--version"}, o);
        c.version = parse_compiler_version(r.out);
        if (c.version.empty()) c.source += " (no version: " + r.describe() + ")";
      } else {
        static const knowledge::TextPattern suffix(R"(-([0-9]+(?:\.[0-9]+)*)$)");
        std::string real = base_name(fs.resolve(w.path));
        if (auto m = suffix.search(real)) c.version = m->str(1), c.source = "file name " + real;
        else c.source = "files only (--root): not run";
      }
      return c;
    }));
  }
  CompilerScan scan;
  for (auto& j : jobs) scan.compilers.push_back(j.get());
  if (const Compiler* used = nvcc_compiler_entry(scan.compilers, &scan.nvcc_host_compiler_source))
    scan.nvcc_host_compiler = used->path;
  return scan;
}

const Compiler* nvcc_compiler_entry(const std::vector<Compiler>& compilers, std::string* how) {
  for (const char* name : {"NVCC_CCBIN", "gcc"})
    for (const auto& c : compilers)
      if (c.name == name) {
        if (how) *how = c.name == "gcc" ? "gcc on PATH, nvcc's default" : "NVCC_CCBIN";
        return &c;
      }
  return nullptr;
}

}  // namespace gpucheck::inventory
