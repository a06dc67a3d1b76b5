#pragma once
// The one install planner behind `doctor --for` and `explain`'s fixes: given what the user asks for (PEP 508
// requirements and constraints) and the machine (interpreter, driver, every GPU, glibc, nvcc, host
// compiler), it tries every torch build the knowledge base knows to exist and returns the ranked plans that
// honour every pin and contract at once, or names the pins that cannot hold together.
//
// Contracts: Requires-Dist and Requires-Python of the exact release (data/compat/pypi.json), a wheel for
// this Python or a source build, torch's CUDA <= the driver's, a SASS build for every GPU, glibc >= the
// wheel's manylinux tag, the extension rows of extensions.json (torch range, minimum compute capability,
// nvcc major == torch's CUDA major, nvcc can compile every GPU, host compiler <= nvcc's maximum), and the
// build-time needs of a --no-build-isolation build (torch importable first, `wheel` installed).
// Ranking: the installed torch when it fits, then PyPI's own build (reachable where the PyTorch index may
// not be), then newer torch, then newer CUDA.
#include <optional>
#include <string>
#include <vector>

#include "checks/planner/machine.h"
#include "knowledge/knowledge_base.h"
#include "knowledge/pep440.h"

namespace gpucheck::planner {

/// One requirement with where it came from ("--for", "requirements.txt:3", "constraints.txt:1").
struct Ask {
  knowledge::pep440::Requirement req;
  std::string origin;
  bool constraint = false;  // -c: limits a package without asking for it
  std::string label() const;  // "torch<2.0.0,>=1.10 (requirements.txt:1)"
};

struct TorchOption {
  std::string version;    // public version "2.5.1"; "" = no torch in the plan
  std::string cuda;       // "12.4"; "" CPU or unknown
  std::string tag;        // "cu124" for a PyTorch-index build; "" for PyPI's own
  std::string index_url;  // "" = PyPI
  bool installed = false; // the torch already in the environment
  std::vector<std::string> archs;  // "sm_80"; empty when not recorded
  std::string source;
  std::string describe() const;    // "torch 2.5.1 (PyPI, CUDA 12.4)"
  std::string full_version() const;  // "2.5.1+cu124" for index builds
};

struct PlannedPackage {
  std::string name, version;
  bool build = false;               // compiled here (sdist or source tree)
  bool jit_ops = false;             // built from its sdist with nothing compiled: its CUDA ops compile at first
                                    // use with torch's extension builder (deepspeed)
  bool no_build_isolation = false;  // its setup imports torch: built without isolation and without pip's
                                    // wheel cache (keyed by the sdist, not the torch it built against)
  std::vector<std::string> install; // the knowledge base's own install steps (apex's git tree); empty: pip
  std::string arch_list;            // the architectures the build compiles ("" leaves the package's own), in
                                    // the terms of arch_env
  std::string arch_env;             // the variable that sets them: "" = TORCH_CUDA_ARCH_LIST; the package's own
                                    // when its setup.py passes -gencode flags itself (FLASH_ATTN_CUDA_ARCHS)
  std::string arch_env_source;      // where that variable is read
  std::string toolkit_root;         // another installed toolkit the build must use (CUDA_HOME, PATH); "" the default
  bool reinstall = false;           // rebuild the installed release: --force-reinstall --no-deps --no-cache-dir
                                    // (else pip says "already satisfied", or reuses its cached wheel)
  std::string source;               // where its contracts came from
  std::string note;                 // "sdist: compiles with nvcc 13.0"
  std::string rtld_global_why;      // with the planned torch it imports only when torch is loaded RTLD_GLOBAL:
                                    // why, with its source ("" = no such need)
  // It requires a CUDA library wheel of another CUDA major than the planned torch's (bmtrain 0.2.3.post2:
  // nvidia-nccl-cu11 beside torch 2.15's nvidia-nccl-cu13), and both wheels write the same files
  // (nvidia/nccl/lib/libnccl.so.2): installed with --no-deps, and the rest of its requirements instead.
  std::string no_deps_why;          // "" = installed with its dependencies
  std::vector<std::string> deps_instead;
};

struct Plan {
  TorchOption torch;
  std::vector<PlannedPackage> packages;  // install order (wheels, then builds)
  std::string wheel_version;             // `wheel` installed first for a --no-build-isolation build; "" none
  std::string ninja_version;             // `ninja` too: without it torch's BuildExtension compiles one file at a
                                         // time ("falling back to the slow distutils backend"); "" none
  bool ninja_from_venv = false;          // the build runs the interpreter's own ninja: BuildExtension finds it on
                                         // PATH only (cpp_extension.is_ninja_available), so its bin goes first
  std::vector<std::pair<std::string, std::string>> abi_pins;  // ("numpy", "1.26.4"): below an ABI break torch predates
  std::string summary, cost;
  std::vector<std::string> commands;     // exact, for the judged interpreter
  std::vector<std::string> notes;        // what could not be checked (no GPU visible, ...)
};

struct Conflict {
  std::vector<std::string> pins;     // labels of the asks and machine facts that cannot all hold
  std::vector<std::string> reasons;  // one line per pin: why it rejects the otherwise possible torch builds
};

struct Result {
  std::vector<Plan> plans;           // ranked, best first
  std::vector<Conflict> conflicts;   // set when plans is empty
  std::vector<std::string> asked;    // labels of the asks
  std::vector<std::string> notes;
};

/// Throws InputError for a package the knowledge base does not know (with what it knows), or a pin no
/// release satisfies ("bmtrain==9.9: no such release; bmtrain has 0.1.0, ..., 1.0.1").
void check_asks(const knowledge::KnowledgeBase& kb, const std::vector<Ask>& asks);

Result resolve(const knowledge::KnowledgeBase& kb, const Machine& m, const std::vector<Ask>& asks, int max_plans = 3);

/// The torch to recommend for CUDA `cuda` ("12.1": a toolkit to match, or what a driver runs): the
/// best-ranked plan for torch (within `pins`) whose CUDA is exactly cuda's major.minor, else the best of the
/// same major with a minor not above it, and not above `max_driver_cuda`. doctor and explain both ask this,
/// so both name the same build for the same CUDA and machine. nullopt when none fits.
std::optional<Plan> torch_for_cuda(const knowledge::KnowledgeBase& kb, Machine m, const std::string& cuda,
                                   const std::string& max_driver_cuda = "", const std::vector<Ask>& pins = {});

/// `pip -c` / `uv -c` lines pinning everything the plan installs ("torch==2.5.1\nbmtrain==1.0.1\n").
std::string constraints_text(const Plan& plan);

/// Every package name the planner can judge (pypi.json), sorted.
std::vector<std::string> known_packages(const knowledge::KnowledgeBase& kb);

}  // namespace gpucheck::planner
