// The paste formats besides collect_env, on real pastes from public threads (tests/data/pasted_env and
// tests/data/paste_formats, each with its source): what each reader states, and how pasted_report merges
// several formats into one inventory whose facts say "pasted".
#include <gtest/gtest.h>

#include "core/files.h"
#include "inventory/log_prefixes.h"
#include "inventory/paste_formats.h"
#include "inventory/pasted_report.h"
#include "knowledge/gpu_models.h"

using namespace gpucheck::inventory;

namespace {
std::string paste(const std::string& rel) { return gpucheck::read_file(std::string(GPUCHECK_TEST_DATA) + "/" + rel); }
const std::string kCompat = std::string(GPUCHECK_SOURCE_DIR) + "/data/compat";
}  // namespace

TEST(PasteFormats, XformersWarningIsAnImportFailureAndNamesTheInstalledTorch) {
  auto f = read_xformers_info(paste("pasted_env/facebookresearch-xformers-971.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.1.0+cpu");
  EXPECT_EQ(f->python_version, "3.9.13");
  EXPECT_EQ(f->packages.at("xformers"), "0.0.23.post1");
  ASSERT_TRUE(f->import_errors.count("xformers"));
  EXPECT_NE(f->import_errors.at("xformers").find("built for PyTorch 2.1.2+cu121 with CUDA 1201"), std::string::npos);
  // The warning alone (no info table) is enough, with a torch that has no local tag.
  auto w = read_xformers_info(paste("pasted_env/facebookresearch-xformers-874.txt"));
  ASSERT_TRUE(w);
  EXPECT_EQ(w->torch_version, "2.1.0+cu121");
  // A healthy info table is read without an import failure.
  auto ok = read_xformers_info(paste("pasted_env/facebookresearch-xformers-859.txt"));
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->import_errors.empty());
  EXPECT_EQ(ok->torch_version, "2.0.1+cu118");
}

TEST(PasteFormats, Detectron2TableGivesGpusWithTheirArchAndTheBuildToolkit) {
  auto f = read_detectron2_env(paste("pasted_env/facebookresearch-detectron2-2913.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "1.8.1+cu111");
  EXPECT_EQ(f->nvcc_version, "10.1");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "GeForce GTX 1650 Ti with Max-Q Design");
  EXPECT_EQ(f->gpus[0].cc, "7.5");
  EXPECT_EQ(f->packages.at("detectron2"), "0.4");
  auto many = read_detectron2_env(paste("pasted_env/facebookresearch-detectron2-722.txt"));
  ASSERT_TRUE(many);
  EXPECT_EQ(many->gpus.size(), 16u);  // "GPU 0,1,...,15  Tesla K80"
  EXPECT_EQ(many->nvcc_version, "10.1");
  EXPECT_TRUE(many->import_errors.count("detectron2"));
  EXPECT_FALSE(many->torch_cuda.has_value()) << "PyTorch 1.4.0 without a local tag or a 'built with' line";
}

// detectron2's collect_env reports what cuobjdump found in its _C.so ("arch flags"): a list is taken, a path
// or "cannot find cuobjdump" (it could not tell) is not.
TEST(PasteFormats, Detectron2ArchFlagsAreTheExtensionsArchitectures) {
  const std::string table =
      "----------------------  ---------------------------------------------\n"
      "sys.platform            linux\n"
      "Python                  3.8.5 (default)\n"
      "detectron2              0.2.1 @/env/lib/python3.8/site-packages/detectron2\n"
      "detectron2 arch flags   sm_37, sm_60\n"
      "PyTorch                 1.6.0 @/env/lib/python3.8/site-packages/torch\n"
      "GPU 0                   Tesla V100-SXM2-16GB (arch=7.0)\n"
      "torchvision             0.7.0 @/env/lib/python3.8/site-packages/torchvision\n"
      "torchvision arch flags  /env/lib/python3.8/site-packages/torchvision/_C.so\n";
  auto f = read_detectron2_env(table);
  ASSERT_TRUE(f);
  ASSERT_TRUE(f->extension_archs.count("detectron2"));
  EXPECT_EQ(f->extension_archs.at("detectron2"), (std::vector<std::string>{"sm_37", "sm_60"}));
  EXPECT_FALSE(f->extension_archs.count("torchvision")) << "a path is not a list of architectures";
  std::string dotted = table;
  dotted.replace(dotted.find("sm_37, sm_60"), 12, "3.5, 5.0, 7.5");
  EXPECT_EQ(read_detectron2_env(dotted)->extension_archs.at("detectron2"), (std::vector<std::string>{"3.5", "5.0", "7.5"}));
}

// DeepSpeed's ds_report: its op table alone is recognised (nothing to judge in it), and its environment
// block gives torch, torch's CUDA, nvcc and deepspeed.
TEST(PasteFormats, DsReportGivesTorchItsCudaNvccAndDeepspeed) {
  const std::string ops =
      "--------------------------------------------------\n"
      "DeepSpeed C++/CUDA extension op report\n"
      "--------------------------------------------------\n"
      "cpu_adam ............... [NO] ....... [OKAY]\n";
  auto only_ops = read_ds_report(ops);
  ASSERT_TRUE(only_ops);
  EXPECT_TRUE(only_ops->torch_version.empty());
  auto f = read_ds_report(ops +
                          "DeepSpeed general environment info:\n"
                          "torch install path ............... ['/env/lib/python3.10/site-packages/torch']\n"
                          "torch version .................... 2.1.0+cu121\n"
                          "deepspeed info ................... 0.12.3, unknown, unknown\n"
                          "torch cuda version ............... 12.1\n"
                          "nvcc version ..................... 11.8\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.1.0+cu121");
  EXPECT_EQ(f->torch_cuda, std::optional<std::string>("12.1"));
  EXPECT_EQ(f->nvcc_version, "11.8");
  EXPECT_EQ(f->packages.at("deepspeed"), "0.12.3");
  EXPECT_FALSE(read_ds_report("torch version .................... 2.1.0\n")) << "no ds_report header";
  // "torch cuda version .... None" is a CPU build, unless a HIP version says it is ROCm's.
  const std::string cpu = ops + "torch version .................... 2.1.0\ntorch cuda version ............... None\n";
  EXPECT_EQ(read_ds_report(cpu)->torch_cuda, std::optional<std::string>(""));
  EXPECT_FALSE(read_ds_report(cpu + "torch hip version ................ 5.6.31061\n")->torch_cuda.has_value());
}

// A report copied out of journald or a timestamped container log is read as printed.
TEST(PasteFormats, LogPrefixesAreRemovedBeforeReading) {
  const std::string logged =
      "Aug 12 10:38:34 fileserver unsloth[4073658]: WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. "
      "xFormers was built for:\n"
      "Aug 12 10:38:34 fileserver unsloth[4073658]:     PyTorch 2.10.0+cu128 with CUDA 1208 (you have 2.11.0+cu130)\n"
      "Aug  2 10:38:34 fileserver unsloth[4073658]:     Python  3.10.19 (you have 3.13.9)\n";
  EXPECT_EQ(without_log_prefixes(logged),
            "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
            "    PyTorch 2.10.0+cu128 with CUDA 1208 (you have 2.11.0+cu130)\n"
            "    Python  3.10.19 (you have 3.13.9)\n");
  EXPECT_EQ(without_log_prefixes("2024-05-01T12:00:00.123456789Z PyTorch version: 2.3.0\n"
                                 "2024-05-01 12:00:01+02:00 Is CUDA available: True\n"),
            "PyTorch version: 2.3.0\nIs CUDA available: True\n");
  // Lines without a prefix, and look-alikes, are kept whole.
  EXPECT_EQ(without_log_prefixes("PyTorch version: 2.3.0\nOS: Ubuntu 22.04: x\n"), "PyTorch version: 2.3.0\nOS: Ubuntu 22.04: x\n");
  auto env = read_pasted_environment(logged, "log", kCompat);
  ASSERT_TRUE(env);
  EXPECT_EQ(env->inventory.pythons.front().torch_version, "2.11.0+cu130");
  EXPECT_TRUE(env->inventory.pythons.front().import_errors.count("xformers"));
}

TEST(PasteFormats, NvidiaSmiTableGivesDriverTheDriversCudaAndGpuNames) {
  auto f = read_nvidia_smi(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-97.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->driver_version, "515.65.01");
  EXPECT_EQ(f->driver_cuda, 11070);
  ASSERT_EQ(f->gpus.size(), 2u);
  EXPECT_EQ(f->gpus[1].name, "Tesla P40");
  auto wddm = read_nvidia_smi(paste("pasted_env/pytorch-pytorch-68611.txt"));
  ASSERT_TRUE(wddm);
  ASSERT_EQ(wddm->gpus.size(), 1u);
  EXPECT_EQ(wddm->gpus[0].name, "GeForce GTX 105...");  // truncated by nvidia-smi; WDDM stripped
}

TEST(PasteFormats, NvidiaSmiFailureIsADriverThatDoesNotAnswer) {
  // Wrapped over two lines (nvidia-docker 988) and after a shell prompt with a traceback below (pytorch 67991).
  for (const char* name : {"pasted_env/NVIDIA-nvidia-docker-988.txt", "pasted_env/pytorch-pytorch-67991.txt"}) {
    auto f = read_nvidia_smi(paste(name));
    ASSERT_TRUE(f) << name;
    EXPECT_EQ(f->driver_failure.rfind("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver", 0), 0u)
        << name;
    EXPECT_TRUE(f->driver_version.empty());
    auto env = read_pasted_environment(paste(name), "paste", kCompat);
    ASSERT_TRUE(env) << name;
    EXPECT_FALSE(env->inventory.driver.present);
    EXPECT_EQ(env->inventory.driver.source, "pasted nvidia-smi");
  }
  // A working table is no failure.
  auto ok = read_nvidia_smi(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-97.txt"));
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->driver_failure.empty());
}

TEST(PasteFormats, TorchaudioRefusingTorchsCudaIsAnImportFailure) {
  // torchaudio's own check (WhisperHallu 22): the traceback lists the source that raises it, whose quoted
  // text is no refusal; the RuntimeError line is.
  const std::string text = paste("pasted_env/EtienneAb3d-WhisperHallu-22.txt");
  auto errors = read_import_warnings(text);
  ASSERT_EQ(errors.size(), 1u);
  ASSERT_TRUE(errors.count("torchaudio"));
  EXPECT_EQ(errors.at("torchaudio").rfind("RuntimeError: Detected that PyTorch and TorchAudio were compiled", 0), 0u);
  auto env = read_pasted_environment(text, "paste", kCompat);
  ASSERT_TRUE(env);
  ASSERT_FALSE(env->inventory.pythons.empty());
  EXPECT_TRUE(env->inventory.pythons.front().import_errors.count("torchaudio"));
  // torchvision's wording, wrapped where a terminal broke it (geocine/sd-easy-mode 18, tests/data/corpus).
  auto wrapped = read_import_warnings(gpucheck::read_file(std::string(GPUCHECK_TEST_DATA) + "/corpus/geocine-sd-easy-mode-18.log"));
  EXPECT_TRUE(wrapped.count("torchvision"));
  // The source line alone, as a traceback quotes it, is not the refusal.
  EXPECT_TRUE(read_import_warnings(
                  "    193                 \"Detected that PyTorch and TorchAudio were compiled with different CUDA versions. \"")
                  .empty());
}

TEST(PasteFormats, ComfyuiSystemInformationAndStartupLogGiveTorchAndItsDevice) {
  // The bug report's markdown (ComfyUI 5278): torch, Python, the CUDA device torch runs on.
  auto report = read_comfyui_report(paste("pasted_env/Comfy-Org-ComfyUI-5278.txt"));
  ASSERT_TRUE(report);
  EXPECT_EQ(report->torch_version, "2.4.1+cu124");
  EXPECT_EQ(report->python_version, "3.11.9");
  ASSERT_EQ(report->gpus.size(), 1u);  // the log below repeats the same device
  EXPECT_EQ(report->gpus[0].name, "NVIDIA GeForce RTX 2060");
  EXPECT_EQ(report->cuda_available, std::optional<bool>(true));
  // The startup log alone (ComfyUI 8010), and the xformers version its log prints (UltimateSDUpscale 106).
  auto log = read_comfyui_report(paste("pasted_env/Comfy-Org-ComfyUI-8010.txt"));
  ASSERT_TRUE(log);
  EXPECT_EQ(log->torch_version, "2.7.0+cu128");
  ASSERT_EQ(log->gpus.size(), 1u);
  EXPECT_EQ(log->gpus[0].name, "NVIDIA GeForce RTX 4090");
  auto xf = read_comfyui_report(paste("pasted_env/ssitu-ComfyUI_UltimateSDUpscale-106.txt"));
  ASSERT_TRUE(xf);
  EXPECT_EQ(xf->packages.at("xformers"), "0.0.26.post1");
  EXPECT_FALSE(read_comfyui_report(paste("pasted_env/pytorch-pytorch-43058.txt"))) << "a collect_env is not ComfyUI's";
}

TEST(PasteFormats, ComfyuiManagerStampsAndTheStartupBannerAlone) {
  // ComfyUI-Manager stamps every write of the process, so one print carries a stamp before each part.
  EXPECT_EQ(without_log_prefixes("2025-03-01T20:08:43.106599 - ** Platform:2025-03-01T20:08:43.106599 -  "
                                 "2025-03-01T20:08:43.106599 - Windows2025-03-01T20:08:43.106599 - \n"
                                 "Total VRAM 8192 MB - 2025-03-01T20:08:43.106599 - kept\n"),
            "** Platform: Windows\nTotal VRAM 8192 MB - 2025-03-01T20:08:43.106599 - kept\n");
  // ComfyUI 10903: the paste stops after the banner; it states Python, not torch.
  const std::string text = without_log_prefixes(paste("pasted_env/Comfy-Org-ComfyUI-10903.txt"));
  auto f = read_comfyui_report(text);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->python_version, "3.13.9");
  EXPECT_TRUE(f->torch_version.empty());
  EXPECT_FALSE(f->cuda_available);
  // The banner's Python line without the banner is not ComfyUI's.
  EXPECT_FALSE(read_comfyui_report("** Python version: 3.12.9 (main)\n"));
}

TEST(PasteFormats, MmengineCollectEnvPrintedAsAnOrderedDict) {
  // mmcv 2908: print(collect_env()) on one line, cut inside torch's compiling details.
  auto f = read_openmmlab_env(paste("pasted_env/open-mmlab-mmcv-2908.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->python_version, "3.9.17");
  EXPECT_EQ(f->cuda_available, std::optional<bool>(false));
  EXPECT_EQ(f->torch_version, "2.0.1");
  EXPECT_FALSE(f->torch_cuda) << "the paste ends before any CUDA Runtime line";
  // Whole, with torch's CUDA inside the compiling details string and a GPU group.
  auto g = read_openmmlab_env("OrderedDict([('sys.platform', 'linux'), ('CUDA available', True), ('GPU 0,1', "
                              "'NVIDIA A100-SXM4-80GB'), ('PyTorch', '2.1.0+cu118'), ('PyTorch compiling details', "
                              "'PyTorch built with:\\n  - GCC 9.3\\n  - CUDA Runtime 11.8\\n'), ('MMEngine', '0.10.3')])\n");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->torch_cuda, std::optional<std::string>("11.8"));
  EXPECT_EQ(g->gpus.size(), 2u);
  EXPECT_EQ(g->packages.at("mmengine"), "0.10.3");
  EXPECT_FALSE(read_openmmlab_env("OrderedDict([('a', 1)])\n"));
}

TEST(PasteFormats, LightningListsTorchUnderItsLightningSection) {
  // Lightning 1.9+ (pytorch-lightning 20220): torch under "* Lightning:", the rest under "* Packages:".
  auto f = read_lightning_env(paste("pasted_env/Lightning-AI-pytorch-lightning-20220.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "1.13.1+cu116");
  EXPECT_EQ(f->packages.at("torchvision"), "0.14.1+cu116");
  EXPECT_EQ(f->torch_cuda, std::optional<std::string>("11.6"));
}

TEST(PasteFormats, MmcvCollectEnvPrintedAsADict) {
  // mmcv 1470: collect_env() through pprint, cut inside torch's compiling details.
  auto f = read_openmmlab_env(paste("pasted_env/open-mmlab-mmcv-1470.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "1.9.1");
  EXPECT_EQ(f->cuda_available, std::optional<bool>(true));
  EXPECT_EQ(f->nvcc_version, "10.2");
  ASSERT_EQ(f->gpus.size(), 2u);  // "GPU 0,1": one name for two
  EXPECT_EQ(f->gpus[1].name, "NVIDIA TITAN RTX");
  EXPECT_EQ(f->packages.at("mmcv"), "1.3.16");
}

TEST(PasteFormats, PipShowGivesEachPackagesVersion) {
  // sdnext 3531: two `pip show` blocks after the failure; torchvision 0.20.1 pins torch 2.5.1 on PyPI.
  const std::string text = paste("pasted_env/vladmandic-sdnext-3531.txt");
  auto f = read_pip_show(text);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.4.0+cu121");
  EXPECT_EQ(f->packages.at("torchvision"), "0.20.1+cu124");
  EXPECT_FALSE(read_pip_show("Name: Ada\nVersion: 1.0\n")) << "two lines with a name are not pip show";
  // The failure torchvision prints when its operators are missing from this torch.
  auto errors = read_import_warnings(text);
  ASSERT_TRUE(errors.count("torchvision"));
  EXPECT_NE(errors.at("torchvision").find("operator torchvision::nms does not exist"), std::string::npos);
}

TEST(PasteFormats, ExtensionsThatFailOutsideSitePackagesAndTypedImports) {
  // KNN_CUDA 2: an extension built in its checkout; the folder holding the .so names it.
  auto knn = read_import_warnings(paste("pasted_env/unlimblue-KNN_CUDA-2.txt"));
  EXPECT_TRUE(knn.count("knn"));
  // pytorch_scatter 470: the loader's message quoted without "ImportError:", the path relative.
  auto scatter = read_import_warnings(paste("pasted_env/rusty1s-pytorch_scatter-470.txt"));
  EXPECT_TRUE(scatter.count("torch_scatter"));
  // tt-forge 890: `>>> import torchvision` and a traceback cut before its error line.
  auto typed = read_import_warnings(paste("pasted_env/tenstorrent-tt-forge-890.txt"));
  ASSERT_TRUE(typed.count("torchvision"));
  EXPECT_FALSE(typed.count("torch")) << "import torch raised nothing";
  // spconv 367 and 337: an installed package's own import raising ImportError (no .so in the message); the
  // traceback's innermost frame is in site-packages/spconv.
  for (const char* name : {"pasted_env/traveller59-spconv-367.txt", "pasted_env/traveller59-spconv-337.txt"}) {
    auto spconv = read_import_warnings(paste(name));
    EXPECT_TRUE(spconv.count("spconv")) << name;
  }
  // A user's script raising ImportError in its own frame names no installed package.
  EXPECT_TRUE(read_import_warnings("Traceback (most recent call last):\n  File \"/home/me/train.py\", line 3, in "
                                   "<module>\nImportError: cannot import name 'foo' from 'bar'\n")
                  .empty());
  // DGL without its C++ library for this torch (dgl 5442).
  EXPECT_TRUE(read_import_warnings(paste("pasted_env/dmlc-dgl-5442.txt")).count("dgl"));
  // A library's symbol error is no module, and an import without a traceback below it is no failure.
  EXPECT_TRUE(read_import_warnings("libfoo.so: undefined symbol: bar\n").empty());
  EXPECT_TRUE(read_import_warnings(">>> import torch\n>>> torch.cuda.is_available()\nTrue\n").empty());
}

TEST(PasteFormats, TorchsArchListWrappedOntoTheNextLine) {
  // Fooocus 4222: "The current PyTorch install supports CUDA capabilities" then the list on its own line.
  auto f = read_torch_warnings(paste("pasted_env/lllyasviel-Fooocus-4222.txt"));
  ASSERT_TRUE(f);
  ASSERT_FALSE(f->torch_archs.empty());
  EXPECT_EQ(f->torch_archs.front(), "sm_50");
  EXPECT_EQ(f->torch_archs.back(), "sm_90");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].cc, "12.0");
}

TEST(PasteFormats, CppExtensionsCudaCheckGivesNvccAndTorchsCuda) {
  // vLLM 1060 (pip's indented, wrapped copy inside a traceback) and xformers 748 (the message alone).
  auto vllm = read_cpp_extension_check(paste("pasted_env/vllm-project-vllm-1060.txt"));
  ASSERT_TRUE(vllm);
  EXPECT_EQ(vllm->nvcc_version, "12.2");
  EXPECT_EQ(vllm->torch_cuda, std::optional<std::string>("11.7"));
  EXPECT_TRUE(vllm->torch_check_ran);
  auto xf = read_cpp_extension_check(paste("pasted_env/facebookresearch-xformers-748.txt"));
  ASSERT_TRUE(xf);
  EXPECT_EQ(xf->nvcc_version, "12.1");
  EXPECT_EQ(xf->torch_cuda, std::optional<std::string>("11.8"));
  // Merged, torch is there with its CUDA and no version: what the rules need to compare nvcc with it.
  auto env = read_pasted_environment(paste("pasted_env/facebookresearch-xformers-748.txt"), "paste", kCompat);
  ASSERT_TRUE(env);
  const auto& py = env->inventory.pythons.front();
  EXPECT_TRUE(py.torch_installed);
  EXPECT_EQ(py.torch_version, kTorchVersionNotPasted);
  EXPECT_EQ(py.torch_cuda, "11.8");
  EXPECT_FALSE(read_cpp_extension_check("The detected CUDA version (12.1) is fine\n"));
  // torch's message closes each number with ')': anything else there is not that message.
  EXPECT_FALSE(read_cpp_extension_check("The detected CUDA version (12.1abc) mismatches the version that was used to "
                                        "compile PyTorch (11.8)\n"));
}

TEST(PasteFormats, StartupBannersNameTorchAndTheDevice) {
  // Ultralytics' `yolo checks` (ultralytics 10424): the package rows decide torch, as they do torchvision.
  auto yolo = read_startup_banners(paste("pasted_env/ultralytics-ultralytics-10424.txt"));
  ASSERT_TRUE(yolo);
  EXPECT_EQ(yolo->torch_version, "2.3.0+cu121");
  EXPECT_EQ(yolo->packages.at("torchvision"), "0.18.0+cu121");
  ASSERT_EQ(yolo->gpus.size(), 1u);
  EXPECT_EQ(yolo->gpus[0].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(yolo->python_version, "3.10.12");
  // On the CPU (ultralytics 16230): no GPU named, CUDA "None".
  auto cpu = read_startup_banners(paste("pasted_env/ultralytics-ultralytics-16230.txt"));
  ASSERT_TRUE(cpu);
  EXPECT_TRUE(cpu->gpus.empty());
  EXPECT_EQ(cpu->torch_cuda, std::optional<std::string>(""));
  // Unsloth's banner (unsloth 1263): "CUDA = 8.6" is the GPU's capability, "CUDA Toolkit = 11.8" torch's CUDA.
  auto unsloth = read_startup_banners(paste("pasted_env/unslothai-unsloth-1263.txt"));
  ASSERT_TRUE(unsloth);
  EXPECT_EQ(unsloth->torch_version, "2.1.0+cu118");
  ASSERT_EQ(unsloth->gpus.size(), 1u);
  EXPECT_EQ(unsloth->gpus[0].name, "NVIDIA RTX A6000");
  EXPECT_EQ(unsloth->gpus[0].cc, "8.6");
  EXPECT_EQ(unsloth->torch_cuda, std::optional<std::string>("11.8"));
  EXPECT_EQ(unsloth->packages.at("xformers"), "0.0.22.post7+cu118");
  // pyannote's checkpoint warning (docker-whisperX 32): the installed torch.
  auto pyannote = read_startup_banners(paste("pasted_env/jim60105-docker-whisperX-32.txt"));
  ASSERT_TRUE(pyannote);
  EXPECT_EQ(pyannote->torch_version, "2.1.1+cu118");
}

TEST(PasteFormats, MonaiConfigGivesTorchAndItsCompanions) {
  // MONAI 5762: print_config's "<name> version: X" rows.
  auto f = read_monai_config(paste("pasted_env/Project-MONAI-MONAI-5762.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "1.13.0+cu116");
  EXPECT_EQ(f->packages.at("torchvision"), "0.14.0+cu116");
  EXPECT_EQ(f->packages.at("numpy"), "1.23.4");
  EXPECT_EQ(f->packages.at("monai"), "1.1.0rc2");
  EXPECT_FALSE(read_monai_config(paste("pasted_env/pytorch-pytorch-43058.txt")));
}

TEST(PasteFormats, NvidiaSmiFailureWithATypographicApostrophe) {
  // envs 4: "couldn‘t" as an editor wrote it is the same failure.
  auto f = read_nvidia_smi(paste("pasted_env/qixuema-envs-4.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->driver_failure.rfind(kNvidiaSmiNoDriver, 0), 0u) << f->driver_failure;
}

TEST(PasteFormats, BitsandbytesReportGivesCapabilitiesAndItsFailure) {
  auto ok = read_bitsandbytes_report(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-444.txt"));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->gpus.size(), 8u);
  EXPECT_EQ(ok->gpus[0].cc, "7.0");
  EXPECT_TRUE(ok->import_errors.empty());
  auto bad = read_bitsandbytes_report(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-185.txt"));
  ASSERT_TRUE(bad);
  ASSERT_TRUE(bad->import_errors.count("bitsandbytes"));
  EXPECT_NE(bad->import_errors.at("bitsandbytes").find("Required library version not found"), std::string::npos);
}

TEST(PasteFormats, SglangCheckEnvGivesTheStackAndOneCapabilityForAGroupOfGpus) {
  auto f = read_sglang_check_env(paste("pasted_env/sgl-project-sglang-8756.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.7.1+cu126");
  EXPECT_EQ(f->driver_version, "550.54.15");
  EXPECT_EQ(f->nvcc_version, "11.8");
  ASSERT_EQ(f->gpus.size(), 3u);  // "GPU 0,1,2: Tesla T4"
  EXPECT_EQ(f->gpus[2].cc, "7.5");
  EXPECT_EQ(f->packages.at("sglang"), "0.4.10.post2");
  EXPECT_FALSE(read_sglang_check_env(paste("pasted_env/pytorch-pytorch-43058.txt"))) << "a collect_env is not sglang's";
}

TEST(PasteFormats, PackageListsPipTableAndCondaList) {
  auto pip = read_package_list(paste("paste_formats/vllm-3387-pip-list.txt"));
  ASSERT_TRUE(pip);
  EXPECT_EQ(pip->format, "pip list");
  EXPECT_EQ(pip->packages.at("cupy-cuda12x"), "12.1.0");
  EXPECT_EQ(pip->packages.at("brotli"), "1.0.9");
  auto conda = read_package_list(paste("paste_formats/pytorch-180713-conda-list.txt"));
  ASSERT_TRUE(conda);
  EXPECT_EQ(conda->format, "conda list");
  EXPECT_EQ(conda->packages.at("cuda-bindings"), "12.9.4");
  // A log is not a package list.
  EXPECT_FALSE(read_package_list(paste("logs/vllm-1060.log")));
}

// Pasted without the rest of their report (the `opened` cases vllm-36099 and kzhang2-aoneus-2): collect_env's
// tagged library rows, and pip list rows without their header when torch's family is among them.
TEST(PasteFormats, CollectEnvLibraryRowsAndHeaderlessPipRowsAreAList) {
  auto rows = read_package_list(paste("pasted_env/vllm-project-vllm-36099.txt"));
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->format, "collect_env libraries");
  EXPECT_EQ(rows->packages.at("nvidia-nccl-cu12"), "2.27.5");
  EXPECT_EQ(rows->packages.at("nvidia-nccl-cu13"), "2.28.9");
  EXPECT_FALSE(rows->packages.count("could")) << "\"[conda] Could not collect\" is not a package";
  // One tagged row is enough: the tag exists only in collect_env's output.
  auto one = read_package_list("[pip3] torch==2.1.0+cpu\n");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->torch_cuda, std::string());
  auto bare = read_package_list(paste("pasted_env/kzhang2-aoneus-2.txt"));
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->torch_version, "2.9.1+cu128");
  EXPECT_EQ(bare->torch_cuda, std::string("12.8"));
  // Two-word prose lines without torch's family are not a list.
  EXPECT_FALSE(read_package_list("Driver 13.0\nToolkit 12.8\n"));
  // Inside a whole collect_env the tagged rows belong to its own reader, not to a second format.
  EXPECT_FALSE(read_package_list(paste("collect_env/torch-points3d-66-torch-1.1.txt")));
}

// pytorch-27738 (opened): two conda rows without their header above an nvidia-smi table. pytorch's build
// string gives its CUDA; two such rows without torch's family stay unread.
TEST(PasteFormats, TwoHeaderlessCondaRowsWithPytorchAreAList) {
  auto rows = read_package_list(paste("pasted_env/pytorch-pytorch-27738.txt"));
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->format, "conda list");
  EXPECT_EQ(rows->torch_version, "1.3.1");
  EXPECT_EQ(rows->torch_cuda, std::string("10.1"));
  EXPECT_EQ(rows->packages.at("cudatoolkit"), "10.1.243");
  EXPECT_FALSE(read_package_list("cudatoolkit  10.1.243  h6bb024c_0\nnumpy  1.17.2  py36haad9e8e_0\n"));
}

TEST(PasteFormats, SglangCheckEnvCutBeforeItsPackagesIsStillCheckEnv) {
  // sgl-project-sglang-1693 (opened): the paste stops after "CUDA Driver Version"
  auto f = read_sglang_check_env(paste("pasted_env/sgl-project-sglang-1693.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->driver_version, "535.86.10");
  ASSERT_EQ(f->gpus.size(), 8u);
  EXPECT_EQ(f->gpus.front().cc, "8.0");
}

TEST(PasteFormats, TorchCudaFromALocalTag) {
  EXPECT_EQ(torch_cuda_from_local_tag("2.1.0+cu121"), std::optional<std::string>("12.1"));
  EXPECT_EQ(torch_cuda_from_local_tag("1.13.1+cu117"), std::optional<std::string>("11.7"));
  EXPECT_EQ(torch_cuda_from_local_tag("1.7.1+cu92"), std::optional<std::string>("9.2"));
  EXPECT_EQ(torch_cuda_from_local_tag("2.8.0.dev20250528+cpu"), std::optional<std::string>(""));
  EXPECT_FALSE(torch_cuda_from_local_tag("1.10.0"));
  EXPECT_FALSE(torch_cuda_from_local_tag("2.7.0+rocm6.3"));
}

TEST(PastedReport, CollectEnvAndNvidiaSmiMergeIntoOneInventoryWithPastedProvenance) {
  auto r = read_pasted_environment(paste("pasted_env/pytorch-pytorch-43058.txt"), "43058", kCompat);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->formats, (std::vector<std::string>{"collect_env", "nvidia-smi"}));
  const auto& inv = r->inventory;
  EXPECT_EQ(inv.driver.version, "418.67");
  EXPECT_EQ(inv.driver.source, "pasted collect_env: Nvidia driver version");
  EXPECT_EQ(inv.driver.cuda_version, 10010) << "the CUDA version nvidia-smi printed for the same driver";
  ASSERT_EQ(inv.gpus.size(), 2u);
  EXPECT_EQ(inv.gpus[0].cc_major, 7);  // "Tesla V100-PCIE-16GB" -> V100 -> 7.0 from data/compat/cuda_archs.json
  EXPECT_NE(inv.gpus[0].source.find("V100"), std::string::npos);
  ASSERT_EQ(inv.pythons.size(), 1u);
  EXPECT_TRUE(inv.pythons[0].torch_installed);
  EXPECT_EQ(inv.pythons[0].torch_cuda, "10.2");
}

TEST(PastedReport, XformersCpuTorchIsATorchWithoutCuda) {
  auto r = read_pasted_environment(paste("pasted_env/facebookresearch-xformers-982.txt"), "982", kCompat);
  ASSERT_TRUE(r);
  const auto& py = r->inventory.pythons.at(0);
  EXPECT_TRUE(py.torch_installed);
  EXPECT_EQ(py.torch_version, "2.2.0+cpu");
  EXPECT_EQ(py.torch_cuda, "");
  EXPECT_TRUE(py.import_errors.count("xformers"));
}

TEST(PastedReport, AnUntaggedTorchIsNotJudgedAsCpuOnly) {
  auto r = read_pasted_environment(paste("pasted_env/facebookresearch-detectron2-4928.txt"), "4928", kCompat);
  ASSERT_TRUE(r);
  const auto& py = r->inventory.pythons.at(0);
  EXPECT_FALSE(py.torch_installed) << "torch 1.10.0 without its CUDA stated";
  EXPECT_EQ(py.packages.count("torch"), 0u);
  ASSERT_EQ(r->inventory.gpus.size(), 1u);
  EXPECT_EQ(r->inventory.gpus[0].cc_major, 8);
}

TEST(PastedReport, GpuModelNamesResolveAsWholeWords) {
  auto cc = [](const std::string& name) {
    static const auto table = gpucheck::knowledge::load_gpu_models(kCompat);
    auto m = gpucheck::knowledge::gpu_model(table, name);
    return m ? m->cc : std::string("none");
  };
  EXPECT_EQ(cc("NVIDIA A10G"), "8.6");
  EXPECT_EQ(cc("NVIDIA A100-SXM4-80GB"), "8.0");
  EXPECT_EQ(cc("NVIDIA L40S"), "8.9");
  EXPECT_EQ(cc("NVIDIA GeForce RTX 3090 Ti"), "8.6");
  EXPECT_EQ(cc("NVIDIA RTX 5000 Ada Generation"), "8.9");
  EXPECT_EQ(cc("Quadro RTX 5000"), "7.5");
  EXPECT_EQ(cc("NVIDIA GeForce RTX 5090"), "12.0");
  EXPECT_EQ(cc("NVIDIA GH200 480GB"), "9.0");
  EXPECT_EQ(cc("Tesla K40m"), "3.5");
  EXPECT_EQ(cc("GeForce RTX 208..."), "none");  // truncated by nvidia-smi
  EXPECT_EQ(cc("NVIDIA H20"), "9.0");
  EXPECT_EQ(cc("NVIDIA Quadro P4000"), "6.1");
}

TEST(PastedReport, ALogIsNotAnEnvironmentReport) {
  // explain does not take a build log for an environment report; asked to judge it as one (doctor
  // --from-text), the facts its cpp_extension refusal states are read: nvcc 12.2, torch's CUDA 11.7.
  EXPECT_FALSE(looks_like_environment_report(paste("logs/vllm-1060.log")));
  auto env = read_pasted_environment(paste("logs/vllm-1060.log"), "log", kCompat);
  ASSERT_TRUE(env);
  EXPECT_EQ(env->formats, std::vector<std::string>{"torch's cpp_extension check"});
  EXPECT_EQ(env->inventory.pythons.front().torch_cuda, "11.7");
  EXPECT_FALSE(read_pasted_environment(paste("logs/alphapose-765.log"), "log", kCompat)) << "a log stating nothing";
}

// torch's own warnings as the paste: the GPU with its capability and torch's arch list, or the CUDA version
// the driver reported as too old (batch i33d, written from these threads).
TEST(PasteFormats, TorchWarningsGiveTheGpuTheArchListAndTheDriversCuda) {
  auto arch = read_torch_warnings(paste("pasted_env/pBFSLab-DeepPrep-233.txt"));
  ASSERT_TRUE(arch);
  ASSERT_EQ(arch->gpus.size(), 1u);
  EXPECT_EQ(arch->gpus[0].name, "NVIDIA GeForce RTX 5090");
  EXPECT_EQ(arch->gpus[0].cc, "12.0");
  EXPECT_EQ(arch->torch_archs.front(), "sm_37");
  EXPECT_EQ(arch->torch_archs.back(), "sm_90");
  auto old = read_torch_warnings(paste("pasted_env/lhotse-speech-lhotse-793.txt"));
  ASSERT_TRUE(old);
  EXPECT_EQ(old->driver_cuda, 9010);
  EXPECT_TRUE(old->gpus.empty());
  EXPECT_FALSE(read_torch_warnings(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-444.txt")));
}

// Today's collect_env prints torch.version.cuda == None as "Could not collect": with torch installed and no
// ROCm or XPU build stated, that is a CPU-only torch (pytorch#122924: torch 2.2.2 beside an RTX 4080).
TEST(PastedReport, CouldNotCollectCudaOfAnInstalledTorchIsACpuBuild) {
  auto r = read_pasted_environment(paste("pasted_env/pytorch-pytorch-122924.txt"), "122924", kCompat);
  ASSERT_TRUE(r);
  const auto& py = r->inventory.pythons.at(0);
  EXPECT_TRUE(py.torch_installed);
  EXPECT_EQ(py.torch_cuda, "");
  EXPECT_EQ(r->inventory.gpus.size(), 1u);
}

TEST(PasteFormats, BitsandbytesWithoutACudaRuntimeIsAFailure) {
  // Also bitsandbytes 0.35-0.37 without a binary for the CUDA it found (kohya_ss 1100) or reaching no GPU (1213).
  for (const char* slug : {"bitsandbytes-foundation-bitsandbytes-723", "bitsandbytes-foundation-bitsandbytes-817",
                           "bmaltais-kohya_ss-1100", "bmaltais-kohya_ss-1213"}) {
    auto f = read_bitsandbytes_report(paste(std::string("pasted_env/") + slug + ".txt"));
    ASSERT_TRUE(f) << slug;
    EXPECT_TRUE(f->import_errors.count("bitsandbytes")) << slug;
  }
}

TEST(PasteFormats, XformersBuiltForWarningIsReadWithoutItsFirstLine) {
  // LTX-Desktop#23 starts at " PyTorch 2.9.0+cu128 with CUDA 1208 (you have 2.10.0+cu128)".
  auto f = read_xformers_info(paste("pasted_env/Lightricks-LTX-Desktop-23.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.10.0+cu128");
  EXPECT_EQ(f->python_version, "3.13.12");
  ASSERT_TRUE(f->import_errors.count("xformers"));
  EXPECT_NE(f->import_errors.at("xformers").find("built for PyTorch 2.9.0+cu128 with CUDA 1208"), std::string::npos);
  // A torch version line of another tool is not xFormers' warning.
  EXPECT_FALSE(read_xformers_info("PyTorch 2.1.0 with CUDA 12.1 installed\n"));
}

TEST(PasteFormats, HuggingFaceStyleEnvListsGiveTorchPythonPackagesAndGpu) {
  auto d = read_hf_env_list(paste("paste_formats/diffusers-shivam-18-env.txt"));  // diffusers-cli env
  ASSERT_TRUE(d);
  EXPECT_EQ(d->torch_version, "1.12.1+cu116");
  ASSERT_TRUE(d->cuda_available);
  EXPECT_FALSE(*d->cuda_available);
  EXPECT_EQ(d->python_version, "3.9.13");
  EXPECT_EQ(d->packages.at("diffusers"), "0.4.0.dev0");
  EXPECT_EQ(d->packages.at("huggingface-hub"), "0.10.0");
  EXPECT_EQ(d->packages.at("transformers"), "4.22.2");
  EXPECT_EQ(d->packages.size(), 3u);  // "Using GPU in script?: <fill in>" is no package
  auto l = read_hf_env_list(paste("pasted_env/hiyouga-LlamaFactory-4960.txt"));  // llamafactory-cli env
  ASSERT_TRUE(l);
  EXPECT_EQ(l->torch_version, "2.3.0+cu121");
  EXPECT_TRUE(l->cuda_available.value_or(false));
  ASSERT_EQ(l->gpus.size(), 1u);
  EXPECT_EQ(l->gpus[0].name, "Tesla V100-SXM2-32GB");
  EXPECT_EQ(l->packages.at("llamafactory"), "0.8.2.dev0");
  EXPECT_EQ(l->packages.at("vllm"), "0.4.3");
  EXPECT_EQ(l->packages.at("bitsandbytes"), "0.43.1");
  // collect_env's "key: value" lines are not such a list.
  EXPECT_FALSE(read_hf_env_list(paste("pasted_env/pytorch-pytorch-44106.txt")));
}

TEST(PasteFormats, APackagesImportWarningAloneIsAReport) {
  auto f = read_import_warning_report(paste("pasted_env/vllm-project-vllm-5501.txt"));
  ASSERT_TRUE(f);
  ASSERT_TRUE(f->import_errors.count("vllm"));
  EXPECT_NE(f->import_errors.at("vllm").find("undefined symbol: _ZN5torch7Library"), std::string::npos);
  EXPECT_FALSE(read_import_warning_report("import vllm\nINFO all good\n"));
}

TEST(PasteFormats, AnExtensionsLoadErrorAtTheEndOfATracebackNamesItsPackage) {
  // torch.ops.load_library's OSError, the path under site-packages naming the package
  auto s = read_import_warning_report(paste("pasted_env/rusty1s-pytorch_scatter-476.txt"));
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->import_errors.count("torch_scatter"));
  EXPECT_NE(s->import_errors.at("torch_scatter").find("undefined symbol: _ZN3c1017RegisterOperatorsD1Ev"), std::string::npos);
  // an extension module directly in site-packages is named by its file
  auto e = read_import_warning_report(paste("pasted_env/turboderp-org-exllamav2-522.txt"));
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->import_errors.count("flash_attn_2_cuda"));
  // the message cut right after the path is still a load failure of that package's extension
  auto m = read_import_warning_report(paste("pasted_env/open-mmlab-mmcv-2648.txt"));
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->import_errors.count("mmcv"));
  // the loader's "symbol X, version Y not defined in file": another release of a library torch needs came first
  auto t = read_import_warning_report(paste("pasted_env/deepspeedai-DeepSpeed-3386.txt"));
  ASSERT_TRUE(t);
  ASSERT_TRUE(t->import_errors.count("torch"));
  EXPECT_NE(t->import_errors.at("torch").find("cublasLtGetStatusString"), std::string::npos);
  // without a path, the package is the last one the traceback went through
  auto r = read_import_warnings("  File \"/v/lib/python3.10/site-packages/bmtrain/__init__.py\", line 3\n"
                                "  File \"/usr/lib/python3.10/importlib/__init__.py\", line 126\n"
                                "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(r.count("bmtrain")) << r.size();
  // other ImportErrors are not load failures of a compiled part
  EXPECT_TRUE(read_import_warnings("ImportError: cannot import name 'x' from 'y' (/v/site-packages/y/_y.so)\n"
                                   "ModuleNotFoundError: No module named 'torch'\n").empty());
}

TEST(PasteFormats, NumpysOwnAbiWarningGivesNumpyTwoAndTheFailure) {
  auto f = read_torch_warnings(paste("pasted_env/jy0205-Pyramid-Flow-3.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->packages.at("numpy"), "2.0.2");
  EXPECT_NE(f->numpy_abi_error.find("compiled using NumPy 1.x cannot be run in NumPy 2.0.2"), std::string::npos);
}

TEST(PasteFormats, BitsandbytesNativeLibraryThatDoesNotLoadIsAnImportFailure) {
  auto f = read_bitsandbytes_report(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-1483.txt"));
  ASSERT_TRUE(f);
  ASSERT_TRUE(f->import_errors.count("bitsandbytes"));
  EXPECT_NE(f->import_errors.at("bitsandbytes").find("libcusparse.so.11"), std::string::npos);
  auto g = read_bitsandbytes_report(paste("pasted_env/tloen-alpaca-lora-46.txt"));
  ASSERT_TRUE(g);
  EXPECT_NE(g->import_errors.at("bitsandbytes").find("cudaRuntimeGetVersion"), std::string::npos);
  // Windows: ctypes cannot load its .dll or one it needs (bitsandbytes 1446).
  auto w = read_bitsandbytes_report(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-1446.txt"));
  ASSERT_TRUE(w);
  ASSERT_TRUE(w->import_errors.count("bitsandbytes"));
  EXPECT_NE(w->import_errors.at("bitsandbytes").find("libbitsandbytes_cuda116.dll"), std::string::npos);
}

TEST(PasteFormats, LightningAndOpenMMLabEnvReportsGiveTorchItsCudaAndGpus) {
  auto l = read_lightning_env(paste("pasted_env/Lightning-AI-pytorch-lightning-10378.txt"));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->torch_version, "1.10.0");
  EXPECT_EQ(l->torch_cuda.value_or("unset"), "11.3");
  EXPECT_EQ(l->gpus.size(), 4u);
  EXPECT_EQ(l->python_version, "3.9.7");
  EXPECT_EQ(l->packages.at("pytorch-lightning"), "1.5.0");
  auto m = read_openmmlab_env(paste("pasted_env/open-mmlab-mmdetection3d-2925.txt"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->torch_version, "1.9.0");
  EXPECT_EQ(m->nvcc_version, "11.1");
  ASSERT_EQ(m->gpus.size(), 1u);
  EXPECT_EQ(m->gpus[0].name, "NVIDIA GeForce RTX 3090 Ti");
  EXPECT_TRUE(m->cuda_available.value_or(false));
  // neither reads the other's report, nor a torch collect_env
  EXPECT_FALSE(read_lightning_env(paste("pasted_env/open-mmlab-mmdetection3d-2925.txt")));
  EXPECT_FALSE(read_openmmlab_env(paste("pasted_env/Lightning-AI-pytorch-lightning-10378.txt")));
  EXPECT_FALSE(read_openmmlab_env(paste("pasted_env/pytorch-pytorch-44106.txt")));
}

// The driver's kernel module and libraries at different versions, in both spellings users paste: nvidia-smi's
// "Failed to initialize NVML: Driver/library version mismatch" (illinois-scicomp 60) and torch's CUDA error 803
// (easydiffusion 134). Either is the driver's failure, kept as the inventory's driver error.
TEST(PasteFormats, DriverLibraryMismatchInNvidiaSmiAndTorchsError803) {
  auto smi = read_nvidia_smi(paste("pasted_env/illinois-scicomp-machine-shop-maintenance-60.txt"));
  ASSERT_TRUE(smi);
  EXPECT_EQ(smi->driver_failure, "Failed to initialize NVML: Driver/library version mismatch");
  auto torch = read_torch_warnings(paste("pasted_env/easydiffusion-easydiffusion-134.txt"));
  ASSERT_TRUE(torch);
  EXPECT_EQ(torch->driver_failure.rfind("Error 803: system has unsupported display driver / cuda driver combination", 0), 0u)
      << torch->driver_failure;
  for (const char* name : {"pasted_env/illinois-scicomp-machine-shop-maintenance-60.txt", "pasted_env/easydiffusion-easydiffusion-134.txt"}) {
    auto env = read_pasted_environment(paste(name), "paste", kCompat);
    ASSERT_TRUE(env) << name;
    EXPECT_TRUE(says_driver_library_mismatch(env->inventory.driver.error)) << env->inventory.driver.error;
  }
  // A table that works, and nvidia-smi's other failure, are no mismatch.
  EXPECT_FALSE(says_driver_library_mismatch(read_nvidia_smi(paste("pasted_env/pytorch-pytorch-67991.txt"))->driver_failure));
  EXPECT_TRUE(read_nvidia_smi(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-97.txt"))->driver_failure.empty());
}

// Versions typed at the interpreter's prompt (pytorch/vision 6946: ">>> torchvision.__version__" then
// "'0.14.0'"), with torchvision's "Couldn't load custom C++ ops" as its import failure.
TEST(PasteFormats, AnInteractiveSessionsAnswersAreFacts) {
  auto f = read_interactive_session(paste("pasted_env/pytorch-vision-6946.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "1.14.0.dev20221110");
  EXPECT_EQ(f->packages.at("torchvision"), "0.14.0");
  EXPECT_EQ(f->python_version, "3.10.6");
  EXPECT_FALSE(f->torch_cuda) << "not typed: not stated";
  auto errors = read_import_warnings(paste("pasted_env/pytorch-vision-6946.txt"));
  ASSERT_TRUE(errors.count("torchvision"));
  EXPECT_EQ(errors.at("torchvision"), "RuntimeError: Couldn't load custom C++ ops.");
  auto typed = read_interactive_session(">>> import torch\n>>> print(torch.__version__)\n2.1.0+cu121\n"
                                        ">>> torch.version.cuda\n>>> torch.cuda.is_available()\nFalse\n"
                                        ">>> torch.version.cuda\nNone\n");
  ASSERT_TRUE(typed);
  EXPECT_EQ(typed->torch_version, "2.1.0+cu121");
  EXPECT_EQ(typed->cuda_available, false);
  ASSERT_TRUE(typed->torch_cuda);
  EXPECT_EQ(*typed->torch_cuda, "") << "None: a CPU build";
  // An expression whose answer is not a version, and prose, state nothing.
  EXPECT_FALSE(read_interactive_session(">>> torch.__version__\nTraceback (most recent call last):\n"));
  EXPECT_FALSE(read_interactive_session("I checked torch.__version__ and it is fine\n2.1.0\n"));
}

// The loader's message after a word of the reporter's ("error: ~/.local/.../torch_scatter/_scatter_cuda.so:
// undefined symbol: ...", rusty1s/pytorch_scatter 259) names the package that holds the library.
TEST(PasteFormats, ALoaderMessageAfterAPrefixNamesItsPackage) {
  auto errors = read_import_warnings(paste("pasted_env/rusty1s-pytorch_scatter-259.txt"));
  ASSERT_TRUE(errors.count("torch_scatter")) << errors.size();
  EXPECT_NE(errors.at("torch_scatter").find("undefined symbol: _ZNK2at6Tensor6narrowElll"), std::string::npos);
}

// Batch i33x/i33y misses (issue 33), each on its real paste.
TEST(PasteFormats, DeepspeedsOpBuilderRefusalGivesNvccAndTorchsCuda) {
  // The traceback quotes the source line ("{sys_cuda_version}") before the raised message.
  auto f = read_cpp_extension_check(paste("pasted_env/deepspeedai-DeepSpeed-3223.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->format, "DeepSpeed's op builder check");
  EXPECT_EQ(f->nvcc_version, "12.1");
  EXPECT_EQ(f->torch_cuda, "11.8");
  // Its warning for a minor mismatch, wrapped as pip prints it.
  auto minor = read_cpp_extension_check(
      "Installed CUDA version 12.4 does not match the\n  version torch was compiled with 12.1 but since the APIs "
      "are compatible, accepting this combination\n");
  ASSERT_TRUE(minor);
  EXPECT_EQ(minor->nvcc_version, "12.4");
  EXPECT_EQ(minor->torch_cuda, "12.1");
  EXPECT_FALSE(read_cpp_extension_check("Installed CUDA version {sys_cuda_version} does not match the version torch "
                                        "was compiled with {torch.version.cuda}\n"));
}

TEST(PasteFormats, PipConflictsGiveBothInstalledVersions) {
  auto f = read_pip_conflicts(paste("pasted_env/2kpr-ComfyUI-PMRF-11.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->packages.at("torchvision"), "0.19.1");
  EXPECT_EQ(f->packages.at("torch"), "2.5.1");
  EXPECT_EQ(f->torch_version, "2.5.1");
  // `pip check` and older pips' wording; names normalized as PEP 503 does.
  auto check = read_pip_conflicts(
      "torchvision 0.17.0 has requirement torch==2.2.0, but you have torch 2.1.2.\n"
      "ERROR: Flash_Attn 2.5.8 has requirement torch>=2.1, but you'll have torch 2.0.1 which is incompatible.\n");
  ASSERT_TRUE(check);
  EXPECT_EQ(check->packages.at("torchvision"), "0.17.0");
  EXPECT_EQ(check->packages.at("flash-attn"), "2.5.8");
  EXPECT_EQ(check->torch_version, "2.0.1");  // the last line's
  EXPECT_FALSE(read_pip_conflicts("it requires more memory, but you have 8 GB which is not enough\n"));
}

TEST(PasteFormats, NvidiaSmiQueryLogGivesTheDriverAndTheAttachedGpus) {
  // `nvidia-smi -q` cut before any GPU's block: the count stands, the names are unknown.
  auto f = read_nvidia_smi(paste("pasted_env/mila-iqia-mila-docs-213.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->driver_version, "535.86.10");
  EXPECT_EQ(f->driver_cuda, 12020);
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "");
  auto named = read_nvidia_smi(
      "==============NVSMI LOG==============\n\nDriver Version                            : 550.54.15\n"
      "CUDA Version                              : 12.4\n\nAttached GPUs                             : 2\n"
      "GPU 00000000:07:00.0\n    Product Name                          : NVIDIA A100-SXM4-80GB\n"
      "GPU 00000000:0F:00.0\n    Product Name                          : NVIDIA A100-SXM4-80GB\n");
  ASSERT_TRUE(named);
  ASSERT_EQ(named->gpus.size(), 2u);
  EXPECT_EQ(named->gpus[1].name, "NVIDIA A100-SXM4-80GB");
}

TEST(PasteFormats, RayWorkerPrefixesAreRemovedBeforeReading) {
  // LLaMA-Factory 5082: vLLM's Ray workers print xFormers' warning under "(RayWorkerWrapper pid=7857) ".
  const std::string text = paste("pasted_env/hiyouga-LlamaFactory-5082.txt");
  EXPECT_EQ(without_log_prefixes("(RayWorkerWrapper pid=7857)     PyTorch 2.3.0+cu121 with CUDA 1201 (you have 2.3.0)\n"
                                 "(pid=12, ip=10.0.0.2) x\n(raylet) kept\n(see below) kept\n"),
            "    PyTorch 2.3.0+cu121 with CUDA 1201 (you have 2.3.0)\nx\n(raylet) kept\n(see below) kept\n");
  auto f = read_xformers_info(without_log_prefixes(text));
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->import_errors.count("xformers"));
}

TEST(PasteFormats, YoloChecksWithoutItsBannerIsUltralytics) {
  // Ultralytics 20123: `yolo checks` from its "OS" row on: the checked torch row names torch.
  auto f = read_startup_banners(paste("pasted_env/ultralytics-ultralytics-20123.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.6.0+cu126");
  EXPECT_EQ(f->torch_cuda, "12.6");
  EXPECT_EQ(f->python_version, "3.13.3");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "NVIDIA GeForce RTX 4080 SUPER");
  EXPECT_EQ(f->packages.at("torchvision"), "0.21.0+cu126");
}

TEST(PasteFormats, TheLastUltralyticsBannerIsTheTorchNowAndAnyBannersGpusAreTheMachines) {
  // Ultralytics 1495: the same machine before (torch 1.8.1+cu111 on its RTX 3070) and after a reinstall
  // (torch 2.0.0+cpu, "CPU").
  auto f = read_startup_banners(paste("pasted_env/ultralytics-ultralytics-1495.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.0.0+cpu");
  EXPECT_EQ(f->python_version, "3.10.6");
  EXPECT_EQ(f->cuda_available, false);
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "NVIDIA GeForce RTX 3070");
  // One banner naming two devices of one model keeps both.
  auto two = read_startup_banners("Ultralytics YOLOv8.2.5 Python-3.10.12 torch-2.2.0+cu121 CUDA:0 (NVIDIA A100-SXM4-80GB, "
                                  "81051MiB), CUDA:1 (NVIDIA A100-SXM4-80GB, 81051MiB)\n");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->gpus.size(), 2u);
  EXPECT_EQ(two->cuda_available, true);
}

TEST(PasteFormats, NvccVersionAloneStatesTheToolkit) {
  // flash-attention 940: `nvcc --version` and a `torch==2.3.0` line: nvcc's CUDA, nothing guessed of torch.
  auto f = read_nvcc_version(paste("pasted_env/Dao-AILab-flash-attention-940.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->nvcc_version, "12.3");
  EXPECT_TRUE(f->states_nvcc);
  EXPECT_TRUE(f->torch_version.empty());
  EXPECT_FALSE(read_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release ?, V?\n"));
  EXPECT_FALSE(read_nvcc_version("the nvcc release notes say 12.3\n"));
}

TEST(PasteFormats, TorchBuildConfigurationAloneGivesTorchsCudaAndArchs) {
  // detectron2 2980: only torch.__config__.show()'s "PyTorch built with:" block.
  auto f = read_torch_build_config(paste("pasted_env/facebookresearch-detectron2-2980.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_cuda, "11.1");
  EXPECT_TRUE(f->torch_check_ran);
  const std::vector<std::string> archs = {"sm_37", "sm_50", "sm_60", "sm_61", "sm_70",
                                          "sm_75", "sm_80", "sm_86", "compute_37"};
  EXPECT_EQ(f->torch_archs, archs);
  // detectron2 257: its flags line is cut inside an entry ("...;-gencode;arch=c"): no arch list, not sm_35 and
  // sm_50 alone (its P100 would be judged missing from a build that has it).
  auto cut = read_torch_build_config(paste("pasted_env/facebookresearch-detectron2-257.txt"));
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->torch_cuda, "10.1");
  EXPECT_TRUE(cut->torch_archs.empty());
  // A CPU build's block has no CUDA Runtime: nothing is stated about torch's CUDA.
  EXPECT_FALSE(read_torch_build_config("PyTorch built with:\n  - GCC 9.3\n  - C++ Version: 201703\n"));
  auto env = read_pasted_environment(paste("pasted_env/facebookresearch-detectron2-2980.txt"), "2980", kCompat);
  ASSERT_TRUE(env);
  const auto& py = env->inventory.pythons.at(0);
  EXPECT_TRUE(py.torch_installed);
  EXPECT_EQ(py.torch_cuda, "11.1");
  EXPECT_EQ(py.torch_arch_list.size(), 9u);
}

TEST(PasteFormats, InvokeAiLogGivesTheDeviceEvenWhenTheTerminalCutItsName) {
  // InvokeAI 8554: "Using torch device: NVIDIA GeForce GTX 1060 with Max-Q D" + "esign" on the next line.
  auto f = read_invokeai_log(paste("pasted_env/invoke-ai-InvokeAI-8554.txt"));
  ASSERT_TRUE(f);
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "NVIDIA GeForce GTX 1060 with Max-Q Design");
  EXPECT_EQ(f->packages.at("invokeai"), "6.6.0");
  auto env = read_pasted_environment(paste("pasted_env/invoke-ai-InvokeAI-8554.txt"), "8554", kCompat);
  ASSERT_TRUE(env);
  ASSERT_EQ(env->inventory.gpus.size(), 1u);
  EXPECT_EQ(env->inventory.gpus[0].cc_major, 6);  // a GTX 1060, from data/compat/cuda_archs.json
  EXPECT_FALSE(read_invokeai_log("[2025-09-10 11:38:19,917]::[InvokeAI]::INFO --> Patchmatch initialized\n"));
}

TEST(PasteFormats, CollectEnvCutAboveItsTorchLineIsStillCollectEnv) {
  // pytorch 133571: the paste starts at "Nvidia driver version:"; collect_env's own keys identify it, and it
  // says nothing about nvcc (its "CUDA runtime version" line is above the cut).
  const std::string text = paste("pasted_env/pytorch-pytorch-133571.txt");
  auto env = read_pasted_environment(text, "133571", kCompat);
  ASSERT_TRUE(env);
  EXPECT_EQ(env->inventory.driver.version, "550.54.14");
  EXPECT_FALSE(env->inventory.pythons.at(0).torch_installed);
  bool lacks_toolkit_note = false;
  for (const auto& n : env->inventory.notes) lacks_toolkit_note |= n.find("toolkit") != std::string::npos;
  EXPECT_TRUE(lacks_toolkit_note);
  // Generic "key: value" lines are not collect_env.
  EXPECT_FALSE(read_pasted_environment("OS: Linux\nPython version: 3.10\nGCC version: 11\nCMake version: 3.27\n", "x", kCompat));
}

TEST(PasteFormats, PythonDashMTracebackIsThatPackagesImportFailingEvenWhenCut) {
  // bitsandbytes 717: `python -m bitsandbytes` on Windows, runpy's __import__(pkg_name) then bitsandbytes'
  // own frames; the paste ends inside the traceback.
  auto errors = read_import_warnings(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-717.txt"));
  ASSERT_TRUE(errors.count("bitsandbytes"));
  EXPECT_EQ(errors.at("bitsandbytes"), "python -m bitsandbytes: Traceback (the paste ends before its error)");
  // With its last line, that line is the failure.
  auto whole = read_import_warnings(
      "Traceback (most recent call last):\n  File \"/usr/lib/python3.10/runpy.py\", line 187, in _run_module_as_main\n"
      "    mod_name, mod_spec, code = _get_module_details(mod_name, _Error)\n"
      "  File \"/usr/lib/python3.10/runpy.py\", line 110, in _get_module_details\n    __import__(pkg_name)\n"
      "  File \"/v/lib/python3.10/site-packages/xformers/__init__.py\", line 9, in <module>\n    import torch\n"
      "ModuleNotFoundError: No module named 'torch'\n");
  ASSERT_TRUE(whole.count("xformers"));
  EXPECT_EQ(whole.at("xformers"), "ModuleNotFoundError: No module named 'torch'");
}

TEST(PasteFormats, SglangCheckEnvCommandNamesTheReportCutAfterPython) {
  // sglang 4248: the typed `python3 -m sglang.check_env`, its warnings, and the paste ends in "Python:".
  auto f = read_sglang_check_env(paste("pasted_env/sgl-project-sglang-4248.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->python_version, "3.10.16");
}

TEST(PasteFormats, TorchsBuildRefusalBesideNvidiaSmiStatesTorchsCudaAndTheBuildsToolkit) {
  // vLLM 763: nvidia-smi (a report) and cpp_extension's "The detected CUDA version (12.2) mismatches the
  // version that was used to compile PyTorch (11.7)": the refusal's facts follow nvidia-smi's.
  auto env = read_pasted_environment(paste("pasted_env/vllm-project-vllm-763.txt"), "763", kCompat);
  ASSERT_TRUE(env);
  EXPECT_EQ(env->inventory.driver.version, "525.125.06");
  ASSERT_EQ(env->inventory.toolkits.size(), 1u);
  EXPECT_EQ(env->inventory.toolkits[0].version, "12.2");
  EXPECT_EQ(env->inventory.pythons.at(0).torch_cuda, "11.7");
  // Beside a bare `nvcc --version` (PATH's nvcc 11.8), the refusal's toolkit (10.1, the one the build found)
  // comes first: gaussian-splatting 605.
  auto gs = read_pasted_environment(paste("pasted_env/graphdeco-inria-gaussian-splatting-605.txt"), "605", kCompat);
  ASSERT_TRUE(gs);
  ASSERT_FALSE(gs->inventory.toolkits.empty());
  EXPECT_EQ(gs->inventory.toolkits[0].version, "10.1");
}

TEST(PasteFormats, UnslothsBannerSince2025GivesTorchTheGpuAndItsCapability) {
  // unsloth 1998: "NVIDIA GeForce GTX 1070. Num GPUs = 1." and "Torch: 2.5.1+cu124. CUDA: 6.1. CUDA Toolkit:
  // 12.4." beside the ASCII sloth.
  auto f = read_startup_banners(paste("pasted_env/unslothai-unsloth-1998.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.5.1+cu124");
  EXPECT_EQ(f->torch_cuda, "12.4");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "NVIDIA GeForce GTX 1070");
  EXPECT_EQ(f->gpus[0].cc, "6.1");
  EXPECT_EQ(f->packages.at("unsloth"), "2025.3.9");
  EXPECT_EQ(f->packages.at("vllm"), "0.7.3");
  EXPECT_EQ(f->packages.at("xformers"), "0.0.28.post3");
}

TEST(PasteFormats, PythonLoggingFieldsAfterATimestampAreRemoved) {
  // mmdeploy 1355: check_env through logging's "%(asctime)s - %(name)s - %(levelname)s - %(message)s".
  EXPECT_EQ(without_log_prefixes("2022-11-11 08:08:37,084 - mmdeploy - INFO - sys.platform: linux\n"
                                 "2022-11-11 08:08:37,084 - a - b - kept\n"),
            "sys.platform: linux\n- a - b - kept\n");
  auto env = read_pasted_environment(paste("pasted_env/open-mmlab-mmdeploy-1355.txt"), "1355", kCompat);
  ASSERT_TRUE(env);
  EXPECT_EQ(env->inventory.gpus.size(), 7u);
  ASSERT_EQ(env->inventory.toolkits.size(), 1u);
  EXPECT_EQ(env->inventory.toolkits[0].version, "11.2");
}

TEST(PasteFormats, CollectEnvLibraryRowsWithoutTheirHeaderAreRead) {
  // pytorch_geometric 10376: the "[pip3] ..." rows follow the driver line, their header left out of the paste.
  auto env = read_pasted_environment(paste("pasted_env/pyg-team-pytorch_geometric-10376.txt"), "10376", kCompat);
  ASSERT_TRUE(env);
  const auto& pk = env->inventory.pythons.at(0).packages;
  EXPECT_EQ(pk.at("nvidia-cublas-cu11"), "11.11.3.6");
  EXPECT_EQ(pk.at("nvidia-cublas-cu12"), "12.4.5.8");
}

TEST(PasteFormats, PackageListsAsMarkdownBulletsOrBelowATypedPipList) {
  // AutoAWQ 559: "- torch                    2.3.1" rows.
  auto bullets = read_package_list(paste("pasted_env/casper-hansen-AutoAWQ-559.txt"));
  ASSERT_TRUE(bullets);
  EXPECT_EQ(bullets->packages.at("torch"), "2.3.1");
  EXPECT_EQ(bullets->packages.at("torchvision"), "0.19.0");
  EXPECT_EQ(bullets->packages.at("autoawq-kernels"), "0.0.7");
  // TransformerEngine 1853: `pip list | grep 'torch\|nvidia'` left only nvidia-* rows.
  auto grep = read_package_list(paste("pasted_env/NVIDIA-TransformerEngine-1853.txt"));
  ASSERT_TRUE(grep);
  EXPECT_EQ(grep->packages.at("nvidia-cudnn-cu12"), "9.7.1.26");
  // Without the typed command, two rows of other names are no list; a bullet list of prose is none either.
  EXPECT_FALSE(read_package_list("nvidia-cublas-cu12  12.8.3.14\nnvidia-cudnn-cu12  9.7.1.26\n"));
  EXPECT_FALSE(read_package_list("- install 2 things\n- torch is 2 years old\n"));
}

TEST(PasteFormats, TorchsCapabilityWarningSinceTwoEightWithItsBuiltRows) {
  // InvokeAI 9532: the GPU's name hard-wrapped at 100 columns ("GeFor" / "ce GTX 1060"), the rows cut.
  auto f = read_torch_warnings(paste("pasted_env/invoke-ai-InvokeAI-9532.txt"));
  ASSERT_TRUE(f);
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "NVIDIA GeForce GTX 1060");
  EXPECT_EQ(f->gpus[0].cc, "6.1");
  EXPECT_EQ(f->torch_archs, (std::vector<std::string>{"sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"}));
  // A wrap at a blank keeps it (the console's line ends in the blank), CRLF or not.
  for (const char* eol : {"\n", "\r\n"}) {
    auto wrapped = read_torch_warnings(std::string("UserWarning: Found GPU0 NVIDIA GeForce ") + eol +
                                       "GTX 1060 which is of compute capability (CC) 6.1." + eol +
                                       "- 7.5 which supports hardware CC >=7.5,<8.0" + eol);
    ASSERT_TRUE(wrapped);
    EXPECT_EQ(wrapped->gpus.at(0).name, "NVIDIA GeForce GTX 1060");
  }
  // Both warnings for one GPU (torch >= 2.8 prints the older one after it): one GPU.
  auto both = read_torch_warnings(
      "UserWarning: Found GPU0 NVIDIA GeForce RTX 5060 Ti which is of compute capability (CC) 12.0.\n"
      "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n"
      "NVIDIA GeForce RTX 5060 Ti with CUDA capability sm_120 is not compatible with the current PyTorch "
      "installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_80 sm_90.\n");
  ASSERT_TRUE(both);
  ASSERT_EQ(both->gpus.size(), 1u);
  // Two GPUs of one model are two GPUs, with or without the older warning beside each.
  const std::string found = "Found GPU0 NVIDIA A100 which is of compute capability (CC) 8.0.\n"
                            "Found GPU1 NVIDIA A100 which is of compute capability (CC) 8.0.\n";
  const std::string older = "NVIDIA A100 with CUDA capability sm_80 is not compatible with the current PyTorch "
                            "installation.\n";
  EXPECT_EQ(read_torch_warnings(found)->gpus.size(), 2u);
  EXPECT_EQ(read_torch_warnings(found + older + older)->gpus.size(), 2u);
  EXPECT_EQ(both->gpus[0].cc, "12.0");
  EXPECT_EQ(both->torch_archs, (std::vector<std::string>{"sm_50", "sm_80", "sm_90"}));
  // A Jetson Orin (8.7) beside torch's sm_80 row: read, and the rules find its kernels (sm_80 runs on 8.7).
  auto orin = read_pasted_environment(
      "UserWarning: Found GPU0 Orin which is of compute capability (CC) 8.7.\n"
      "The following list shows the CCs this version of PyTorch was built for and the hardware CCs it supports:\n"
      "- 8.0 which supports hardware CC >=8.0,<9.0 except {8.7}\n- 9.0 which supports hardware CC >=9.0,<10.0\n",
      "orin", kCompat);
  ASSERT_TRUE(orin);
  EXPECT_EQ(orin->inventory.pythons.at(0).torch_arch_list, (std::vector<std::string>{"sm_80", "sm_90"}));
  EXPECT_EQ(orin->inventory.gpus.at(0).cc_minor, 7);
}

TEST(PasteFormats, InstallerLogOfSdnextAndKohyaGivesTorchItsCudaAndTheGpu) {
  // kohya_ss 2072: vladmandic's installer log, its Rich prefix removed first.
  EXPECT_EQ(without_log_prefixes("17:21:03-277184 INFO     Torch 2.1.2+cu118\n17:21:03-2 INFO kept\n"),
            "Torch 2.1.2+cu118\n17:21:03-2 INFO kept\n");
  auto env = read_pasted_environment(paste("pasted_env/bmaltais-kohya_ss-2072.txt"), "2072", kCompat);
  ASSERT_TRUE(env);
  const auto& py = env->inventory.pythons.at(0);
  EXPECT_EQ(py.torch_version, "2.1.2+cu118");
  EXPECT_EQ(py.torch_cuda, "11.8");
  EXPECT_EQ(py.version, "3.10.11");
  ASSERT_EQ(env->inventory.gpus.size(), 1u);
  EXPECT_EQ(env->inventory.gpus[0].name, "NVIDIA GeForce RTX 4060 Laptop GPU");
  EXPECT_EQ(env->inventory.gpus[0].cc_major, 8);
  EXPECT_EQ(env->inventory.gpus[0].cc_minor, 9);
  // SD.Next 4232: "Torch: torch==2.8.0+cpu torchvision==0.23.0+cpu" and the pins wrapped below "Packages:".
  auto sdnext = read_pasted_environment(paste("pasted_env/vladmandic-sdnext-4232.txt"), "4232", kCompat);
  ASSERT_TRUE(sdnext);
  const auto& sp = sdnext->inventory.pythons.at(0);
  EXPECT_TRUE(sp.torch_installed);
  EXPECT_EQ(sp.torch_cuda, "");  // a CPU build
  EXPECT_EQ(sp.packages.at("torchvision"), "0.23.0+cpu");
  EXPECT_EQ(sp.packages.at("numpy"), "2.1.2");
  EXPECT_EQ(sp.packages.at("accelerate"), "1.10.1");
  EXPECT_FALSE(read_installer_log("Torch 2.1.2+cu118\nPython 3.10.11 on Linux\n"));  // no line of its own
}

TEST(PasteFormats, WebUiLaunchBannersStateThePython) {
  auto a1111 = read_webui_launch(paste("pasted_env/AUTOMATIC1111-stable-diffusion-webui-12174.txt"));
  ASSERT_TRUE(a1111);
  EXPECT_EQ(a1111->python_version, "3.10.6");
  auto fooocus = read_webui_launch(paste("pasted_env/lllyasviel-Fooocus-3990.txt"));
  ASSERT_TRUE(fooocus);
  EXPECT_EQ(fooocus->python_version, "3.10.9");
  EXPECT_FALSE(read_webui_launch("Python 3.10.6 (main, Nov 14 2022)\n"));  // sys.version alone is no launcher
}

TEST(PasteFormats, NvidiaSmiTopologyCountsItsGpus) {
  auto f = read_nvidia_smi_topology(paste("pasted_env/NVIDIA-TensorRT-LLM-1868.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->gpus.size(), 8u);
  // A row whose own cell is not on the diagonal is not counted.
  auto one = read_nvidia_smi_topology("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-7\nGPU1\tNV4\tSYS\t0-7\n");
  ASSERT_TRUE(one);
  EXPECT_EQ(one->gpus.size(), 1u);
  EXPECT_FALSE(read_nvidia_smi_topology("GPU0\tGPU1\nGPU0\t X\n"));  // no Affinity header
}

TEST(PasteFormats, CompiledPartsMissingOrQuotedLoadFailuresAreImportFailures) {
  // mmdetection 6645: mmcv without its ops.
  auto mmcv = read_import_warnings("`ModuleNotFoundError: No module named 'mmcv._ext'`\n");
  ASSERT_TRUE(mmcv.count("mmcv"));
  // pytorch_geometric 3836: the OSError quoted in the reporter's sentence.
  auto scatter = read_import_warnings(paste("pasted_env/pyg-team-pytorch_geometric-3836.txt"));
  ASSERT_TRUE(scatter.count("torch_scatter"));
  // A missing public module, or a dunder one, says nothing about a compiled part.
  EXPECT_TRUE(read_import_warnings("ModuleNotFoundError: No module named 'flash_attn'\n").empty());
  EXPECT_TRUE(read_import_warnings("ModuleNotFoundError: No module named 'foo.__main__'\n").empty());
}

TEST(PasteFormats, AnEnvironmentTypedByHandIsTheLastResort) {
  // CosyVoice 1886: "- GPU: NVIDIA RTX 5060 (Blackwell sm_120)", "- torch: 2.11.0+cu128".
  auto f = read_typed_env_list(paste("pasted_env/QwenAudio-CosyVoice-1886.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.11.0+cu128");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->packages.at("transformers"), "5.6.2");
  // PyTorch's own issue template.
  auto tpl = read_typed_env_list(
      "- PyTorch Version (e.g., 1.0): 1.4.0\n- OS (e.g., Linux): Ubuntu 18.04\n- Python version: 3.7.6\n"
      "- CUDA/cuDNN version: 10.1\n- GPU models and configuration: GeForce RTX 2080 Ti\n");
  ASSERT_TRUE(tpl);
  EXPECT_EQ(tpl->torch_version, "1.4.0");
  EXPECT_EQ(tpl->python_version, "3.7.6");
  EXPECT_EQ(tpl->gpus.at(0).name, "GeForce RTX 2080 Ti");
  EXPECT_FALSE(tpl->torch_cuda);  // "CUDA/cuDNN version" typed by hand is not torch's CUDA
  // Not an NVIDIA GPU, or one fact alone: nothing.
  auto amd = read_typed_env_list("- GPU: AMD Radeon RX 7900\n- torch: 2.1.0+cpu\n- Python: 3.10.12\n");
  ASSERT_TRUE(amd);
  EXPECT_TRUE(amd->gpus.empty());
  EXPECT_FALSE(read_typed_env_list("- GPU: AMD Radeon RX 7900\n- torch: 2.1.0+cpu\n"));
  EXPECT_FALSE(read_typed_env_list("torch: 2.1.0\n"));
  // segment-anything's notebooks print "<name> version:" rows and torch.cuda.is_available() (SAM 223).
  auto sam = read_typed_env_list(paste("pasted_env/facebookresearch-segment-anything-223.txt"));
  ASSERT_TRUE(sam);
  EXPECT_EQ(sam->torch_version, "1.13.1.post200");
  EXPECT_EQ(sam->packages.at("torchvision"), "0.14.1a0+59d9189");
  EXPECT_EQ(sam->cuda_available, std::optional<bool>(true));
  // A typed CUDA row is a stated fact (the list is one) but no package: typed by hand it may be the toolkit's,
  // the driver's or torch's.
  auto cuda_row = read_typed_env_list("torch: 2.1.0\nCUDA version: 12.1\n");
  ASSERT_TRUE(cuda_row);
  EXPECT_FALSE(cuda_row->packages.count("cuda")) << "a typed CUDA is no package";
  EXPECT_FALSE(cuda_row->torch_cuda) << "nor torch's CUDA";
  // For doctor --from-text only, and only when no tool's output is in the paste.
  const std::string typed = paste("pasted_env/QwenAudio-CosyVoice-1886.txt");
  EXPECT_TRUE(read_pasted_environment(typed, "1886", kCompat));
  EXPECT_FALSE(read_pasted_environment(typed, "1886", kCompat, /*log_statements=*/false));
  EXPECT_FALSE(looks_like_environment_report(typed));
}

TEST(PasteFormats, InstallerFindingNvidiaSmiBesideACpuTorchIsAGpuMachine) {
  // kohya_ss 1608 (its time column missing, Markdown quote marks kept) and SD.Next 1424: "nVidia toolkit
  // detected" is printed exactly when nvidia-smi, the driver's tool, is there; torch is a +cpu build.
  EXPECT_EQ(without_log_prefixes(">INFO     Torch 2.0.1+cpu\nINFO kept\nWARNING  Torch reports\n"),
            "Torch 2.0.1+cpu\nINFO kept\nTorch reports\n");
  for (const char* name : {"bmaltais-kohya_ss-1608", "vladmandic-sdnext-1424"}) {
    auto env = read_pasted_environment(paste(std::string("pasted_env/") + name + ".txt"), name, kCompat);
    ASSERT_TRUE(env) << name;
    const auto& py = env->inventory.pythons.at(0);
    EXPECT_TRUE(py.torch_installed) << name;
    EXPECT_EQ(py.torch_cuda, "") << name;
    ASSERT_EQ(env->inventory.gpus.size(), 1u) << name;
    EXPECT_NE(env->inventory.gpus[0].name.find("nvidia-smi"), std::string::npos) << name;
  }
  // "Using CPU-only Torch" (no nvidia-smi): no GPU.
  auto none = read_installer_log("Using CPU-only Torch\nTorch 2.0.1+cpu\nTorch backend: nVidia CUDA 11.8 cuDNN 1\n");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->gpus.empty());
  // A named GPU keeps its name: no second, unnamed one.
  auto named = read_installer_log("nVidia toolkit detected\nTorch 2.1.2+cu118\n"
                                  "Torch detected GPU: NVIDIA GeForce RTX 3090 VRAM 24576 Arch (8, 6) Cores 82\n");
  ASSERT_TRUE(named);
  ASSERT_EQ(named->gpus.size(), 1u);
  EXPECT_EQ(named->gpus[0].cc, "8.6");
}

TEST(PasteFormats, ShortOrCutPackageListsAreStillLists) {
  // DGL 5427: two freeze rows, torch among them.
  auto freeze = read_package_list(paste("pasted_env/dmlc-dgl-5427.txt"));
  ASSERT_TRUE(freeze);
  EXPECT_EQ(freeze->packages.at("dgl"), "1.0.1");
  // PyG 931: conda < 4.6's "<pip>" rows.
  auto conda = read_package_list(paste("pasted_env/pyg-team-pytorch_geometric-931.txt"));
  ASSERT_TRUE(conda);
  EXPECT_EQ(conda->packages.at("torch-geometric"), "1.3.2");
  // verl 974: a cut pip list without torch's rows, its versions in one padded column.
  auto cut = read_package_list(paste("pasted_env/verl-project-verl-974.txt"));
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->packages.at("nvidia-nccl-cu11"), "2.20.5");
  EXPECT_EQ(cut->packages.at("nvidia-nccl-cu12"), "2.21.5");
  // Two words with a number, repeated, are no table; two freeze rows without torch's family are none either.
  EXPECT_FALSE(read_package_list("Epoch 1\nEpoch 2\nEpoch 3\nEpoch 4\nEpoch 5\nStep 6\n"));
  EXPECT_FALSE(read_package_list("numpy==1.26.4\nscipy==1.11.0\n"));
}

TEST(PasteFormats, CupyShowConfigGivesTheDriversCudaDevicesAndLibrariesThatDoNotLoad) {
  // cupy 9723: cuBLAS's row holds the ImportError CuPy raised loading libcublasLt.
  auto f = read_cupy_config(paste("pasted_env/cupy-cupy-9723.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->python_version, "3.10.12");
  EXPECT_EQ(f->packages.at("cupy"), "14.0.0");
  EXPECT_EQ(f->driver_cuda, 13000);
  ASSERT_TRUE(f->import_errors.count("cupy.cuda.cublas"));
  EXPECT_NE(f->import_errors.at("cupy.cuda.cublas").find("libcublasLt.so"), std::string::npos);
  // cupy 9547: a RuntimeError inside the runtime row's "locally installed" part is no library of CuPy failing.
  auto g = read_cupy_config(paste("pasted_env/cupy-cupy-9547.txt"));
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->import_errors.empty());
  // The device rows (cupyx/_runtime_info.py: '{:<width}: {}', capability without its dot); ROCm's are AMD's.
  const std::string rows = "CuPy Version          : 13.3.0\nCUDA Driver Version   : 12020\n"
                           "Device 0 Name         : NVIDIA GeForce RTX 3090\nDevice 0 Compute Capability : 86\n"
                           "Device 1 Name         : NVIDIA GeForce RTX 3090\nDevice 1 Compute Capability : 86\n";
  auto d = read_cupy_config(rows);
  ASSERT_TRUE(d);
  ASSERT_EQ(d->gpus.size(), 2u);
  EXPECT_EQ(d->gpus[1].cc, "8.6");
  auto rocm = read_cupy_config("CuPy Version : 13.3.0\nCuPy Platform : AMD ROCm\nCUDA Driver Version : 60342134\n"
                               "Device 0 Name : AMD Instinct MI250X\nDevice 0 Arch : gfx90a\n");
  ASSERT_TRUE(rocm);
  EXPECT_TRUE(rocm->gpus.empty());
  EXPECT_EQ(rocm->driver_cuda, 0);
  EXPECT_FALSE(read_cupy_config("NumPy Version : 2.2.6\n")) << "no CuPy row, no CuPy report";
}

TEST(PasteFormats, NvidiaSmiQueryCsvAndUvsInstallSummary) {
  // TransformerEngine 1159: one field queried.
  auto q = read_nvidia_smi_query(paste("pasted_env/NVIDIA-TransformerEngine-1159.txt"));
  ASSERT_TRUE(q);
  ASSERT_EQ(q->gpus.size(), 1u);
  EXPECT_EQ(q->gpus[0].cc, "8.6");
  auto named = read_nvidia_smi_query("name, driver_version, compute_cap\nNVIDIA A100-SXM4-80GB, 535.104.05, 8.0\n"
                                     "NVIDIA A100-SXM4-80GB, 535.104.05, 8.0\n");
  ASSERT_TRUE(named);
  EXPECT_EQ(named->gpus.size(), 2u);
  EXPECT_EQ(named->gpus[0].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_EQ(named->driver_version, "535.104.05");
  EXPECT_FALSE(read_nvidia_smi_query("name, age\nAda, 36\n"));
  // jax 28929: `uv pip install` lists what it installed; removed packages ("- x==1") are not installed.
  auto uv = read_uv_install(paste("pasted_env/jax-ml-jax-28929.txt"));
  ASSERT_TRUE(uv);
  EXPECT_EQ(uv->python_version, "3.13.3");
  EXPECT_EQ(uv->packages.at("jax-cuda12-plugin"), "0.6.1");
  EXPECT_EQ(uv->packages.at("nvidia-cudnn-cu12"), "9.10.1.4");
  auto swap = read_uv_install("Installed 1 package in 3ms\n - torch==2.4.1\n + torch==2.5.1\n");
  ASSERT_TRUE(swap);
  EXPECT_EQ(swap->torch_version, "2.5.1");
  EXPECT_FALSE(read_uv_install("+ a==1\n")) << "one row without uv's summary line";
}

TEST(PasteFormats, ShellOneLinersAnswerLikeThePrompt) {
  // torchsparse 365: `python -c "import torch; print(torch.__version__)"` after a shell prompt, then its output.
  auto f = read_interactive_session(paste("pasted_env/mit-han-lab-torchsparse-365.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "1.10.2+cu113");
  EXPECT_EQ(f->torch_cuda, std::optional<std::string>("11.3"));
  // Several values printed on one line, one per expression.
  auto many = read_interactive_session(
      "$ python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())'\n"
      "2.1.0+cu121 12.1 True\n");
  ASSERT_TRUE(many);
  EXPECT_EQ(many->torch_version, "2.1.0+cu121");
  EXPECT_EQ(many->cuda_available, std::optional<bool>(true));
  EXPECT_FALSE(read_interactive_session("$ python3 -c 'import torch; print(torch.cuda.get_device_name(0), torch.__version__)'\n"
                                        "NVIDIA GeForce RTX 3090 2.1.0\n"))
      << "a name of several words does not line up with the expressions";
  EXPECT_FALSE(read_interactive_session("$ ls -c 'torch.__version__'\n2.1.0\n")) << "not python";
  // A one-liner's import followed by a traceback (TensorRT 3351): that import failed.
  auto trt = read_import_warnings(paste("pasted_env/pytorch-TensorRT-3351.txt"));
  ASSERT_TRUE(trt.count("tensorrt"));
  EXPECT_NE(trt.at("tensorrt").find("No module named 'tensorrt'"), std::string::npos);
}

TEST(PasteFormats, JaxPluginBitsandbytesBannersComfyuiLogAndSdnextPython) {
  // jax 30050: JAX's CUDA plugin failing at start-up.
  auto jax = read_import_warnings(paste("pasted_env/jax-ml-jax-30050.txt"));
  ASSERT_TRUE(jax.count("jax_plugins.xla_cuda12")) << jax.size();
  // litgpt 278: bitsandbytes' failed set-up indented inside a warning; MiniGPT-4 81: its banner, nothing failing.
  auto bnb = read_bitsandbytes_report(paste("pasted_env/Lightning-AI-litgpt-278.txt"));
  ASSERT_TRUE(bnb);
  EXPECT_TRUE(bnb->import_errors.count("bitsandbytes"));
  auto banner = read_bitsandbytes_report(paste("pasted_env/Vision-CAIR-MiniGPT-4-81.txt"));
  ASSERT_TRUE(banner);
  EXPECT_TRUE(banner->import_errors.empty());
  // ComfyUI's "[2024-06-30 23:35] " log prefix (2427) and its banner joined into one line (4297).
  EXPECT_EQ(without_log_prefixes("[2024-06-30 23:35] ** Platform: Windows\n[2025-01-05 10:20:30.123] x\n[1] y\n"),
            "** Platform: Windows\nx\n[1] y\n");
  auto log = read_comfyui_report(without_log_prefixes(paste("pasted_env/Comfy-Org-ComfyUI-2427.txt")));
  ASSERT_TRUE(log);
  EXPECT_EQ(log->python_version, "3.11.8");
  auto joined = read_comfyui_report(paste("pasted_env/Comfy-Org-ComfyUI-4297.txt"));
  ASSERT_TRUE(joined);
  EXPECT_EQ(joined->python_version, "3.10.9");
  // SD.Next 3035: the log cut before torch's lines states Python.
  auto sdnext = read_installer_log(without_log_prefixes(paste("pasted_env/vladmandic-sdnext-3035.txt")));
  ASSERT_TRUE(sdnext);
  EXPECT_EQ(sdnext->python_version, "3.9.19");
}

TEST(PasteFormats, InvokeaiFormYolov5BannersMarkdownTablesTypedChineseAndLmdeploy) {
  // InvokeAI 7683: the bug form's dependencies JSON and the GPU it names under an Nvidia vendor.
  auto form = read_invokeai_form(paste("pasted_env/invoke-ai-InvokeAI-7683.txt"));
  ASSERT_TRUE(form);
  EXPECT_EQ(form->torch_version, "2.4.1+cu124");
  EXPECT_EQ(form->python_version, "3.10.11");
  EXPECT_EQ(form->packages.at("xformers"), "0.0.28.post1");
  ASSERT_EQ(form->gpus.size(), 1u);
  EXPECT_EQ(form->gpus[0].name, "RTX 5090 FE");
  auto amd = read_invokeai_form("### GPU vendor\n\nAMD (ROCm)\n\n### GPU model\n\nRX 7900\n\n"
                                "### Python dependencies\n\n{\"torch\": \"2.4.1+rocm6.1\"}\n");
  ASSERT_TRUE(amd);
  EXPECT_TRUE(amd->gpus.empty());
  EXPECT_FALSE(read_invokeai_form("### Python dependencies\n\n{not json}\n"));
  // YOLOv5's banners (7639, and its oldest form).
  auto y = read_startup_banners(paste("pasted_env/ultralytics-yolov5-7639.txt"));
  ASSERT_TRUE(y);
  EXPECT_EQ(y->torch_version, "1.11.0+cpu");
  EXPECT_EQ(y->cuda_available, std::optional<bool>(false));
  auto old = read_startup_banners("Using torch 1.7.0+cu101 CUDA:0 (Tesla V100-SXM2-16GB, 16160MB)\n");
  ASSERT_TRUE(old);
  EXPECT_EQ(old->torch_version, "1.7.0+cu101");
  ASSERT_EQ(old->gpus.size(), 1u);
  EXPECT_EQ(old->gpus[0].name, "Tesla V100-SXM2-16GB");
  // A conda list as a Markdown table (vision 1405) and a pip list row in emphasis (exllamav2 301).
  auto table = read_package_list(paste("pasted_env/pytorch-vision-1405.txt"));
  ASSERT_TRUE(table);
  EXPECT_EQ(table->packages.at("cudatoolkit"), "10.1.243");
  auto emphasis = read_package_list(paste("pasted_env/turboderp-org-exllamav2-301.txt"));
  ASSERT_TRUE(emphasis);
  EXPECT_EQ(emphasis->packages.at("torch"), "2.0.0a0+8aa34602.nv23.3");
  // An environment typed in Chinese with full-width colons (FastChat 2833).
  auto zh = read_typed_env_list(paste("pasted_env/lm-sys-FastChat-2833.txt"));
  ASSERT_TRUE(zh);
  EXPECT_EQ(zh->torch_version, "2.1.2");
  EXPECT_EQ(zh->driver_version, "535.54.03");
  EXPECT_EQ(zh->packages.at("fschat"), "0.2.34");
  EXPECT_FALSE(zh->packages.count("cuda")) << "a typed CUDA is not a package";
  // lmdeploy's check_env cut above its sys.platform row (lmdeploy 4162).
  auto lm = read_openmmlab_env(paste("pasted_env/InternLM-lmdeploy-4162.txt"));
  ASSERT_TRUE(lm);
  EXPECT_EQ(lm->packages.at("lmdeploy"), "0.10.2+");
}

TEST(PasteFormats, WebuiSysinfoAndListsOfOneRowOrFromAChannelLabel) {
  // AUTOMATIC1111 13770: its sysinfo JSON cut inside "Torch env info"; 14140: only its "Packages" rows.
  auto info = read_webui_sysinfo(paste("pasted_env/AUTOMATIC1111-stable-diffusion-webui-13770.txt"));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->python_version, "3.11.5");
  EXPECT_EQ(info->torch_version, "2.0.1+cu118");
  EXPECT_EQ(info->torch_cuda, std::optional<std::string>("11.8"));
  auto gpus = read_webui_sysinfo("    \"Torch env info\": {\n        \"torch_version\": \"2.1.2+cu121\",\n"
                                 "        \"is_cuda_available\": \"True\",\n        \"nvidia_driver_version\": \"546.01\",\n"
                                 "        \"nvidia_gpu_models\": \"GPU 0: NVIDIA GeForce RTX 4090\\nGPU 1: NVIDIA GeForce RTX 4090\",\n");
  ASSERT_TRUE(gpus);
  ASSERT_EQ(gpus->gpus.size(), 2u);
  EXPECT_EQ(gpus->gpus[1].name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(gpus->driver_version, "546.01");
  EXPECT_FALSE(read_webui_sysinfo("{\n    \"name\": \"x\"\n}\n"));
  auto rows = read_package_list(paste("pasted_env/AUTOMATIC1111-stable-diffusion-webui-14140.txt"));
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->packages.at("torchvision"), "0.15.2+cu118");
  // One row below a typed `pip3.10 list | grep` (sglang 7033); conda rows from a channel's label (vLLM 2747).
  // Two freeze rows alone (jax 371) may be a requirements file: not read.
  EXPECT_FALSE(read_package_list(paste("pasted_env/jax-ml-jax-371.txt")));
  auto one = read_package_list(paste("pasted_env/sgl-project-sglang-7033.txt"));
  ASSERT_TRUE(one);
  EXPECT_EQ(one->packages.at("sgl-kernel"), "0.1.7");
  auto label = read_package_list(paste("pasted_env/vllm-project-vllm-2747.txt"));
  ASSERT_TRUE(label);
  EXPECT_EQ(label->packages.at("cuda-cudart"), "12.1.105");
}

TEST(PasteFormats, NvidiaSmiSinceR610GgmlCudaInitAndADictOnOneLine) {
  // sglang 27487: R610's header says "KMD Version" and "CUDA UMD Version".
  auto smi = read_nvidia_smi(paste("pasted_env/sgl-project-sglang-27487.txt"));
  ASSERT_TRUE(smi);
  EXPECT_EQ(smi->driver_version, "610.43.02");
  EXPECT_EQ(smi->driver_cuda, 13030);
  ASSERT_GE(smi->gpus.size(), 2u);
  EXPECT_EQ(smi->gpus[0].name, "NVIDIA B200");
  // llama.cpp 6758: the devices its CUDA backend found.
  auto ggml = read_ggml_cuda_init(paste("pasted_env/ggml-org-llama.cpp-6758.txt"));
  ASSERT_TRUE(ggml);
  ASSERT_EQ(ggml->gpus.size(), 1u);
  EXPECT_EQ(ggml->gpus[0].name, "NVIDIA GeForce RTX 4050 Laptop GPU");
  EXPECT_EQ(ggml->gpus[0].cc, "8.9");
  EXPECT_FALSE(read_ggml_cuda_init("  Device 0: NVIDIA A100, compute capability 8.0\n")) << "no ggml_cuda_init line";
  // mmcv 1055: collect_env() printed as a plain dict on one line (torch's CUDA inside its compiling details).
  auto mmcv = read_openmmlab_env(paste("pasted_env/open-mmlab-mmcv-1055.txt"));
  ASSERT_TRUE(mmcv);
  EXPECT_EQ(mmcv->torch_version, "1.8.1");
  EXPECT_EQ(mmcv->torch_cuda, std::optional<std::string>("10.2"));
  EXPECT_EQ(mmcv->nvcc_version, "9.1");
  EXPECT_EQ(mmcv->gpus.size(), 8u);
}

TEST(PasteFormats, OllamasServerLogGivesItsGpusTheDriverAndItsCuda) {
  // ollama 9245: journalctl under a Chinese locale ("2月 21 13:31:11 tc ollama[285585]: "), ollama 0.5's records.
  const std::string log = without_log_prefixes(paste("pasted_env/ollama-ollama-9245.txt"));
  auto f = read_ollama_log(log);
  ASSERT_TRUE(f);
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "NVIDIA GeForce RTX 4080");
  EXPECT_EQ(f->gpus[0].cc, "8.9");
  EXPECT_EQ(f->driver_cuda, 12030);
  EXPECT_EQ(f->driver_version, "545.23.08");  // the libcuda.so.545.23.08 it loaded
  // Since 0.12 the name is the backend's ("CUDA0") and the model is in description; ROCm's records are no GPU here.
  auto now = read_ollama_log(
      "time=2025-11-02T10:00:00.000Z level=INFO source=types.go:42 msg=\"inference compute\" id=GPU-1 library=CUDA "
      "compute=8.9 name=CUDA0 description=\"NVIDIA GeForce RTX 4090\" libdirs=ollama,cuda_v13 driver=13.0 "
      "total=\"24.0 GiB\"\n"
      "time=2025-11-02T10:00:00.000Z level=INFO source=types.go:42 msg=\"inference compute\" id=0 library=ROCm "
      "compute=gfx1100 name=ROCm0 description=\"Radeon RX 7900 XTX\" driver=6.4\n");
  ASSERT_TRUE(now);
  ASSERT_EQ(now->gpus.size(), 1u);
  EXPECT_EQ(now->gpus[0].name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(now->driver_cuda, 13000);
  EXPECT_FALSE(read_ollama_log("CUDA driver version: 12.3\nlibrary=/usr/lib/libcuda.so.545.23.08\n")) << "no ollama record";
}

TEST(PasteFormats, TypedCardsDriversComfyuiMemoryLineJsonVersionRowsAndUnslothsInstaller) {
  // TGI 2238: "Driver Version: 550.54.15" and "Card: NVIDIA RTX A6000" typed; TensorRT-LLM 965: "driver info:".
  auto tgi = read_typed_env_list(paste("pasted_env/huggingface-text-generation-inference-2238.txt"));
  ASSERT_TRUE(tgi);
  EXPECT_EQ(tgi->driver_version, "550.54.15");
  ASSERT_EQ(tgi->gpus.size(), 1u);
  EXPECT_EQ(tgi->gpus[0].name, "NVIDIA RTX A6000");
  auto trt = read_typed_env_list(paste("pasted_env/NVIDIA-TensorRT-LLM-965.txt"));
  ASSERT_TRUE(trt) << "a driver's version anchors a typed list as torch or a GPU does";
  EXPECT_EQ(trt->driver_version, "470.141.10");
  EXPECT_EQ(trt->packages.at("tensorrt"), "9.2.0.5");
  auto counted = read_typed_env_list("- Python version: 3.6\n- GPU models and configuration: 4 x Nvidia P100\n");
  ASSERT_TRUE(counted);
  EXPECT_EQ(counted->gpus.size(), 1u);
  EXPECT_FALSE(read_typed_env_list("- Python version: 3.6\n- GPU models and configuration: 4 x Radeon VII\n"));
  // ComfyUI 3137 cut above its torch line: the memory line and the CUDA device torch chose.
  auto comfy = read_comfyui_report(paste("pasted_env/Comfy-Org-ComfyUI-3137.txt"));
  ASSERT_TRUE(comfy);
  ASSERT_EQ(comfy->gpus.size(), 1u);
  EXPECT_EQ(comfy->gpus[0].name, "NVIDIA A10G");
  EXPECT_EQ(comfy->cuda_available, std::optional<bool>(true));
  EXPECT_FALSE(read_comfyui_report("Total VRAM 22516 MB, total RAM 31737 MB\nSet vram state to: NORMAL_VRAM\n"));
  // InvokeAI 9593: its system information cut inside "dependencies": `"torch" : "2.7.1+cu128",` rows.
  auto invoke = read_package_list(paste("pasted_env/invoke-ai-InvokeAI-9593.txt"));
  ASSERT_TRUE(invoke);
  EXPECT_EQ(invoke->packages.at("torch"), "2.7.1+cu128");
  EXPECT_EQ(invoke->packages.at("xformers"), "0.0.31.post1");
  EXPECT_EQ(invoke->packages.count("host"), 0u) << "a config value is not a package";
  // Unsloth Studio's installer: an NVIDIA GPU found, and its warning that the torch it left is CPU-only.
  auto cpu = read_unsloth_installer(paste("pasted_env/unslothai-unsloth-4701.txt"));
  ASSERT_TRUE(cpu);
  EXPECT_EQ(cpu->gpus.size(), 1u);
  EXPECT_EQ(cpu->python_version, "3.13");
  EXPECT_TRUE(cpu->torch_check_ran);
  EXPECT_EQ(cpu->torch_cuda, std::optional<std::string>(""));
  auto fine = read_unsloth_installer(paste("pasted_env/unslothai-unsloth-5827.txt"));
  ASSERT_TRUE(fine);
  EXPECT_FALSE(fine->torch_cuda) << "no warning: the build it left is not stated";
}

TEST(PasteFormats, ACudaRuntimesRefusalOfTheDriverNamesWhoSaidIt) {
  EXPECT_EQ(cuda_runtime_refusal(paste("pasted_env/OpenNMT-CTranslate2-1842.txt")),
            "a CUDA program: Predictions may fail: CUDA failed with error CUDA driver version is insufficient for "
            "CUDA runtime version");
  EXPECT_EQ(cuda_runtime_refusal("THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=50 error=35 : CUDA "
                                 "driver version is insufficient for CUDA runtime version\n")
                .rfind("torch: ", 0),
            0u);
  EXPECT_EQ(cuda_runtime_refusal("CUDA Version: 11.4\n"), "");
}

TEST(LogPrefixes, JournalctlUnderAChineseLocaleIsAPrefix) {
  EXPECT_EQ(without_log_prefixes("2\xE6\x9C\x88 21 13:31:11 tc ollama[285585]: CUDA driver version: 12.3\n"),
            "CUDA driver version: 12.3\n");
  EXPECT_EQ(without_log_prefixes("12 apples: 13:31:11 are not a date\n"), "12 apples: 13:31:11 are not a date\n");
}

TEST(PasteFormats, TorchsOwnRefusalOfAGpuIsKeptWhenItsArchListIsNot) {
  // Forge classic 938: torch < 2.8's range message; the GTX 1080 (6.1) is below its minimum (7.5).
  auto forge = read_torch_warnings(paste("pasted_env/Haoming02-sd-webui-forge-classic-938.txt"));
  ASSERT_TRUE(forge);
  ASSERT_FALSE(forge->gpus.empty());
  EXPECT_EQ(forge->gpus[0].name, "NVIDIA GeForce GTX 1080 with Max-Q Design");
  EXPECT_EQ(forge->gpus[0].cc, "6.1");
  EXPECT_NE(forge->torch_gpu_refusal.find("(7.5) - (12.0)"), std::string::npos) << forge->torch_gpu_refusal;
  // sglang 13198: a GB10 (12.1) beside "(8.0) - (12.0)": 12.0's SASS runs on 12.1, so torch's range is no refusal.
  auto gb10 = read_torch_warnings(paste("pasted_env/sgl-project-sglang-13198.txt"));
  ASSERT_TRUE(gb10);
  EXPECT_EQ(gb10->torch_gpu_refusal, "");
  // torch 1.x: "too old" is a refusal whatever follows.
  auto kepler = read_torch_warnings("UserWarning:\n    Found GPU0 GeForce GTX 770 which is of cuda capability 3.0.\n"
                                    "    PyTorch no longer supports this GPU because it is too old.\n");
  ASSERT_TRUE(kepler);
  EXPECT_NE(kepler->torch_gpu_refusal.find("too old"), std::string::npos);
  // pytorch 153928: "... with CUDA capability sm_120 is not compatible ..." without the list that follows it.
  auto blackwell = read_torch_warnings(paste("pasted_env/pytorch-pytorch-153928.txt"));
  ASSERT_TRUE(blackwell);
  EXPECT_TRUE(blackwell->torch_archs.empty());
  EXPECT_EQ(blackwell->torch_gpu_refusal.rfind("NVIDIA GeForce RTX 5070 Ti with CUDA capability sm_120", 0), 0u);
}

TEST(PasteFormats, EspnetCheckInstallNumberedTypedListsQuotedVersionsAndOllamasFirstLogs) {
  auto ok = read_espnet_check_install(paste("pasted_env/espnet-espnet-3052.txt"));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->python_version, "3.7.9");
  EXPECT_EQ(ok->torch_version, "1.7.1");
  EXPECT_EQ(ok->torch_cuda, std::optional<std::string>("11.0"));
  EXPECT_EQ(ok->cuda_available, std::optional<bool>(true));
  EXPECT_EQ(ok->packages.at("torchaudio"), "0.7.2");
  auto login = read_espnet_check_install(paste("pasted_env/espnet-espnet-5981.txt"));
  ASSERT_TRUE(login);
  EXPECT_EQ(login->cuda_available, std::optional<bool>(false)) << "[ ] torch cuda";
  EXPECT_FALSE(login->torch_cuda) << "not available says nothing of the build";
  EXPECT_FALSE(read_espnet_check_install("[x] torch=2.3.0\n[x] numpy=1.23.5\n")) << "no 'Python modules:' heading";
  // pytorch 100095: "5. Nvidia Driver:525.105.17", "6. GPU: GTX 1050Ti".
  auto numbered = read_typed_env_list(paste("pasted_env/pytorch-pytorch-100095.txt"));
  ASSERT_TRUE(numbered);
  EXPECT_EQ(numbered->driver_version, "525.105.17");
  ASSERT_EQ(numbered->gpus.size(), 1u);
  EXPECT_EQ(numbered->gpus[0].name, "GTX 1050Ti");
  // vision 8744: "torch '2.5.1+cu124'", a version printed as a Python string.
  auto quoted = read_package_list(paste("pasted_env/pytorch-vision-8744.txt"));
  ASSERT_TRUE(quoted);
  EXPECT_EQ(quoted->packages.at("torchvision"), "0.20.1+cu124");
  // ollama 1992 (0.1.20): "gpu.go:94: Nvidia GPU detected", then its refusal of a 5.2 GPU.
  auto old = read_ollama_log(paste("pasted_env/ollama-ollama-1992.txt"));
  ASSERT_TRUE(old);
  ASSERT_EQ(old->gpus.size(), 1u);
  EXPECT_EQ(old->gpus[0].cc, "5.2");
}

TEST(PasteFormats, TorchsCudaInitializationWarningWithItsWrappedCode) {
  EXPECT_EQ(torch_cuda_init_failure(paste("pasted_env/bmaltais-kohya_ss-1387.txt")),
            "Unexpected error from cudaGetDeviceCount(). Error 802: system not yet initialized");
  EXPECT_EQ(torch_cuda_init_failure(paste("pasted_env/bmaltais-kohya_ss-2378.txt"))
                .rfind("CUDA driver initialization failed, you might not have a", 0),
            0u);
  EXPECT_EQ(torch_cuda_init_failure("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did "
                                    "you run some cuda functions before calling NumCudaDevices() that might have already "
                                    "set an error? Error 803: system has unsupported display driver / cuda driver "
                                    "combination\n"),
            "") << "803 is the driver library mismatch, read as that";
  EXPECT_TRUE(says_driver_unusable("Unexpected error from cudaGetDeviceCount(). Error 802: system not yet initialized"));
  EXPECT_FALSE(says_driver_unusable("Unexpected error from cudaGetDeviceCount(). Error 2: out of memory"));
}

TEST(PasteFormats, PipsInstallOutputLspciBareBulletsAndBoldKeys) {
  // bitsandbytes 1312: "Requirement already satisfied: torch in ... (from bitsandbytes==0.43.3) (2.4.0+cu124)".
  auto pip = read_pip_install_output(paste("pasted_env/bitsandbytes-foundation-bitsandbytes-1312.txt"));
  ASSERT_TRUE(pip);
  EXPECT_EQ(pip->torch_version, "2.4.0+cu124");
  EXPECT_EQ(pip->packages.at("numpy"), "1.26.0");
  // apex 1330: pip -v names its Python, apex's setup.py prints torch's version.
  auto apex = read_pip_install_output(paste("pasted_env/NVIDIA-apex-1330.txt"));
  ASSERT_TRUE(apex);
  EXPECT_EQ(apex->torch_version, "1.9.0+cu111");
  EXPECT_EQ(apex->python_version, "3.7");
  EXPECT_FALSE(read_pip_install_output("Requirement already satisfied: numpy in /env (1.26.0)\n")) << "torch's version is the anchor";
  // A1111 4950: lspci's device lines; the model is in the brackets.
  auto lspci = read_typed_env_list(paste("pasted_env/AUTOMATIC1111-stable-diffusion-webui-4950.txt"));
  ASSERT_TRUE(lspci);
  ASSERT_EQ(lspci->gpus.size(), 1u);
  EXPECT_EQ(lspci->gpus[0].name, "GeForce GTX 960M");
  // ComfyUI 9650: bullets holding only values; pytorch 160804: Markdown bold keys.
  auto bare = read_typed_env_list(paste("pasted_env/Comfy-Org-ComfyUI-9650.txt"));
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->torch_version, "2.8.0+cu128");
  ASSERT_EQ(bare->gpus.size(), 1u);
  EXPECT_EQ(bare->gpus[0].name, "NVIDIA GeForce GTX 1080 Ti");
  EXPECT_FALSE(read_typed_env_list("- 0.23.0+cu128\n- 2.8.0\n")) << "torchvision's 0.x and an untagged version are no torch";
  auto bold = read_typed_env_list(paste("pasted_env/pytorch-pytorch-160804.txt"));
  ASSERT_TRUE(bold);
  EXPECT_EQ(bold->torch_version, "2.2.0+cu121");
}

TEST(PasteFormats, SettingsPanelsFormsAndPinsTypedAsRows) {
  // ComfyUI's settings panel copied as text: each value on the line below its label (HiDream-Sampler 7).
  auto panel = read_comfyui_report(paste("pasted_env/SanDiegoDude-ComfyUI-HiDream-Sampler-7.txt"));
  ASSERT_TRUE(panel);
  EXPECT_EQ(panel->torch_version, "2.7.0.dev20250307+cu128");
  ASSERT_EQ(panel->gpus.size(), 1u);
  EXPECT_EQ(panel->gpus[0].name, "NVIDIA GeForce RTX 5090 D");
  // A form's placeholder is no version, and no ComfyUI report (vLLM 16901: "- **PyTorch Version**: 2.x").
  EXPECT_FALSE(read_comfyui_report("- **PyTorch Version**: 2.x (installed via pip)\n- **GPU**: NVIDIA GeForce RTX 5090\n"));
  auto bold = read_typed_env_list(paste("pasted_env/vllm-project-vllm-16901.txt"));
  ASSERT_TRUE(bold);
  EXPECT_EQ(bold->driver_version, "570.124.06");
  ASSERT_EQ(bold->gpus.size(), 1u);
  // A GitHub issue form as rendered: "### Pytorch version", a blank line, "2.7.0+cu128" (exllamav2 795).
  auto form = read_typed_env_list(paste("pasted_env/turboderp-org-exllamav2-795.txt"));
  ASSERT_TRUE(form);
  EXPECT_EQ(form->torch_version, "2.7.0+cu128");
  EXPECT_EQ(form->python_version, "3.11");
  // pip's pins typed as rows (TGI 3342: "torch == 2.7.0+cu128"), and "- Pytorch = 0.4.1" (mmdetection 188).
  auto pins = read_typed_env_list(paste("pasted_env/huggingface-text-generation-inference-3342.txt"));
  ASSERT_TRUE(pins);
  EXPECT_EQ(pins->torch_version, "2.7.0+cu128");
  EXPECT_EQ(pins->packages.at("flash-attn"), "1.0.9");
  auto equals = read_typed_env_list(paste("pasted_env/open-mmlab-mmdetection-188.txt"));
  ASSERT_TRUE(equals);
  EXPECT_EQ(equals->torch_version, "0.4.1");
  // Without torch, a GPU or a driver, three package versions make a list (Horovod's form); two do not.
  EXPECT_TRUE(read_typed_env_list("Framework version: 2.1.0\nHorovod version: 0.19.5\nKeras version: 2.3.1\n"));
  EXPECT_FALSE(read_typed_env_list("Framework version: 2.1.0\nHorovod version: 0.19.5\n"));
  // `python -m pip list | grep jax` above its rows (nvidia-gpu-ml-library-test 17).
  auto grep = read_package_list(paste("pasted_env/matthewfeickert-nvidia-gpu-ml-library-test-17.txt"));
  ASSERT_TRUE(grep);
  EXPECT_EQ(grep->packages.at("jaxlib"), "0.4.10+cuda11.cudnn86");
}

TEST(PasteFormats, ColossalAisCheckStatesTorchsCudaAndTheToolkits) {
  auto check = read_colossalai_check(paste("pasted_env/hpcaitech-ColossalAI-2973.txt"));
  ASSERT_TRUE(check);
  EXPECT_EQ(check->torch_version, "1.13.1");
  EXPECT_EQ(check->torch_cuda, std::optional<std::string>("11.7"));
  EXPECT_EQ(check->nvcc_version, "10.1");
  EXPECT_TRUE(check->states_nvcc);
  EXPECT_FALSE(read_colossalai_check("PyTorch version: 1.13.1\nCUDA version: 10.1\n")) << "Colossal-AI's own line is the anchor";
}

TEST(PasteFormats, ImportFailuresOfTorchAndItsCompanionsAreNamed) {
  // Windows' loader (pytorch 133397): a DLL of torch's own.
  auto dll = read_import_warnings(paste("pasted_env/pytorch-pytorch-133397.txt"));
  ASSERT_TRUE(dll.count("torch")) << "got " << dll.size();
  EXPECT_NE(dll["torch"].find("fbgemm.dll"), std::string::npos);
  // A traceback frame pasted without its 'File "' (pytorch 165812): the package is still torch.
  auto cut = read_import_warnings(paste("pasted_env/pytorch-pytorch-165812.txt"));
  ASSERT_TRUE(cut.count("torch"));
  EXPECT_NE(cut["torch"].find("libcudnn.so.9"), std::string::npos);
  // A quote within a line's first three characters is no frame ('ab"cd' once compared as one).
  EXPECT_TRUE(read_import_warnings("ab\"cd\nImportError: libfoo.so.1: cannot open shared object file\n").empty());
  // torchao's own check names both versions; it imports without its C++ ops (torchao 3817).
  auto ao = read_import_warning_report(paste("pasted_env/pytorch-ao-3817.txt"));
  ASSERT_TRUE(ao);
  EXPECT_EQ(ao->torch_version, "2.7.1+cu128");
  EXPECT_EQ(ao->packages.at("torchao"), "0.15.0");
  EXPECT_TRUE(says_built_for_another_torch(ao->import_errors.at("torchao")));
  // torchvision's operators missing from its torch, and the companion check after a program's own prefix.
  EXPECT_TRUE(says_built_for_another_torch("RuntimeError: operator torchvision::nms does not exist"));
  auto companion = read_import_warnings(paste("pasted_env/rsxdalv-TTS-WebUI-433.txt"));
  EXPECT_TRUE(companion.count("torchaudio"));
}

TEST(PasteFormats, ALibrarysRefusalOfTheGpuAndAContainerWithoutIt) {
  // CUDA's error 209 inside a library's message (sglang 831), and FlashAttention's own architecture check.
  EXPECT_EQ(kernel_refusal(paste("pasted_env/sgl-project-sglang-831.txt")),
            "RuntimeError: RMSNorm failed with error code no kernel image is available for execution on the device");
  const std::string fa = kernel_refusal("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n");
  EXPECT_TRUE(is_library_arch_check(fa)) << fa;
  EXPECT_FALSE(is_library_arch_check("CUDA error: no kernel image is available for execution on the device"));
  EXPECT_EQ(kernel_refusal("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current "
                           "PyTorch installation.\n"),
            "") << "torch's own warning is read as torch's";
  // NVIDIA's container banner when started without the GPUs (llama-cpp-python 1882).
  auto banner = read_container_banner(paste("pasted_env/abetlen-llama-cpp-python-1882.txt"));
  ASSERT_TRUE(banner);
  EXPECT_FALSE(read_container_banner("Driver Version: 535.104.05\n"));
  EXPECT_EQ(banner->driver_failure.rfind(kContainerNoDriver, 0), 0u) << banner->driver_failure;
}

TEST(PasteFormats, TinyCudaNnsArchitectureCheckIsALibrarysRefusal) {
  const std::string said = kernel_refusal(paste("pasted_env/NVlabs-tiny-cuda-nn-330.txt"));
  EXPECT_NE(said.find("Could not find compatible tinycudann extension for compute capability 75"), std::string::npos) << said;
  EXPECT_TRUE(is_library_arch_check(said));
}

TEST(PasteFormats, ComfyUisConsoleWrappedAfterItsKeysAndItsOlderBanner) {
  // ComfyUI-aki 308: "xformers version: " and "Device: " each with its value on the next line.
  auto aki = read_comfyui_report(paste("pasted_env/Kosinkadink-ComfyUI-AnimateDiff-Evolved-308.txt"));
  ASSERT_TRUE(aki);
  EXPECT_EQ(aki->packages.at("xformers"), "0.0.23.post1+cu118");
  ASSERT_EQ(aki->gpus.size(), 1u);
  EXPECT_EQ(aki->gpus[0].name.rfind("NVIDIA GeForce RTX 3060 Laptop", 0), 0u) << aki->gpus[0].name;
  // ComfyUI 1359: the 2023 banner said "start up time".
  EXPECT_TRUE(read_comfyui_report(paste("pasted_env/Comfy-Org-ComfyUI-1359.txt")));
}

TEST(PasteFormats, TypedRowsWithoutAColonAreRead) {
  // conda's "name=version", pip's "name==version" in a comment list, two-word rows and a tab table.
  auto conda = read_typed_env_list("    Ubuntu=18.04\n    python=3.7\n    pytorch=1.4.0\n    cuda 10.1\n    mmcv=1.1.5\n");
  ASSERT_TRUE(conda);
  EXPECT_EQ(conda->torch_version, "1.4.0");
  EXPECT_EQ(conda->python_version, "3.7");
  EXPECT_EQ(conda->packages.at("mmcv"), "1.1.5");
  EXPECT_FALSE(conda->packages.count("ubuntu")) << "a system is no package";
  auto comments = read_typed_env_list("# Tested with\n# flash-attn-2.4.2\n# torch==2.1.2\n# NVIDIA A100-SXM4-80GB\n# cuda 12.1\n");
  ASSERT_TRUE(comments);
  EXPECT_EQ(comments->torch_version, "2.1.2");
  auto tabs = read_typed_env_list("cuda\t\t11.3\ntorch\t\t1.10.0\ntorchvision\t0.11.0\nmmcv-full\t1.4.0\n");
  ASSERT_TRUE(tabs);
  EXPECT_EQ(tabs->packages.at("torchvision"), "0.11.0");
  // torch's CUDA typed by its attribute's name, and "Python 3.13.6" as a row.
  auto attr = read_typed_env_list("Python 3.13.6\nTorch: 2.8.0+cu129\nTorch.version.cuda: 12.9\n");
  ASSERT_TRUE(attr);
  EXPECT_EQ(attr->python_version, "3.13.6");
  EXPECT_EQ(attr->torch_cuda, std::optional<std::string>("12.9"));
  // An environment variable, "Windows 10" and "RTX 3090" are no rows.
  EXPECT_FALSE(read_typed_env_list("TORCH_CUDA_ARCH_LIST=8.6\nWindows 10\nRTX 3090\n"));
}

TEST(PasteFormats, JaxAndCoquiTtsEnvironmentReports) {
  auto jax = read_jax_environment_info(paste("pasted_env/jax-ml-jax-19821.txt"));
  ASSERT_TRUE(jax);
  EXPECT_EQ(jax->packages.at("jaxlib"), "0.4.24");
  EXPECT_EQ(jax->python_version, "3.12.1");
  EXPECT_FALSE(read_jax_environment_info("jax: 0.4.24\n")) << "jaxlib's row too";
  auto tts = read_coqui_tts_env(paste("pasted_env/coqui-ai-TTS-1516.txt"));
  ASSERT_TRUE(tts);
  EXPECT_EQ(tts->torch_version, "1.11.0+cu102");
  EXPECT_EQ(tts->torch_cuda, std::optional<std::string>("10.2"));
  EXPECT_EQ(tts->gpus.size(), 4u);
  EXPECT_EQ(tts->python_version, "3.8.10");
  EXPECT_FALSE(read_coqui_tts_env("{\"Packages\": {\"numpy\": \"1.22.3\"}}"));
}

TEST(PasteFormats, MoreWaysAProgramRefusesTheDriver) {
  EXPECT_EQ(cuda_runtime_refusal("CUDA error 222 at ggml-cuda.cu:6045: the provided PTX was compiled with an "
                                 "unsupported toolchain.\n"),
            "a CUDA program: CUDA error 222 at ggml-cuda.cu:6045: the provided PTX was compiled with an unsupported "
            "toolchain");
  EXPECT_EQ(cuda_runtime_refusal("W nvptx_compiler.cc:744] The NVIDIA driver's CUDA version is 12.2 which is older "
                                 "than the ptxas CUDA version (12.3.107). Because the driver is older ...\n"),
            "XLA: The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA version (12.3.107)");
  // THC's error 802 is torch's CUDA initialization failing, spelled as its warning spells it.
  EXPECT_EQ(torch_cuda_init_failure("THCudaCheck FAIL file=THCGeneral.cpp line=50 error=802 : system not yet "
                                    "initialized\n")
                .rfind("Error 802: system not yet initialized", 0),
            0u);
  // Docker's refusal of --gpus without the NVIDIA runtime.
  auto docker = read_container_banner("docker: Error response from daemon: could not select device driver \"\" with "
                                      "capabilities: [[gpu]].\n");
  ASSERT_TRUE(docker);
  EXPECT_EQ(docker->driver_failure.rfind(kDockerNoGpuRuntime, 0), 0u) << docker->driver_failure;
}

TEST(PasteFormats, LoaderMessagesOfWindowsMacosAndAWrappedOne) {
  auto dll = read_import_warnings("Can't import SageAttention: DLL load failed while importing libtriton: The "
                                  "specified module could not be found.\n");
  EXPECT_TRUE(dll.count("triton")) << "libtriton is triton's";
  auto mac = read_import_warnings("OSError: dlopen(/Users/x/miniforge3/lib/python3.9/site-packages/torchaudio/lib/"
                                  "libtorchaudio.so, 0x0006): Symbol not found: __ZN2at14RecordFunctionC1ENS_11RecordScopeEb\n");
  ASSERT_TRUE(mac.count("torchaudio"));
  auto wrapped = read_import_warnings("`flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined\n symbol: "
                                      "_ZN3c104impl3cow11cow_deleterEPv`\n");
  ASSERT_EQ(wrapped.size(), 1u);
  EXPECT_NE(wrapped.begin()->second.find("undefined symbol: _ZN3c104impl3cow11cow_deleterEPv"), std::string::npos);
  auto glued = read_import_warnings("/env/lib/python3.7/site-packages/mmcv/_ext.cpython-37m-x86_64-linux-gnu.so:undefined "
                                    "symbol: _ZN3c106Symbol14fromQualStringERKSs,how can I solve the problem?\n");
  EXPECT_TRUE(glued.count("mmcv"));
}

TEST(PasteFormats, PipConflictsKeepTheTorchRequirementAsPrinted) {
  auto f = read_pip_conflicts("ERROR: torchvision 0.7.0.dev20200610 has requirement torch==1.6.0.dev20200609, but "
                              "you'll have torch 1.6.0.dev20200610 which is incompatible.\n"
                              "llava 1.2.2.post1 requires torch==2.1.2; python_version >= \"3.8\", but you have torch "
                              "2.0.1 which is incompatible.\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_requirements.at("torchvision"), "torch==1.6.0.dev20200609");
  EXPECT_EQ(f->torch_requirements.at("llava"), "torch==2.1.2");
}

TEST(PasteFormats, ApexsOwnCudaCheckAndAPackagesRefusalOfTorch) {
  auto apex = read_cpp_extension_check(paste("pasted_env/NVIDIA-apex-214.txt"));
  ASSERT_TRUE(apex);
  EXPECT_EQ(apex->nvcc_version, "10.1");
  EXPECT_EQ(apex->torch_cuda, std::optional<std::string>("10.2"));
  EXPECT_NE(apex->build_refusal.find("does not match the version used to compile Pytorch binaries"), std::string::npos)
      << apex->build_refusal;
  // torch's minor-mismatch warning is no refusal: the build went on.
  auto minor = read_cpp_extension_check("UserWarning: The detected CUDA version (12.1) has a minor version mismatch "
                                        "with the version that was used to compile PyTorch (12.4). Most likely this "
                                        "shouldn't be a problem.\n");
  ASSERT_TRUE(minor);
  EXPECT_TRUE(minor->build_refusal.empty()) << minor->build_refusal;
  EXPECT_TRUE(says_torch_out_of_range("Torch = 2.6.0+cu124 too new!"));
  EXPECT_FALSE(says_torch_out_of_range("Torch = 2.6.0+cu124"));
  auto unsloth = read_import_warnings("RuntimeError: Torch = 2.6.0+cu124 too new!\n");
  EXPECT_EQ(unsloth["unsloth"], "Torch = 2.6.0+cu124 too new!");
  auto apex_ext = read_import_warnings("`ModuleNotFoundError: No module named 'fused_layer_norm_cuda'`\n");
  EXPECT_TRUE(apex_ext.count("apex"));
}

TEST(PasteFormats, LddsMissingLibraryATableCutBeforeTorchAndAThinTypedList) {
  // `ldd` of torchaudio's library listing torch's libc10.so "not found" (FreeBSD's ldd adds "(0)").
  auto ldd = read_import_warning_report(paste("pasted_env/pytorch-audio-4047.txt"));
  ASSERT_TRUE(ldd);
  ASSERT_TRUE(ldd->import_errors.count("torchaudio"));
  EXPECT_EQ(ldd->import_errors.at("torchaudio"), "ldd: libc10.so => not found");
  // A library ldd finds is no failure, nor a "not found" line of an ldd run on a file outside site-packages.
  EXPECT_FALSE(read_import_warning_report("$ ldd /usr/local/lib/python3.11/site-packages/torchaudio/lib/_torchaudio.so\n"
                                          "  libc10.so => /usr/local/lib/python3.11/site-packages/torch/lib/libc10.so\n"));
  EXPECT_FALSE(read_import_warning_report("$ ldd ./a.out\n  libfoo.so => not found\n"));
  // detectron2's table cut after its fourth row: Python and numpy still make it a report, with no torch.
  auto cut = read_detectron2_env(paste("pasted_env/facebookresearch-detectron2-2269.txt"));
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->python_version, "3.6.9");
  EXPECT_EQ(cut->packages.at("numpy"), "1.17.4");
  EXPECT_TRUE(cut->torch_version.empty());
  // A typed list of Python, one package and two more stated rows.
  auto thin = read_typed_env_list(paste("pasted_env/huggingface-optimum-769.txt"));
  ASSERT_TRUE(thin);
  EXPECT_EQ(thin->python_version, "3.10.4");
  EXPECT_EQ(thin->packages.at("optimum"), "1.6.3");
  // Python and one package alone are not enough.
  EXPECT_FALSE(read_typed_env_list("Optimum: 1.6.3\nPython: 3.10.4\n"));
}

TEST(PasteFormats, TypedRowsInMarkdownBoldAndAStatedComputeCapability) {
  // The colon inside the bold ("- **torch:** 2.5.0+cu121"): the value is what follows the closing marks.
  auto f = read_typed_env_list("- **Python:** 3.10.12\n- **torch:** 2.5.0+cu121\n- **Device:** NVIDIA Jetson Orin Nano\n"
                               "- **Compute capability:** sm_87\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->python_version, "3.10.12");
  EXPECT_EQ(f->torch_version, "2.5.0+cu121");
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "NVIDIA Jetson Orin Nano");
  EXPECT_EQ(f->gpus[0].cc, "8.7");
  // A dotted capability is taken as typed; one that is no capability is not.
  auto dotted = read_typed_env_list("GPU: RTX 3090\nCompute capability: 8.6\ntorch: 2.1.0+cu118\n");
  ASSERT_TRUE(dotted);
  EXPECT_EQ(dotted->gpus[0].cc, "8.6");
  auto junk = read_typed_env_list("GPU: RTX 3090\nCompute capability: high\ntorch: 2.1.0+cu118\n");
  ASSERT_TRUE(junk);
  EXPECT_TRUE(junk->gpus[0].cc.empty());
}

TEST(PasteFormats, WheelFileNamesThatNameATorch) {
  auto f = read_wheel_names("pip install \"causal_conv1d-1.4.0+cu122torch2.4cxx11abiTRUE-cp310-cp310-linux_x86_64.whl\"\n"
                            "https://example.org/whl/exllamav2-0.2.1+cu121.torch2.4.0-cp310-cp310-win_amd64.whl,\n"
                            "sageattention-2.2.0+cu128torch2.9.0.post3-cp39-abi3-win_amd64\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->packages.at("causal-conv1d"), "1.4.0+cu122torch2.4cxx11abiTRUE");
  EXPECT_EQ(f->packages.at("exllamav2"), "0.2.1+cu121.torch2.4.0");
  EXPECT_EQ(f->packages.at("sageattention"), "2.2.0+cu128torch2.9.0.post3");
  // A wheel that names no torch, and words that are no wheel, state nothing here.
  EXPECT_FALSE(read_wheel_names("numpy-1.26.4-cp310-cp310-manylinux_2_17_x86_64.whl\nsee torch-2.1 docs\n"));
}

TEST(PasteFormats, TypedRowsOfThreeWordsAndAQuotedVersion) {
  auto f = read_typed_env_list("torch version 2.4.1\nPython version 3.10.13\n");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.4.1");
  EXPECT_EQ(f->python_version, "3.10.13");
  // torch.__version__ printed with its quotes, alone beside another report's facts.
  auto quoted = read_typed_env_list("torch.__version__: '2.1.0a0+4136153'\n", true);
  ASSERT_TRUE(quoted);
  EXPECT_EQ(quoted->torch_version, "2.1.0a0+4136153");
  EXPECT_FALSE(read_typed_env_list("torch.__version__: '2.1.0a0+4136153'\n"));
}

TEST(PasteFormats, DockerComposeServiceColumnAndTorchsWarningCutToItsLastLine) {
  // docker compose's column, the name padded: taken off when one service starts three lines or more.
  EXPECT_EQ(without_log_prefixes("webui-forge  | Python 3.10.16\nwebui-forge  |\nwebui-forge  | torch 2.3.1\n"),
            "Python 3.10.16\n\ntorch 2.3.1\n");
  // A Markdown table's rows are no service's.
  const std::string table = "torch | 2.3.1 |\nnumpy | 1.26 |\n";
  EXPECT_EQ(without_log_prefixes(table), table);
  // torch's "not compatible" warning pasted from its last line: the GPU it names, and torch's refusal.
  auto f = read_torch_warnings(paste("pasted_env/jim60105-docker-stable-diffusion-webui-7.txt"));
  ASSERT_TRUE(f);
  ASSERT_FALSE(f->gpus.empty());
  EXPECT_EQ(f->gpus[0].name, "NVIDIA GeForce RTX 5090");
  EXPECT_NE(f->torch_gpu_refusal.find("If you want to use the NVIDIA GeForce RTX 5090 GPU"), std::string::npos);
}

TEST(PasteFormats, ApexsCheckWithNvccsBannerBelowItsSentence) {
  // apex 1171: the RuntimeError quoted first, the build's "Compiling cuda extensions with" and nvcc 9.0 below.
  auto f = read_cpp_extension_check(paste("pasted_env/NVIDIA-apex-1171.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->nvcc_version, "9.0");
  EXPECT_EQ(f->torch_cuda, "10.2");
  EXPECT_NE(f->build_refusal.find("does not match"), std::string::npos);
}

TEST(PasteFormats, InvokeaisDependenciesRenderedAsATableAreRead) {
  // InvokeAI 7523: the About dialog's dependencies as a copied table, each name above its version.
  auto f = read_invokeai_form(paste("pasted_env/invoke-ai-InvokeAI-7523.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->torch_version, "2.4.1+cu124");
  EXPECT_EQ(f->packages.at("torchvision"), "0.19.1+cu124");
  EXPECT_EQ(f->python_version, "3.11.11");
  EXPECT_EQ(f->packages.count("xformers"), 0u);  // "Not Installed"
  EXPECT_EQ(f->packages.count("cuda"), 0u);
}

TEST(PasteFormats, TheStubLibcudaIsTheDriversFailure) {
  auto f = read_stub_libcuda(paste("pasted_env/numba-numba-9732.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->driver_failure.rfind(kStubLibcuda, 0), 0u);
  EXPECT_NE(f->driver_failure.find("/usr/local/cuda-11.8/targets/x86_64-linux/lib/stubs/libcuda.so"), std::string::npos);
  // The library test mapping the driver's own libcuda is no failure.
  EXPECT_FALSE(read_stub_libcuda("Mapped libcuda.so paths:\n  /usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05\n"));
}

TEST(PasteFormats, TheContainerToolkitsRequirementIsARefusalOfTheDriver) {
  EXPECT_EQ(cuda_runtime_refusal(paste("pasted_env/theroyallab-tabbyAPI-324.txt")),
            "the container: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8");
}

TEST(PasteFormats, ContainerCliInfoStatesTheHostsDriverAndGpu) {
  auto f = read_container_cli_info(paste("pasted_env/NVIDIA-nvidia-docker-895.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->driver_version, "384.130");
  EXPECT_EQ(f->driver_cuda, 9000);
  ASSERT_EQ(f->gpus.size(), 1u);
  EXPECT_EQ(f->gpus[0].name, "GeForce 920M");
  EXPECT_EQ(f->gpus[0].cc, "3.5");  // "Architecture:   3.5" (a Kepler GK208)
  // Its "CUDA version:" alone (no NVRM line) is not a driver.
  EXPECT_FALSE(read_container_cli_info("CUDA version:   9.0\n"));
}

TEST(PasteFormats, CondasInstallPlanIsReadAsItsList) {
  auto f = read_package_list(paste("pasted_env/pytorch-pytorch-30664.txt"));
  ASSERT_TRUE(f);
  EXPECT_EQ(f->format, "conda list");
  EXPECT_EQ(f->torch_version, "1.10.0");
  ASSERT_TRUE(f->torch_cuda);
  EXPECT_EQ(*f->torch_cuda, "");  // the build "cpu_py37hf3cc979_0"
  EXPECT_EQ(f->packages.at("pytorch-cpu"), "1.10.0");
}

TEST(PasteFormats, AStatementThatTheDriversPartsDisagreeIsReadAlone) {
  // TensorFlow 4768: "kernel version 352.63.0 does not match DSO version 361.93.2 -- cannot find working devices".
  auto tf = read_driver_mismatch_statement(paste("pasted_env/tensorflow-tensorflow-4768.txt"));
  ASSERT_TRUE(tf);
  EXPECT_EQ(tf->driver_failure.rfind("kernel version 352.63.0 does not match DSO version 361.93.2", 0), 0u);
  // ollama 15918, in prose: 'nvidia-smi itself fails with "Driver/library version mismatch" — kernel module ...'.
  auto prose = read_driver_mismatch_statement(paste("pasted_env/ollama-ollama-15918.txt"));
  ASSERT_TRUE(prose);
  EXPECT_EQ(prose->driver_failure, "Driver/library version mismatch");
  EXPECT_FALSE(read_driver_mismatch_statement("Driver Version: 535.104.05   CUDA Version: 12.2\n"));
}
