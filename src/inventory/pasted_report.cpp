#include "inventory/pasted_report.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "inventory/collect_env_text.h"
#include "inventory/log_prefixes.h"
#include "inventory/paste_formats.h"
#include "inventory/paste_text.h"
#include "knowledge/gpu_models.h"

namespace gpucheck::inventory {
namespace {

// Each "ModuleNotFoundError: No module named 'x'" of the paste: the top-level module and the line.
std::vector<std::pair<std::string, std::string>> modules_not_found(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string key = "ModuleNotFoundError: No module named '";
  for (const auto& t : paste_text::lines_of(text))
    if (const auto at = t.find(key); at != std::string::npos) {
      const std::string module = t.substr(at + key.size(), t.find('\'', at + key.size()) - at - key.size());
      if (!module.empty() && module.find('.') == std::string::npos) out.emplace_back(module, trim(t.substr(at)));
    }
  return out;
}

// The first line that says the machine is a Jetson, cut to 100 characters; "" when none does.
std::string jetson_statement(std::string_view text) {
  for (const auto& t : paste_text::lines_of(text))
    for (const char* marker : {"-tegra-aarch64", "nv_tegra_release", "L4T", "JetPack", "Jetson"})
      if (t.find(marker) != std::string::npos) return trim(t).substr(0, 100);
  return "";
}

// torch's "Torch not compiled with CUDA enabled" in a line that is not A1111's memory monitor's warning, in a
// paste that shows no other backend the torch was built for: Intel's XPU (CatVTON Wrapper 24: "Device: xpu", an
// IPEX build), DirectML, Apple's MPS, AMD's ROCm. There the program's asking for CUDA is its own bug.
bool torch_said_it_has_no_cuda(std::string_view text) {
  for (const char* other : {"Device: xpu", "+xpu", "intel_extension_for_pytorch", "Intel Arc", "Device: privateuseone",
                            "DirectML", "directml", "Device: mps", "+rocm", "ROCm", "Radeon"})
    if (text.find(other) != std::string_view::npos) return false;
  for (const auto& t : paste_text::lines_of(text))
    if (t.find("Torch not compiled with CUDA enabled") != std::string::npos && t.find("memory monitor disabled") == std::string::npos)
      return true;
  return false;
}

// The formats of a refusal pasted alone: they state no version, and a typed list beside them is read.
const char* const kDriverRefusalFormat = "a CUDA program's refusal of the driver";
const char* const kGpuRefusalFormat = "a library's refusal of the GPU";

std::vector<PastedFacts> read_formats(std::string_view text) {
  std::vector<PastedFacts> out;
  for (auto reader : {read_detectron2_env, read_sglang_check_env, read_ds_report, read_xformers_info,
                      read_bitsandbytes_report, read_nvidia_smi, read_package_list, read_pip_show,
                      read_torch_warnings, read_import_warning_report, read_hf_env_list, read_comfyui_report,
                      read_lightning_env, read_openmmlab_env, read_startup_banners, read_monai_config,
                      read_interactive_session, read_nvcc_version, read_torch_build_config, read_invokeai_log, read_invokeai_form, read_webui_sysinfo,
                      read_installer_log, read_unsloth_installer, read_webui_launch, read_nvidia_smi_topology,
                      read_nvidia_smi_query, read_cupy_config, read_uv_install, read_ggml_cuda_init, read_ollama_log,
                      read_espnet_check_install, read_pip_install_output, read_colossalai_check,
                      read_container_banner, read_stub_libcuda, read_container_cli_info, read_driver_mismatch_statement, read_jax_environment_info, read_coqui_tts_env})
    if (auto f = reader(text)) out.push_back(std::move(*f));
  return out;
}

// A build log's line that states facts (torch's cpp_extension refusal: nvcc's CUDA and torch's; pip's
// dependency conflicts: the installed versions): read when the user asks for a paste without any report to
// be judged as an environment (doctor --from-text), but it does not make a log an environment report for
// explain, whose signatures name that cause from the log.
std::vector<PastedFacts> read_stated_facts(std::string_view text) {
  std::vector<PastedFacts> out;
  if (auto f = read_cpp_extension_check(text)) out.push_back(std::move(*f));
  if (auto f = read_pip_conflicts(text)) out.push_back(std::move(*f));
  if (auto f = read_wheel_names(text)) out.push_back(std::move(*f));
  // A program's refusal of the driver states that a driver is there and too old for it (or absent), and no
  // version: the format has no facts of its own, the refusal is read after the formats.
  if (!cuda_runtime_refusal(text).empty()) {
    PastedFacts refusal;
    refusal.format = kDriverRefusalFormat;
    out.push_back(std::move(refusal));
  }
  // A library's own check refusing the GPU ("FlashAttention only supports Ampere GPUs or newer") the same way.
  if (const std::string said = kernel_refusal(text); !said.empty() && is_library_arch_check(said)) {
    PastedFacts refusal;
    refusal.format = kGpuRefusalFormat;
    out.push_back(std::move(refusal));
  }
  return out;
}

bool parse_cc(const std::string& cc, int& major, int& minor) {
  auto dot = cc.find('.');
  if (dot == std::string::npos || dot == 0 || dot > 3 || dot + 1 >= cc.size() || cc.size() - dot > 4) return false;
  for (std::size_t i = 0; i < cc.size(); ++i)
    if (i != dot && !std::isdigit(static_cast<unsigned char>(cc[i]))) return false;
  major = std::stoi(cc.substr(0, dot));
  minor = std::stoi(cc.substr(dot + 1));
  return true;
}


// One format's facts into the inventory: what the inventory already states is kept.
void merge(Inventory& inv, const PastedFacts& f) {
  const std::string src = "pasted " + f.format;
  PythonEnv& py = inv.pythons.front();
  if (py.version.empty()) py.version = f.python_version;
  for (const auto& [k, v] : f.packages) py.packages.emplace(k, v);
  for (const auto& [k, v] : f.import_errors) py.import_errors.emplace(k, v);
  if (py.torch_numpy_error.empty()) py.torch_numpy_error = f.numpy_abi_error;
  for (const auto& [k, v] : f.extension_archs) py.extension_archs.emplace(k, v);
  for (const auto& [k, v] : f.torch_requirements) py.stated_torch_requirements.emplace(k, v);
  if (py.build_refusal.empty()) py.build_refusal = f.build_refusal;
  if (!py.cuda_available && f.cuda_available) py.cuda_available = f.cuda_available;
  if (py.torch_version.empty() && !f.torch_version.empty()) py.torch_version = f.torch_version;
  // torch's own check printed its CUDA (cpp_extension's refusal): torch is there, its version not stated.
  // An installer's check that found it CPU-only ("PyTorch is CPU-only") states its build the same way.
  if (!py.torch_installed && py.torch_version.empty() && f.torch_check_ran && f.torch_cuda &&
      (dotted_number(*f.torch_cuda) || f.torch_cuda->empty())) {
    py.torch_installed = true;
    py.torch_version = kTorchVersionNotPasted;
    py.torch_cuda = *f.torch_cuda;
  }
  if (!py.torch_installed && !py.torch_version.empty()) {
    // torch's CUDA must be stated (a local tag, a "built with" line, a conda build): a bare "2.1.0" could be
    // any build, and judging it as CPU-only would be a guess.
    std::optional<std::string> cuda = f.torch_cuda;
    if (cuda && !cuda->empty() && !dotted_number(*cuda)) cuda.reset();
    if (!cuda) cuda = torch_cuda_from_local_tag(py.torch_version);
    if (cuda) {
      py.torch_installed = true;
      py.torch_cuda = *cuda;
      py.packages.emplace("torch", py.torch_version);
    }
  }
  if (py.torch_arch_list.empty()) py.torch_arch_list = f.torch_archs;
  if (py.torch_gpu_refusal.empty()) py.torch_gpu_refusal = f.torch_gpu_refusal;
  // torch's "driver ... too old (found version 9010)" states what the driver supports, not its version.
  if (!inv.driver.present && (dotted_number(f.driver_version) || (f.driver_version.empty() && f.driver_cuda > 0))) {
    // A stated version answers "no driver" from an earlier format; what stands beside a version (its parts
    // disagreeing, Docker's refusal to pass it in) stays, with the source that said it.
    const bool stands = says_driver_library_mismatch(inv.driver.error) || says_docker_without_gpu_runtime(inv.driver.error);
    inv.driver.present = true;
    inv.driver.version = f.driver_version;
    inv.driver.cuda_version = f.driver_cuda;
    if (!stands) {
      inv.driver.source = src;
      inv.driver.error.clear();
    }
  } else if (!inv.driver.present && inv.driver.error.empty() && !f.driver_failure.empty()) {
    inv.driver.error = f.driver_failure;
    inv.driver.source = src;
  } else if (inv.driver.present && inv.driver.cuda_version == 0 && f.driver_cuda > 0 && inv.driver.version == f.driver_version) {
    inv.driver.cuda_version = f.driver_cuda;
  }
  // The driver's parts disagreeing stands beside a stated version (localcolabfold 127: the host's nvidia-smi
  // table, then a container's "Failed to initialize NVML: Driver/library version mismatch").
  // So does Docker's refusal to pass the GPU in, beside the host's nvidia-smi (gpu-hot 18), whose driver keeps
  // its source.
  if (inv.driver.error.empty() && says_driver_library_mismatch(f.driver_failure)) {
    inv.driver.error = f.driver_failure;
    inv.driver.source = src;
  } else if (inv.driver.error.empty() && says_docker_without_gpu_runtime(f.driver_failure)) {
    inv.driver.error = f.driver_failure;
  }
  // GPUs: the first format that lists them decides how many; later ones may add the compute capability.
  if (inv.gpus.empty()) {
    int index = 0;
    for (const auto& g : f.gpus) {
      Gpu gpu;
      gpu.index = gpu.nvml_index = index++;
      gpu.name = g.name.empty() ? "GPU " + std::to_string(gpu.index) + " (name not in the report)" : g.name;
      gpu.source = src;
      parse_cc(g.cc, gpu.cc_major, gpu.cc_minor);
      inv.gpus.push_back(gpu);
    }
  } else {
    for (const auto& g : f.gpus) {
      int major = 0, minor = 0;
      if (!parse_cc(g.cc, major, minor)) continue;
      for (auto& gpu : inv.gpus)
        if (gpu.cc_major == 0 && (g.name.empty() || g.name == gpu.name)) {
          gpu.cc_major = major;
          gpu.cc_minor = minor;
          if (g.name.empty()) break;
        }
    }
  }
  if (inv.toolkits.empty() && dotted_number(f.nvcc_version)) {
    add_pasted_nvcc(inv, f.nvcc_version, src + ": nvcc", "nvcc the pasted report ran");
  }
  if (inv.system.glibc.empty() && dotted_number(f.glibc)) inv.system.glibc = f.glibc;
  if (inv.driver.refused_by.empty() && !f.driver_refusal.empty()) inv.driver.refused_by = "torch: " + f.driver_refusal;
}

}  // namespace

const char* pasted_formats_help() {
  return "`python -m torch.utils.collect_env`, vLLM's or detectron2's collect_env, sglang's check_env, "
         "DeepSpeed's ds_report, transformers-cli / accelerate / llamafactory-cli env, Lightning's or "
         "OpenMMLab's collect_env, "
         "`python -m xformers.info`, `python -m bitsandbytes`, ComfyUI's system information, Ultralytics' "
         "`yolo checks`, MONAI's print_config, torch's cpp_extension or DeepSpeed's op builder CUDA check, pip's "
         "dependency conflicts, nvidia-smi (also -q, --query-gpu and topo -m), `nvcc --version`, torch's build "
         "configuration (\"PyTorch built with:\"), `cupy.show_config()`, uv's install summary, llama.cpp's "
         "ggml_cuda_init, ollama's server log, ESPnet's check_install.py, Colossal-AI's `colossalai check -i`, "
         "NVIDIA's container banner, docker's refusal of --gpus, JAX's print_environment_info(), Coqui TTS's "
         "collect_env_info, pip's install "
         "output, the startup "
         "logs of InvokeAI (and its bug report form), SD.Next, kohya_ss, Unsloth Studio's installer, "
         "AUTOMATIC1111's web UI (and its sysinfo) "
         "and Fooocus, "
         "pip list / pip freeze / pip show, conda list, or (doctor --from-text, as a last resort) an environment "
         "typed as issue templates (or GitHub's issue forms) ask for it, or stated in sentences";
}

bool looks_like_environment_report(std::string_view pasted) {
  const std::string text = without_log_prefixes(pasted);
  return looks_like_collect_env(text) || !read_formats(text).empty();
}

std::optional<PastedEnvironment> read_pasted_environment(std::string_view pasted, const std::string& name,
                                                         const std::string& compat_dir, bool log_statements) {
  const std::string plain = without_log_prefixes(pasted);
  const std::string_view text = plain;
  PastedEnvironment out;
  auto collect_env = inventory_from_collect_env(text, name);
  auto formats = read_formats(text);
  // A log's statements (torch's cpp_extension refusal, pip's conflicts) come after the reports it holds, whose
  // facts win (the first format that states a fact keeps it), except before a bare `nvcc --version`: that is
  // the nvcc on PATH, while torch's refusal names the toolkit its build found (CUDA_HOME). Beside nvidia-smi
  // (vLLM 763) the refusal is the only statement of torch's CUDA.
  const bool only_nvcc = formats.size() == 1 && formats.front().format == "nvcc --version";
  if (log_statements && !collect_env) {
    auto stated = read_stated_facts(text);
    formats.insert(only_nvcc ? formats.begin() : formats.end(), stated.begin(), stated.end());
  }
  // Lines typed by hand are read only for doctor --from-text and only when no tool that states Python's facts
  // is there: in a log they are any program's prints, and beside such a tool's output its facts are the better
  // ones. nvidia-smi's table, `nvcc --version` and an import's traceback state nothing of Python's versions: a
  // typed list beside them is read after.
  const bool no_python_tool = std::all_of(formats.begin(), formats.end(), [](const PastedFacts& f) {
    return f.format == "nvidia-smi" || f.format == "nvidia-smi --query-gpu" || f.format == "nvcc --version" ||
           f.format == "nvidia-container-cli info" || f.format == "a statement that the driver's parts disagree" ||
           f.format == kDriverRefusalFormat || f.format == kGpuRefusalFormat || f.format == "a wheel's file name" ||
           f.format == "a CUDA program's stub libcuda" ||
           (f.format == "import warning" && f.torch_version.empty() && f.packages.empty()) ||
           // ComfyUI's reader takes any "PyTorch Version:" row; without ComfyUI's device or Python rows it was a
           // typed list's (MinkowskiEngine 620: "- GPU: NVIDIA RTX 5090", "- PyTorch Version: 2.5.1").
           (f.format == "ComfyUI's system information" && f.gpus.empty() && f.python_version.empty());
  });
  std::vector<knowledge::GpuModel> models;
  if (log_statements && no_python_tool && !collect_env) {
    if (auto typed = read_typed_env_list(text, !formats.empty())) {
      formats.push_back(std::move(*typed));
    } else {
      if (!compat_dir.empty()) models = knowledge::load_gpu_models(compat_dir);
      if (auto prose = read_prose_statements(text, models, !formats.empty())) formats.push_back(std::move(*prose));
    }
  }
  if (collect_env) {
    out.inventory = std::move(*collect_env);
    out.formats.push_back("collect_env");
  } else if (formats.empty()) {
    return std::nullopt;
  } else {
    PythonEnv py;
    py.interpreter = "python";  // the reporter's own: fixes print `python -m pip ...` for that environment
    py.found_via = {"pasted"};
    out.inventory.pythons.push_back(py);
  }
  // collect_env runs nvcc ("CUDA runtime version: Could not collect" means none); a paste cut below that
  // line says nothing about it.
  bool states_nvcc = !out.formats.empty() && text.find("CUDA runtime version") != std::string_view::npos;
  for (const auto& f : formats) {
    merge(out.inventory, f);
    out.formats.push_back(f.format);
    states_nvcc |= f.states_nvcc;
  }
  Inventory& inv = out.inventory;
  // torch's own import failing (a traceback through torch/__init__.py, collect_env's "PyTorch version: N/A"):
  // recorded as a live probe records it, so the same rule judges it.
  if (!inv.pythons.empty() && inv.pythons.front().torch_version.empty() && inv.pythons.front().import_errors.count("torch")) {
    PythonEnv& py = inv.pythons.front();
    py.torch_import_error = py.import_errors["torch"];
    py.import_errors.erase("torch");
  }
  // A Jetson states its GPU by its platform: L4T's kernel ("Linux-5.15.148-tegra-aarch64"), its release file
  // (/etc/nv_tegra_release), JetPack or the board's name. Its GPU is integrated, so no format lists it.
  if (log_statements && inv.gpus.empty())
    if (const std::string said = jetson_statement(text); !said.empty()) {
      Gpu gpu;
      gpu.name = kJetsonGpu;
      gpu.source = "pasted: \"" + said + "\" (a Jetson's platform)";
      inv.gpus.push_back(gpu);
    }
  // A compiled library's refusal of the GPU ("no kernel image ..."): judged against torch's arch list.
  if (log_statements && !inv.pythons.empty()) inv.pythons.front().kernel_refusal = kernel_refusal(text);
  // A program's refusal of the driver, pasted with the report: judged against the driver the report states.
  if (log_statements && inv.driver.refused_by.empty()) inv.driver.refused_by = cuda_runtime_refusal(text);
  // torch's own reason for is_available() being False, as a live probe records it.
  if (log_statements && !inv.pythons.empty() && inv.pythons.front().cuda_error.empty()) {
    PythonEnv& py = inv.pythons.front();
    py.cuda_error = torch_cuda_init_failure(text);
    if (!py.cuda_error.empty()) py.cuda_available = false;
    // What it says of the driver, when nothing else in the paste does: absent, or there and unusable.
    if ((says_driver_unusable(py.cuda_error) || py.cuda_error.find(kTorchFoundNoDriver) != std::string::npos) &&
        !inv.driver.present && inv.driver.error.empty()) {
      inv.driver.error = "torch: CUDA initialization: " + py.cuda_error;
      inv.driver.source = "pasted torch's warning";
    }
  }
  // torch's own answer when a program asks CUDA of a build without it (torch/cuda/__init__.py's _lazy_init):
  // "AssertionError: Torch not compiled with CUDA enabled", also retold ("I get the Torch not compiled with CUDA
  // enabled error"). The installed torch is a CPU build (its version, when the paste states none, is torch's),
  // and the program wanted the GPU. Not A1111's memory monitor's "caught exception 'Torch not compiled with CUDA
  // enabled', memory monitor disabled", printed as well by a web UI run on the CPU on purpose.
  if (log_statements && !inv.pythons.empty() && torch_said_it_has_no_cuda(text)) {
    PythonEnv& py = inv.pythons.front();
    if (!py.torch_installed || py.torch_cuda.empty()) {
      if (py.torch_version.empty()) py.torch_version = kTorchVersionNotPasted;
      py.torch_installed = true;
      py.torch_cuda.clear();
      py.cuda_available = false;
      if (py.cuda_error.empty()) py.cuda_error = kTorchNotCompiledWithCuda;
    }
  }
  // "ModuleNotFoundError: No module named 'tensorrt'" where the paste lists tensorrt as installed (TensorRT-LLM
  // 1839: the metapackage beside wheels of another release): the installed package does not import.
  if (log_statements && !inv.pythons.empty())
    for (const auto& [module, said] : modules_not_found(text)) {
      PythonEnv& py = inv.pythons.front();
      if (py.packages.count(paste_text::normalized(module)) && !py.import_errors.count(module)) py.import_errors[module] = said;
    }
  // Beside a collect_env, whose facts win, the statements read_stated_facts() takes otherwise still add what it
  // does not say: a build's refusal (pytorch 73047, cut before its nvcc line: the toolkit the build found, and
  // that the build stopped) and pip's torch pins (pytorch 87075).
  if (log_statements && !out.formats.empty() && out.formats.front() == "collect_env" && !inv.pythons.empty()) {
    PythonEnv& py = inv.pythons.front();
    if (auto check = read_cpp_extension_check(text)) {
      py.build_refusal = check->build_refusal;
      if (inv.toolkits.empty() && dotted_number(check->nvcc_version))
        add_pasted_nvcc(inv, check->nvcc_version, "pasted " + check->format + ": nvcc", "the nvcc the pasted build found");
    }
    if (auto conflicts = read_pip_conflicts(text))
      for (const auto& [name, required] : conflicts->torch_requirements) py.stated_torch_requirements.emplace(name, required);
  }
  for (auto& g : inv.gpus) {
    if (compat_dir.empty() || g.cc_major != 0 || g.name.empty()) continue;
    if (models.empty()) models = knowledge::load_gpu_models(compat_dir);
    if (auto m = knowledge::gpu_model(models, g.name); m && parse_cc(m->cc, g.cc_major, g.cc_minor))
      g.source += "; compute capability of " + m->name + " from data/compat/cuda_archs.json (" + m->source + ")";
  }
  std::string list;
  for (const auto& f : out.formats) list += (list.empty() ? "" : ", ") + f;
  inv.notes.push_back("pasted report (" + name + "): " + list + "; facts carry provenance \"pasted\"");
  if (!inv.driver.present && inv.driver.error.empty()) inv.notes.push_back(kPasteLacksDriver);
  if (inv.toolkits.empty() && !states_nvcc) inv.notes.push_back(kPasteLacksToolkit);
  return out;
}

}  // namespace gpucheck::inventory
