// abi.extensions: `gpucheck abi --torch-extensions --with-torch` as a probe. Fails when an extension would
// not import (or would find no kernel image for a GPU here); skips when there is nothing to audit.
#include <cstdlib>

#include "checks/abi/findings.h"
#include "checks/abi/request.h"
#include "checks/abi/targets.h"
#include "core/errors.h"
#include "probe/probe.h"

int main(int argc, char** argv) {
  using namespace gpucheck;
  return probe::run(argc, argv, [](const probe::Context& ctx, Finding& r) {
    abi::AbiRequest req;
    // --python, else $GPUCHECK_PYTHON (gpucheck run --python), else python3: bmtrain.installed's order.
    const char* chosen = std::getenv("GPUCHECK_PYTHON");
    req.python = ctx.arg("--python", chosen && *chosen ? chosen : "python3");
    abi::PythonEnvPaths env;
    try {
      env = abi::probe_python(req.python);
    } catch (const InputError& e) {
      return probe::skip(r, std::string("no usable Python: ") + e.what());
    }
    r.evidence["python"] = env.executable;
    if (env.torch_dir.empty()) return probe::skip(r, "torch is not installed for " + env.executable);
    r.evidence["torch"] = env.torch_dir;
    req.torch_extensions = true;
    req.with_torch = true;
    abi::AuditReport rep = abi::run_abi(req);
    if (rep.targets.empty())
      return probe::skip(r, "no module linking libc10/libtorch in the site-packages of " + env.executable);
    Finding audited = abi::to_result(rep, r.id, r.title);
    audited.evidence.insert(audited.evidence.begin(), r.evidence.begin(), r.evidence.end());
    if (audited.status != Status::kPass)
      audited.add_fix("gpucheck abi --torch-extensions --with-torch --python " + env.executable +
                               " --verbose   (full list, causes and fixes)");
    r = audited;
  });
}
