#include "cli/command.h"
#include "cli/path_option.h"
#include "commands/abi.h"

namespace gpucheck::cli {
namespace {

Runner setup_abi(CLI::App& sub, GlobalOptions& g) {
  auto opts = std::make_shared<commands::AbiOptions>();
  abi::AbiRequest* r = &opts->request;
  sub.add_option("targets", r->paths, "ELF files or directories (walked recursively) to audit")
      ->type_name("FILE|DIR");
  sub.add_option("--python-package", r->python_packages, "Audit the shared objects of this installed package (flash_attn)")->allow_extra_args(false);
  sub.add_option("--python", r->python, "Interpreter of the environment to inspect; it hosts the extension modules audited (default: python3 on PATH)")
      ->type_name("PATH");
  sub.add_flag("--torch-extensions", r->torch_extensions, "Audit every module in site-packages that links libc10/libtorch");
  sub.add_flag("--torch", r->torch, "Audit torch's own libraries");
  sub.add_flag("--with-torch", r->with_torch,
               "Judge every target after `import torch` of --python's environment (default: each torch-linked "
               "target after the torch of its own site-packages)");
  sub.add_flag("--no-torch", r->no_torch, "Do not import the torch of a target's site-packages before it");
  sub.add_option("--torch-lib", r->torch_lib, "Treat the LibTorch in this lib directory as already loaded")
      ->type_name("DIR");
  sub.add_option("--preload", r->preload, "Library the parent process has already loaded (repeatable)")
      ->type_name("PATH")
      ->allow_extra_args(false);
  sub.add_option("--gpu", r->gpus, "GPU to judge device code for: sm_90, 9.0 (repeatable or comma-separated)")
      ->allow_extra_args(false)
      ->delimiter(',');
  add_inventory_source(sub, opts->inventory, /*python=*/false);  // --from, --root: GPUs and driver
  sub.add_option("--env", opts->inventory.from, "The former name of --from")->type_name("FILE")->group("");
  sub.add_flag("--no-symbols", [r](std::int64_t) { r->symbols = false; }, "Resolve dependencies only, do not bind symbols");
  sub.add_flag("--cross-check", r->cross_check, "Compare the fatbin parser with cuobjdump --list-elf --list-ptx");
  sub.add_option("--cuobjdump", r->cuobjdump, "cuobjdump to cross-check with (implies --cross-check)")
      ->type_name("PROGRAM")
      ->check(executable_file());
  sub.add_flag("--all-device-code", r->all_device_code,
               "List fat binaries embedded in data sections (cuFFT's) even when no GPU verdict needs them");
  sub.add_option("--ld-cache", r->ld_cache, "ld.so cache to use (default /etc/ld.so.cache)")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  sub.add_flag("--strict", opts->strict, "Exit 1 also on warnings (weak version needs)");
  sub.footer(R"(Finds, without importing anything, what makes an extension fail at import or at first launch:
missing libraries (searched exactly as ld.so does), undefined or wrongly versioned symbols (grouped, with
the likely cause), a C++ ABI different from torch's, and CUDA device code no GPU here can run.
An extension inside a site-packages that has torch is judged as `import torch`
then `import ext` loads it, with that environment's python: torch's global deps
(cuBLAS, cudart) visible, what torch._C loads RTLD_LOCAL (NCCL, cuDNN) not, all
of it visible under TORCH_USE_RTLD_GLOBAL=1. LD_LIBRARY_PATH is taken as set.
Exit: 0 clean, 1 problems found, 2 bad input.

Examples:
  gpucheck abi ~/venv/lib/python3.11/site-packages/my_ext --gpu sm_90
  gpucheck abi build/lib/my_ext.so --with-torch --python ~/venv/bin/python
  gpucheck abi --python-package flash_attn --python ~/venv/bin/python
  gpucheck abi --torch-extensions --json
  gpucheck abi /opt/app/lib --from env.json --cross-check)");
  return [opts, &g]() -> int {
    model::Report rep = commands::abi(*opts, new_report("abi", g));
    return emit_report(rep, g);
  };
}

Registration abi_registration({"abi", "Audit libraries and extension modules: dependencies, symbols, C++ ABI, GPU code", 40, &setup_abi});

}  // namespace
}  // namespace gpucheck::cli
