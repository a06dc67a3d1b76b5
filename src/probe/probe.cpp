#include "probe/probe.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <set>

#include "core/text.h"

namespace gpucheck::probe {

std::string Context::arg(const std::string& name, const std::string& fallback) const {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == name) return args[i + 1];
  std::string prefix = name + "=";
  for (auto& a : args)
    if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
  return fallback;
}

bool Context::flag(const std::string& name) const {
  for (auto& a : args)
    if (a == name) return true;
  return false;
}

void skip(Finding& r, const std::string& reason) {
  r.status = Status::kSkip;
  r.summary = reason;
}

namespace {
bool write_all(int fd, const std::string& s) {
  const char* p = s.data();
  std::size_t left = s.size();
  while (left) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) return false;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}
}  // namespace

namespace {
struct PhaseState {
  std::set<int> gpus, ranks;
  unsigned long long seq = 0;
};
PhaseState& phase_state() {
  static PhaseState s;
  return s;
}
}  // namespace

void phase(const std::string& what, const std::vector<int>& gpus, const std::vector<int>& ranks) {
  const char* path = std::getenv(kPhaseFileEnv);
  if (!path || !*path) return;
  PhaseState& s = phase_state();
  s.gpus.insert(gpus.begin(), gpus.end());
  s.ranks.insert(ranks.begin(), ranks.end());
  nlohmann::json j = {{"phase", what.substr(0, 300)},
                      {"seq", ++s.seq},
                      {"gpus_reached", std::vector<int>(s.gpus.begin(), s.gpus.end())},
                      {"ranks_reached", std::vector<int>(s.ranks.begin(), s.ranks.end())}};
  std::string tmp = std::string(path) + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "we");
  if (!f) return;
  std::string doc = j.dump() + "\n";
  bool ok = std::fwrite(doc.data(), 1, doc.size(), f) == doc.size();
  ok = std::fclose(f) == 0 && ok;
  if (ok) std::rename(tmp.c_str(), path);  // its mtime is when the phase began
}

int run_as(int argc, char** argv, const char* id, const char* title, const Body& body) {
  Context ctx;
  int result_fd = -1;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--result-fd" && i + 1 < argc) result_fd = std::atoi(argv[++i]);
    else if (a == "--level" && i + 1 < argc) ctx.level = argv[++i];
    else if (a == "--json") json = true;
    else ctx.args.push_back(a);
  }
  Finding r;
  r.id = id;
  r.title = title;
  auto start = std::chrono::steady_clock::now();
  try {
    body(ctx, r);
  } catch (const std::exception& e) {
    r.status = Status::kError;
    r.summary = std::string("probe raised an exception: ") + e.what();
  } catch (...) {
    r.status = Status::kError;
    r.summary = "probe raised an unknown exception";
  }
  r.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string doc = json_text(nlohmann::json(r)) + "\n";
  if (result_fd >= 0) return write_all(result_fd, doc) ? 0 : 70;
  if (json) std::cout << doc;
  else std::cout << to_string(r.status) << "  " << r.id << ": " << r.summary << "\n";
  return 0;
}

}  // namespace gpucheck::probe
