// bmtrain.installed: is the user's bmtrain there, does its native module link (gpucheck abi) and load (the
// selected Python embedded in this process), and do its launchers compute what the spec says: CPU offload
// Adam always, the GPU launchers (Adam, inf/NaN, cross-entropy) on buffers we allocate when a GPU is usable.
#include <cstdlib>
#include <optional>
#include <string>

#include "checks/abi/audit.h"
#include "checks/abi/request.h"
#include "bmtrain_installed/bmtrain_peer.h"
#include "common/check_result.h"
#include "core/errors.h"
#include "probe/probe.h"
#ifdef GPUCHECK_BMTRAIN_GPU_CHECKS
#include "bmtrain_installed/bmtrain_gpu_checks.h"
#include "common/cuda_support.h"
#endif

namespace {

using namespace gpucheck;
using namespace gpucheck::kernels;

// The module's linkage as `gpucheck abi` sees it, without loading anything: missing libraries, symbols
// that bind nowhere (BMTrain PR#111's `undefined symbol: ncclBroadcast`), device code per GPU here.
struct Linkage {
  Status status = Status::kPass;
  std::string summary;
  std::vector<Fix> fixes;
};

Linkage audit_linkage(const bmtrain::Install& in, const std::string& module) {
  abi::AbiRequest req;
  req.paths = {module};
  req.python = in.python;
  Linkage l;
  try {
    abi::AuditReport rep = abi::run_abi(req);
    if (rep.targets.empty()) throw InputError("no target audited");
    const abi::TargetReport& t = rep.targets.front();
    l.status = t.status;
    l.summary = t.problems.empty() ? "complete: " + std::to_string(t.graph.objects.size()) +
                                         " objects in its load closure, every symbol binds"
                                   : t.problems.front();
    if (!t.groups.empty() && !t.groups.front().symbols.empty()) {
      const auto& symbols = t.groups.front().symbols;
      l.summary += ": " + symbols.front();
      if (symbols.size() > 1) l.summary += " and " + std::to_string(symbols.size() - 1) + " more";
    }
    for (const auto& g : t.groups)
      for (Fix fix : g.remedy) {
        fix.rank = static_cast<int>(l.fixes.size()) + 1;
        l.fixes.push_back(std::move(fix));
      }
  } catch (const InputError& e) {
    l.status = Status::kError;
    l.summary = std::string("gpucheck abi could not audit it: ") + e.what();
  }
  return l;
}

// Launcher signatures differ before 1.0 (0.2.x: fp16 only, other modules); an unknown version is tried.
bool launchers_known(const std::string& version) { return version.empty() || version.rfind("1.", 0) == 0; }

void check_cpu_adam(const bmtrain::Install& in, const std::string& module, bmtrain::NativeModule* embedded,
                    const std::string& level, CheckCollector& checks, Finding& r) {
  std::size_t n = level == "quick" ? 4099 : (1u << 20) + 3;
  for (AdamVariant v : {AdamVariant::kOffloadFp16, AdamVariant::kOffloadBf16}) {
    for (bool adversarial : {false, true}) {
      AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 3);
      AdamState before = make_adam_state(v, n, 17 + adversarial, h, adversarial);
      bmtrain::PeerRun peer = embedded ? bmtrain::run_cpu_adam(*embedded, before, h)
                                       : bmtrain::run_cpu_adam_in_child(in.python, module, before, h);
      std::string name = std::string("bmtrain adam_cpu ") + (v == AdamVariant::kOffloadBf16 ? "bf16" : "fp16") +
                         " n=" + std::to_string(n) + (adversarial ? " adversarial" : "");
      if (!peer.ran) {
        checks.add(name, could_not_run(peer.error));
        continue;
      }
      AdamState want = before;
      adam_reference_step(want, h);
      checks.add(name + " vs reference", check_adam_step(before, want, peer.result, h));
      if (v == AdamVariant::kOffloadBf16)
        r.evidence["bf16_param_copy"] = bmtrain::bf16_truncated_fraction(peer.result) > 0.99
                                            ? "truncated (as BMTrain 1.0.x documents), not rounded"
                                            : "rounded to nearest even";
    }
  }
}

// The GPU launchers, when this build has CUDA, a GPU is usable and the module is in our process.
struct GpuOutcome {
  bool ran = false;
  std::string why_not;   // short, for the summary
  std::string evidence;  // the full story
};

GpuOutcome check_gpu(bmtrain::NativeModule* embedded, const std::string& level, CheckCollector& checks, Finding& r) {
#ifdef GPUCHECK_BMTRAIN_GPU_CHECKS
  if (auto why = cuda_unavailable_reason()) return {false, "no usable GPU", "not run: no usable GPU: " + *why};
  if (!embedded)
    return {false, "Python not embeddable", "not run: they need the interpreter embedded in this process (see `interpreter`)"};
  r.evidence["device"] = current_device_description();
  std::size_t before = checks.cases();
  bmtrain::check_gpu_launchers(*embedded, level, checks);
  return {true, "", "run on " + r.evidence["device"] + ": " + std::to_string(checks.cases() - before) +
                        " cases (Adam fp16/bf16, inf/NaN fp16/bf16, cross-entropy fwd+bwd fp16/bf16)"};
#else
  (void)embedded, (void)level, (void)checks, (void)r;
  return {false, "built without CUDA", "not run: this gpucheck was built without CUDA"};
#endif
}

}  // namespace

int main(int argc, char** argv) {
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    std::string python = ctx.arg("--python");
    if (python.empty() && std::getenv("GPUCHECK_PYTHON")) python = std::getenv("GPUCHECK_PYTHON");
    if (python.empty()) python = "python3";
    bmtrain::Install in = bmtrain::locate(python);
    r.evidence["python"] = in.python;
    if (!in.python_ok) return probe::skip(r, "the selected Python '" + python + "' could not be run: " + in.python_error);
    r.evidence["python_version"] = in.python_version;
    if (!in.found) {
      r.add_fix("pip install bmtrain (into " + in.python + "), or pass --python for the environment that has it");
      return probe::skip(r, "bmtrain is not installed in " + in.python + " (Python " + in.python_version + ")");
    }
    const std::string version = in.version.empty() ? "unknown" : in.version;
    r.evidence["bmtrain_version"] = version;
    r.evidence["package_dir"] = in.package_dir;
    r.evidence["import_bmtrain"] = in.import_ok ? "ok" : in.import_error;
    if (in.native_modules.empty()) {
      r.status = Status::kFail;
      r.summary = "bmtrain " + version + " is installed but has no native module bmtrain/C*.so";
      r.add_fix("reinstall bmtrain so its extension is built: pip install --force-reinstall --no-cache-dir bmtrain");
      return;
    }
    const std::string module = in.native_modules.front();
    r.evidence["native_module"] = module;

    Linkage linkage = audit_linkage(in, module);
    r.evidence["linkage"] = linkage.summary;
    const std::string abi_hint = "gpucheck abi " + module + " --python " + in.python + " --verbose";

    // --child-interpreter: for a Python that misbehaves when embedded; the GPU launchers then cannot run.
    std::string embed_error = "--child-interpreter was given", load_error;
    std::optional<bmtrain::NativeModule> embedded;
    if (!ctx.flag("--child-interpreter")) embedded = bmtrain::NativeModule::load(in, module, embed_error, load_error);
    if (!load_error.empty()) {
      r.status = Status::kFail;
      r.summary = "bmtrain " + version + "'s native module does not load: " + load_error;
      r.fixes = linkage.fixes;
      r.add_fix(abi_hint);
      return;
    }
    r.evidence["interpreter"] = embedded ? "embedded in this process (" + embedded->libpython() + ")"
                                         : "child process (could not embed: " + embed_error + ")";
    if (linkage.status != Status::kPass && linkage.status != Status::kSkip) {
      r.status = linkage.status == Status::kError ? Status::kWarn : linkage.status;
      r.summary = "bmtrain " + version + "'s native module links incompletely: " + linkage.summary;
      r.fixes = linkage.fixes;
      r.add_fix(abi_hint);
      if (linkage.status == Status::kError) r.summary += " (module loads)";
      if (linkage.status == Status::kFail) return;
    }
    // A package that does not import is unusable, whatever its kernels compute: a failure, never a skip.
    const std::string import_failure = "bmtrain " + version + " is installed but `import bmtrain` fails: " + in.import_error;
    if (!in.import_ok && !launchers_known(in.version)) {
      r.status = Status::kFail;
      r.summary = import_failure;
      r.add_fix(abi_hint);
      return;
    }
    if (!launchers_known(in.version)) {
      r.evidence["launchers"] = "not called: this probe knows BMTrain 1.0.x's launcher signatures";
      if (r.summary.empty())  // nothing wrong with its linkage either
        probe::skip(r, "bmtrain " + version + "'s module links and loads; its launchers (pre-1.0 signatures) were not run");
      return;
    }
    CheckCollector checks;
    bmtrain::NativeModule* native = embedded ? &*embedded : nullptr;
    check_cpu_adam(in, module, native, ctx.level, checks, r);
    GpuOutcome gpu = check_gpu(native, ctx.level, checks, r);
    r.evidence["gpu_launchers"] = gpu.evidence;
    Status linkage_status = r.status;
    std::string linkage_summary = r.summary;
    checks.fill(r, "bmtrain " + version + (gpu.ran ? " CPU offload Adam and GPU launchers" : " CPU offload Adam"));
    if (!gpu.ran) r.summary += "; GPU launchers not run (" + gpu.why_not + ")";
    if (linkage_status == Status::kWarn && r.status == Status::kPass) r.status = Status::kWarn, r.summary = linkage_summary;
    if (!in.import_ok) {
      r.summary = import_failure + " (its native module: " + r.summary + ")";
      if (severity(r.status) < severity(Status::kFail)) r.status = Status::kFail;
    }
  });
}
