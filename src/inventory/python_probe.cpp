#include "inventory/python_probe.h"

#include <sched.h>

#include <algorithm>
#include <set>

#include "core/text.h"
#include "platform/dist_info.h"
#include "platform/python_query.h"
#include "platform/environment.h"
#include "inventory/library_version.h"
#include "knowledge/text_pattern.h"

namespace gpucheck::inventory {

namespace {

const std::set<std::string> kRelevant = {
    "torch", "torchvision", "torchaudio", "triton", "pytorch-triton", "bmtrain", "flash-attn", "xformers", "apex",
    "deepspeed", "bitsandbytes", "transformers", "accelerate", "peft", "numpy", "cupy", "jax", "jaxlib",
    "vllm", "megatron-core", "nvidia-ml-py", "pynvml", "pip", "setuptools", "wheel", "ninja"};

// Added to the interpreter's own facts (platform/python_query.h). Kept short and dependency-free: it must
// run on any Python >= 3.6 and never import what it measures except torch.
const char* kTorchScript = R"PY(
pk = {}
for d in dirs:
    try: names = os.listdir(d)
    except OSError: continue
    for n in names:
        for suf in (".dist-info", ".egg-info"):
            if n.endswith(suf):
                stem = n[:-len(suf)]
                name, _, ver = stem.partition("-")
                ver = ver.split("-py")[0]
                key = "-".join(x for x in name.replace("_", "-").replace(".", "-").lower().split("-") if x)
                if key not in pk: pk[key] = ver
o["all_packages"] = pk
def maps():
    seen, known = [], set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split(None, 5)
                if len(p) == 6:
                    path = p[5].strip()
                    if path not in known and path.startswith("/") and ".so" in os.path.basename(path):
                        known.add(path)
                        seen.append(path)
    except OSError: pass
    return seen
# The CUDA libraries now mapped, asked for their version by their own function here, where they are loaded
# already: RTLD_NOLOAD never loads a file, so nothing runs that import torch did not run, and the inventory
# spares a dlopen child per directory (libcublasLt alone: ~0.1 s of CPU). The kinds and calls are those of
# gpucheck-libversion (inventory/libversion_helper); the numbers are decoded by the inventory.
# cuDNN 9's libcudnn.so.9 is a shim: cudnnGetVersion answers from the libcudnn_graph it dlopened by SONAME, so
# with another release's sub-libraries first on LD_LIBRARY_PATH it gives that release's number (issue 13:
# 91900 for a wheel of 9.1.0). Such a reading is not the file's: it is left to the helper (library_version).
def cudnn_mixed(path, paths):
    here = os.path.dirname(os.path.realpath(path))
    return any(os.path.basename(p).startswith("libcudnn_") and os.path.dirname(os.path.realpath(p)) != here
               for p in paths)
def loaded_versions(paths):
    import ctypes
    kinds = (("libcudart.so", "cudart"), ("libcublasLt.so", "cublasLt"), ("libcublas.so", "cublas"),
             ("libcudnn.so", "cudnn"), ("libnccl.so", "nccl"), ("libnvrtc.so", "nvrtc"), ("libnvJitLink.so", "nvjitlink"))
    out = []
    for path in paths:
        kind = [k for pre, k in kinds if os.path.basename(path).startswith(pre)]
        if not kind: continue
        kind = kind[0]
        if kind == "cudnn" and cudnn_mixed(path, paths): continue
        try:
            h = ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
            a, b, c = ctypes.c_int(0), ctypes.c_int(0), ctypes.c_int(0)
            raw, rc = [], 0
            if kind == "cudart":
                rc = h.cudaRuntimeGetVersion(ctypes.byref(a)); raw = [a.value]
            elif kind == "cublas":
                for i, x in enumerate((a, b, c)): rc = rc or h.cublasGetProperty(i, ctypes.byref(x))
                raw = [a.value, b.value, c.value]
            elif kind in ("cublasLt", "cudnn"):
                f = h.cublasLtGetVersion if kind == "cublasLt" else h.cudnnGetVersion
                f.restype = ctypes.c_size_t
                raw = [f()]
            elif kind == "nccl":
                rc = h.ncclGetVersion(ctypes.byref(a)); raw = [a.value]
            elif kind == "nvrtc":
                rc = h.nvrtcVersion(ctypes.byref(a), ctypes.byref(b)); raw = [a.value, b.value]
            else:
                u, v = ctypes.c_uint(0), ctypes.c_uint(0)
                rc = h.nvJitLinkVersion(ctypes.byref(u), ctypes.byref(v)); raw = [u.value, v.value]
            if rc == 0: out.append({"name": kind, "path": path, "raw": raw})
        except BaseException: continue
    return out
# Compiled extensions break at import time ("undefined symbol" after a torch upgrade; "No module named
# 'torch'" when installed without it): import the installed ones (found by dist-info) and keep what they
# raise. Skipped when torch itself fails to import (that is the one error then). torchao imports silently
# when its C++ ops do not load, so its _C library is loaded the way torchao does.
# Each import runs in a child forked after `import torch` (copy-on-write: a child pays for its own import
# only), at most `jobs` at a time and each within `limit` seconds: one that hangs is reported as such and
# killed, the others still answer. A child sends its errors and the libraries it mapped beyond torch's.
def import_in_child(pkg, mod, before):
    ie = {}
    try: m = __import__(mod)
    except BaseException as e:
        ie[mod] = "%s: %s" % (type(e).__name__, e)
        m = None
    if m is not None and mod == "torchao" and o["torch_installed"]:
        here = os.path.dirname(getattr(m, "__file__", "") or "")
        try: libs = sorted(n for n in os.listdir(here) if n.startswith("_C") and n.endswith(".so"))
        except OSError: libs = []
        for n in libs:
            try: torch.ops.load_library(os.path.join(here, n))
            except BaseException as e: ie["torchao." + n.split(".")[0]] = "%s: %s" % (type(e).__name__, e)
    new = [p for p in maps() if p not in before]
    return {"errors": ie, "mapped_libraries": new, "mapped_library_versions": loaded_versions(new)}
import time
now = getattr(time, "monotonic", time.time)
class ImportChecks(object):
    def __init__(self, todo, limit, jobs):
        self.queue, self.limit, self.jobs, self.running, self.done = list(todo), limit, jobs, {}, {}
        self.before = set(maps())
    def spawn(self):
        import warnings
        while self.queue and len(self.running) < self.jobs:
            pkg, mod = self.queue.pop(0)
            r, w = os.pipe()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # 3.12: "fork() with threads": the child only imports
                pid = os.fork()
            if pid == 0:
                try:
                    os.close(r)
                    data = json.dumps(import_in_child(pkg, mod, self.before)).encode("utf-8")
                    while data: data = data[os.write(w, data):]
                finally:
                    os._exit(0)
            os.close(w)
            self.running[r] = [pkg, mod, pid, now() + self.limit, []]
    def finish(self, r, timed_out):
        pkg, mod, pid, _, chunks = self.running.pop(r)
        os.close(r)
        if timed_out:
            try: os.kill(pid, 9)
            except OSError: pass
        status = os.waitpid(pid, 0)[1]
        try: res = json.loads(b"".join(chunks).decode("utf-8"))
        except ValueError: res = None
        if timed_out:
            res = {"errors": {mod: "TimeoutError: import %s did not finish within %g s" % (mod, self.limit)}}
        elif not isinstance(res, dict):
            why = "was killed by signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else \
                  "exited %d without an answer" % os.WEXITSTATUS(status)
            res = {"errors": {mod: "ChildProcessError: import %s %s" % (mod, why)}}
        self.done[pkg] = res
    def wait(self):
        import select
        self.spawn()
        while self.running:
            left = max(0.0, min(v[3] for v in self.running.values()) - now())
            try: ready = select.select(list(self.running), [], [], left)[0]
            except (OSError, select.error): ready = []  # EINTR on Python 2
            for r in ready:
                chunk = os.read(r, 1 << 16)
                if chunk: self.running[r][4].append(chunk)
                else: self.finish(r, False)
            for r in [r for r, v in self.running.items() if v[3] <= now()]: self.finish(r, True)
            self.spawn()
        return self.done
# What the caller still needs (sys.argv[1], JSON; the rest it has from its cache): "torch": torch's facts,
# "imports": [distribution, module] pairs whose import to check when installed, "limit" and "jobs" for those.
req = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
want_torch = req.get("torch", True)
todo = [(p, m) for p, m in req.get("imports", []) if p in pk]
o["torch_installed"] = False
checks = None
if want_torch or todo:
    try:
        import torch
    except BaseException as e:
        # Not installed is not an error: ModuleNotFoundError for "torch" itself (Python 2: the message).
        if not (isinstance(e, ImportError) and (getattr(e, "name", None) == "torch" or str(e) == "No module named torch")):
            o["torch_import_error"] = "%s: %s" % (type(e).__name__, e)
    else:
        o["torch_installed"] = True
    if not o.get("torch_import_error"):
        checks = ImportChecks(todo, float(req.get("limit", 60)), int(req.get("jobs", 0) or os.cpu_count() or 1))
        checks.spawn()
if o["torch_installed"] and want_torch:
    def attempt(f):
        try: return f()
        except BaseException as e: return None
    o["torch_version"] = str(getattr(torch, "__version__", ""))
    o["torch_path"] = os.path.dirname(getattr(torch, "__file__", "") or "")
    v = getattr(torch, "version", None)
    o["torch_cuda"] = str(getattr(v, "cuda", "") or "")
    o["torch_git_version"] = str(getattr(v, "git_version", "") or "")
    cd = attempt(lambda: torch.backends.cudnn.version())
    o["torch_cudnn"] = str(cd) if cd else ""
    nc = attempt(lambda: torch.cuda.nccl.version())
    o["torch_nccl"] = ".".join(str(x) for x in nc) if isinstance(nc, tuple) else (str(nc) if nc else "")
    abi = attempt(lambda: torch._C._GLIBCXX_USE_CXX11_ABI)
    o["torch_cxx11_abi"] = bool(abi) if abi is not None else None
    arch = attempt(lambda: torch._C._cuda_getArchFlags())
    o["torch_arch_list"] = arch.split() if isinstance(arch, str) else []
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        av = attempt(lambda: bool(torch.cuda.is_available()))
    o["cuda_available"] = av
    if av is False:
        msg = ""
        try: torch.cuda.init()
        except BaseException as e: msg = "%s: %s" % (type(e).__name__, e)
        if not msg and w: msg = str(w[-1].message)
        o["cuda_error"] = msg.strip()
    # torch built against another numpy C ABI (torch 2.1 with numpy 2: "_ARRAY_API not found" at import,
    # then "Numpy is not available"): imports fine, fails at the first conversion.
    if "numpy" in pk:
        try:
            import numpy
            torch.from_numpy(numpy.zeros(1))
        except BaseException as e: o["torch_numpy_error"] = "%s: %s" % (type(e).__name__, e)
o["mapped_libraries"] = maps()
o["mapped_library_versions"] = loaded_versions(o["mapped_libraries"])
if checks: o["import_checks"] = checks.wait()
)PY";

}  // namespace

bool is_relevant_package(const std::string& n) { return kRelevant.count(n) || starts_with(n, "nvidia-"); }


std::vector<PythonCandidate> discover_pythons(const platform::RootFs& fs, const EnvMap& env, const std::vector<std::string>& extra) {
  std::vector<PythonCandidate> raw;
  for (const auto& dir : split(platform::env_value(env, "PATH"), ':')) {
    if (dir.empty() || dir.front() != '/') continue;
    for (const char* name : {"python3", "python"})
      if (fs.is_executable(path_join(dir, name))) raw.push_back({path_join(dir, name), "PATH"});
  }
  if (auto v = platform::env_value(env, "VIRTUAL_ENV"); !v.empty()) raw.push_back({path_join(v, "bin/python"), "VIRTUAL_ENV"});
  if (auto v = platform::env_value(env, "CONDA_PREFIX"); !v.empty()) raw.push_back({path_join(v, "bin/python"), "CONDA_PREFIX"});
  for (const auto& p : extra) raw.push_back({p, "--python"});
  std::vector<PythonCandidate> out;
  std::vector<std::string> reals;
  for (const auto& c : raw) {
    if (c.via != "--python" && !fs.is_executable(c.path)) continue;
    // One file is one environment, except in a venv: `python3 -m venv` links bin/python to the base
    // interpreter, and the pyvenv.cfg beside bin/ (where Python looks, from the unresolved path) makes it
    // another environment with its own prefix and site-packages.
    std::string venv = parent_dir(parent_dir(c.path));
    std::string real = fs.is_file(path_join(venv, "pyvenv.cfg")) ? fs.resolve(venv) + "/pyvenv.cfg" : fs.resolve(c.path);
    auto it = std::find(reals.begin(), reals.end(), real);
    if (it != reals.end() && c.via != "--python") {  // same file already listed: keep the route
      auto& first = out[static_cast<std::size_t>(it - reals.begin())];
      if (first.via != c.via && std::find(first.also_via.begin(), first.also_via.end(), c.via) == first.also_via.end())
        first.also_via.push_back(c.via);
      continue;
    }
    reals.push_back(real);
    out.push_back(c);
  }
  return out;
}

namespace {
const nlohmann::json* member(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// An answer's (or one import check's) mapped libraries and the versions read in that process.
void add_mapped(PythonEnv& p, const nlohmann::json& part) {
  if (const auto* maps = member(part, "mapped_libraries"); maps && maps->is_array())
    for (const auto& m : *maps)
      if (m.is_string() && std::find(p.mapped_libraries.begin(), p.mapped_libraries.end(), m) == p.mapped_libraries.end())
        p.mapped_libraries.push_back(m.get<std::string>());
  if (const auto* readings = member(part, "mapped_library_versions"); readings && readings->is_array()) {
    // The same lines gpucheck-libversion prints, read the same lenient way.
    std::string lines;
    for (const auto& reading : *readings) lines += reading.dump() + "\n";
    for (const auto& [path, reading] : parse_version_helper_output(lines))
      if (!reading.version.empty()) p.mapped_library_versions[path] = reading.version;
  }
}
}  // namespace

// The interpreter's facts and the torch script's keys as an inventory entry; each import check adds its
// errors and the libraries (with versions) its child mapped beyond torch's.
PythonEnv python_env_from(const platform::PythonFacts& f) {
  PythonEnv p;
  p.executable = f.executable;
  p.version = f.version;
  p.prefix = f.prefix;
  p.kind = f.kind;
  p.site_packages = f.site_packages;
  for (const auto& [name, version] : f.text_map("all_packages"))
    if (is_relevant_package(name)) p.packages[name] = version;
  p.torch_installed = f.flag("torch_installed").value_or(false);
  p.torch_version = f.text("torch_version");
  p.torch_path = f.text("torch_path");
  p.torch_cuda = f.text("torch_cuda");
  p.torch_git_version = f.text("torch_git_version");
  p.torch_cudnn = f.text("torch_cudnn");
  p.torch_nccl = f.text("torch_nccl");
  p.torch_cxx11_abi = f.flag("torch_cxx11_abi");
  p.torch_arch_list = f.texts("torch_arch_list");
  p.cuda_available = f.flag("cuda_available");
  p.cuda_error = f.text("cuda_error");
  p.torch_import_error = f.text("torch_import_error");
  p.torch_numpy_error = f.text("torch_numpy_error");
  add_mapped(p, f.answer);
  if (const auto* checks = member(f.answer, "import_checks"); checks && checks->is_object())
    for (const auto& [dist, check] : checks->items()) {
      if (const auto* errors = member(check, "errors"); errors && errors->is_object())
        for (const auto& [module, error] : errors->items())
          if (error.is_string()) p.import_errors[module] = error.get<std::string>();
      add_mapped(p, check);
    }
  return p;
}

std::string resolve_pyenv_shim(const platform::RootFs& fs, const EnvMap& env, const std::string& path, const std::string& cwd) {
  std::string shims = parent_dir(path);
  if (base_name(shims) != "shims" || !fs.is_file(path)) return "";
  std::string root = parent_dir(shims);
  if (!fs.is_dir(path_join(root, "versions"))) return "";
  std::string version = platform::env_value(env, "PYENV_VERSION");
  for (std::string dir = cwd; version.empty() && !dir.empty(); dir = dir == "/" ? "" : parent_dir(dir))
    version = trim(fs.read(path_join(dir, ".python-version"), 4096));
  if (version.empty()) version = trim(fs.read(path_join(root, "version"), 4096));
  version = version.substr(0, version.find_first_of(" \n:"));  // the first of several: what the shim runs
  if (version.empty() || version == "system") return "";
  std::string exe = path_join(root, "versions/" + version + "/bin/" + base_name(path));
  return fs.is_executable(exe) ? exe : "";
}

const std::vector<std::pair<std::string, std::string>>& import_checked_packages() {
  static const std::vector<std::pair<std::string, std::string>> packages = {
      {"flash-attn", "flash_attn"}, {"xformers", "xformers"},         {"apex", "apex"},
      {"bmtrain", "bmtrain"},       {"bitsandbytes", "bitsandbytes"}, {"torchvision", "torchvision"},
      {"torchaudio", "torchaudio"}, {"torchao", "torchao"}};
  return packages;
}

platform::PythonFacts query_probe(const std::string& interpreter, const ProbeRequest& req) {
  nlohmann::json asked = {{"torch", req.torch}, {"limit", req.import_timeout_s}, {"imports", nlohmann::json::array()}};
  int jobs = req.import_jobs;
  if (jobs <= 0) {
    cpu_set_t set;
    jobs = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
  }
  asked["jobs"] = std::max(1, jobs);
  for (const auto& [dist, module] : import_checked_packages())
    if (!req.imports || std::find(req.imports->begin(), req.imports->end(), dist) != req.imports->end())
      asked["imports"].push_back({dist, module});
  platform::PythonQuery q;
  q.extra_script = kTorchScript;
  q.args = {asked.dump()};
  q.timeout_s = req.timeout_s;
  q.run_as = req.run_as;
  return platform::query_python(interpreter, q);
}

PythonEnv probe_python(const std::string& interpreter, const std::string& via, const ProbeRequest& req) {
  auto facts = query_probe(interpreter, req);
  PythonEnv p;
  if (facts.answered) p = python_env_from(facts);
  else p.error = facts.error;
  p.interpreter = interpreter;
  p.found_via = {via};
  p.probe_seconds = facts.seconds;
  return p;
}

std::vector<PythonEnv> merge_python_envs(std::vector<PythonEnv> envs) {
  std::vector<PythonEnv> out;
  for (auto& e : envs) {
    auto it = std::find_if(out.begin(), out.end(), [&](const PythonEnv& o) {
      // pyenv's python and python3 shims, or python3 and python3.11, are one installation.
      return e.error.empty() && o.error.empty() && o.prefix == e.prefix &&
             platform::RootFs("/").resolve(o.executable) == platform::RootFs("/").resolve(e.executable);
    });
    if (it == out.end()) {
      out.push_back(std::move(e));
      continue;
    }
    for (const auto& v : e.found_via)
      if (std::find(it->found_via.begin(), it->found_via.end(), v) == it->found_via.end()) it->found_via.push_back(v);
  }
  return out;
}

std::vector<std::string> site_packages_from_files(const platform::RootFs& fs, const EnvMap& env,
                                                  const std::vector<PythonCandidate>& candidates) {
  std::vector<std::string> prefixes;
  for (const auto& c : candidates) prefixes.push_back(parent_dir(parent_dir(fs.resolve(c.path))));
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (auto v = platform::env_value(env, var); !v.empty()) prefixes.push_back(v);
  std::string pyenv = platform::env_value(env, "PYENV_ROOT");
  if (pyenv.empty() && !platform::env_value(env, "HOME").empty()) pyenv = path_join(platform::env_value(env, "HOME"), ".pyenv");
  if (!pyenv.empty())
    for (const auto& v : fs.list(path_join(pyenv, "versions"))) prefixes.push_back(path_join(pyenv, "versions/" + v));
  for (const char* p : {"/usr", "/usr/local", "/opt/conda"}) prefixes.push_back(p);
  for (const auto& e : fs.list("/opt/conda/envs")) prefixes.push_back("/opt/conda/envs/" + e);
  std::vector<std::string> out;
  auto add = [&](const std::string& d) {
    std::string r = fs.resolve(d);
    if (!r.empty() && fs.is_dir(r) && std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  for (const auto& prefix : prefixes) {
    for (const auto& lib : fs.glob_prefix(path_join(prefix, "lib"), "python3")) {
      add(path_join(lib, "site-packages"));
      add(path_join(lib, "dist-packages"));
    }
  }
  return out;
}

PythonEnv describe_python_from_files(const platform::RootFs& fs, const std::string& site_packages) {
  PythonEnv p;
  std::string lib = parent_dir(site_packages);             // .../lib/python3.11
  std::string prefix = parent_dir(parent_dir(lib));        // ...
  p.prefix = prefix;
  p.kind = fs.is_dir(path_join(prefix, "conda-meta")) ? "conda"
           : fs.is_file(path_join(prefix, "pyvenv.cfg"))  ? "venv"
                                                          : "system";
  std::string ver = base_name(lib);
  if (starts_with(ver, "python")) p.version = ver.substr(6);
  else if (ver == "python3") p.version = "3";
  for (const char* name : {"bin/python3", "bin/python"})
    if (fs.exists(path_join(prefix, name))) {
      p.interpreter = path_join(prefix, name);
      break;
    }
  p.found_via = {"files"};
  p.site_packages = {site_packages};
  for (const auto& [name, version] : platform::read_dist_infos(fs, site_packages))
    if (is_relevant_package(name)) p.packages[name] = version;
  std::string torch_dir = path_join(site_packages, "torch");
  if (fs.is_dir(torch_dir)) {
    p.torch_installed = true;
    p.torch_path = torch_dir;
    std::string vpy = fs.read(path_join(torch_dir, "version.py"), 1u << 16);
    static const knowledge::TextPattern ver_re(R"(__version__[[:space:]]*=[[:space:]]*'([^']*)')");
    static const knowledge::TextPattern cuda_re(
        R"(\ncuda(?:[[:space:]]*:[[:space:]]*[^=]+)?[[:space:]]*=[[:space:]]*'([^']*)')");
    static const knowledge::TextPattern git_re(R"(git_version[[:space:]]*=[[:space:]]*'([^']*)')");
    if (auto m = ver_re.search(vpy)) p.torch_version = m->str(1);
    if (auto m = cuda_re.search(vpy)) p.torch_cuda = m->str(1);
    if (auto m = git_re.search(vpy)) p.torch_git_version = m->str(1);
    if (p.torch_version.empty() && p.packages.count("torch")) p.torch_version = p.packages["torch"];
  }
  return p;
}

}  // namespace gpucheck::inventory
