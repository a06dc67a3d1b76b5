#pragma once
// What an environment's dist-info directories say, read from files only (so also under --root and for
// environments that were not run): every distribution with its Requires-Dist (pip check's input), and the
// files that two distributions' RECORDs both claim, with whose bytes are really on disk.
#include "inventory/model.h"
#include "platform/root_fs.h"

namespace gpucheck::inventory {

/// Fills p.distributions and p.shared_files from p.site_packages. A file counts as shared only when the
/// owners' RECORDs give it different hashes (every nvidia-* wheel lists the same empty nvidia/__init__.py).
/// Whose bytes are on disk: SHA-256 of the file against the owners whose RECORD size fits (none fits: not read).
void read_python_distributions(const platform::RootFs& fs, PythonEnv& p);

}  // namespace gpucheck::inventory
