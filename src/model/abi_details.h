#pragma once
// `gpucheck abi`'s own part of its Report, typed: Report.details (how long, how many ELF files) written by
// report/abi_report.cpp, and each target's Finding.details (abi::to_json(TargetReport)) read back as the
// text renderer shows them; the renderer reads both through these structs, never by key.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/finding.h"
#include "model/report.h"

namespace gpucheck::model {

struct AbiDetails {
  double seconds = 0;
  std::uint64_t objects_parsed = 0;
};

nlohmann::json to_json(const AbiDetails& d);
/// The abi details of `r`; lenient: a missing or mistyped field keeps its default.
AbiDetails abi_details(const model::Report& r);

/// A library the loader could not find, with where it looked.
struct MissingLibrary {
  std::string name, requested_by, error;
  struct Attempt {
    std::string path, source, outcome;
  };
  std::vector<Attempt> searched;
};

/// Undefined symbols of one kind, their cause and the fixes.
struct SymbolGroup {
  std::string category, cause;
  std::vector<std::string> symbols, remedy;
};

/// One kind of device code in a fatbin section: SASS or PTX for one target.
struct FatbinTarget {
  std::string kind;    // "sass" or "ptx"
  std::string target;  // sm_90, compute_90
  std::string ptx_isa;
  std::uint64_t count = 0, compressed = 0;
};

struct Fatbin {
  std::string section, error;
  std::uint64_t entries = 0;
  std::vector<FatbinTarget> by_target;
};

/// Whether the device code runs on one GPU of the machine.
struct GpuFit {
  std::string gpu, verdict, detail;
};

/// What one target's Finding.details say (abi::to_json(TargetReport)), as far as a reader shows it.
struct AbiTarget {
  std::string error;  // the object could not be read: nothing else is known
  std::vector<MissingLibrary> missing;
  std::vector<SymbolGroup> symbol_groups;
  std::string cxx_abi, cxx_macro;  // the object's C++ ABI ("unknown" when not told) and its macro
  bool torch_mismatch = false;     // torch's C++ ABI differs from the object's
  std::string torch_path, torch_macro;
  std::vector<Fatbin> fatbins;
  std::vector<GpuFit> gpus;
  std::string cuobjdump_disagreement;
};

AbiTarget abi_target(const Finding& f);

}  // namespace gpucheck::model
