#include "inventory/collect.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <future>
#include <mutex>

#include "knowledge/knowledge_base.h"
#include "core/errors.h"
#include "core/subprocess.h"
#include "core/text.h"
#include "inventory/compilers.h"
#include "inventory/driver_info.h"
#include "inventory/gpu_info.h"
#include "inventory/gpu_presence.h"
#include "inventory/host_compiler_range.h"
#include "inventory/library_scan.h"
#include "inventory/loader_cache.h"
#include "inventory/python_distributions.h"
#include "inventory/python_env_cache.h"
#include "inventory/python_probe.h"
#include "platform/root_fs.h"
#include "inventory/system_info.h"
#include "inventory/toolkit_choice.h"
#include "inventory/toolkit_scan.h"
#include "inventory/trace.h"
#include "inventory/version_prefetch.h"
#include "platform/environment.h"

extern char** environ;

namespace gpucheck::inventory {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

EnvMap process_environment() {
  EnvMap env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return env;
}

std::vector<std::string> conda_roots(const platform::RootFs& fs, const EnvMap& env) {
  std::vector<std::string> roots;
  auto add = [&](const std::string& p) {
    if (!p.empty() && fs.is_dir(path_join(p, "conda-meta")) && std::find(roots.begin(), roots.end(), p) == roots.end())
      roots.push_back(p);
  };
  if (auto it = env.find("CONDA_PREFIX"); it != env.end()) add(it->second);
  std::vector<std::string> installs = {"/opt/conda", "/opt/miniconda3", "/opt/miniforge3"};
  if (auto it = env.find("HOME"); it != env.end())
    for (const char* d : {"miniconda3", "anaconda3", "miniforge3", "mambaforge"}) installs.push_back(path_join(it->second, d));
  for (const auto& i : installs) {
    add(i);
    for (const auto& e : fs.list(path_join(i, "envs"))) add(path_join(i, "envs/" + e));
  }
  return roots;
}

void check_explicit_pythons(const platform::RootFs& fs, const std::vector<std::string>& pythons) {
  for (const auto& p : pythons) {
    if (!fs.exists(p)) throw InputError("--python " + p + ": no such file");
    if (!fs.is_executable(p)) throw InputError("--python " + p + ": not an executable file");
    // Whether it is a Python is known when its probe answers (below): a second interpreter start here
    // would cost ~50-150 ms on every run (issue 21: env --python within import torch + 0.3 s).
  }
}

// Relative --root / --python arguments are relative to the working directory, not to "/".
std::string absolute(const std::string& p) {
  if (p.empty() || p.front() == '/') return p;
  std::error_code ec;
  auto a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

// NVIDIA's support policy for each toolkit fills the bounds host_config.h does not enforce. Where the
// compiler nvcc would use falls in them is a verdict, made in checks/compiler.
void add_host_compiler_ranges(std::vector<Toolkit>& toolkits, const knowledge::KnowledgeBase* kb) {
  for (auto& tk : toolkits) {
    auto policy = kb && !tk.version.empty() ? kb->host_compilers(tk.version) : std::nullopt;
    tk.host_compilers = complete_host_compiler_ranges(std::move(tk.host_compilers), policy);
  }
}

// The environments not run (gpucheck env --python X): each other site-packages described from its files,
// except those the probed interpreters already reported.
void add_pythons_from_files(const platform::RootFs& fs, const std::vector<std::string>& sites, std::vector<PythonEnv>& pythons) {
  std::vector<std::string> known;
  for (const auto& p : pythons)
    for (const auto& s : p.site_packages) known.push_back(fs.resolve(s));
  for (const auto& site : sites) {
    if (std::find(known.begin(), known.end(), fs.resolve(site)) != known.end()) continue;
    auto p = describe_python_from_files(fs, site);
    if (!p.packages.empty() || p.torch_installed) pythons.push_back(std::move(p));
  }
}

}  // namespace

Inventory collect(const CollectOptions& given) {
  CollectOptions options = given;
  options.root = absolute(options.root.empty() ? "/" : options.root);
  for (auto& p : options.pythons) p = absolute(p);
  platform::RootFs fs(options.root);
  if (!fs.live()) {
    if (!platform::RootFs("/").is_dir(options.root)) throw InputError("--root " + given.root + ": not a directory");
  }
  if (!fs.live() && !options.pythons.empty())
    throw InputError("--python cannot be combined with --root: nothing inside the root is executed");
  check_explicit_pythons(fs, options.pythons);

  EnvMap env;
  if (options.environment) env = *options.environment;
  else if (fs.live()) env = process_environment();
  else env = {{"PATH", kImageDefaultPath}};

  // Read once; every "where would the loader find it" below uses this one (inventory/loader_cache.h).
  const LoaderCache loader_cache = read_loader_cache(fs);
  const platform::LdCache& ld_cache = loader_cache.cache;

  // First of all: the cuBLAS version children are the longest lookup by far (see version_prefetch.h).
  VersionPrefetch prefetch;
  if (options.read_library_versions) prefetch.start(fs, env, options.version_cache, ld_cache);

  Inventory inv;
  inv.collected_at = utc_now_iso();
  inv.root = fs.root();
  inv.hostname = fs.live() ? platform::hostname() : "";
  if (!loader_cache.note.empty()) inv.notes.push_back(loader_cache.note);
  const auto t0 = Clock::now();
  std::vector<std::string> timings;
  std::mutex timings_mutex;
  std::string knowledge_error;
  auto timed = [&](const std::string& what, Clock::time_point start) {
    trace(what + " done");
    std::lock_guard<std::mutex> lock(timings_mutex);
    timings.push_back(what + " " + std::to_string(static_cast<int>(ms_since(start))) + " ms");
  };

  // Independent lookups run concurrently; the slow ones (Python probes, library version children,
  // compiler --version) overlap each other.
  auto driver = std::async(std::launch::async, [&] {
    auto d = read_driver(fs, ld_cache);
    timed("driver", t0);
    return d;
  });
  auto gpus = std::async(std::launch::async, [&] {
    if (!fs.live()) return GpuScan{{}, "", "not queried under --root (NVML needs the live driver)"};
    auto it = env.find("CUDA_VISIBLE_DEVICES");
    return read_gpus(it == env.end() ? nullptr : it->second.c_str());
  });
  inv.gpu_presence = read_gpu_presence(fs);  // a few sysfs reads
  auto system = std::async(std::launch::async, [&] {
    auto s = read_system(fs, env, ld_cache);
    timed("system", t0);
    return s;
  });
  auto knowledge = std::async(std::launch::async, [&]() -> std::optional<knowledge::KnowledgeBase> {
    try {
      auto kb = knowledge::KnowledgeBase::load();
      trace("knowledge base loaded");
      return kb;
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(timings_mutex);
      knowledge_error = e.what();
      return std::nullopt;
    }
  });
  auto compilers = std::async(std::launch::async, [&] {
    auto c = scan_compilers(fs, env);
    timed("compilers", t0);
    return c;
  });

  trace("collect: concurrent lookups started");
  auto candidates = discover_pythons(fs, env, options.pythons);
  char cwd_buf[4096] = {0};
  std::string cwd = getcwd(cwd_buf, sizeof cwd_buf) ? cwd_buf : "/";
  auto file_sites = site_packages_from_files(fs, env, candidates);
  trace("collect: site-packages known");
  // With --python the environments asked about are the ones run (one child each, which imports torch
  // once); the others are described from their files, so they cost no interpreter start-up or import.
  std::vector<PythonCandidate> to_probe;
  for (const auto& c : candidates)
    if (options.pythons.empty() || c.via == "--python") to_probe.push_back(c);
  std::future<std::vector<PythonEnv>> pythons;
  // The probes' answers are remembered beside the library versions, under the same switch (--no-cache).
  const std::string python_cache = options.version_cache.empty() ? "" : default_python_cache_dir();
  std::vector<std::string> python_notes;
  if (options.python && fs.live()) {
    pythons = std::async(std::launch::async, [&] {
      std::vector<std::future<std::pair<PythonEnv, std::string>>> jobs;  // each with its cache note
      for (const auto& c : to_probe)
        jobs.push_back(std::async(std::launch::async, [&, c, run_as = resolve_pyenv_shim(fs, env, c.path, cwd)] {
          ProbeRequest req;
          req.run_as = run_as;
          FactsFrom from;
          PythonEnv p = probe_python_cached(c.path, c.via, req, python_cache, &from);
          p.found_via.insert(p.found_via.end(), c.also_via.begin(), c.also_via.end());
          return std::make_pair(std::move(p), cached_facts_note(c.path, from));
        }));
      std::vector<PythonEnv> out;
      for (auto& j : jobs) {
        auto [p, note] = j.get();
        if (!note.empty()) {
          std::lock_guard<std::mutex> lock(timings_mutex);
          python_notes.push_back(note);
        }
        out.push_back(std::move(p));
      }
      timed("pythons", t0);
      return out;
    });
  }

  auto scan_stack = [&](const std::vector<std::string>& sites, const std::map<std::string, std::string>& loaded_versions) {
    auto start = Clock::now();
    ToolkitScanInput ti;
    ti.env = env;
    ti.site_packages = sites;
    ti.conda_roots = conda_roots(fs, env);
    ti.allow_exec = fs.live();
    auto toolkits = scan_toolkits(fs, ti);
    timed("toolkits", start);
    LibraryScanInput li;
    li.env = env;
    li.toolkits = toolkits;
    li.site_packages = sites;
    li.read_versions = options.read_library_versions && fs.live();
    li.version_cache = options.version_cache;
    li.prefetch = &prefetch;
    li.ld_cache = &ld_cache;
    li.loaded_versions = loaded_versions;
    auto libs = scan_libraries(fs, li);
    timed("toolkits+libraries", start);
    return std::make_pair(std::move(toolkits), std::move(libs));
  };
  auto stack = std::async(std::launch::async, scan_stack, file_sites, std::map<std::string, std::string>{});

  if (pythons.valid()) {
    auto probed = pythons.get();
    for (std::size_t i = 0; i < probed.size(); ++i) {
      const auto& c = to_probe[i];
      if (c.via == "--python" && probed[i].version.empty())
        throw InputError("--python " + c.path + ": not a Python interpreter (" +
                         (probed[i].error.empty() ? std::string("its answer names no version") : probed[i].error) + ")");
    }
    inv.pythons = merge_python_envs(std::move(probed));
    inv.notes.insert(inv.notes.end(), python_notes.begin(), python_notes.end());
    if (to_probe.size() < candidates.size()) add_pythons_from_files(fs, file_sites, inv.pythons);
  } else if (options.python) {
    add_pythons_from_files(fs, file_sites, inv.pythons);
  }

  // Metadata of the environments that were run (with --python: only those asked about), or of every one
  // described from files under --root; the others' hundreds of dist-info directories cost time unasked.
  for (auto& p : inv.pythons)
    if (!fs.live() || !options.python || p.found_via != std::vector<std::string>{"files"}) read_python_distributions(fs, p);
  trace("collect: distributions read");

  auto [toolkits, libraries] = stack.get();
  trace("collect: stack joined");
  // A Python may name site-packages the file-based guess missed (PYTHONPATH, user site): scan again then.
  std::vector<std::string> sites = file_sites;
  bool extra = false;
  for (const auto& p : inv.pythons)
    for (const auto& s : p.site_packages) {
      std::string r = fs.resolve(s);
      if (!r.empty() && std::find(sites.begin(), sites.end(), r) == sites.end()) sites.push_back(r), extra = true;
    }
  // The libraries the probed Pythons loaded were asked for their version there (mapped_library_versions).
  std::map<std::string, std::string> loaded_versions;
  for (const auto& p : inv.pythons)
    for (const auto& [path, version] : p.mapped_library_versions)
      if (std::string real = fs.resolve(path); !real.empty()) loaded_versions.emplace(real, version);
  if (extra) std::tie(toolkits, libraries) = scan_stack(sites, loaded_versions);
  inv.toolkits = std::move(toolkits);
  inv.libraries = std::move(libraries);
  inv.toolkit_choices = choose_toolkits(fs, env, inv.toolkits);

  inv.driver = driver.get();
  auto g = gpus.get();
  inv.gpus = std::move(g.gpus);
  if (inv.driver.version.empty() && !g.driver_version.empty()) inv.driver.version = g.driver_version;
  inv.system = system.get();
  auto c = compilers.get();
  inv.nvcc_host_compiler = c.nvcc_host_compiler;
  inv.nvcc_host_compiler_source = c.nvcc_host_compiler_source;
  auto kb = knowledge.get();
  if (!kb) inv.notes.push_back("host compiler support policy not loaded: " + knowledge_error);
  add_host_compiler_ranges(inv.toolkits, kb ? &*kb : nullptr);
  inv.compilers = std::move(c.compilers);
  for (auto& n : driver_notes(inv.driver, g.error)) inv.notes.push_back(std::move(n));
  adopt_driver_library_mismatch(inv.driver, g.error);
  if (!options.python) inv.notes.push_back("Python environments not probed (gpucheck env --no-python, or run --level quick)");
  trace("collect: done");
  if (options.timings) {
    timed("total", t0);
    for (const auto& t : timings) inv.notes.push_back("timing: " + t);
  }
  return inv;
}

}  // namespace gpucheck::inventory
