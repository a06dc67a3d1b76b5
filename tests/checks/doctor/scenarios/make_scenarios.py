#!/usr/bin/env python3
"""Writes the doctor scenario inventories (tests/checks/doctor/scenarios/*.json) in the `gpucheck env --json` format.

Each scenario is a real-world machine state (the seed's two failures, GPU/driver/toolkit/compiler mixes).
Run it after changing a scenario; expected.json holds the findings each must produce.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = "/root/anaconda3/envs/CPM-Bee"
SITE = ENV + "/lib/python3.10/site-packages"

A100 = {"index": 0, "name": "NVIDIA A100-SXM4-80GB", "cc_major": 8, "cc_minor": 0, "source": "nvidia-smi"}
H100 = {"index": 0, "name": "NVIDIA H100 80GB HBM3", "cc_major": 9, "cc_minor": 0, "source": "nvidia-smi"}
T4 = {"index": 0, "name": "Tesla T4", "cc_major": 7, "cc_minor": 5, "source": "nvidia-smi"}
RTX5090 = {"index": 0, "name": "NVIDIA GeForce RTX 5090", "cc_major": 12, "cc_minor": 0, "source": "nvidia-smi"}
ARCH_118 = ["sm_37", "sm_50", "sm_60", "sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
ARCH_11X = ["sm_37", "sm_50", "sm_60", "sm_61", "sm_70", "sm_75", "sm_80", "sm_86"]
ARCH_12X = ["sm_50", "sm_60", "sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]


def toolkit(mm, full, via, usr_local=False, root=None):
    root = root or "/usr/local/cuda-" + mm
    return {"root": root, "version": full, "version_source": "version.json", "nvcc": root + "/bin/nvcc",
            "found_via": via, "is_usr_local_cuda": usr_local}


def python(torch=None, cuda="", arch=None, packages=None, **extra):
    p = {"interpreter": ENV + "/bin/python", "version": "3.10.0", "prefix": ENV, "kind": "conda",
         "found_via": ["PATH", "CONDA_PREFIX"], "site_packages": [SITE], "packages": {"setuptools": "65.6.3", "pip": "23.0.1", "numpy": "1.24.3"}}
    if torch:
        p.update({"torch_installed": True, "torch_version": torch, "torch_path": SITE + "/torch", "torch_cuda": cuda,
                  "torch_cudnn": "8700" if cuda.startswith("11") else ("8902" if cuda else ""),
                  "torch_nccl": "2.14.3" if cuda else "", "torch_cxx11_abi": False,
                  "torch_arch_list": arch if arch is not None else (ARCH_118 if cuda == "11.8" else ARCH_11X if cuda.startswith("11") else ARCH_12X if cuda else []),
                  "cuda_available": bool(cuda)})
        p["packages"]["torch"] = torch
    p["packages"].update(packages or {})
    p.update(extra)
    return p


def machine(driver=("530.30.02", 12010), gpus=(A100,), toolkits=(), pythons=(), compilers=None, env=None, **extra):
    inv = {"schema_version": "1", "collected_at": "2026-11-29T12:00:00Z", "root": "/", "hostname": "scenario",
           "driver": {"present": bool(driver), "version": driver[0] if driver else "",
                      "cuda_version": driver[1] if driver else 0,
                      "source": "/proc/driver/nvidia/version" if driver else "",
                      "error": "" if driver else "libcuda.so.1: cannot open shared object file"},
           "gpus": list(gpus), "toolkits": list(toolkits), "toolkit_choices": [], "libraries": [],
           "pythons": list(pythons),
           "compilers": compilers if compilers is not None else [
               {"name": "gcc", "path": "/usr/bin/gcc", "version": "11.4.0", "source": "--version"},
               {"name": "g++", "path": "/usr/bin/g++", "version": "11.4.0", "source": "--version"}],
           "nvcc_host_compiler": "",
           "system": {"os_id": "ubuntu", "os_version_id": "22.04", "os_pretty": "Ubuntu 22.04.3 LTS",
                      "environment": env if env is not None else {"PATH": ENV + "/bin:/usr/local/cuda/bin:/usr/bin:/bin"}},
           "notes": []}
    inv.update(extra)
    return inv


def gcc(version, suffix=""):
    return [{"name": "gcc" + suffix, "path": "/usr/bin/gcc" + suffix, "version": version, "source": "--version"},
            {"name": "g++" + suffix, "path": "/usr/bin/g++" + suffix, "version": version, "source": "--version"}]


TK121 = toolkit("12.1", "12.1.105", ["PATH", "/usr/local/cuda symlink"], usr_local=True)
TK118 = toolkit("11.8", "11.8.89", ["/usr/local/cuda-*"])
S = {}

# The seed, attempt one: `pip install -r requirements.txt` with no torch yet; toolkit 12.1 behind /usr/local/cuda.
S["seed1_no_torch"] = machine(toolkits=[TK121], pythons=[python()])
# The seed, attempt two: torch 2.0.1+cu118 installed by hand, nvcc 12.1 is what the build finds.
S["seed2_torch_cu118_nvcc_121"] = machine(toolkits=[TK121], pythons=[python("2.0.1+cu118", "11.8")])
# Same machine with an 11.8 toolkit installed next to 12.1.
S["seed2_with_118_side_by_side"] = machine(toolkits=[TK121, TK118], pythons=[python("2.0.1+cu118", "11.8")])
# The fix applied: CUDA_HOME and PATH point at 11.8.
S["seed_fixed_cuda_home_118"] = machine(
    toolkits=[TK121, toolkit("11.8", "11.8.89", ["CUDA_HOME", "PATH"])], pythons=[python("2.0.1+cu118", "11.8")],
    env={"CUDA_HOME": "/usr/local/cuda-11.8", "PATH": "/usr/local/cuda-11.8/bin:" + ENV + "/bin:/usr/bin:/bin"})
# torch 2.1.2+cu121 on a 470 driver (CUDA 11.4).
S["driver_too_old"] = machine(driver=("470.82.01", 11040), pythons=[python("2.1.2+cu121", "12.1")])
# torch cu121 on a 525 driver (CUDA 12.0): minor-version compatibility.
S["driver_minor_compat"] = machine(driver=("525.60.13", 12000), pythons=[python("2.1.2+cu121", "12.1")])
# Ubuntu 24.04's gcc 13 with nvcc 11.8.
S["gcc13_nvcc118"] = machine(driver=("535.104.05", 12020), toolkits=[toolkit("11.8", "11.8.89", ["CUDA_HOME"])],
                             pythons=[python("2.0.1+cu118", "11.8")], compilers=gcc("13.2.0"),
                             env={"CUDA_HOME": "/usr/local/cuda-11.8", "PATH": "/usr/bin:/bin"})
S["gcc13_nvcc118_gcc11_installed"] = copy.deepcopy(S["gcc13_nvcc118"])
S["gcc13_nvcc118_gcc11_installed"]["compilers"] += gcc("11.4.0", "-11")
# RTX 5090 (sm_120) with torch cu118.
S["sm120_torch_cu118"] = machine(driver=("575.51.03", 12090), gpus=[RTX5090],
                                 pythons=[python("2.0.1+cu118", "11.8", version="3.11.7")])
# A CPU wheel on an 8-GPU node without a toolkit.
S["cpu_torch_on_gpu_node"] = machine(driver=("550.54.15", 12040),
                                     gpus=[dict(H100, index=i) for i in range(8)], pythons=[python("2.3.1+cpu", "")])
# flash-attn wheel built for torch 2.1 next to torch 2.3.
S["flash_attn_built_for_older_torch"] = machine(
    driver=("550.54.15", 12040), gpus=[H100],
    pythons=[python("2.3.1+cu121", "12.1", packages={"flash-attn": "2.5.8+cu122torch2.1cxx11abiFALSE"})])
# flash-attn compiled with the new C++ ABI, torch with the old one: import fails.
S["flash_attn_undefined_symbol"] = machine(
    driver=("550.54.15", 12040), gpus=[H100],
    pythons=[python("2.1.2+cu121", "12.1", packages={"flash-attn": "2.6.3"},
                    import_errors={"flash_attn": "ImportError: " + SITE + "/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"})])
# flash-attn on a Turing T4.
S["flash_attn_on_t4"] = machine(driver=("535.104.05", 12020), gpus=[T4],
                                pythons=[python("2.1.2+cu121", "12.1", packages={"flash-attn": "2.5.8"})])
# An old cuDNN on LD_LIBRARY_PATH that torch actually maps.
S["ld_library_path_old_cudnn"] = machine(
    driver=("535.104.05", 12020),
    pythons=[python("2.0.1+cu118", "11.8", mapped_libraries=["/opt/cudnn-8.4/lib64/libcudnn.so.8"])],
    libraries=[{"name": "cudnn", "path": "/opt/cudnn-8.4/lib64/libcudnn.so.8", "soname": "libcudnn.so.8",
                "version": "8.4.1", "version_source": "file name", "found_via": ["LD_LIBRARY_PATH"], "loader_pick": True}],
    env={"PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": "/opt/cudnn-8.4/lib64:/opt/other/lib"})
# No toolkit at all.
S["no_toolkit"] = machine(pythons=[python("2.0.1+cu118", "11.8")], env={"PATH": ENV + "/bin:/usr/bin:/bin"})
# Three toolkits side by side; CUDA_HOME says 12.4, PATH finds 12.1 first.
S["three_toolkits"] = machine(
    driver=("550.54.15", 12040),
    toolkits=[toolkit("11.8", "11.8.89", ["/usr/local/cuda-*"]), toolkit("12.1", "12.1.105", ["PATH"]),
              toolkit("12.4", "12.4.131", ["CUDA_HOME", "/usr/local/cuda symlink"], usr_local=True)],
    pythons=[python("2.3.1+cu121", "12.1")],
    env={"CUDA_HOME": "/usr/local/cuda-12.4", "PATH": "/usr/local/cuda-12.1/bin:/usr/local/cuda/bin:/usr/bin:/bin",
         "LD_LIBRARY_PATH": "/usr/local/cuda-12.1/lib64"})
# CUDA_HOME names a toolkit that was removed.
S["cuda_home_dangling"] = machine(toolkits=[TK121], pythons=[python("2.0.1+cu118", "11.8")],
                                  env={"CUDA_HOME": "/usr/local/cuda-11.7", "PATH": "/usr/bin:/bin"})
# Two interpreters on PATH with their own torch, one importing torch from ~/.local.
_py2 = python("1.13.1+cu117", "11.7", interpreter="/usr/bin/python3", prefix="/usr", kind="system",
              found_via=["PATH"], site_packages=["/usr/lib/python3/dist-packages"])
_py2["torch_path"] = "/root/.local/lib/python3.10/site-packages/torch"
S["multiple_torch_installs"] = machine(pythons=[python("2.0.1+cu118", "11.8"), _py2],
                                       env={"PATH": ENV + "/bin:/usr/bin:/bin"})
S["torch_import_failed"] = machine(pythons=[python("2.0.1+cu118", "11.8",
                                                   torch_import_error="OSError: libcudnn.so.8: cannot open shared object file: No such file or directory")],
                                   env={"PATH": "/usr/bin:/bin"})
# bmtrain's PyPI wheel (SASS up to sm_80 + PTX) on an H100.
S["bmtrain_wheel_on_h100"] = machine(driver=("550.54.15", 12040), gpus=[H100],
                                     pythons=[python("2.1.2+cu121", "12.1", packages={"bmtrain": "0.2.3.post2"})],
                                     env={"PATH": "/usr/bin:/bin"})
# bmtrain 1.0.1 on Python 3.12 (no wheel) with only a CUDA 13.0 toolkit, like this development machine.
S["bmtrain_source_cuda13"] = machine(
    driver=("580.65.06", 13000), gpus=[H100], toolkits=[toolkit("13.0", "13.0.88", ["PATH", "/usr/local/cuda symlink"], usr_local=True)],
    pythons=[python("2.9.0+cu130", "13.0", version="3.12.3")], compilers=gcc("12.2.0"))
# Everything agrees.
S["healthy_h100"] = machine(driver=("550.54.15", 12040), gpus=[H100],
                            toolkits=[toolkit("12.4", "12.4.131", ["CUDA_HOME", "PATH"])],
                            pythons=[python("2.4.1+cu124", "12.4")], compilers=gcc("12.3.0"),
                            env={"CUDA_HOME": "/usr/local/cuda-12.4", "PATH": "/usr/local/cuda-12.4/bin:/usr/bin:/bin"})
# An old setuptools turns torch 2.0's minor-mismatch warning into an error.
S["old_setuptools_minor_mismatch"] = machine(
    toolkits=[toolkit("11.8", "11.8.89", ["CUDA_HOME"])], pythons=[python("2.0.1+cu117", "11.7", packages={"setuptools": "44.0.0"})],
    env={"CUDA_HOME": "/usr/local/cuda-11.8", "PATH": "/usr/bin:/bin"})
# apex demands nvcc major.minor == torch.version.cuda.
S["apex_minor_mismatch"] = machine(driver=("550.54.15", 12040), gpus=[H100],
                                   toolkits=[toolkit("12.4", "12.4.131", ["CUDA_HOME"])],
                                   pythons=[python("2.1.2+cu121", "12.1")],
                                   env={"CUDA_HOME": "/usr/local/cuda-12.4", "PATH": "/usr/bin:/bin"})
# A 525 driver (CUDA 12.0) under both torch cu121 and a 12.4 toolkit.
S["driver_older_than_toolkit"] = machine(driver=("525.60.13", 12000),
                                         toolkits=[toolkit("12.4", "12.4.131", ["CUDA_HOME"])],
                                         pythons=[python("2.1.2+cu121", "12.1")],
                                         env={"CUDA_HOME": "/usr/local/cuda-12.4", "PATH": "/usr/bin:/bin"})
# This development machine: no GPU, CUDA 13.0 wheels at /usr/local/cuda, torch 2.15.0+cu132 from PyPI.
S["devbox_cuda13_torch215"] = machine(
    driver=None, gpus=[], toolkits=[toolkit("13.0", "13.0.88", ["PATH", "/usr/local/cuda symlink"], usr_local=True)],
    pythons=[python("2.15.0+cu132", "13.2", version="3.11.7", arch=[])], compilers=gcc("12.2.0"),
    env={"PATH": "/usr/local/cuda/bin:/usr/bin:/bin"})
S["devbox_cuda13_torch215"]["system"].update({"os_id": "debian", "os_version_id": "12", "os_pretty": "Debian GNU/Linux 12 (bookworm)"})
# TORCH_CUDA_ARCH_LIST asks torch 1.13 for Hopper, which its extension builder does not know yet.
S["arch_list_unknown_to_torch"] = machine(driver=("535.104.05", 12020), gpus=[H100],
                                          toolkits=[toolkit("11.8", "11.8.89", ["CUDA_HOME"])],
                                          pythons=[python("1.13.1+cu117", "11.7")],
                                          env={"CUDA_HOME": "/usr/local/cuda-11.8", "PATH": "/usr/bin:/bin",
                                               "TORCH_CUDA_ARCH_LIST": "8.0;9.0+PTX"})

for name, inv in S.items():
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(inv, f, indent=1, sort_keys=True)
        f.write("\n")
print(len(S), "scenarios")
