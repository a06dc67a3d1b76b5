#pragma once
// The selected Python's own interpreter, embedded in this process by dlopen-ing its libpython (no link-time
// dependency, any CPython >= 3.8 with a shared library). Extension modules loaded here can then be handed
// raw pointers to buffers this process owns, host or device, which a child interpreter could not use.
//
// One interpreter per process, never finalized (extension modules do not survive Py_Finalize), used only
// from the thread that started it.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gpucheck::kernels::python {

/// Where an interpreter lives, as it reports itself (sysconfig/sys of a child run of that interpreter).
struct Layout {
  std::string library;             // LIBDIR/INSTSONAME: /usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0
  std::string home;                // "base_prefix:base_exec_prefix", PYTHONHOME for the embedded copy
  std::vector<std::string> sys_path;  // the child's sys.path ('' removed), so venvs and .pth files apply
};

/// A positional argument of a call into Python: int64, uint64 (addresses) or double.
using Arg = std::variant<std::int64_t, std::uint64_t, double>;

class Embedded {
 public:
  /// Starts the interpreter of `layout` (once per process; later calls return the same one if the
  /// library is the same). Returns nullptr and sets `error` when it cannot: no shared libpython, a missing
  /// C-API symbol, another libpython already started, or a failing start-up.
  static Embedded* start(const Layout& layout, std::string& error);

  /// Runs `code` in __main__'s namespace. Returns "" on success, else "ExceptionType: message".
  std::string exec(const std::string& code);
  /// `target(*args)` where target is an expression in __main__ ("C.adam_cpu_fp16_launcher"); the result is
  /// stored in __main__ as `_gpucheck_ret`. Returns "" or "ExceptionType: message".
  std::string call(const std::string& target, const std::vector<Arg>& args);
  /// Sets a str variable in __main__.
  void set_str(const std::string& name, const std::string& value);
  /// str(variable) from __main__, "" when it does not exist.
  std::string get_str(const std::string& name);
  const std::string& library() const { return library_; }

 private:
  struct Api;
  Embedded(std::string library, Api* api) : library_(std::move(library)), api_(api) {}
  std::string library_;
  Api* api_;
};

}  // namespace gpucheck::kernels::python
