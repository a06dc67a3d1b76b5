// Driver vs the CUDA runtime torch loads and vs the toolkit builds would use.
#include <algorithm>

#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "inventory/pasted_report.h"
#include "checks/doctor/torch_choice.h"
#include "inventory/paste_formats.h"
#include "inventory/paste_text.h"
#include "knowledge/version.h"
#include "core/text.h"

namespace gpucheck::doctor {
namespace {

/// driver_cuda's answer for a driver older than every row of data/compat/driver.json.
constexpr const char* kBelowTable = "0.0";

/// The newest CUDA the driver supports: cuDriverGetVersion when collected, else derived from the
/// driver version and the release-notes table.
std::string driver_cuda(const DoctorContext& ctx) {
  if (ctx.inv.driver.cuda_version > 0) return cuda_int_to_string(ctx.inv.driver.cuda_version);
  if (ctx.inv.driver.version.empty()) return "";
  std::string best;
  for (const auto& d : ctx.kb.driver_minimums())
    if (knowledge::compare_versions(ctx.inv.driver.version, d.min_driver) >= 0 && knowledge::compare_versions(d.cuda, best) > 0) best = d.cuda;
  // Older than every release in the table (418.67 is below 10.2's 440.33): it supports less than the oldest
  // CUDA listed, which is still a verdict (issue 31: such a pasted report was a PASS).
  if (best.empty() && !ctx.kb.driver_minimums().empty()) best = kBelowTable;
  return best;
}

Fix driver_upgrade_step(const DoctorContext& ctx, const std::string& cuda, int rank) {
  Fix f;
  f.rank = rank;
  auto d = ctx.kb.driver_minimum(cuda);
  std::string min = d ? d->min_driver : "a newer release";
  f.summary = "Upgrade the NVIDIA driver to " + min + " or newer (CUDA " + cuda + ")";
  if (ctx.inv.system.os_id == "ubuntu") f.commands = {"sudo ubuntu-drivers install", "sudo reboot"};
  f.cost = "needs root and a reboot; every CUDA application on the node is affected";
  return f;
}

/// Appends a finding when `needed` (a CUDA major.minor) is newer than what the driver supports.
void compare(const DoctorContext& ctx, const std::string& have, const std::string& needed, const std::string& who,
             const Evidence& who_evidence, bool for_torch, std::vector<Finding>& out) {
  if (have.empty() || needed.empty() || knowledge::compare_versions(needed, have) <= 0) return;
  std::string oldest;
  for (const auto& d : ctx.kb.driver_minimums())
    if (oldest.empty() || knowledge::compare_versions(d.cuda, oldest) < 0) oldest = d.cuda;
  // Below the table and a CUDA older than its first row: nothing known to compare with.
  if (have == kBelowTable && knowledge::compare_versions(needed, oldest) < 0) return;
  auto hv = knowledge::Version::parse(have), nv = knowledge::Version::parse(needed);
  auto floor = ctx.kb.minor_compat_floor(nv->major());
  bool minor_ok = hv->major() == nv->major() && floor && !ctx.inv.driver.version.empty() &&
                  knowledge::compare_versions(ctx.inv.driver.version, floor->min_driver) >= 0;
  // torch initialised its CUDA on this driver (torch.cuda.is_available() True) while the driver's own CUDA
  // version is not known, only derived from the release-notes minimums: the driver runs it, whatever the table
  // says of its number (driver 430.26 runs torch's CUDA 10.2, whose listed minimum is 440.33; vision 5729).
  if (for_torch && !minor_ok && ctx.inv.driver.cuda_version == 0 && ctx.python && ctx.python->cuda_available.value_or(false))
    return;
  Finding f;
  const std::string supports = have == kBelowTable ? "less than CUDA " + oldest : "CUDA " + have;
  // A pasted torch warning states only the CUDA version the driver reported, not the driver's own version.
  const std::string driver = ctx.inv.driver.version.empty() ? "the driver" : "driver " + ctx.inv.driver.version;
  Evidence drv{"driver", (ctx.inv.driver.version.empty() ? std::string("version not stated") : ctx.inv.driver.version) +
                             " (supports " + supports + ")", ctx.inv.driver.source};
  auto dmin = ctx.kb.driver_minimum(needed);
  if (minor_ok) {
    f.id = for_torch ? "driver.minor_version_compat" : "driver.toolkit_minor_version_compat";
    f.status = Status::kWarn;
    f.title = who + " needs CUDA " + needed + "; driver " + ctx.inv.driver.version +
              " runs it only under minor-version compatibility";
    f.explanation = "The driver is older than CUDA " + needed + " but within the " + std::to_string(nv->major()) +
                    ".x minor-version-compatibility range (>= " + floor->min_driver +
                    "): SASS kernels run, but PTX produced by CUDA " + needed +
                    " cannot be JIT-compiled (\"the provided PTX was compiled with an unsupported toolchain\") "
                    "and some newer APIs fail.";
    f.references.push_back(floor->source);
  } else {
    f.id = for_torch ? "driver.too_old_for_torch" : "driver.too_old_for_toolkit";
    f.status = for_torch ? Status::kFail : Status::kWarn;
    f.title = who + " needs CUDA " + needed + " but " + driver + " supports only " +
              (have == kBelowTable ? supports : have);
    f.explanation = for_torch ? "torch.cuda.is_available() is False with \"The NVIDIA driver on your system is too "
                                "old\" (CUDA error 35, cudaErrorInsufficientDriver)."
                              : "Programs built with this toolkit fail at start-up with \"CUDA driver version is "
                                "insufficient for CUDA runtime version\".";
  }
  f.evidence = {who_evidence, drv};
  if (dmin) f.evidence.push_back({"minimum driver for CUDA " + needed, dmin->min_driver, "data/compat/driver.json"});
  if (dmin) f.references.push_back(dmin->source);
  int rank = 1;
  if (for_torch) {
    std::string current = ctx.python ? ctx.python->torch_version : "";
    // Under minor-version compatibility any build of the driver's CUDA major runs (without PTX JIT).
    std::string limit = have;
    auto hfloor = ctx.kb.minor_compat_floor(hv->major());
    if (!minor_ok && hv->major() != nv->major() && hfloor &&
        knowledge::compare_versions(ctx.inv.driver.version, hfloor->min_driver) >= 0)
      limit = std::to_string(hv->major()) + ".99";
    if (auto c = torch_for_cuda(ctx, limit, limit))
      f.fixes.push_back(install_torch_step(*c, current, rank++));
  } else {
    for (const auto& t : ctx.inv.toolkits) {
      if (!t.version.empty() && knowledge::compare_versions(major_minor(t.version), have) <= 0 && !t.nvcc.empty()) {
        f.fixes.push_back(use_toolkit_step(t, rank++));
        break;
      }
    }
  }
  f.fixes.push_back(driver_upgrade_step(ctx, needed, rank++));
  out.push_back(std::move(f));
}

/// torch's own "driver too old" pasted without torch's version: torch compared the two, so the verdict stands
/// though which CUDA it needs is not in the report.
void refused_by_torch(const DoctorContext& ctx, const std::string& have, std::vector<Finding>& out) {
  Finding f;
  f.id = "driver.too_old_for_torch";
  f.status = Status::kFail;
  f.title = "torch says the NVIDIA driver is too old" + (have.empty() ? std::string() : " (it supports CUDA " + have + ")");
  f.evidence = {{"torch's error", ctx.inv.driver.refused_by, ctx.inv.driver.source}};
  f.explanation = "torch refused the driver: the CUDA runtime it was built with is newer than what the driver "
                  "supports, so torch.cuda.is_available() is False. The report does not say which torch, so the "
                  "driver it needs is not known here.";
  f.add_fix("Upgrade the driver to one for the CUDA this torch prints (gpucheck doctor on that machine names "
            "the release), or install a torch built for CUDA " +
                (have.empty() ? std::string("the driver supports") : have + " or older"),
            {"python -c \"import torch; print(torch.__version__, torch.version.cuda)\""});
  out.push_back(std::move(f));
}

// Another program's CUDA runtime refused the driver (cudaErrorInsufficientDriver, pasted beside the report):
// which CUDA that runtime is, the report does not say, so the finding names what the driver supports and both
// ways out. CTranslate2 4.x and onnxruntime-gpu >= 1.19 are CUDA 12 builds on a CUDA 11 driver, the common case.
void refused_by_runtime(const DoctorContext& ctx, const std::string& have, std::vector<Finding>& out) {
  const std::string& said = ctx.inv.driver.refused_by;
  // Three ways a program says so (inventory::cuda_runtime_refusal): CUDA error 35, error 222 on PTX, and XLA's
  // warning that the driver is older than its ptxas (it compiles on, without parallel compilation).
  const bool ptx = said.find("unsupported toolchain") != std::string::npos || said.find("[222] ") != std::string::npos;
  const bool xla = said.find("older than the ptxas") != std::string::npos;
  const bool call = said.find("API call is not supported") != std::string::npos;
  const bool container = starts_with(said, "the container: ");
  // The release an NVIDIA container states it needs ("built for NVIDIA Driver Release 535.86 or later"), or the
  // oldest driver for the CUDA its image requires (the Container Toolkit's "unsatisfied condition: cuda>=12.8").
  std::string release = container ? inventory::paste_text::after(said, "Driver Release ") : "";
  if (const auto cuda = said.find("cuda>="); container && release.empty() && cuda != std::string::npos)
    if (auto d = ctx.kb.driver_minimum(said.substr(cuda + 6)))
      release = d->min_driver + " (CUDA " + said.substr(cuda + 6) + ")";
  Finding f;
  f.id = "driver.too_old_for_runtime";
  f.status = xla ? Status::kWarn : Status::kFail;
  f.title = std::string(xla ? "XLA says the NVIDIA driver is older than its ptxas: parallel compilation is off"
                            : ptx ? "A CUDA program's PTX was compiled by a newer CUDA than the NVIDIA driver supports"
                            : container ? "The container's CUDA needs a newer NVIDIA driver than the host's" +
                                              (release.empty() ? std::string() : " (" + release + " or later)")
                                        : "A CUDA program says the NVIDIA driver is too old for its CUDA runtime") +
            (have.empty() ? std::string() : " (the driver supports CUDA " + have + ")");
  f.evidence = {{"the program's error", said.substr(said.find(": ") + 2), "the pasted report"}};  // only pastes state one
  if (!ctx.inv.driver.version.empty()) f.evidence.push_back({"driver", ctx.inv.driver.version, ctx.inv.driver.source});
  if (xla)
    f.explanation = "jaxlib's and TensorFlow's XLA compile GPU code with the ptxas of the CUDA they installed; a "
                    "driver older than that CUDA cannot load what it compiles in parallel, so XLA compiles serially "
                    "(slower start-up, same results).";
  else if (ptx)
    f.explanation = "CUDA error 222 (cudaErrorUnsupportedPtxVersion): the program ships PTX from a CUDA newer than "
                    "this driver, which cannot JIT-compile it, so its kernels do not load.";
  else if (container)
    f.explanation = "An NVIDIA container carries its own CUDA and uses the host's driver, which must be of that CUDA "
                    "or newer. A container may bridge an older driver with CUDA's forward-compatibility library, "
                    "but only on data-centre GPUs (error 804 elsewhere): here it cannot, so CUDA does not start in it.";
  else if (call)
    f.explanation = "CUDA error 36 (cudaErrorCallRequiresNewerDriver): the program calls a CUDA API (its runtime is "
                    "newer) that this driver does not have, so that call fails.";
  else
    f.explanation = "CUDA error 35 (cudaErrorInsufficientDriver): the CUDA runtime the program was built with is newer "
                    "than the newest CUDA this driver supports, so nothing it runs reaches the GPU. CUDA answers the "
                    "same when no driver is installed at all, and inside a container when the host's driver was not "
                    "passed in (no --gpus, no NVIDIA container runtime).";
  if (container)
    f.add_fix("Upgrade the host's NVIDIA driver to " + (release.empty() ? std::string("the release the container names") : release) +
                  " or later, or run a release of the container made for the CUDA the driver supports (the container's "
                  "release notes name both); read the host's driver first",
              {"nvidia-smi"});
  else
    f.add_fix("Install that program's build for CUDA " + (have.empty() ? std::string("the driver supports") : have + " or older") +
                " (its release notes name the CUDA of each version), or upgrade the driver to one for its CUDA; "
                "read what the driver supports first",
            {"nvidia-smi"});
  out.push_back(std::move(f));
}

// The driver's kernel module and its libraries at different versions: nothing CUDA starts, whatever torch or
// the toolkit need, so this is the finding and no version comparison follows.
bool check_driver_library_mismatch(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& d = ctx.inv.driver;
  if (!inventory::says_driver_library_mismatch(d.error)) return false;
  Finding f;
  f.id = "driver.library_mismatch";
  f.status = Status::kFail;
  f.title = "The NVIDIA kernel module and the driver's libraries are different versions: no CUDA program starts";
  f.evidence = {{"driver", d.error, d.source}};
  if (!d.kernel_module_version.empty())
    f.evidence.push_back({"loaded kernel module", d.kernel_module_version, "/proc/driver/nvidia/version"});
  f.explanation = "The driver was upgraded (or partly installed) while the old kernel module stayed loaded, so NVML "
                  "answers \"Driver/library version mismatch\" and cuInit fails with CUDA error 803 "
                  "(cudaErrorSystemDriverMismatch): torch.cuda.is_available() is False. Rebooting loads the "
                  "installed module; reloading the nvidia modules does too when no process holds the GPU.";
  // A libcuda newer than the module, in a container: the image's forward-compatibility library (cuda-compat),
  // which only data-centre GPUs on a supported driver branch accept; rebooting the host changes nothing.
  if (d.error.find("DSO version") != std::string::npos)
    f.add_fix("In a container: use an image whose CUDA the host's driver supports (or one without the cuda-compat "
              "libcuda), and compare the two versions the error names",
              {"cat /proc/driver/nvidia/version", "ldconfig -p | grep libcuda.so.1"});
  f.add_fix("Reboot, so the kernel module of the installed driver is the one loaded (compare the two versions first)",
            {"cat /proc/driver/nvidia/version", "sudo reboot"}, "needs root; stops every process on the node");
  out.push_back(std::move(f));
  return true;
}

// torch's CUDA initialization failing with a driver-state error (the CUDA runtime API's error codes,
// https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html): the driver is installed but CUDA
// cannot use it, so torch.cuda.is_available() is False. Each state has its own way out.
struct InitFailure {
  const char* marker;  // in torch's message (the live probe's cuda_error, or a pasted warning): one of
                       // inventory::says_driver_unusable's (tested)
  const char* title;
  const char* why;
  const char* fix;
  std::vector<std::string> commands;
  const char* cost;  // what running the commands costs ("needs root"), or ""
};

const std::vector<InitFailure>& init_failures() {
  static const std::vector<InitFailure> all = {
      {"Error 802", "CUDA says the system is not yet initialized (error 802)",
       "cudaErrorSystemNotReady: a driver daemon CUDA needs is not running. On NVSwitch systems (HGX and DGX A100, "
       "H100, H200) that is the NVIDIA fabric manager, which must run at the driver's own version before any CUDA "
       "work starts.",
       "Start the fabric manager (package nvidia-fabricmanager at the driver's version) and read its status",
       {"systemctl status nvidia-fabricmanager", "sudo systemctl enable --now nvidia-fabricmanager"}, "needs root"},
      {"Error 804", "CUDA's forward-compatibility library is loaded on a GPU that does not support it (error 804)",
       "cudaErrorCompatNotSupportedOnDevice: a libcuda from a cuda-compat package (a toolkit's compat directory or "
       "a container's) was loaded; forward compatibility works only on data-centre GPUs.",
       "Take the compat directory off the loader's path so the driver's own libcuda loads",
       {"echo \"$LD_LIBRARY_PATH\"", "ldconfig -p | grep libcuda.so"}, ""},
      {"Error 34:", "CUDA loaded the toolkit's stub libcuda instead of the driver's (error 34)",
       "cudaErrorStubLibrary: the libcuda.so found is the link-time stub from a toolkit's lib64/stubs; in a container "
       "this means the host's driver was not passed in.",
       "Take the stubs directory off LD_LIBRARY_PATH; in a container start it with the GPUs passed in",
       {"echo \"$LD_LIBRARY_PATH\"", "nvidia-smi"}, ""},
      {"CUDA driver initialization failed", "CUDA's driver initialization (cuInit) failed",
       "torch reached libcuda but cuInit failed: a container or cloud instance without the GPU passed in, a GPU "
       "fallen off the bus, or a kernel module that does not answer.",
       "See whether the driver answers; in a container start it with the GPUs passed in (docker run --gpus all)",
       {"nvidia-smi"}, ""},
      {"CUDA unknown error", "CUDA initialization fails with an unknown error (999)",
       "cudaErrorUnknown at initialization: most often after a suspend and resume, when the nvidia_uvm kernel "
       "module lost its state; also when CUDA_VISIBLE_DEVICES changes after the program started.",
       "Reload the nvidia_uvm module (no process may be using the GPU), or reboot",
       {"sudo rmmod nvidia_uvm", "sudo modprobe nvidia_uvm"}, "needs root"},
  };
  return all;
}

// A way the paste (or the machine) says why no driver answered, and what doctor says of it.
struct AbsentDriverKind {
  bool (*said_by)(const std::string& driver_error);
  bool before_a_gpu;  // said in place of "a GPU is present but no driver is loaded" (what loaded is wrong)
  const char* title;
  const char* why;
  bool needs_in_why;  // the drivers torch and the toolkit need follow the explanation
  const char* fix;
  std::vector<std::string> commands;
  const char* cost;
  const char* reference;
};

const char* const kNotLoadedWhy =
    "The driver's user-space tools are there but its kernel module does not answer (not loaded, built for another "
    "kernel after a kernel update, or a GPU the driver does not see), so torch.cuda.is_available() is False and no "
    "CUDA program runs.";
const char* const kNotLoadedFix =
    "Load the nvidia kernel module and read why it does not load (after a kernel update: reinstall the driver for "
    "the new kernel)";

const std::vector<AbsentDriverKind>& absent_driver_kinds() {
  static const std::vector<AbsentDriverKind> all = {
      {[](const std::string& e) { return starts_with(e, inventory::kStubLibcuda); }, true,
       "A CUDA program loaded the CUDA toolkit's stub libcuda.so, not the NVIDIA driver's: CUDA does not start",
       "The toolkit ships a stub libcuda.so (in lib64/stubs) so that programs link without a driver; loaded at run "
       "time it answers every call with CUDA_ERROR_STUB_LIBRARY (34). Its directory is on LD_LIBRARY_PATH (or the "
       "loader's configuration) before the driver's libcuda.so.1, or no driver is installed at all.",
       false,
       "Take the toolkit's stubs directory out of LD_LIBRARY_PATH (and of /etc/ld.so.conf.d), then see that the "
       "loader finds the driver's libcuda.so.1 and that the driver answers",
       {"echo \"$LD_LIBRARY_PATH\"", "ldconfig -p | grep libcuda", "nvidia-smi"}, "", ""},
      {[](const std::string& e) { return starts_with(e, inventory::kNotLibcuda); }, true,
       "numba loaded a library that is not the NVIDIA driver's libcuda: CUDA does not start",
       "numba binds the driver API (cuInit and the rest) from the library it takes as the driver; NUMBA_CUDA_DRIVER "
       "(NUMBAPRO_CUDA_DRIVER in old releases) set to another library, such as the runtime's libcudart.so, leaves it "
       "without cuInit.",
       false,
       "Unset the variable that names the driver (or point it at the driver's libcuda.so.1), then see that the loader "
       "finds libcuda.so.1",
       {"unset NUMBA_CUDA_DRIVER NUMBAPRO_CUDA_DRIVER", "ldconfig -p | grep libcuda"}, "", ""},
      // Docker refusing `--gpus` (or a compose file's GPU request): the NVIDIA container runtime is not registered.
      {inventory::says_docker_without_gpu_runtime, false,
       "Docker cannot pass a GPU into the container: no NVIDIA container runtime is registered with it",
       "`docker run --gpus` needs the NVIDIA Container Toolkit's runtime registered in Docker's daemon.json; without "
       "it the daemon refuses to start the container, whatever the host's driver. Installing the toolkit's package "
       "does not register the runtime by itself.",
       false,
       "With the NVIDIA Container Toolkit installed (its nvidia-ctk), register its runtime with Docker and restart "
       "Docker",
       {"sudo nvidia-ctk runtime configure --runtime=docker", "sudo systemctl restart docker"},
       "on the host; needs root; restarting Docker stops its running containers",
       "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"},
      {[](const std::string& e) { return starts_with(e, inventory::kContainerNoDriver); }, false,
       "The container was started without the GPU: no NVIDIA driver inside it",
       "NVIDIA's image says so at start-up: the host's driver (libcuda.so.1, /dev/nvidia*) is passed into a container "
       "only by the NVIDIA container runtime, so torch.cuda.is_available() is False and a CUDA library fails to load "
       "libcuda.so.1.",
       false,
       "Start the container again with the GPUs passed in: `--gpus all` on docker run's command line, with the NVIDIA "
       "Container Toolkit installed on the host",
       {}, "on the host, not in the container", ""},
      // nvidia-smi (installed with the driver), or the NVIDIA Container Toolkit on the host, finding it not loaded.
      {[](const std::string& e) { return starts_with(e, inventory::kNvidiaSmiNoDriver); }, false,
       "nvidia-smi cannot communicate with the NVIDIA driver: the driver is installed but not loaded", kNotLoadedWhy,
       true, kNotLoadedFix, {"lsmod | grep nvidia", "sudo modprobe nvidia", "sudo dmesg | grep -i nvidia"}, "", ""},
      {[](const std::string& e) { return starts_with(e, inventory::kContainerCliNoDriver); }, false,
       "The NVIDIA Container Toolkit finds no loaded NVIDIA driver on the host", kNotLoadedWhy, true, kNotLoadedFix,
       {"lsmod | grep nvidia", "sudo modprobe nvidia", "sudo dmesg | grep -i nvidia"}, "", ""},
      // torch itself said so where the program ran: the program asked for the GPU and stopped.
      {[](const std::string& e) { return e.find(inventory::kTorchFoundNoDriver) != std::string::npos; }, false,
       "torch found no NVIDIA driver where the program ran: CUDA code cannot run there",
       "torch's CUDA initialization found no libcuda.so.1: no NVIDIA driver is installed or loaded there, or it is a "
       "container, VM or notebook runtime without a GPU attached. The program asked for the GPU, so it stopped.",
       true,
       "See whether a GPU and its driver answer there (in a container: start it with `--gpus all`; in a notebook: "
       "choose a GPU runtime)",
       {"nvidia-smi"}, "", ""},
  };
  return all;
}

const AbsentDriverKind* absent_driver_kind(const std::string& driver_error) {
  for (const auto& kind : absent_driver_kinds())
    if (kind.said_by(driver_error)) return &kind;
  return nullptr;
}

// The finding's words for that kind; `needs`: the drivers torch and the toolkit need, when the table has them.
void describe(const AbsentDriverKind& kind, const std::vector<std::string>& needs, Finding& f) {
  f.title = kind.title;
  f.explanation = kind.why;
  if (kind.needs_in_why && !needs.empty()) f.explanation += " Needed: " + join(needs, "; ") + ".";
  f.add_fix(kind.fix, kind.commands, kind.cost);
  if (*kind.reference) f.references.push_back(kind.reference);
}

// The same refusal beside a host driver that answers (nvidia-smi's table pasted too, gpu-hot 18): the host is
// fine, Docker is what cannot hand its GPU on.
bool check_docker_without_gpu_runtime(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& d = ctx.inv.driver;
  if (!d.present || !inventory::says_docker_without_gpu_runtime(d.error)) return false;
  Finding f;
  f.id = "driver.missing";
  f.status = Status::kFail;
  f.evidence = {{"docker", d.error, "the pasted report"}, {"host driver", d.version, d.source}};
  describe(*absent_driver_kind(d.error), {}, f);
  out.push_back(std::move(f));
  return true;
}

bool check_cuda_init_failure(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python || !inventory::says_driver_unusable(ctx.python->cuda_error)) return false;
  const std::string& said = ctx.python->cuda_error;
  for (const auto& known : init_failures()) {
    if (said.find(known.marker) == std::string::npos) continue;
    Finding f;
    f.id = "driver.missing";  // the driver is there but unusable: for CUDA it is missing
    f.status = Status::kFail;
    f.title = known.title;
    f.evidence = {{"torch's CUDA initialization", said, ctx.python_from_paste() ? "the pasted report" : ctx.python_label()}};
    if (ctx.inv.driver.present) f.evidence.push_back({"driver", ctx.inv.driver.version, ctx.inv.driver.source});
    f.explanation = std::string(known.why) + " torch.cuda.is_available() is False.";
    f.add_fix(known.fix, known.commands, known.cost);
    f.references.push_back("https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html");
    out.push_back(std::move(f));
    return true;
  }
  return false;
}

}  // namespace

void check_driver(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (check_driver_library_mismatch(ctx, out)) return;
  if (check_docker_without_gpu_runtime(ctx, out)) return;
  if (check_cuda_init_failure(ctx, out)) return;
  const std::string torch_cuda = major_minor(ctx.torch_cuda());
  // A program's refusal pasted without the driver's version still says a driver is too old (or missing).
  const std::string& refused = ctx.inv.driver.refused_by;
  if (!ctx.inv.driver.present && ctx.inv.driver.error.empty() && !refused.empty() && !starts_with(refused, "torch: ")) {
    refused_by_runtime(ctx, "", out);
    return;
  }
  if (!ctx.inv.driver.present) {
    // A Jetson's driver is part of L4T and has no nvidia-smi before JetPack 6, so a report's "Could not collect"
    // says nothing of it.
    if (ctx.inv.gpus.size() == 1 && ctx.inv.gpus.front().name == inventory::kJetsonGpu && ctx.inv.driver.refused_by.empty())
      return;
    const auto& seen = ctx.inv.gpu_presence;
    const bool gpu_here = seen.any() || !ctx.inv.gpus.empty();
    if (!gpu_here && seen.checked) {
      // Nothing to install and nothing to test: said once, as a note, and no command points elsewhere.
      if (torch_cuda.empty() && ctx.inv.toolkits.empty()) return;
      Finding f;
      f.id = "gpu.none";
      f.status = Status::kInfo;
      f.title = "No NVIDIA GPU on this machine: nothing GPU-side can be tested here";
      f.evidence = {{"NVIDIA PCI display/3D devices (vendor 0x10de)", "none", seen.source},
                    {"/dev/nvidia*", "none", "/dev"}};
      f.explanation = "Builds still compile here (nvcc needs no GPU or driver); run the GPU probes on a node with a GPU.";
      out.push_back(std::move(f));
      return;
    }
    // What says why no driver answered, in its own words (the paste's or the machine's): broken now, GPU or not.
    const AbsentDriverKind* said = absent_driver_kind(ctx.inv.driver.error);
    if (!gpu_here && !said && torch_cuda.empty()) return;
    Finding f;
    f.id = "driver.missing";
    f.status = gpu_here || said ? Status::kFail : Status::kInfo;
    f.evidence = {{"driver", ctx.inv.driver.error.empty() ? "absent" : ctx.inv.driver.error, ctx.inv.driver.source}};
    for (const auto& d : seen.pci_devices) f.evidence.push_back({"NVIDIA GPU (PCI)", d, seen.source});
    for (const auto& d : seen.device_nodes) f.evidence.push_back({"device node", d, "/dev"});
    if (!torch_cuda.empty()) f.evidence.push_back({"torch.version.cuda", ctx.torch_cuda(), ctx.python_label()});
    // The driver to install: at least what torch's CUDA and the build toolkit need (data/compat/driver.json).
    std::string need_cuda = torch_cuda, need_driver;
    std::vector<std::string> needs;
    auto require = [&](const std::string& cuda, const std::string& who) {
      if (cuda.empty()) return;
      auto d = ctx.kb.driver_minimum(cuda);
      if (!d) return;
      needs.push_back(d->min_driver + " for " + who + " (CUDA " + cuda + ")");
      f.evidence.push_back({"minimum driver for CUDA " + cuda, d->min_driver, "data/compat/driver.json"});
      f.references.push_back(d->source);
      if (need_driver.empty() || knowledge::compare_versions(d->min_driver, need_driver) > 0) need_driver = d->min_driver, need_cuda = cuda;
    };
    if (ctx.python) require(torch_cuda, "torch " + ctx.python->torch_version);
    if (ctx.build.toolkit && !ctx.build.toolkit->version.empty())
      require(major_minor(ctx.build.toolkit->version), "the toolkit at " + ctx.build.toolkit->root);
    if (said && said->before_a_gpu) {
      describe(*said, needs, f);
    } else if (gpu_here) {
      f.title = "An NVIDIA GPU is present but no NVIDIA driver is loaded" +
                (needs.empty() ? std::string() : ": install driver " + need_driver + " or newer");
      f.explanation = "Without the driver (libcuda.so.1, the nvidia kernel module) torch.cuda.is_available() is False "
                      "and no CUDA program runs." +
                      (needs.empty() ? std::string() : " Needed: " + join(needs, "; ") + ".");
      if (!needs.empty()) f.fixes.push_back(driver_upgrade_step(ctx, need_cuda, 1));
      else f.add_fix("Install the NVIDIA driver for this GPU (the distribution's package or NVIDIA's installer)", {},
                     "needs root and a reboot");
      if (!f.fixes.empty()) f.fixes.front().summary = "Install the NVIDIA driver " +
                                                      (need_driver.empty() ? std::string() : need_driver + " or newer");
    } else if (said) {
      describe(*said, needs, f);
    } else {
      // Not looked at (a saved inventory, a pasted report): what is known is only that no driver answered.
      f.title = "No NVIDIA driver: CUDA code cannot run on this machine";
      f.explanation = "Without libcuda.so.1 torch.cuda.is_available() is False; builds can still compile "
                      "(nvcc does not need a driver) but nothing GPU-side can be tested here.";
    }
    out.push_back(std::move(f));
    return;
  }
  std::string have = driver_cuda(ctx);
  if (!torch_cuda.empty())
    compare(ctx, have, torch_cuda, "torch " + ctx.python->torch_version,
            {"torch.version.cuda", ctx.torch_cuda(), ctx.python_label()}, true, out);
  // torch's own refusal stands where its stated CUDA does not explain it (pytorch 10971: a collect_env of the
  // torch before an update, then the updated torch's "cuda runtime error (35)").
  const bool explained = std::any_of(out.begin(), out.end(), [](const Finding& f) {
    return f.id == "driver.too_old_for_torch" || f.id == "driver.minor_version_compat";
  });
  if (starts_with(refused, "torch: ") && !explained) refused_by_torch(ctx, have, out);
  // A runtime's refusal that torch's own CUDA already explains (torch >= 1.0 prints it without naming itself)
  // is that finding, not a second one.
  const bool torch_too_old = std::any_of(out.begin(), out.end(), [](const Finding& f) { return f.id == "driver.too_old_for_torch"; });
  if (!refused.empty() && !starts_with(refused, "torch: ") && !torch_too_old) refused_by_runtime(ctx, have, out);
  if (ctx.build.toolkit && !ctx.build.toolkit->version.empty())
    compare(ctx, have, major_minor(ctx.build.toolkit->version), "The CUDA toolkit at " + ctx.build.toolkit->root,
            {"toolkit", ctx.build.toolkit->version, ctx.build.toolkit->root}, false, out);
}

}  // namespace gpucheck::doctor
