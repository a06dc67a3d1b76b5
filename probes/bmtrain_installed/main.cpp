// bmtrain.installed: is the user's bmtrain there, does its native module load, and does its CPU offload
// Adam compute what the spec says (within policy of our double reference)?
#include <cstdlib>
#include <string>

#include "adam/adam_offload.h"
#include "bmtrain_peer/bmtrain_peer.h"
#include "common/check_result.h"
#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  using namespace gpucheck::kernels;
  return probe::run(argc, argv, "bmtrain.installed", "The installed BMTrain's native kernels compute correctly",
                    [](const probe::Context& ctx, Result& r) {
    std::string python = ctx.arg("--python");
    if (python.empty() && std::getenv("GPUCHECK_PYTHON")) python = std::getenv("GPUCHECK_PYTHON");
    if (python.empty()) python = "python3";
    bmtrain::Install in = bmtrain::locate(python);
    r.evidence["python"] = in.python;
    if (!in.python_ok) return probe::skip(r, "the selected Python '" + python + "' could not be run: " + in.python_error);
    r.evidence["python_version"] = in.python_version;
    if (!in.found) {
      r.remedy.push_back("pip install bmtrain (into " + in.python + "), or pass --python for the environment that has it");
      return probe::skip(r, "bmtrain is not installed in " + in.python + " (Python " + in.python_version + ")");
    }
    r.evidence["bmtrain_version"] = in.version.empty() ? "unknown" : in.version;
    r.evidence["package_dir"] = in.package_dir;
    r.evidence["import_bmtrain"] = in.import_ok ? "ok" : in.import_error;
    r.evidence["gpu_launchers"] = "not exercised by this probe version (CPU offload Adam only)";
    if (in.native_modules.empty()) {
      r.status = Status::kFail;
      r.summary = "bmtrain " + in.version + " is installed but has no native module bmtrain/C*.so";
      r.remedy.push_back("reinstall bmtrain so its extension is built: pip install --force-reinstall --no-cache-dir bmtrain");
      return;
    }
    const std::string module = in.native_modules.front();
    r.evidence["native_module"] = module;
    CheckCollector checks;
    std::size_t n = ctx.level == "quick" ? 4099 : (1u << 20) + 3;
    for (AdamVariant v : {AdamVariant::kOffloadFp16, AdamVariant::kOffloadBf16}) {
      for (bool adversarial : {false, true}) {
        AdamHyper h = adam_with_step(AdamHyper{1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f, 1024.0f}, 3);
        AdamState before = make_adam_state(v, n, 17 + adversarial, h, adversarial);
        bmtrain::PeerRun peer = bmtrain::run_cpu_adam(in.python, module, before, h);
        if (!peer.ran) {
          r.status = Status::kFail;
          r.summary = "bmtrain's native module " + module + " could not run its CPU Adam: " + peer.error;
          r.remedy.push_back("check the module's linkage: ldd " + module + " (libnccl.so.2 must resolve)");
          return;
        }
        AdamState want = before;
        adam_reference_step(want, h);
        std::string name = std::string("bmtrain adam_cpu ") + (v == AdamVariant::kOffloadBf16 ? "bf16" : "fp16") +
                           " n=" + std::to_string(n) + (adversarial ? " adversarial" : "");
        checks.add(name + " vs reference", check_adam_step(before, want, peer.result, h));
        if (v == AdamVariant::kOffloadBf16)
          r.evidence["bf16_param_copy"] = bmtrain::bf16_truncated_fraction(peer.result) > 0.99
                                              ? "truncated (as BMTrain 1.0.x documents), not rounded"
                                              : "rounded to nearest even";
      }
    }
    checks.fill(r, "bmtrain " + in.version + " CPU offload Adam (fp16, bf16) from " + module);
    if (!in.import_ok && r.status == Status::kPass) {
      r.status = Status::kWarn;
      r.summary += "; but `import bmtrain` fails: " + in.import_error;
    }
  });
}
