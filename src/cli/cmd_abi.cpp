#include <iostream>

#include "checks/abi/request.h"
#include "cli/command.h"
#include "core/errors.h"

namespace gpucheck::cli {
namespace {

Runner setup_abi(CLI::App& sub, GlobalOptions& g) {
  auto r = std::make_shared<abi::AbiRequest>();
  auto strict = std::make_shared<bool>(false);
  sub.add_option("targets", r->paths, "ELF files or directories (walked recursively) to audit");
  sub.add_option("--python-package", r->python_packages, "Audit the shared objects of this installed package (flash_attn)")->allow_extra_args(false);
  sub.add_option("--python", r->python, "Interpreter of the environment to inspect (default: python3 on PATH)");
  sub.add_flag("--torch-extensions", r->torch_extensions, "Audit every module in site-packages that links libc10/libtorch");
  sub.add_flag("--torch", r->torch, "Audit torch's own libraries");
  sub.add_flag("--with-torch", r->with_torch, "Treat the environment's torch as already loaded (as after `import torch`)");
  sub.add_option("--torch-lib", r->torch_lib, "Treat the LibTorch in this lib directory as already loaded");
  sub.add_option("--preload", r->preload, "Library the parent process has already loaded (repeatable)")->allow_extra_args(false);
  sub.add_option("--gpu", r->gpus, "GPU to judge device code for: sm_90, 9.0 (repeatable or comma-separated)")
      ->allow_extra_args(false)
      ->delimiter(',');
  sub.add_option("--env", r->env_json, "Inventory document (gpucheck env --json) for GPUs and driver");
  sub.add_flag("--no-symbols", [r](std::int64_t) { r->symbols = false; }, "Resolve dependencies only, do not bind symbols");
  sub.add_flag("--cross-check", r->cross_check, "Compare the fatbin parser with cuobjdump --list-elf --list-ptx");
  sub.add_option("--cuobjdump", r->cuobjdump, "cuobjdump to cross-check with (implies --cross-check)");
  sub.add_option("--ld-cache", r->ld_cache, "ld.so cache to use (default /etc/ld.so.cache)");
  sub.add_flag("--strict", *strict, "Exit 1 also on warnings (weak version needs)");
  sub.footer(R"(Finds, without importing anything, what makes an extension fail at import or at first launch:
missing libraries (searched exactly as ld.so does), undefined or wrongly versioned symbols (grouped, with
the likely cause), a C++ ABI different from torch's, and CUDA device code no GPU here can run.
Exit: 0 clean, 1 problems found, 2 bad input.

Examples:
  gpucheck abi build/lib/my_ext.so --with-torch --gpu sm_90
  gpucheck abi --python-package flash_attn --python ~/venv/bin/python
  gpucheck abi --torch-extensions --json
  gpucheck abi /opt/app/lib --env env.json --cross-check)");
  return [r, strict, &g]() -> int {
    auto report = abi::run_abi(*r);
    bool all_errors = !report.targets.empty();
    for (const auto& t : report.targets) all_errors = all_errors && !t.error.empty();
    if (all_errors && report.targets.size() == 1 && !r->paths.empty())
      throw InputError(report.targets.front().error);
    if (g.json) emit_document(g, abi::to_json(report).dump(2) + "\n");
    else emit_document(g, abi::render_text(report, g.verbose));
    if (report.status == Status::kFail || report.status == Status::kError) return kExitFailed;
    if (*strict && report.status == Status::kWarn) return kExitFailed;
    return kExitOk;
  };
}

Registration reg({"abi", "Audit libraries and extension modules: dependencies, symbols, C++ ABI, GPU code", 40, &setup_abi});

}  // namespace
}  // namespace gpucheck::cli
