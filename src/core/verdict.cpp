#include "core/verdict.h"

#include <algorithm>
#include <array>

#include "core/text.h"

namespace gpucheck {
namespace {

struct CauseEntry {
  const char* id;       // the id reports carry now
  Concern concern;
  std::vector<const char*> aliases;  // older or other commands' ids for the same cause
};

// One row per cause that more than one command names, or whose concern its status alone would get wrong.
// Rows are exact ids; kPrefixes below cover the families.
const std::vector<CauseEntry>& registry() {
  static const std::vector<CauseEntry> rows = {
      // doctor --for names the mismatch by the build it plans (install.*), a log by its signature.
      {"cuda.nvcc_torch_major_mismatch", Concern::kAtRisk, {"cuda-mismatch-nvcc-torch", "install.nvcc_torch_major_mismatch"}},
      {"cuda.nvcc_torch_minor_mismatch", Concern::kAtRisk, {"install.nvcc_torch_minor_mismatch"}},
      {"install.setup_imports_torch", Concern::kAtRisk, {"build-isolation-missing-torch"}},
      {"install.no_nvcc", Concern::kAtRisk, {"nvcc-missing"}},
      {"compiler.too_new_for_nvcc", Concern::kAtRisk, {"host-compiler-unsupported"}},
      {"python.numpy_abi", Concern::kBrokenNow, {"numpy-abi-mismatch"}},
      {"python.import_failed", Concern::kBrokenNow, {"abi.import_failed", "bmtrain.not_importable"}},
      {"ext.built_for_other_torch", Concern::kBrokenNow, {"undefined-symbol-torch-abi"}},
      {"ext.symbol_not_visible", Concern::kBrokenNow, {"extension-nccl-not-linked"}},
      {"driver.too_old_for_torch", Concern::kBrokenNow, {"driver-too-old"}},
      {"driver.missing", Concern::kBrokenNow, {"no-gpu-or-driver"}},
      {"driver.library_mismatch", Concern::kBrokenNow, {"driver-library-mismatch"}},
      {"driver.too_old_for_toolkit", Concern::kAtRisk, {}},
      {"driver.toolkit_minor_version_compat", Concern::kAtRisk, {}},
      {"torch.cpu_only_on_gpu_node", Concern::kBrokenNow, {"cpu-only-torch"}},
      {"gpu.arch_not_in_torch", Concern::kBrokenNow, {"gpu-too-old-for-torch"}},
      // explain's own causes (data/signatures/*.json), each here so no concern is guessed from a status.
      // A build log's causes stop the build the user ran (at risk for that goal):
      {"cuda-home-not-found", Concern::kAtRisk, {}},
      {"cuda-arch-unsupported", Concern::kAtRisk, {}},
      {"python-headers-missing", Concern::kAtRisk, {}},
      {"build-tool-incompatible", Concern::kAtRisk, {}},
      {"ninja-missing", Concern::kAtRisk, {}},
      {"wheel-package-missing", Concern::kAtRisk, {}},
      {"distutils-removed", Concern::kAtRisk, {}},
      {"setuptools-too-new", Concern::kAtRisk, {}},
      {"externally-managed-environment", Concern::kAtRisk, {}},
      {"msvc-missing", Concern::kAtRisk, {}},
      {"rust-compiler-missing", Concern::kAtRisk, {}},
      {"cmake-missing", Concern::kAtRisk, {}},
      {"c-compiler-missing", Concern::kAtRisk, {}},
      {"cuda-headers-missing", Concern::kAtRisk, {}},
      {"python-version-unsupported", Concern::kAtRisk, {}},
      {"gcc-too-old-for-torch", Concern::kAtRisk, {}},
      {"nvcc-too-old-for-package", Concern::kAtRisk, {}},
      {"build-killed-oom", Concern::kAtRisk, {}},
      {"build-dependency-missing", Concern::kAtRisk, {}},
      {"torch-thc-removed", Concern::kAtRisk, {}},
      {"nvcc-cxx-standard-unsupported", Concern::kAtRisk, {}},
      {"torch-headers-need-newer-cxx", Concern::kAtRisk, {}},
      // ... and so do an install's (pip):
      {"pip-resolution-conflict", Concern::kAtRisk, {}},
      {"no-matching-wheel", Concern::kAtRisk, {}},
      {"pip-hash-mismatch", Concern::kAtRisk, {}},
      {"disk-full", Concern::kAtRisk, {}},
      {"download-timeout", Concern::kAtRisk, {}},
      // What failed in a program that ran: broken now.
      {"container-toolkit-missing", Concern::kBrokenNow, {}},
      {"container-driver-too-old", Concern::kBrokenNow, {}},
      {"fabric-manager-not-running", Concern::kBrokenNow, {}},
      {"gpu-busy-or-unavailable", Concern::kBrokenNow, {}},
      {"cuda-fork-reinit", Concern::kBrokenNow, {}},
      {"container-lost-gpu-devices", Concern::kBrokenNow, {}},
      {"nccl-socket-interface", Concern::kBrokenNow, {}},
      {"shared-memory-too-small", Concern::kBrokenNow, {}},
      {"nccl-collective-timeout", Concern::kBrokenNow, {}},
      {"nccl-failure", Concern::kBrokenNow, {}},
      {"shared-library-missing", Concern::kBrokenNow, {}},
      {"undefined-symbol-link", Concern::kBrokenNow, {}},
      {"glibc-glibcxx-too-old", Concern::kBrokenNow, {}},
      {"cudnn-mismatch", Concern::kBrokenNow, {}},
      {"prebuilt-binary-mismatch", Concern::kBrokenNow, {}},
      {"system-libs-shadow", Concern::kBrokenNow, {}},
      {"triton-libcuda-not-found", Concern::kBrokenNow, {}},
      {"no-kernel-image", Concern::kBrokenNow, {}},
      {"out-of-memory", Concern::kBrokenNow, {}},
      {"gpu-arch-too-old-for-feature", Concern::kBrokenNow, {}},
      // What the log says about its context (a pip phase, a version): notes.
      {"context-pip-download", Concern::kNote, {}},
      {"context-pip-collecting", Concern::kNote, {}},
      {"context-pip-collecting-torch", Concern::kNote, {}},
      {"context-torch-version", Concern::kNote, {}},
      {"context-nvcc-version", Concern::kNote, {}},
      {"context-nvidia-smi", Concern::kNote, {}},
      {"context-pip-phase", Concern::kNote, {}},
      {"context-nccl-shm-cuda-failure", Concern::kNote, {}},  // main's data/signatures/context.json (issue 33)
  };
  return rows;
}

struct Prefix {
  const char* prefix;
  Concern concern;
};
// Families: install.* and plan.* predict what a command the user asked about would do; cuda.* and
// compiler.* are about the toolkit and host compiler a source build would use; the rest judge what is
// installed.
constexpr std::array<Prefix, 10> kPrefixes = {{{"install.", Concern::kAtRisk},
                                               {"plan.", Concern::kAtRisk},
                                               {"cuda.", Concern::kAtRisk},
                                               {"compiler.", Concern::kAtRisk},
                                               {"python.", Concern::kBrokenNow},
                                               {"ext.", Concern::kBrokenNow},
                                               {"libs.", Concern::kBrokenNow},
                                               {"torch.", Concern::kBrokenNow},
                                               {"gpu.", Concern::kBrokenNow},
                                               {"driver.", Concern::kBrokenNow}}};

const CauseEntry* entry_for(const std::string& id) {
  for (const auto& e : registry()) {
    if (id == e.id) return &e;
    for (const char* a : e.aliases)
      if (id == a) return &e;
  }
  return nullptr;
}

int concern_rank(Concern c) { return c == Concern::kBrokenNow ? 0 : c == Concern::kAtRisk ? 1 : 2; }

bool needs_action(Status s) { return s == Status::kFail || s == Status::kError || s == Status::kWarn; }

bool is_root(const Finding& f) { return f.details.is_object() && f.details.value("root", false); }

}  // namespace

const char* to_string(Concern c) {
  switch (c) {
    case Concern::kBrokenNow: return "broken_now";
    case Concern::kAtRisk: return "at_risk";
    case Concern::kNote: return "note";
  }
  return "note";
}

std::string canonical_cause_id(const std::string& id) {
  const CauseEntry* e = entry_for(id);
  return e ? e->id : id;
}

std::vector<std::string> cause_aliases(const std::string& id) {
  const CauseEntry* e = entry_for(id);
  if (!e) return {id};
  std::vector<std::string> out{e->id};
  for (const char* a : e->aliases) out.push_back(a);
  return out;
}

bool same_cause(const std::string& a, const std::string& b) { return canonical_cause_id(a) == canonical_cause_id(b); }

bool is_registered_cause(const std::string& id) { return entry_for(id) != nullptr; }

Concern concern_of(const Finding& f) {
  if (!needs_action(f.status)) return Concern::kNote;
  if (const CauseEntry* e = entry_for(f.id)) return e->concern;
  for (const auto& p : kPrefixes)
    if (starts_with(f.id, p.prefix)) return p.concern;
  return f.status == Status::kWarn ? Concern::kAtRisk : Concern::kBrokenNow;
}

bool fails_under(const std::string& id, Goal goal) {
  return goal == Goal::kSourceBuild && canonical_cause_id(id) == "cuda.nvcc_torch_major_mismatch";
}

void apply_goal(std::vector<Finding>& findings, Goal goal, const std::string& why) {
  for (auto& f : findings) {
    // A rule marks what a source build cannot survive (details.fatal_for_build: the major mismatch, a minor
    // one under old setuptools); the goal decides whether that is an error now.
    const bool fatal = fails_under(f.id, goal) ||
                       (goal == Goal::kSourceBuild && f.details.is_object() && f.details.value("fatal_for_build", false));
    if (!fatal || f.status != Status::kWarn) continue;
    f.status = Status::kFail;
    f.summary = why + f.summary;
  }
}

std::vector<const Finding*> rank_for_action(const std::vector<const Finding*>& findings) {
  std::vector<const Finding*> out;
  for (const auto* f : findings)
    if (f && needs_action(f->status)) out.push_back(f);
  std::stable_sort(out.begin(), out.end(), [](const Finding* a, const Finding* b) {
    int ca = concern_rank(concern_of(*a)), cb = concern_rank(concern_of(*b));
    if (ca != cb) return ca < cb;
    bool fa = a->status != Status::kWarn, fb = b->status != Status::kWarn;
    if (fa != fb) return fa;
    return is_root(*a) && !is_root(*b);
  });
  return out;
}

const Finding* first_to_act_on(const std::vector<const Finding*>& findings) {
  auto ranked = rank_for_action(findings);
  return ranked.empty() ? nullptr : ranked.front();
}

}  // namespace gpucheck
