#pragma once
// Runs an installed BMTrain's native kernels as a peer of ours. bmtrain/C*.so is loaded by file
// (importlib's ExtensionFileLoader, so the package's torch-importing __init__ is not needed) into the
// selected Python's interpreter embedded in this process, and its launchers are called with raw pointers
// to buffers we own (host or device); we compare its outputs with our reference and our kernels. Where the
// interpreter cannot be embedded (no shared libpython), the CPU launcher runs in a child interpreter on
// buffers shuttled through files instead.
#include <optional>
#include <string>
#include <vector>

#include "adam/adam_reference.h"
#include "bmtrain_installed/embedded_python.h"
#include "common/tolerance.h"

namespace gpucheck::kernels::bmtrain {

struct Install {
  bool python_ok = false;
  std::string python_error;          // why the interpreter could not be run
  std::string python, python_version;
  bool found = false;                // importlib.util.find_spec('bmtrain') found a package
  std::string version;               // importlib.metadata.version('bmtrain'), "" if unknown
  std::string package_dir;
  std::vector<std::string> native_modules;  // bmtrain/C*.so
  bool import_ok = false;
  std::string import_error;          // "ModuleNotFoundError: No module named 'torch'"
  python::Layout layout;             // how to embed this interpreter (library "" = no shared libpython)
};

/// Asks `python` (a path or a name on PATH) where bmtrain is, without failing when it is absent.
Install locate(const std::string& python);

struct PeerRun {
  bool ran = false;
  std::string error;                 // loading the module or calling the launcher failed: the message
  AdamState result;                  // BMTrain's outputs (after the first call)
  double seconds = 0;                // best wall time of one launcher call, measured inside Python
};

/// bmtrain/C*.so loaded into the embedded interpreter of its Python.
class NativeModule {
 public:
  struct Loaded;
  /// Embeds `in`'s interpreter and loads `module_path` as bmtrain.C. `embed_error` is set when the
  /// interpreter cannot be embedded (a child interpreter may still work); `load_error` when the module
  /// itself does not load (the install is broken: "ImportError: ...: undefined symbol: ncclBroadcast").
  static std::optional<NativeModule> load(const Install& in, const std::string& module_path, std::string& embed_error,
                                          std::string& load_error);
  /// C.<function>(*args); "" on success, else "ExceptionType: message".
  std::string call(const std::string& function, const std::vector<python::Arg>& args);
  bool has(const std::string& function);
  const std::string& libpython() const { return py_->library(); }

 private:
  explicit NativeModule(python::Embedded* py) : py_(py) {}
  python::Embedded* py_;
};

/// Calls adam_cpu_{fp16,bf16}_launcher (variant kOffloadFp16/kOffloadBf16) in this process on copies of
/// `before`, `repeats` times (outputs are those of the first call; `seconds` the fastest call).
PeerRun run_cpu_adam(NativeModule& module, const AdamState& before, const AdamHyper& h, int repeats = 1);

/// The same through a child interpreter (files carry the buffers): for Pythons without a shared libpython.
PeerRun run_cpu_adam_in_child(const std::string& python, const std::string& native_module, const AdamState& before,
                              const AdamHyper& h, int repeats = 1);

/// The host address of a buffer as a Python int argument.
inline python::Arg address(const void* p) { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p)); }

/// Fraction of elements whose bf16 param copy equals the truncation (not the rounding) of the fp32 master.
double bf16_truncated_fraction(const AdamState& s);

}  // namespace gpucheck::kernels::bmtrain
