#pragma once
// The one way gpucheck asks a Python interpreter about itself (the inventory's environment probe, the ABI
// audit's search for extensions, the bmtrain probe's embedding). The interpreter runs, from an argument
// vector, a fixed script that reports its own facts, followed by the caller's script, which may add keys to
// the same answer; the answer is one JSON object written to fd 3, so whatever imported code prints cannot
// corrupt it. Bounded in time (the child's process group is killed at the deadline) and in size.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpucheck::platform {

struct PythonQuery {
  /// Python run after the base facts, at top level, with `o` (the answer dict: add keys to it) and `dirs`
  /// (the existing sys.path directories, each real directory once, in sys.path order) in scope;
  /// sys.argv[1:] is `args`. Must stay Python 3.6 compatible.
  std::string extra_script;
  std::vector<std::string> args;
  double timeout_s = 60;
  std::string run_as;  // the file actually executed for the interpreter (a resolved pyenv shim); "" = itself
};

struct PythonFacts {
  std::string interpreter;        // as asked
  bool answered = false;          // it ran and wrote a JSON object
  std::string error;              // why not: "exit 1: <stderr tail>", "timed out after 60 s", "failed to start: ..."
  std::string executable;         // sys.executable (the real interpreter behind a shim)
  std::string version;            // "3.11.4": sys.version_info[:3]
  std::string prefix, base_prefix, base_exec_prefix;
  std::string kind;               // "conda", "venv", "pyenv", "system"
  std::vector<std::string> sys_path;       // sys.path, empty entries dropped, in order
  std::vector<std::string> site_packages;  // existing sys.path entries named site-packages or dist-packages
  std::string libpython;          // the shared libpython it runs on; "" for a statically linked interpreter
  double seconds = 0;             // wall time of the child
  nlohmann::json answer;          // the whole object, the caller's keys included (null when not answered)

  // The caller's keys, read leniently: absent or of another JSON type gives the empty value, so a script
  // that half-ran (an exception caught in Python) still yields every fact it did write.
  std::string text(const std::string& key) const;                          // a string
  std::vector<std::string> texts(const std::string& key) const;            // a list of strings
  std::map<std::string, std::string> text_map(const std::string& key) const;  // an object of strings
  std::optional<bool> flag(const std::string& key) const;                  // a boolean
};

/// Runs `interpreter` (a path, or a name looked up on PATH) with the base script + q.extra_script.
/// Never throws: a failure is `answered = false` with `error` set.
PythonFacts query_python(const std::string& interpreter, const PythonQuery& q = {});

/// The base facts of an answer (exposed for tests).
PythonFacts parse_python_answer(const std::string& json_text);

}  // namespace gpucheck::platform
