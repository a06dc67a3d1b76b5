#include "inventory/python_env_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/json_input.h"
#include "core/fnv1a.h"
#include "core/text.h"
#include "gpucheck/build_info.h"
#include "inventory/version_cache.h"
#include "knowledge/pep440.h"
#include "platform/dist_info.h"

extern char** environ;

namespace gpucheck::inventory {
namespace {

using nlohmann::json;

constexpr int kPythonEnvCacheFormat = 1;
const char* kInterpreterPart = "interpreter";
const char* kTorchPart = "torch";

// The answer's keys that `import torch` decides (the rest, but import_checks, is the interpreter's).
const std::set<std::string> kTorchKeys = {
    "torch_installed", "torch_import_error", "torch_version", "torch_path", "torch_cuda", "torch_git_version",
    "torch_cudnn", "torch_nccl", "torch_cxx11_abi", "torch_arch_list", "cuda_available", "cuda_error",
    "torch_numpy_error", "mapped_libraries", "mapped_library_versions"};

std::string import_part(const std::string& dist) { return "import " + dist; }

std::string id_of(const std::string& path) { return file_identity(path); }

// Variables the interpreter, the loader, torch or the driver read while the probe runs.
bool decides_answer(const std::string& name) {
  for (const char* prefix : {"PYTHON", "LD_", "CUDA", "TORCH", "PYTORCH", "NCCL", "NVIDIA", "CONDA", "VIRTUAL_ENV"})
    if (starts_with(name, prefix)) return true;
  return name == "HOME";  // the user site-packages
}

std::string text_of(const std::string& path) {
  try {
    return read_file(path, 1u << 16);
  } catch (const InputError&) {
    return "";
  }
}

// What every part depends on: this gpucheck (its version and its very file, so a rebuilt probe script is a
// new key), the interpreter and its venv, the working directory (sys.path[0] for `-c`), the environment
// variables that matter, the loader's cache and the driver.
std::string common_material(const std::string& interpreter, const std::string& run_as) {
  std::string m = std::string("gpucheck ") + build::kVersion + " " + id_of("/proc/self/exe") + "\n";
  m += "interpreter " + interpreter + " " + id_of(interpreter) + " run_as " + run_as + "\n";
  m += "pyvenv.cfg " + id_of(parent_dir(parent_dir(interpreter)) + "/pyvenv.cfg") + "\n";
  char cwd[PATH_MAX] = {0};
  m += std::string("cwd ") + (getcwd(cwd, sizeof cwd) ? cwd : "?") + "\n";
  std::vector<std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    if (decides_answer(entry.substr(0, entry.find('=')))) vars.push_back(entry);
  }
  std::sort(vars.begin(), vars.end());
  m += "env " + join(vars, "\n") + "\n";
  m += "ld.so.cache " + id_of("/etc/ld.so.cache") + "\n";
  m += "driver " + text_of("/proc/driver/nvidia/version") + "\n";
  platform::RootFs fs("/");
  for (const auto& n : fs.list("/dev"))
    if (starts_with(n, "nvidia")) m += "/dev/" + n + " ";
  m += "\nboot " + text_of("/proc/sys/kernel/random/boot_id");
  return m;
}

std::vector<std::string> sys_path_of(const json& answer) {
  std::vector<std::string> out;
  if (answer.is_object() && answer.contains("sys_path") && answer["sys_path"].is_array())
    for (const auto& p : answer["sys_path"])
      if (p.is_string()) out.push_back(p.get<std::string>());
  return out;
}

// The interpreter part: sys.path and each of its directories (a new .pth file or dist-info changes one).
std::string interpreter_key(const std::string& common, const std::vector<std::string>& sys_path) {
  std::string m = common;
  for (const auto& p : sys_path) m += "\npath " + p + " " + id_of(p);
  return fnv1a_hex(m);
}

// RECORD path -> (identity, SHA-256) of earlier runs: a RECORD is hashed again only when its identity
// (device, inode, size, mtime, ctime) changed; torch's alone is over a megabyte.
using RecordHashes = std::map<std::string, std::pair<std::string, std::string>>;

// The distributions on sys.path (the first of a name wins, as for the probe's listing), and each one's
// fingerprint: its RECORD's SHA-256 and identity (for an egg-info: its directory and PKG-INFO).
class Distributions {
 public:
  Distributions(const std::vector<std::string>& sys_path, RecordHashes& hashes) : sys_path_(sys_path), hashes_(hashes) {
    platform::RootFs fs("/");
    for (const auto& dir : sys_path)
      for (auto& d : platform::read_distributions(fs, dir)) dists_.emplace(d.name, std::move(d));
  }

  // `names` and everything they require, transitively (extras' requirements too: more keys, never fewer).
  std::string closure_material(const std::vector<std::string>& names) {
    std::set<std::string> seen;
    std::vector<std::string> todo = names;
    std::string m;
    while (!todo.empty()) {
      std::string n = todo.back();
      todo.pop_back();
      if (!seen.insert(n).second) continue;
      auto it = dists_.find(n);
      if (it == dists_.end()) {
        m += "dist " + n + " absent\n";
        continue;
      }
      m += "dist " + n + " " + fingerprint(it->second) + "\n";
      for (const auto& line : it->second.requires_dist)
        if (auto r = knowledge::pep440::Requirement::try_parse(line)) todo.push_back(r->name);
    }
    return m;
  }

  // Where `import module` would look: the working directory and each sys.path directory.
  std::string module_material(const std::string& module) const {
    char cwd[PATH_MAX] = {0};
    std::vector<std::string> dirs = {getcwd(cwd, sizeof cwd) ? cwd : "."};
    dirs.insert(dirs.end(), sys_path_.begin(), sys_path_.end());
    std::string m;
    for (const auto& d : dirs)
      for (const auto& name : {module, module + ".py"})
        if (std::string id = id_of(d + "/" + name); !id.empty()) m += "module " + d + "/" + name + " " + id + "\n";
    return m;
  }

 private:
  std::string fingerprint(const platform::DistInfo& d) {
    auto [it, fresh] = fingerprints_.emplace(d.dir, "");
    if (!fresh) return it->second;
    const std::string record = d.dir + "/RECORD";
    if (!ends_with(d.dir, ".dist-info")) return it->second = d.dir + " " + id_of(d.dir) + " " + id_of(d.dir + "/PKG-INFO");
    const std::string id = id_of(record);
    auto& known = hashes_[record];
    if (id.empty() || known.first != id) known = {id, platform::record_hash_of_file(platform::RootFs("/"), record)};
    return it->second = d.dir + " " + id + " " + known.second;
  }

  std::vector<std::string> sys_path_;
  RecordHashes& hashes_;
  std::map<std::string, platform::DistInfo> dists_;
  std::map<std::string, std::string> fingerprints_;
};

struct Keys {
  std::string torch;
  std::map<std::string, std::string> imports;  // distribution -> key
};

Keys part_keys(const std::string& common, const std::vector<std::string>& sys_path, RecordHashes& hashes) {
  Distributions dists(sys_path, hashes);
  Keys k;
  const std::string torch_material = common + "\n" + dists.module_material("torch") + dists.closure_material({"torch", "numpy"});
  k.torch = fnv1a_hex(torch_material);
  for (const auto& [dist, module] : import_checked_packages())
    k.imports[dist] = fnv1a_hex(torch_material + dists.module_material(module) + dists.closure_material({dist}));
  return k;
}

// --- the file -------------------------------------------------------------------------------------------

// Owned by this user (or root) and writable by nobody else, unless sticky (/tmp): every directory from
// `dir` up, so no other user can swap what gpucheck, as root, reads or writes there.
bool trusted_dir(const std::string& dir) {
  char real[PATH_MAX];
  if (!realpath(dir.c_str(), real)) return false;
  struct stat own {};
  if (::lstat(real, &own) != 0 || !S_ISDIR(own.st_mode) || own.st_uid != geteuid() || (own.st_mode & 022)) return false;
  for (std::string p = parent_dir(real);; p = parent_dir(p)) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return false;
    if (st.st_uid != geteuid() && st.st_uid != 0) return false;
    if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) return false;
    if (p == "/" || p.empty()) return true;
  }
}

std::optional<json> read_cache_file(const std::string& file) {
  int fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::string text;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
      static_cast<unsigned long long>(st.st_size) <= kMaxCacheFileBytes) {
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < text.size()) {
      ssize_t n = ::read(fd, text.data() + got, text.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    text.resize(got);
  }
  ::close(fd);
  auto j = parse_json_or_discarded(text);
  if (j.is_discarded() || !j.is_object() || j.value("format", json()) != kPythonEnvCacheFormat || !j.contains("parts") ||
      !j["parts"].is_object())
    return std::nullopt;
  for (const auto& [name, part] : j["parts"].items())
    if (!part.is_object() || !part.contains("key") || !part["key"].is_string() || !part.contains("answer") ||
        !part["answer"].is_object())
      return std::nullopt;
  return j;
}

// The oldest files go when there are more than kMaxCachedEnvironments (never `keep`, just written).
void prune(const std::string& dir, const std::string& keep) {
  std::vector<std::pair<long long, std::string>> files;
  platform::RootFs fs("/");
  for (const auto& n : fs.list(dir)) {
    struct stat st {};
    const std::string path = dir + "/" + n;
    if (!ends_with(n, ".json") || path == keep || ::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    files.emplace_back(static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec, n);
  }
  if (files.size() < kMaxCachedEnvironments) return;
  std::sort(files.begin(), files.end());
  for (std::size_t i = 0; i + kMaxCachedEnvironments <= files.size(); ++i) ::unlink((dir + "/" + files[i].second).c_str());
}

void write_cache_file(const std::string& dir, const std::string& file, const json& j) {
  try {
    make_dirs(parent_dir(dir));
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return;
    if (!trusted_dir(dir)) return;
    const std::string text = json_text(j) + "\n";
    if (text.size() > kMaxCacheFileBytes) return;
    // What is there and not this user's own regular file (a link, another owner's file) is removed, not
    // written through or kept: write_file_atomic keeps a replaced file's owner and follows links.
    struct stat st {};
    if (::lstat(file.c_str(), &st) == 0 && (!S_ISREG(st.st_mode) || st.st_uid != geteuid())) ::unlink(file.c_str());
    write_file_atomic(file, text);
    prune(dir, file);
  } catch (const InputError&) {
    // A read-only or full disk: the answer is right, only the next run is slower.
  }
}

// --- assembling an answer ---------------------------------------------------------------------------------

json split_interpreter(const json& answer) {
  json out = json::object();
  for (const auto& [k, v] : answer.items())
    if (!kTorchKeys.count(k) && k != "import_checks") out[k] = v;
  return out;
}

json split_torch(const json& answer) {
  json out = json::object();
  for (const auto& [k, v] : answer.items())
    if (kTorchKeys.count(k)) out[k] = v;
  return out;
}

// The distributions whose import is checked in an environment with these packages and this torch part.
std::vector<std::string> checked_here(const json& interpreter, const json& torch) {
  std::vector<std::string> out;
  if (torch.is_object() && torch.contains("torch_import_error") && torch["torch_import_error"].is_string() &&
      !torch["torch_import_error"].get<std::string>().empty())
    return out;  // torch fails: that is the one error, nothing else is imported
  const json* pk = interpreter.contains("all_packages") && interpreter["all_packages"].is_object() ? &interpreter["all_packages"] : nullptr;
  for (const auto& [dist, module] : import_checked_packages())
    if (pk && pk->contains(dist)) out.push_back(dist);
  return out;
}

}  // namespace

std::string default_python_cache_dir() {
  std::string dir = cache_dir();
  return dir.empty() ? "" : dir + "/python-envs";
}

std::string cached_facts_note(const std::string& interpreter, const FactsFrom& facts_from) {
  std::vector<std::string> cached;
  for (const auto& [part, from] : facts_from)
    if (from == "cache") cached.push_back(part);
  if (cached.empty()) return "";
  return "python " + interpreter + ": from the cache (files unchanged; --no-cache looks afresh): " + join(cached, ", ");
}

PythonEnv probe_python_cached(const std::string& interpreter, const std::string& via, const ProbeRequest& given,
                              const std::string& cache_dir, FactsFrom* facts_from) {
  FactsFrom from;  // part -> "cache" | "probe"
  struct Tell {  // hands `from` to the caller on every return
    FactsFrom& from;
    FactsFrom* out;
    ~Tell() {
      if (out) *out = from;
    }
  } tell{from, facts_from};
  if (cache_dir.empty()) return probe_python(interpreter, via, given);
  const std::string file = cache_dir + "/python-" + fnv1a_hex(interpreter + '\0' + given.run_as) + ".json";
  json parts = json::object();
  RecordHashes hashes;
  if (trusted_dir(cache_dir))
    if (auto j = read_cache_file(file); j && (*j)["interpreter"] == interpreter) {
      parts = (*j)["parts"];
      if (j->contains("record_hashes") && (*j)["record_hashes"].is_object())
        for (const auto& [record, h] : (*j)["record_hashes"].items())
          if (h.is_array() && h.size() == 2 && h[0].is_string() && h[1].is_string()) hashes[record] = {h[0], h[1]};
    }
  auto cached = [&](const std::string& part, const std::string& key) -> const json* {
    auto it = parts.find(part);
    return it != parts.end() && (*it)["key"] == key ? &(*it)["answer"] : nullptr;
  };

  const std::string common = common_material(interpreter, given.run_as);
  const std::vector<std::string> cached_sys_path =
      parts.contains(kInterpreterPart) ? sys_path_of(parts[kInterpreterPart]["answer"]) : std::vector<std::string>{};
  const json* base = parts.contains(kInterpreterPart) ? cached(kInterpreterPart, interpreter_key(common, cached_sys_path)) : nullptr;
  Keys keys;
  const json* torch = nullptr;
  std::map<std::string, const json*> imports;
  if (base) {
    keys = part_keys(common, cached_sys_path, hashes);
    torch = cached(kTorchPart, keys.torch);
    for (const auto& dist : checked_here(*base, torch ? *torch : json()))
      imports[dist] = cached(import_part(dist), keys.imports[dist]);
  }
  auto assemble = [&](json answer) {
    platform::PythonFacts facts = platform::parse_python_answer(json_text(answer));
    PythonEnv p = python_env_from(facts);
    p.interpreter = interpreter;
    p.found_via = {via};
    return p;
  };

  const bool all_cached = base && torch &&
                          std::all_of(imports.begin(), imports.end(), [](const auto& i) { return i.second != nullptr; });
  if (all_cached) {
    json answer = *base;
    answer.update(*torch);
    answer["import_checks"] = json::object();
    for (const auto& [dist, part] : imports) {
      answer["import_checks"][dist] = *part;
      from[import_part(dist)] = "cache";
    }
    from[kInterpreterPart] = from[kTorchPart] = "cache";
    return assemble(std::move(answer));
  }

  // Probe what is missing (everything when the interpreter's part is: which packages are there is unknown).
  ProbeRequest req = given;
  req.torch = !torch;
  std::vector<std::string> asked;
  for (const auto& [dist, module] : import_checked_packages())
    if (!base || !imports.count(dist) || !imports[dist]) asked.push_back(dist);
  req.imports = asked;
  platform::PythonFacts facts = query_probe(interpreter, req);
  json fresh = facts.answered ? facts.answer : json();
  if (facts.answered && base && sys_path_of(fresh) != cached_sys_path) {
    // sys.path moved (a new .pth): the cached parts were keyed by the old one, so nothing of them is used.
    torch = nullptr;
    imports.clear();
    facts = query_probe(interpreter, given);
    fresh = facts.answered ? facts.answer : json();
  }
  if (!facts.answered) {
    PythonEnv p;
    p.error = facts.error;
    p.interpreter = interpreter;
    p.found_via = {via};
    p.probe_seconds = facts.seconds;
    return p;
  }

  const std::vector<std::string> sys_path = sys_path_of(fresh);
  RecordHashes used;  // only those of this sys.path are kept
  keys = part_keys(common, sys_path, hashes);
  for (const auto& [record, known] : hashes)
    if (!known.first.empty() && !known.second.empty()) used[record] = known;
  json store = {{"format", kPythonEnvCacheFormat}, {"interpreter", interpreter}, {"parts", json::object()}};
  auto keep = [&](const std::string& part, const std::string& key, const json& answer, bool was_cached) {
    store["parts"][part] = {{"key", key}, {"answer", answer}};
    from[part] = was_cached ? "cache" : "probe";
  };
  json answer = split_interpreter(fresh);
  answer.erase("import_checks");
  keep(kInterpreterPart, interpreter_key(common, sys_path), answer, false);
  json torch_answer = torch ? *torch : split_torch(fresh);
  keep(kTorchPart, keys.torch, torch_answer, torch != nullptr);
  answer.update(torch_answer);
  answer["import_checks"] = json::object();
  const json* fresh_checks = fresh.contains("import_checks") && fresh["import_checks"].is_object() ? &fresh["import_checks"] : nullptr;
  for (const auto& dist : checked_here(answer, torch_answer)) {
    const json* part = imports.count(dist) ? imports[dist] : nullptr;
    const bool was_cached = part != nullptr;
    if (!part && fresh_checks && fresh_checks->contains(dist)) part = &(*fresh_checks)[dist];
    if (!part || !part->is_object()) continue;  // not asked (torch part fresh and failing) or no answer
    answer["import_checks"][dist] = *part;
    keep(import_part(dist), keys.imports[dist], *part, was_cached);
  }
  store["record_hashes"] = json::object();
  for (const auto& [record, known] : used) store["record_hashes"][record] = {known.first, known.second};
  write_cache_file(cache_dir, file, store);
  PythonEnv p = assemble(std::move(answer));
  p.probe_seconds = facts.seconds;
  return p;
}

}  // namespace gpucheck::inventory
