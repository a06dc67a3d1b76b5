#pragma once
// Python environments. On the live machine each interpreter is asked once (platform/python_query.h: a child
// process, answer on fd 3, so whatever `import torch` prints cannot corrupt it) for its own facts plus torch
// facts, the shared libraries the process mapped after `import torch` (/proc/self/maps), and package
// versions read from dist-info metadata without importing them. A broken `import torch` is reported, not
// raised. Under --root nothing runs: environments are described from their files.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "inventory/model.h"
#include "platform/python_query.h"
#include "platform/root_fs.h"
#include "inventory/toolkit_scan.h"

namespace gpucheck::inventory {

struct PythonCandidate {
  std::string path;
  std::string via;  // "PATH", "--python", "VIRTUAL_ENV", "CONDA_PREFIX"
  std::vector<std::string> also_via;  // other routes to the same file ($VIRTUAL_ENV/bin/python is on PATH too)
};

/// python3 / python in every PATH directory, $VIRTUAL_ENV/bin/python, $CONDA_PREFIX/bin/python, then the
/// extra ones, de-duplicated by real path (routes merged).
std::vector<PythonCandidate> discover_pythons(const platform::RootFs& fs, const EnvMap& env, const std::vector<std::string>& extra);

/// The interpreter a pyenv shim (<root>/shims/python3) would exec, following pyenv's own order: PYENV_VERSION,
/// the nearest .python-version from `cwd` upwards, <root>/version. "" when `path` is not a shim or the choice
/// is "system" or unresolvable (then the shim itself is run). Spares the shim's bash start-up (~0.2 s).
std::string resolve_pyenv_shim(const platform::RootFs& fs, const EnvMap& env, const std::string& path, const std::string& cwd);

/// The packages whose import is checked after `import torch` (an extension built for another torch fails
/// there), as {distribution, module}; checked when the distribution is installed.
const std::vector<std::pair<std::string, std::string>>& import_checked_packages();

/// What one probe asks. The parts an earlier answer still covers (python_env_cache.h) are left out.
struct ProbeRequest {
  double timeout_s = 120;         // the whole child
  double import_timeout_s = 30;   // each import check, in its own child forked after `import torch`
  int import_jobs = 0;            // import checks at a time; 0: the CPUs this process may run on
  std::string run_as;             // the file actually executed for the interpreter (a resolved pyenv shim)
  bool torch = true;              // torch's facts (the torch part of the answer)
  std::optional<std::vector<std::string>> imports;  // distributions whose import to check; unset: all
};

/// Runs the probe script in `interpreter`: the interpreter's facts plus what `req` asks, as one answer.
/// Each checked import's result is under "import_checks" -> distribution (its errors and the libraries it
/// mapped beyond torch's); python_env_from() merges them.
platform::PythonFacts query_probe(const std::string& interpreter, const ProbeRequest& req = {});

/// The inventory entry of an answer (of query_probe, or assembled from cached parts).
PythonEnv python_env_from(const platform::PythonFacts& facts);

/// Runs the probe in `interpreter`; errors land in PythonEnv::error.
PythonEnv probe_python(const std::string& interpreter, const std::string& via, const ProbeRequest& req = {});

/// Merges environments that are the same installation (same sys.prefix and executable), keeping every route.
std::vector<PythonEnv> merge_python_envs(std::vector<PythonEnv> envs);

/// Site-packages directories that belong to Python installations found from files alone (interpreter
/// prefixes, VIRTUAL_ENV, CONDA_PREFIX, pyenv versions, /usr and /usr/local, conda installs).
std::vector<std::string> site_packages_from_files(const platform::RootFs& fs, const EnvMap& env,
                                                  const std::vector<PythonCandidate>& candidates);

/// An environment described from its files only (for --root): packages from dist-info, torch version and
/// torch.version.cuda from torch/version.py.
PythonEnv describe_python_from_files(const platform::RootFs& fs, const std::string& site_packages);

/// The packages worth reporting: the ML stack and every nvidia-* wheel.
bool is_relevant_package(const std::string& normalized_name);

}  // namespace gpucheck::inventory
