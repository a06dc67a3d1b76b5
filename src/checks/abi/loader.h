#pragma once
// Dependency resolution exactly as glibc's ld.so does it (elf/dl-load.c _dl_map_object): breadth-first
// over DT_NEEDED; objects already loaded match by SONAME or name; search order DT_RPATH of the requester
// and its loaders (only while the requester has no DT_RUNPATH; an object's RPATH is ignored when it has a
// RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH of the requester only, /etc/ld.so.cache, default directories
// (the last two skipped under DF_1_NODEFLIB); $ORIGIN/$LIB/$PLATFORM expanded; candidates of the wrong
// ELF class or machine skipped as the loader skips them.
#include <cstddef>
#include <string>
#include <vector>

#include "platform/ld_cache.h"
#include "checks/abi/object_cache.h"

namespace gpucheck::abi {

struct LoaderConfig {
  std::vector<std::string> ld_library_path;  // split LD_LIBRARY_PATH
  const platform::LdCache* cache = nullptr;            // null: no cache
  std::vector<std::string> default_dirs;     // the loader's system search path
  std::string platform;                      // $PLATFORM
  std::string lib;                           // $LIB
  /// Subdirectories ld.so tries inside every search directory before the directory itself, in its
  /// order: glibc-hwcaps/x86-64-v3 ..., then (glibc < 2.37) legacy tls/haswell/avx512_1/x86_64 ...
  std::vector<std::string> hwcap_subdirs;

  /// This machine's loader: LD_LIBRARY_PATH from the environment, the system search path and
  /// $PLATFORM as `ld.so --help` reports them (falling back to glibc's built-in x86-64 defaults),
  /// hwcap subdirectories from the same output, $LIB as glibc's slibdir (where libc.so.6 was loaded
  /// from, without the leading '/': "lib/x86_64-linux-gnu" on Debian, "lib64" on Fedora).
  static LoaderConfig for_this_host(const platform::LdCache* cache);
};

struct SearchAttempt {
  std::string path;    // candidate file tried
  std::string source;  // "RPATH of /a/libx.so", "LD_LIBRARY_PATH", "RUNPATH of ...", "ld.so.cache", "default"
  std::string outcome; // "absent", "ELFCLASS32 (32-bit) object", ...
};

struct LoadedObject {
  std::string name;      // how it was asked for (NEEDED entry or command-line path)
  std::string path;      // path it was found at (not symlink-resolved: $ORIGIN comes from this)
  std::string real;      // realpath, identity of the file
  const platform::ElfObject* elf = nullptr;
  int loader = -1;       // index of the object whose NEEDED loaded it; -1 for roots and preloads
  bool preloaded = false;
  bool global = false;   // a preload opened RTLD_GLOBAL (or the main program): its closure is in every scope
};

/// Something the parent process has loaded before the target: the interpreter (global), LD_PRELOAD or
/// --preload (global), `import torch`'s libtorch_global_deps (RTLD_GLOBAL) and torch/_C (RTLD_LOCAL:
/// matched by SONAME when the target needs it, but its symbols are not visible to the target otherwise).
struct Preload {
  std::string path;
  bool global = true;
};

struct Dependency {
  int requester = -1;    // object index
  std::string name;      // DT_NEEDED string
  int object = -1;       // resolved object index; -1 when missing or unreadable
  std::string via;       // "RPATH of X", "LD_LIBRARY_PATH", "RUNPATH of X", "ld.so.cache", "default directory",
                         // "already loaded", "preloaded", "path in DT_NEEDED"
  std::string error;     // why it is missing / unreadable
  std::vector<SearchAttempt> searched;
};

struct LoadGraph {
  std::vector<LoadedObject> objects;  // preloads (with their closure) first, then the root's closure (BFS)
  std::vector<Dependency> deps;
  int root = -1;

  std::vector<const Dependency*> missing() const;
  /// The symbol lookup scope of the objects the root's dlopen loads (glibc's l_scope): the closures of
  /// the global preloads, then the root's own closure (through already loaded objects too), by index in
  /// load order. Objects loaded RTLD_LOCAL by someone else are outside it.
  std::vector<int> lookup_scope() const;
};

/// Loads `preload` (in order, with their dependencies: what the parent process already has), then the
/// root and its closure. Throws ElfError when the root itself is not a usable ELF object.
LoadGraph build_load_graph(const std::string& root, const std::vector<Preload>& preload,
                           const LoaderConfig& cfg, ObjectCache& cache);

/// What `dlopen(name)` called from code in object `requester` of `g` maps (cuDNN 9 opening
/// libcudnn_graph.so.9, libcudnn_engines_*.so.9 from libcudnn.so.9): the same search as a DT_NEEDED entry
/// of that object (its RPATH chain, LD_LIBRARY_PATH, its RUNPATH, ld.so.cache, default directories), then
/// its closure. Appends the Dependency to g.deps and returns the object index, -1 when not found.
int dlopen_from(LoadGraph& g, int requester, const std::string& name, const LoaderConfig& cfg, ObjectCache& cache);

/// Expands $ORIGIN, $LIB, $PLATFORM (and ${...} forms) in one path element.
std::string expand_dst(const std::string& element, const std::string& origin, const LoaderConfig& cfg);

}  // namespace gpucheck::abi
