#include "bmtrain_installed/bmtrain_peer.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/half_bits.h"
#include "core/subprocess.h"
#include "platform/python_query.h"

namespace gpucheck::kernels::bmtrain {

namespace fs = std::filesystem;

namespace {

// Added to the interpreter's own facts (platform/python_query.h): where bmtrain is, and whether it imports.
const char* kLocateScript = R"PY(
import glob, importlib.util
o["found"] = False
spec = importlib.util.find_spec("bmtrain")
if spec is not None and spec.origin:
    pkg = os.path.dirname(spec.origin)
    o.update(found=True, package_dir=pkg, native_modules=sorted(glob.glob(os.path.join(pkg, "C*.so"))))
    try:
        import importlib.metadata as md
        o["bmtrain_version"] = md.version("bmtrain")
    except Exception:
        o["bmtrain_version"] = ""
    try:
        import bmtrain  # noqa: F401
        o["import_ok"] = True
    except BaseException as e:
        o["import_ok"] = False
        o["import_error"] = type(e).__name__ + ": " + str(e)
)PY";

// Loads the extension by file into an interpreter (embedded, or the child below) as `C` in __main__,
// once per path (an extension module's init runs once per process).
const char* kLoadModule = R"PY(
import importlib.machinery, importlib.util
if globals().get("_gpucheck_loaded_path") != _gpucheck_module_path:
    _loader = importlib.machinery.ExtensionFileLoader("bmtrain.C", _gpucheck_module_path)
    _spec = importlib.util.spec_from_file_location("bmtrain.C", _gpucheck_module_path, loader=_loader)
    C = importlib.util.module_from_spec(_spec)
    _loader.exec_module(C)
    _gpucheck_loaded_path = _gpucheck_module_path
)PY";

// Child interpreter, after kLoadModule; argv: module path, work dir. Calls the CPU Adam launcher with
// BMTrain 1.0.x's argument order (bmtrain/optim/_function.py::adam_cpu) on buffers read from files.
const char* kChildPrelude = "import sys\n_gpucheck_module_path = sys.argv[1]\n";
const char* kAdamScript = R"PY(
import ctypes, json, sys, time
d = sys.argv[2]
meta = json.load(open(d + "/meta.json"))
bufs = {}
for name in ("param", "param_h", "grad", "m", "v"):
    data = bytearray(open(d + "/" + name + ".bin", "rb").read())
    bufs[name] = (data, (ctypes.c_char * max(1, len(data))).from_buffer(data) if data else None)
addr = lambda k: ctypes.addressof(bufs[k][1]) if bufs[k][1] is not None else 0
fn = C.adam_cpu_bf16_launcher if meta["bf16"] else C.adam_cpu_fp16_launcher
best = None
for rep in range(meta["repeats"]):
    t0 = time.perf_counter()
    fn(meta["n"], addr("param"), addr("param_h"), 0, addr("grad"), addr("m"), addr("v"),
       meta["beta1"], meta["beta2"], meta["eps"], meta["lr"], meta["scale"], meta["weight_decay"],
       meta["bias_correction1"], meta["bias_correction2"])
    dt = time.perf_counter() - t0
    best = dt if best is None else min(best, dt)
    if rep == 0:
        for name in ("param", "param_h", "m", "v"):
            open(d + "/" + name + ".out", "wb").write(bytes(bufs[name][0]))
print(json.dumps({"seconds": best}))
)PY";


void write_bytes(const fs::path& p, const void* data, std::size_t n) {
  std::ofstream f(p, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
}

bool read_bytes(const fs::path& p, void* data, std::size_t n) {
  std::ifstream f(p, std::ios::binary);
  f.read(static_cast<char*>(data), static_cast<std::streamsize>(n));
  return static_cast<std::size_t>(f.gcount()) == n;
}

std::string tail(const std::string& s, std::size_t n = 400) { return s.size() > n ? s.substr(s.size() - n) : s; }

}  // namespace

Install locate(const std::string& python) {
  Install in;
  in.python = python;
  platform::PythonQuery q;
  q.extra_script = kLocateScript;
  q.timeout_s = 120;  // `import bmtrain` imports torch: slow on a cold cache
  auto f = platform::query_python(python, q);
  if (!f.answered) {
    in.python_error = f.error;
    return in;
  }
  in.python_ok = true;
  if (!f.executable.empty()) in.python = f.executable;
  in.python_version = f.version;
  in.found = f.flag("found").value_or(false);
  in.version = f.text("bmtrain_version");
  in.package_dir = f.text("package_dir");
  in.native_modules = f.texts("native_modules");
  in.import_ok = f.flag("import_ok").value_or(false);
  in.import_error = f.text("import_error");
  in.layout.library = f.libpython;
  in.layout.home = f.base_prefix + ":" + f.base_exec_prefix;  // PYTHONHOME's prefix:exec_prefix form
  in.layout.sys_path = f.sys_path;
  return in;
}

PeerRun run_cpu_adam_in_child(const std::string& python, const std::string& native_module, const AdamState& before,
                              const AdamHyper& h, int repeats) {
  PeerRun run;
  run.result = before;
  char tmpl[] = "/tmp/gpucheck-bmtrain-XXXXXX";
  if (!mkdtemp(tmpl)) {
    run.error = "mkdtemp failed";
    return run;
  }
  fs::path dir(tmpl);
  nlohmann::json meta = {{"n", before.size()},
                         {"bf16", before.variant == AdamVariant::kOffloadBf16},
                         {"repeats", std::max(1, repeats)},
                         {"beta1", h.beta1}, {"beta2", h.beta2}, {"eps", h.eps}, {"lr", h.lr}, {"scale", h.scale},
                         {"weight_decay", h.weight_decay},
                         {"bias_correction1", h.bias_correction1}, {"bias_correction2", h.bias_correction2}};
  std::ofstream(dir / "meta.json") << meta.dump();
  write_bytes(dir / "param.bin", before.param.data(), before.param.bytes());
  write_bytes(dir / "param_h.bin", before.param_h.data(), before.param_h.bytes());
  write_bytes(dir / "grad.bin", before.grad.data(), before.grad.bytes());
  write_bytes(dir / "m.bin", before.m.data(), before.m.bytes());
  write_bytes(dir / "v.bin", before.v.data(), before.v.bytes());
  SubprocessOptions o;
  o.timeout = std::chrono::seconds(120);
  auto r = run_subprocess({python, "-c", std::string(kChildPrelude) + kLoadModule + kAdamScript, native_module, dir.string()}, o);
  if (!r.ok()) {
    run.error = "bmtrain's adam_cpu launcher run " + r.describe() + (r.err.empty() ? "" : ": " + tail(r.err));
  } else {
    bool ok = read_bytes(dir / "param.out", run.result.param.data(), run.result.param.bytes()) &&
              read_bytes(dir / "param_h.out", run.result.param_h.data(), run.result.param_h.bytes()) &&
              read_bytes(dir / "m.out", run.result.m.data(), run.result.m.bytes()) &&
              read_bytes(dir / "v.out", run.result.v.data(), run.result.v.bytes());
    run.ran = ok;
    if (!ok) run.error = "bmtrain's adam_cpu launcher wrote incomplete outputs";
    try {
      run.seconds = nlohmann::json::parse(r.out).value("seconds", 0.0);
    } catch (const std::exception&) {
      run.seconds = 0;  // timing is informational; the outputs were checked above
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return run;
}

std::optional<NativeModule> NativeModule::load(const Install& in, const std::string& module_path,
                                               std::string& embed_error, std::string& load_error) {
  python::Embedded* py = python::Embedded::start(in.layout, embed_error);
  if (!py) return std::nullopt;
  embed_error.clear();  // a sys.path warning is not a reason to give up the embedded interpreter
  py->set_str("_gpucheck_module_path", module_path);
  load_error = py->exec(kLoadModule);
  if (!load_error.empty()) return std::nullopt;
  return NativeModule(py);
}

std::string NativeModule::call(const std::string& function, const std::vector<python::Arg>& args) {
  return py_->call("C." + function, args);
}

bool NativeModule::has(const std::string& function) {
  py_->set_str("_gpucheck_name", function);
  return py_->exec("_gpucheck_has = hasattr(C, _gpucheck_name)\n").empty() && py_->get_str("_gpucheck_has") == "True";
}

PeerRun run_cpu_adam(NativeModule& module, const AdamState& before, const AdamHyper& h, int repeats) {
  PeerRun run;
  const bool bf16 = before.variant == AdamVariant::kOffloadBf16;
  const std::string fn = bf16 ? "adam_cpu_bf16_launcher" : "adam_cpu_fp16_launcher";
  for (int rep = 0; rep < std::max(1, repeats); ++rep) {
    AdamState s = before;
    // BMTrain 1.0.x argument order (bmtrain/optim/_function.py::adam_cpu): n, param_fp32, param_16,
    // delta_info (0 = none), grad_16, m, v, beta1, beta2, eps, lr, scale, weight_decay, bc1, bc2.
    std::vector<python::Arg> args = {static_cast<std::int64_t>(s.size()), address(s.param.data()),
                                     address(s.param_h.data()), std::uint64_t{0}, address(s.grad.data()),
                                     address(s.m.data()), address(s.v.data()),
                                     double(h.beta1), double(h.beta2), double(h.eps), double(h.lr), double(h.scale),
                                     double(h.weight_decay), double(h.bias_correction1), double(h.bias_correction2)};
    auto t0 = std::chrono::steady_clock::now();
    std::string err = module.call(fn, args);
    double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!err.empty()) {
      run.error = "bmtrain's " + fn + " raised " + err;
      return run;
    }
    run.seconds = rep == 0 ? dt : std::min(run.seconds, dt);
    if (rep == 0) run.result = std::move(s);
  }
  run.ran = true;
  return run;
}

double bf16_truncated_fraction(const AdamState& s) {
  std::size_t trunc = 0, n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    float p = s.param.f32()[i];
    if (bf16_from_float(p) == bf16_from_float_truncate(p)) continue;  // both rules agree: uninformative
    ++n;
    trunc += s.param_h.u16()[i] == bf16_from_float_truncate(p);
  }
  return n ? double(trunc) / n : 0.0;
}

}  // namespace gpucheck::kernels::bmtrain
