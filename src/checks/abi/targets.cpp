#include "checks/abi/targets.h"

#include <dirent.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "platform/elf_object.h"
#include "checks/abi/object_cache.h"
#include "core/errors.h"
#include "core/text.h"
#include "platform/python_query.h"

namespace gpucheck::abi {
namespace {

// The kernel's views (/proc, /sys, cgroups, debug and trace filesystems, /dev/pts) hold no objects to audit,
// and walking them never ends: /proc/PID/root leads back to / once per process (issue 15 item 12).
const char* pseudo_filesystem(const std::string& path) {
  struct statfs fs {};
  if (::statfs(path.c_str(), &fs) != 0) return nullptr;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case PROC_SUPER_MAGIC: return "proc";
    case SYSFS_MAGIC: return "sysfs";
    case CGROUP_SUPER_MAGIC: return "cgroup";
    case CGROUP2_SUPER_MAGIC: return "cgroup2";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case SECURITYFS_MAGIC: return "securityfs";
    case DEVPTS_SUPER_MAGIC: return "devpts";
    case BPF_FS_MAGIC: return "bpf";
    default: return nullptr;
  }
}

struct Walker {
  TargetSet& set;
  std::set<std::pair<dev_t, ino_t>> visited;  // directories on the way, by identity, to stop symlink loops
  std::set<std::string> seen_files;

  void file(const std::string& path) {
    if (!platform::ElfObject::is_elf_file(path)) return;
    std::string real = real_path(path);
    if (seen_files.insert(real).second) set.files.push_back(path);
  }

  void dir(const std::string& path, int depth) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      set.notes.push_back(path + ": " + std::strerror(errno));
      return;
    }
    if (!visited.insert({st.st_dev, st.st_ino}).second) {
      set.notes.push_back("directory loop: " + path + " is a directory already being scanned (" + real_path(path) + "), skipped");
      return;
    }
    if (depth > 64) {
      set.notes.push_back(path + ": deeper than 64 levels, skipped");
      return;
    }
    if (const char* fs = pseudo_filesystem(path)) {
      set.notes.push_back(path + ": a " + fs + " filesystem (the kernel's view, no objects), skipped");
      visited.erase({st.st_dev, st.st_ino});
      return;
    }
    DIR* d = opendir(path.c_str());
    if (!d) {
      set.notes.push_back(path + ": " + std::strerror(errno));
      return;
    }
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
      std::string p = path + (path.back() == '/' ? "" : "/") + n;
      struct stat es {};
      if (::stat(p.c_str(), &es) != 0) continue;  // dangling symlink
      if (S_ISDIR(es.st_mode)) dir(p, depth + 1);
      else if (S_ISREG(es.st_mode)) file(p);
    }
    visited.erase({st.st_dev, st.st_ino});  // only ancestors count: siblings may share a target legitimately
  }
};

// Asks `python` (platform/python_query.h) with `script` added; an interpreter that cannot answer is an
// input error: the user named it (--python) or it is the python3 on PATH the audit needs.
platform::PythonFacts ask(const std::string& python, const char* script, const std::vector<std::string>& args = {}) {
  platform::PythonQuery q;
  q.extra_script = script;
  q.args = args;
  q.timeout_s = 60;
  auto f = platform::query_python(python, q);
  if (!f.answered) throw InputError("cannot ask python '" + python + "' where things are: " + f.error);
  return f;
}

// Where torch is, without importing it.
const char* kTorchScript = R"PY(
import importlib.util
o["torch"] = ""
try:
    _s = importlib.util.find_spec("torch")
    if _s and _s.submodule_search_locations: o["torch"] = list(_s.submodule_search_locations)[0]
except Exception: pass
)PY";

// The files of an importable module or, failing that, an installed distribution named sys.argv[1].
const char* kPackageScript = R"PY(
import importlib.util
name = sys.argv[1]
out = []
for cand in (name, name.replace("-", "_")):
    try: s = importlib.util.find_spec(cand)
    except Exception: s = None
    if s is None: continue
    if s.submodule_search_locations: out += list(s.submodule_search_locations)
    elif s.origin and os.path.exists(s.origin): out.append(s.origin)
    break
if not out:
    try:
        from importlib import metadata
        d = metadata.distribution(name)
        for f in d.files or []:
            if ".so" in str(f): out.append(str(d.locate_file(f)))
    except Exception: pass
o["package_paths"] = out
# Its Requires-Dist names (metadata only, nothing imported): an extension package needing torch cannot be
# imported in an interpreter without torch.
req = []
try:
    from importlib import metadata
    for line in metadata.requires(name) or []:
        if "extra ==" in line: continue
        n = line.split(";")[0].strip()
        for sep in "<>=!~ [(":
            n = n.split(sep)[0]
        req.append(n.strip().lower())
except Exception: pass
o["requires"] = req
)PY";

}  // namespace

void add_path_target(const std::string& input, TargetSet& set) {
  struct stat st {};
  if (::stat(input.c_str(), &st) != 0) throw InputError(input + ": " + std::strerror(errno));
  Walker w{set, {}, {}};
  for (const auto& f : set.files) w.seen_files.insert(real_path(f));
  if (S_ISDIR(st.st_mode)) {
    w.dir(input, 0);
    return;
  }
  if (!S_ISREG(st.st_mode)) throw InputError(input + ": not a regular file or directory");
  if (std::string why = platform::ElfObject::not_elf_reason(input); !why.empty()) throw InputError(input + ": " + why);
  w.file(input);
}

PythonEnvPaths probe_python(const std::string& python) {
  auto f = ask(python, kTorchScript);
  PythonEnvPaths p;
  p.executable = f.executable;
  p.site_packages = f.site_packages;
  p.torch_dir = f.text("torch");
  return p;
}

std::vector<std::string> python_package_paths(const std::string& python, const std::string& name,
                                              std::vector<std::string>* requires_names) {
  auto f = ask(python, kPackageScript, {name});
  auto out = f.texts("package_paths");
  if (out.empty()) throw InputError("python package '" + name + "' is not installed for " + python);
  if (requires_names) *requires_names = f.texts("requires");
  return out;
}

std::vector<std::string> torch_extension_files(const PythonEnvPaths& env, TargetSet& set) {
  TargetSet all;
  for (const auto& sp : env.site_packages) add_path_target(sp, all);
  std::string torch_real = env.torch_dir.empty() ? "" : real_path(env.torch_dir) + "/";
  std::vector<std::string> out;
  for (const auto& f : all.files) {
    if (f.find(".so") == std::string::npos) continue;
    if (!torch_real.empty() && real_path(f).rfind(torch_real, 0) == 0) continue;
    try {
      auto o = platform::ElfObject::open(f);
      for (auto n : o->needed())
        if (n.rfind("libc10", 0) == 0 || n.rfind("libtorch", 0) == 0) {
          out.push_back(f);
          break;
        }
    } catch (const platform::ElfError& e) {
      set.notes.push_back(e.what());
    }
  }
  set.notes.insert(set.notes.end(), all.notes.begin(), all.notes.end());
  return out;
}

std::vector<std::string> torch_library_files(const std::string& torch_dir) {
  TargetSet s;
  add_path_target(torch_dir + "/lib", s);
  for (const auto& e : std::filesystem::directory_iterator(torch_dir)) {
    std::string n = e.path().filename().string();
    if (n.rfind("_C", 0) == 0 && n.find(".so") != std::string::npos) s.files.push_back(e.path().string());
  }
  return s.files;
}

std::vector<std::string> torch_preload(const std::string& dir) {
  std::vector<std::string> out;
  // torch/__init__.py loads libtorch_global_deps first, then _C (-> libtorch_python -> libtorch -> cpu/cuda, c10).
  for (const char* n : {"libtorch_global_deps.so", "libc10.so", "libc10_cuda.so", "libtorch_cpu.so",
                        "libtorch_cuda.so", "libtorch.so", "libtorch_python.so"}) {
    std::string p = dir + "/" + n;
    if (std::filesystem::exists(p)) out.push_back(p);
  }
  if (out.empty()) throw InputError(dir + ": no libtorch/libc10 libraries there");
  return out;
}

}  // namespace gpucheck::abi
