#pragma once
// The environment reports users paste besides collect_env (collect_env_text.h): `python -m xformers.info`,
// `python -m bitsandbytes`, detectron2's collect_env table, sglang's check_env, `nvidia-smi` (and -L),
// `pip list`, `pip freeze` and `conda list`. Each reader returns only what its text states, as partial facts; pasted_report.h merges
// them (one paste often holds several) into one inventory. Nothing is guessed here: a torch whose CUDA the
// text does not state keeps `torch_cuda` unset, a GPU without a compute capability keeps cc "".
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "knowledge/gpu_models.h"

namespace gpucheck::inventory {

struct PastedGpu {
  std::string name;  // as printed ("NVIDIA GeForce RTX 3090", "" when only a compute capability is given)
  std::string cc;    // "8.6" when the text states it
};

struct PastedFacts {
  std::string format;                     // "xformers.info", "pip list", ... (names the provenance)
  std::string torch_version;              // as printed, local tag included
  std::optional<std::string> torch_cuda;  // "12.1"; "" = stated CPU-only; unset = not stated
  std::optional<bool> cuda_available;
  std::string python_version;
  std::map<std::string, std::string> packages;       // PEP 503 name -> version
  std::map<std::string, std::string> import_errors;  // module -> what the report says failed
  std::string driver_version;
  int driver_cuda = 0;  // nvidia-smi's "CUDA Version: 12.2" as 12020
  std::vector<PastedGpu> gpus;
  std::string nvcc_version;  // "11.8"
  bool states_nvcc = false;  // the format says whether nvcc exists ("CUDA compiler  not available" counts)
  std::string glibc;         // "2.35"
  std::string numpy_abi_error;  // numpy's "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.0.2"
  std::string driver_failure;  // nvidia-smi's kNvidiaSmiNoDriver line (inventory/model.h)
  std::string driver_refusal;  // torch's "The NVIDIA driver on your system is too old (found version 11070)"
  std::vector<std::string> torch_archs;  // torch's own list ("supports CUDA capabilities sm_50 ... sm_90")
  std::string torch_gpu_refusal;         // torch's warning that a GPU is not supported ("... is not compatible ...")
  std::map<std::string, std::vector<std::string>> extension_archs;  // "detectron2 arch flags  7.5": name -> archs
  std::map<std::string, std::string> torch_requirements;  // pip's conflicts: "torchvision" -> "torch==1.6.0"
  std::string build_refusal;  // a build's check refusing nvcc against torch's CUDA, as printed
  bool torch_check_ran = false;  // torch's own check printed torch_cuda: torch is installed, its version unstated
};

/// Wheel file names pasted ("causal_conv1d-1.4.0+cu122torch2.4cxx11abiTRUE-cp310-cp310-linux_x86_64.whl", also
/// without ".whl" or in a URL) whose version names the torch they were built for: each as an installed package.
std::optional<PastedFacts> read_wheel_names(std::string_view text);

/// `python -m xformers.info`, or xFormers' warning "xFormers was built for: PyTorch X ... (you have Y)".
std::optional<PastedFacts> read_xformers_info(std::string_view text);
/// `python -m bitsandbytes` (0.37 "CUDA SETUP:" lines through 0.43+ "CUDA specs").
std::optional<PastedFacts> read_bitsandbytes_report(std::string_view text);
/// detectron2's `python -m detectron2.utils.collect_env` (also mmcv-era copies of it): "key  value" rows.
std::optional<PastedFacts> read_detectron2_env(std::string_view text);
/// DeepSpeed's `ds_report`: its op table and "DeepSpeed general environment info" ("torch version ....
/// 2.1.0+cu121", "torch cuda version .... 12.1", "nvcc version .... 12.1", "deepspeed info .... 0.12.3, ...").
std::optional<PastedFacts> read_ds_report(std::string_view text);
/// `python3 -m sglang.check_env` (and lmdeploy's copy of it): "Key: value" lines, GPUs with capabilities.
std::optional<PastedFacts> read_sglang_check_env(std::string_view text);
/// A build's refusal of nvcc against torch's CUDA, pasted alone (often wrapped): torch.utils.cpp_extension's
/// "The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.8)" and
/// DeepSpeed's op builder's "Installed CUDA version 12.1 does not match the version torch was compiled with
/// 11.8": nvcc's CUDA and torch's CUDA.
std::optional<PastedFacts> read_cpp_extension_check(std::string_view text);
/// pip's resolver conflicts ("torchvision 0.19.1 requires torch==2.4.1, but you have torch 2.5.1 which is
/// incompatible.") and `pip check`'s ("... has requirement torch==2.2.0, but you have torch 2.1.2."): the
/// versions of both distributions as installed.
std::optional<PastedFacts> read_pip_conflicts(std::string_view text);
/// A CUDA program's refusal of the driver pasted beside a report: "CUDA driver version is insufficient for
/// CUDA runtime version" (cudaErrorInsufficientDriver, 35) or "the provided PTX was compiled with an unsupported
/// toolchain" (222), as "torch: <line>" when torch printed it, else "a CUDA program: <line>" (CTranslate2's
/// "CUDA failed with error ...", TensorFlow's, ggml's); XLA's warning that the driver is older than its ptxas
/// as "XLA: <sentence>"; "" when none.
std::string cuda_runtime_refusal(std::string_view text);
/// torch's "CUDA initialization: ..." warning pasted beside a report (why torch.cuda.is_available() is False:
/// "Unexpected error from cudaGetDeviceCount() ... Error 802: system not yet initialized", "CUDA driver
/// initialization failed, you might not have a CUDA gpu."), its wrapped code joined; THC's "cuda runtime error (802)
/// : system not yet initialized" as "Error 802: ..."; "" when none. The driver
/// library mismatch (803) and "too old" are left to their own readers.
std::string torch_cuda_init_failure(std::string_view text);
/// A compiled library refusing the GPU at run time, pasted beside a report: CUDA's "no kernel image is available
/// for execution on the device" (cudaErrorNoKernelImageForDevice, 209) or a library's own check of the GPU's
/// architecture ("FlashAttention only supports Ampere GPUs or newer", "GPU with CUDA capability 7 0 is not
/// supported!", "Could not find compatible tinycudann extension for compute capability 75"); the line, Markdown's
/// marks off, "" when none.
std::string kernel_refusal(std::string_view text);
/// Whether a line is a library's own check of the GPU's architecture (not CUDA's error 209, which torch raises
/// too): what kernel_refusal() reads besides error 209, and how the rule tells the two apart.
bool is_library_arch_check(const std::string& line);
/// kernel_refusal()'s prefix when ggml's CUDA backend (llama.cpp, ollama) raised the refusal: its own kernels.
inline const std::string kGgmlKernelRefusal = "ggml: ";
/// kernel_refusal()'s mark of the ptxas that triton bundles refusing the GPU's architecture.
inline const std::string kTritonPtxasRefusal = "triton's ptxas: ";
/// Startup banners that name torch: Ultralytics' "Ultralytics YOLOv8.2.5 🚀 Python-3.10.12 torch-2.2.0+cu121
/// CUDA:0 (NVIDIA A100-SXM4-80GB, 81051MiB)" with `yolo checks`' package rows ("torch  ✅ 2.3.0+cu121>=1.8.0"),
/// and pyannote's "Model was trained with torch 1.10.0+cu102, yours is 2.1.1+cu118".
std::optional<PastedFacts> read_startup_banners(std::string_view text);
/// MONAI's `monai.config.print_config()`: "Pytorch version: 1.13.0+cu116", "TorchVision version: ...", the
/// other "<name> version: X" rows as packages.
std::optional<PastedFacts> read_monai_config(std::string_view text);
/// torch's own warnings pasted as the report: "<GPU> with CUDA capability sm_120 is not compatible with the
/// current PyTorch installation" with the arch list that follows it, torch >= 2.8's "Found GPU0 <GPU> which is
/// of compute capability (CC) 6.1." with its rows "- 7.5 which supports hardware CC >=7.5,<8.0", and "The
/// NVIDIA driver on your system is too old (found version 9010)" (the CUDA version cudaDriverGetVersion
/// returned).
std::optional<PastedFacts> read_torch_warnings(std::string_view text);
/// The "- key: value" lists of `transformers-cli env`, `accelerate env`, `diffusers-cli env` and
/// `llamafactory-cli env`: torch ("PyTorch version (GPU?): 2.1.2+cu121 (True)"), Python, packages, GPU type.
std::optional<PastedFacts> read_hf_env_list(std::string_view text);
/// ComfyUI's bug-report "System Information" ("- **PyTorch Version:** 2.8.0+cu129", "- **Name:** cuda:0 NVIDIA
/// GeForce RTX 5090 : cudaMallocAsync") and its startup log ("pytorch version: 2.7.0+cu128", "Device: cuda:0
/// NVIDIA GeForce RTX 4090 : native", "xformers version: 0.0.26.post1"), which Fooocus prints too.
std::optional<PastedFacts> read_comfyui_report(std::string_view text);
/// Lightning's `collect_env_details.py`: "* CUDA:" (GPU names, available, torch's CUDA "version"),
/// "* Packages:" ("pyTorch_version" or "torch", the others), "* System:" ("python").
std::optional<PastedFacts> read_lightning_env(std::string_view text);
/// OpenMMLab's collect_env (mmcv, mmdet, mmdet3d, ...): "sys.platform: linux", "PyTorch: 1.9.0", "GPU 0,1:
/// NAME", "NVCC: ...", torch's "- CUDA Runtime 11.1" under "PyTorch compiling details".
std::optional<PastedFacts> read_openmmlab_env(std::string_view text);
/// Answers of an interactive Python session: "torchvision.__version__" (or print(...)) typed at the prompt and
/// '0.14.0' on the next line; "torch.version.cuda" ('11.7', None for a CPU build), "torch.cuda.is_available()",
/// "sys.version".
std::optional<PastedFacts> read_interactive_session(std::string_view text);
/// `nvcc --version` ("Cuda compilation tools, release 12.3, V12.3.107"): nvcc's CUDA (paste_tool_outputs.cpp).
std::optional<PastedFacts> read_nvcc_version(std::string_view text);
/// torch's build configuration (`torch.__config__.show()`: "PyTorch built with:" and its "- CUDA Runtime 11.1",
/// "- NVCC architecture flags: -gencode;arch=compute_37,code=sm_37;...") pasted alone: torch's CUDA and archs.
std::optional<PastedFacts> read_torch_build_config(std::string_view text);
/// `nvidia-smi topo -m`: one row per GPU ("GPU0  X  NV12  NODE ..."), no model names; the GPUs counted.
std::optional<PastedFacts> read_nvidia_smi_topology(std::string_view text);
/// `nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv`: the header names the fields, one row
/// per GPU.
std::optional<PastedFacts> read_nvidia_smi_query(std::string_view text);
/// `cupy.show_config()`: Python, CuPy, NumPy, the driver's CUDA ("CUDA Driver Version : 12020", what
/// cudaDriverGetVersion answers), each device's name and capability ("86"), and a library row holding the
/// exception CuPy raised loading it ("cuBLAS Version : ImportError(...)") as that binding's import failure.
std::optional<PastedFacts> read_cupy_config(std::string_view text);
/// uv's install summary ("Installed 19 packages in 6.00s", " + jax==0.6.1", " ~ torch==2.5.1", "Using Python
/// 3.13.3 environment at: .venv"): the packages it installed.
std::optional<PastedFacts> read_uv_install(std::string_view text);
/// llama.cpp's CUDA backend at start-up: "ggml_cuda_init: found 1 CUDA devices:", "  Device 0: NVIDIA GeForce
/// RTX 4050 Laptop GPU, compute capability 8.9, VMM: yes": the GPUs and their capability.
std::optional<PastedFacts> read_ggml_cuda_init(std::string_view text);
/// ollama's server log (`ollama serve`, journalctl -u ollama): its "inference compute" records (GPU, capability,
/// the driver's CUDA), 0.1.x's "CUDA driver version:" and the driver's version from the libcuda it loaded.
std::optional<PastedFacts> read_ollama_log(std::string_view text);
/// ESPnet's `tools/check_install.py`: "[x] torch=1.7.1", "[x] torch cuda=11.0" (or "[ ] torch cuda" when CUDA is
/// not available), "[x] python=3.7.9", a row per module below "Python modules:".
std::optional<PastedFacts> read_espnet_check_install(std::string_view text);
/// NVIDIA's container images at start-up without the GPUs: "WARNING: The NVIDIA Driver was not detected.  GPU
/// functionality will not be available." (kContainerNoDriver), as the driver's failure; Docker's refusal of
/// `--gpus` without the NVIDIA container runtime (kDockerNoGpuRuntime) the same way.
std::optional<PastedFacts> read_container_banner(std::string_view text);
/// The CUDA toolkit's stub libcuda.so loaded instead of the driver's: CUDA error 34 (CUDA_ERROR_STUB_LIBRARY,
/// "CUDA driver is a stub library") or numba's library test mapping ".../lib/stubs/libcuda.so", as the driver's
/// failure (kStubLibcuda).
std::optional<PastedFacts> read_stub_libcuda(std::string_view text);
/// `nvidia-container-cli info` (the NVIDIA Container Toolkit's view of the host): "NVRM version:   384.130" (the
/// driver), "CUDA version:   9.0" (the newest CUDA it supports), each device's "Model:" and "Architecture:".
std::optional<PastedFacts> read_container_cli_info(std::string_view text);
/// A line saying the driver's kernel module and its libraries disagree, pasted alone or in prose: NVML's
/// "Driver/library version mismatch", TensorFlow's "kernel version 352.63.0 does not match DSO version 361.93.2".
std::optional<PastedFacts> read_driver_mismatch_statement(std::string_view text);
/// JAX's `jax.print_environment_info()`: "jax:    0.4.24", "jaxlib: 0.4.24", "numpy:  1.26.4", "python: 3.12.1
/// | packaged by ..." (nvidia-smi's output below it is read by read_nvidia_smi).
std::optional<PastedFacts> read_jax_environment_info(std::string_view text);
/// Coqui TTS's `TTS/bin/collect_env_info.py` JSON: "CUDA" (its GPUs, available, torch.version.cuda), "Packages"
/// ("PyTorch_version", "TTS", "numpy"), "System" ("python").
std::optional<PastedFacts> read_coqui_tts_env(std::string_view text);
/// Colossal-AI's `colossalai check -i`: "PyTorch version: 1.13.1", "CUDA version: 10.1" (the toolkit under
/// CUDA_HOME; "System CUDA version" in later releases), "CUDA version required by PyTorch: 11.7".
std::optional<PastedFacts> read_colossalai_check(std::string_view text);
/// pip's own output around an install: "Requirement already satisfied: torch in ... (2.4.0+cu124)", "Using pip
/// 22.0.4 from ... (python 3.7)", and the "torch.__version__  = 1.9.0+cu111" a setup.py prints (apex,
/// flash-attn); read when torch's version is among them.
std::optional<PastedFacts> read_pip_install_output(std::string_view text);
/// InvokeAI's startup log ("[InvokeAI]::INFO --> Using torch device: NVIDIA GeForce GTX 1060", "InvokeAI
/// version 6.6.0"): the GPU torch runs on, InvokeAI's version (paste_launcher_logs.cpp).
std::optional<PastedFacts> read_invokeai_log(std::string_view text);
/// InvokeAI's bug report form: its "### Python dependencies" JSON ({"torch": "2.4.1+cu124", "python": ...}) and
/// the GPU under "### GPU model" when "### GPU vendor" says Nvidia.
std::optional<PastedFacts> read_invokeai_form(std::string_view text);
/// AUTOMATIC1111's sysinfo (its JSON, one member per line, often cut): "Python", and under "Torch env info"
/// torch's collect_env fields ("torch_version", "cuda_compiled_version", "is_cuda_available",
/// "nvidia_driver_version", "nvidia_gpu_models"). Its "Packages" rows are read as a freeze list.
std::optional<PastedFacts> read_webui_sysinfo(std::string_view text);
/// vladmandic's installer log, as SD.Next and kohya_ss's GUI print it (its time prefix removed by
/// log_prefixes.h): "Torch 2.1.2+cu118", "Torch backend: nVidia CUDA 11.8 cuDNN 8905", "Torch detected GPU:
/// NVIDIA GeForce RTX 4060 VRAM 8188 Arch (8, 9)", SD.Next's "Torch: torch==2.8.0+cpu torchvision==0.23.0+cpu"
/// and "Packages: ..." pins, the Python version.
std::optional<PastedFacts> read_installer_log(std::string_view text);
/// Unsloth Studio's installer and setup (install.ps1 / install.sh): Python, an NVIDIA GPU found, and its warning
/// that the PyTorch it left is CPU-only.
std::optional<PastedFacts> read_unsloth_installer(std::string_view text);
/// The launch banner of AUTOMATIC1111's web UI (and Forge) or Fooocus: sys.version as launch.py prints it
/// ("Python 3.10.6 (tags/v3.10.6:9c7b4bd, ...) [MSC v.1932 64 bit (AMD64)]") beside "Launching Web UI with
/// arguments", "Commit hash:" or "Fooocus version:". States the Python only.
std::optional<PastedFacts> read_webui_launch(std::string_view text);
/// `nvidia-smi` (its header and GPU rows) or `nvidia-smi -L`.
std::optional<PastedFacts> read_nvidia_smi(std::string_view text);
/// An environment typed by hand as issue templates ask for it ("- PyTorch Version (e.g., 1.0): 1.4", "- GPU:
/// NVIDIA RTX 5060", "Python: 3.6.9"): torch's version, Python, an NVIDIA GPU's name, a driver version, other
/// "name: version" rows as packages (paste_typed_list.cpp). The last resort of `doctor --from-text`: read only
/// when no tool's output is in the paste.
/// Beside another format (`beside_report`), one row of torch's version is enough.
std::optional<PastedFacts> read_typed_env_list(std::string_view text, bool beside_report = false);
/// An environment stated in sentences ("I am using RTX 4090, Nvidia driver 535.54.03 and torch 2.1.0+cu121"):
/// torch's and Python's versions, a dotted driver version, an NVIDIA GPU of `models` (NVIDIA's table), pip's
/// pins and the GPU packages doctor judges, each only when every statement of it agrees (paste_prose.cpp).
/// Read after the typed list, when that found nothing.
std::optional<PastedFacts> read_prose_statements(std::string_view text, const std::vector<knowledge::GpuModel>& models,
                                                 bool beside_report = false);
/// `pip list`, `pip freeze`, `conda list`, and collect_env's "[pip3] name==version" / "[conda] ..." library
/// rows pasted without the rest of the report (torch's CUDA from its local tag, conda build string, or the
/// nvidia-cuda-runtime wheel PyPI's torch requires).
std::optional<PastedFacts> read_package_list(std::string_view text);
/// `pip show torch torchvision` (one "Name: / Version: / Summary: ..." block per package): their versions,
/// torch's CUDA from its local tag.
std::optional<PastedFacts> read_pip_show(std::string_view text);

/// What a package says about its own compiled part in a paste ("Failed to import from vllm._C with
/// ImportError(...)", an extension's ImportError/OSError naming its .so, torchvision's or torchaudio's
/// "Detected that PyTorch and TorchAudio were compiled with different CUDA versions"): module -> the failure.
std::map<std::string, std::string> read_import_warnings(std::string_view text);
/// Those warnings pasted as the report itself (the reporter's whole "environment" section): a fact about
/// the environment, that the package's compiled part does not load.
std::optional<PastedFacts> read_import_warning_report(std::string_view text);

/// "12.1", "515.65.01": digits and dots only, starting with a digit, at most 24 characters (what the rules may
/// compare as versions).
bool dotted_number(const std::string& v);

/// A package's own words that it was built for another torch, as the readers record them and a live import
/// raises them: xFormers' "built for PyTorch X ... (you have Y)", torchvision's and torchaudio's "were compiled
/// with different CUDA versions", DeepSpeed's "ops were compiled and installed with a different version".
inline constexpr const char* kBuiltForPyTorch = "built for PyTorch ";
inline constexpr const char* kCompiledWithDifferent = "were compiled with different";
/// NVIDIA's container images at start-up (NGC, nvidia/cuda) when the container was given no GPU: "WARNING: The
/// NVIDIA Driver was not detected.  GPU functionality will not be available." A Driver::error that begins with
/// it: the host's driver was not passed in (no --gpus, no NVIDIA container runtime).
/// torchao's check at import when it was built for another torch: it imports, without its C++ ops.
inline constexpr const char* kTorchaoSkipsOps = "Skipping import of cpp extensions due to incompatible torch version";
inline constexpr const char* kContainerNoDriver = "The NVIDIA Driver was not detected";
/// Docker's daemon asked for a GPU (`--gpus all`) with no NVIDIA container runtime registered: "docker: Error
/// response from daemon: could not select device driver "" with capabilities: [[gpu]]." A Driver::error that
/// begins with it: the container never started, the host's runtime configuration is what is missing.
/// A Driver::error that begins with it: what a program loaded as libcuda is the toolkit's stub (lib64/stubs, for
/// linking only), which answers every call with CUDA_ERROR_STUB_LIBRARY; the driver's own is not what it found.
inline constexpr const char* kStubLibcuda = "the CUDA toolkit's stub libcuda.so was loaded";
/// A Driver::error that begins with it: the library numba loaded as the driver has no cuInit, so it is not the
/// driver's libcuda (NUMBA_CUDA_DRIVER or NUMBAPRO_CUDA_DRIVER set to the runtime's libcudart.so).
inline constexpr const char* kNotLibcuda = "the library loaded as the CUDA driver is not libcuda";
inline constexpr const char* kDockerNoGpuRuntime = "could not select device driver \"\" with capabilities: [[gpu]]";
/// The same refusal where a compose file or `--runtime` named the driver: "could not select device driver
/// \"nvidia\" with capabilities: [[gpu]]".
inline constexpr const char* kDockerNoNvidiaRuntime = "could not select device driver \"nvidia\" with capabilities: [[gpu]]";
/// The NVIDIA Container Toolkit finding no driver on the host: "nvidia-container-cli: initialization error: nvml
/// error: driver not loaded", "... load library failed: libnvidia-ml.so.1: cannot open shared object file". A
/// Driver::error that begins with it: the host's driver is not loaded (or not installed).
inline constexpr const char* kContainerCliNoDriver = "nvidia-container-cli: initialization error: ";
/// A Driver::error that is Docker's refusal in either spelling.
bool says_docker_without_gpu_runtime(const std::string& driver_error);
inline constexpr const char* kDeepspeedOpsMismatch = "ops were compiled and installed with a different version";
bool says_built_for_another_torch(const std::string& error);
/// Unsloth's installer helper refusing the installed torch: "RuntimeError: Torch = 2.6.0+cu124 too new!" (its
/// pip extras stop at the torch it knows): the message's lead. An import error of "unsloth" begins with it.
inline constexpr const char* kUnslothTorchLead = "Torch = ";
bool says_torch_out_of_range(const std::string& error);

/// "2.1.0+cu121" -> "12.1", "1.13.1+cu117" -> "11.7", "2.1.0+cpu" -> "", other -> unset.
std::optional<std::string> torch_cuda_from_local_tag(const std::string& torch_version);

}  // namespace gpucheck::inventory
