// Libraries the loader would give torch instead of the ones its wheels ship. Judged as ld.so does: only a
// file with the same SONAME can stand in for another (libcublas.so.13 never replaces libcublas.so.12, a
// cuDNN .so.9 is another library than .so.8, not a newer one); LD_LIBRARY_PATH comes before the RUNPATH
// ($ORIGIN/...) that points torch at its wheels, the ld.so cache after it, so a cache entry never shadows a
// library torch ships. cuDNN 9 dlopens its sub-libraries (libcudnn_graph.so.9, ...) from libcudnn.so.9:
// those are resolved with the loader model (checks/abi/loader.h) on the files when they are present.
// The reference version is what the package ships (its files and dist-info), never what torch reports
// from a process that may itself be shadowed.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "checks/abi/loader.h"
#include "checks/doctor/fix_commands.h"
#include "checks/doctor/rules.h"
#include "core/regular_file.h"
#include "core/text.h"
#include "inventory/library_version.h"
#include "knowledge/version.h"
#include "platform/ld_cache.h"
#include "platform/root_fs.h"

namespace gpucheck::doctor {
namespace {

/// torch.backends.cudnn.version(): 8700 -> 8.7.0, 90100 -> 9.1.0 (the inventory's cuDNN decoding); a value
/// that is already dotted stays as it is.
std::string decode_cudnn(const std::string& raw) {
  if (raw.empty() || raw.size() > 12 || raw.find_first_not_of("0123456789") != std::string::npos) return raw;
  const long long v = std::stoll(raw);
  return v > 0 ? inventory::decode_version("cudnn", {v}) : "";
}

std::string strip_slash(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

/// The major a SONAME promises: "libcudnn.so.8" -> "8"; "" when it has no number.
std::string soname_major(const std::string& soname) {
  auto pos = soname.find(".so.");
  if (pos == std::string::npos) return "";
  std::string rest = soname.substr(pos + 4);
  return rest.substr(0, rest.find('.'));
}

// Whether two regular files hold the same bytes (sizes first; then 1 MiB at a time, to the first difference).
// A cuDNN sub-library found elsewhere that is byte for byte the wheel's own is the same release: the
// toolkit here was installed from the same wheel, and nothing is mixed.
bool same_bytes(const std::string& a, const std::string& b) {
  const UniqueFd fa(open_regular_file(a)), fb(open_regular_file(b));  // never a device or FIFO
  struct stat sa {}, sb {};
  if (!fa.valid() || !fb.valid() || fstat(fa.get(), &sa) != 0 || fstat(fb.get(), &sb) != 0 || sa.st_size != sb.st_size)
    return false;
  std::vector<char> ba(1 << 20), bb(1 << 20);
  for (;;) {
    ssize_t na = read_fully(fa.get(), ba.data(), ba.size()), nb = read_fully(fb.get(), bb.data(), bb.size());
    if (na < 0 || na != nb || !std::equal(ba.begin(), ba.begin() + na, bb.begin())) return false;
    if (na == 0) return true;
  }
}

bool under(const std::string& path, const std::vector<std::string>& dirs) {
  for (const auto& d : dirs)
    if (!d.empty() && starts_with(path, strip_slash(d) + "/")) return true;
  return false;
}

/// The copy of `soname` the judged environment ships (a wheel in its site-packages), or nullptr.
const inventory::Library* own_copy(const DoctorContext& ctx, const std::string& soname) {
  for (const auto& lib : ctx.inv.libraries)
    if (lib.soname == soname && under(lib.path, ctx.python->site_packages)) return &lib;
  return nullptr;
}

/// torch's own answer, used only when the environment ships no copy of the library (torch built against a
/// system library): the cuDNN/NCCL versions it reports.
std::string reported_version(const inventory::PythonEnv& py, const std::string& name) {
  if (name == "cudnn") return decode_cudnn(py.torch_cudnn);
  if (name == "nccl") return py.torch_nccl;
  return "";
}

bool versions_differ(const std::string& found, const std::string& reference) {
  auto f = knowledge::Version::parse(found), r = knowledge::Version::parse(reference);
  if (!f || !r) return false;
  // A package version (12.1.3.1) is more precise than a library's own (12.1.3): compare what both have.
  std::size_t n = std::min(f->parts.size(), r->parts.size());
  for (std::size_t i = 0; i < n; ++i)
    if (f->part(i) != r->part(i)) return true;
  return false;
}

/// LD_LIBRARY_PATH without the entries that are `dir` (by real path); nullopt when none is.
std::optional<std::vector<std::string>> ld_path_without(const DoctorContext& ctx, const std::string& dir) {
  std::vector<std::string> kept;
  bool dropped = false;
  const std::string target = ctx.real_path(dir);
  for (const auto& d : split(ctx.env("LD_LIBRARY_PATH"), ':')) {
    if (d.empty()) continue;
    if (ctx.real_path(d) == target) dropped = true;
    else kept.push_back(d);
  }
  if (!dropped) return std::nullopt;
  return kept;
}

void add_ld_path_fix(const DoctorContext& ctx, const std::string& dir, Finding& f) {
  auto kept = ld_path_without(ctx, dir);
  if (!kept) return;  // the directory is not on LD_LIBRARY_PATH by any name: nothing to drop there
  f.add_fix("Drop " + dir + " from LD_LIBRARY_PATH for torch programs",
            {kept->empty() ? "unset LD_LIBRARY_PATH" : "export LD_LIBRARY_PATH=" + shell_quote(join(*kept, ":"))},
            "affects this shell only; programs that needed that directory must set it themselves");
}

const inventory::Library* library_at(const DoctorContext& ctx, const std::string& path) {
  const std::string real = ctx.real_path(path);
  for (const auto& lib : ctx.inv.libraries)
    if (lib.path == path || ctx.real_path(lib.path) == real) return &lib;
  return nullptr;
}

/// "libcudnn_graph.so.9.1.0" -> "9.1.0"; the inventory's reading when it has one.
std::string version_of_file(const DoctorContext& ctx, const std::string& path) {
  if (const auto* lib = library_at(ctx, path); lib && !lib->version.empty()) return lib->version;
  std::string name = base_name(ctx.real_path(path));
  auto pos = name.find(".so.");
  return pos == std::string::npos ? "" : name.substr(pos + 4);
}

/// A cuDNN sub-library has no version function and only the SONAME's number in its name: the release of the
/// libcudnn.so beside it (one directory holds one release), as the inventory read it; else version_of_file.
std::string cudnn_sublibrary_release(const DoctorContext& ctx, const std::string& path) {
  const std::string dir = ctx.real_path(parent_dir(path));
  for (const auto& lib : ctx.inv.libraries)
    if (lib.name == "cudnn" && ctx.real_path(parent_dir(lib.path)) == dir) {
      const std::string v = !lib.package_version.empty() ? lib.package_version : lib.version;
      if (!v.empty()) return v;
    }
  return version_of_file(ctx, path);
}

bool is_mapped(const DoctorContext& ctx, const inventory::PythonEnv& py, const std::string& path) {
  const std::string real = ctx.real_path(path);
  for (const auto& m : py.mapped_libraries)
    if (m == path || ctx.real_path(m) == real) return true;
  return false;
}

// A library with torch's SONAME found first on LD_LIBRARY_PATH (or, when the environment ships no copy,
// wherever the loader takes it), in another version than the one the environment ships.
void check_same_soname(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& py = *ctx.python;
  for (const auto& lib : ctx.inv.libraries) {
    const bool via_ld_path = contains(lib.found_via, "LD_LIBRARY_PATH");
    const bool via_cache = contains(lib.found_via, "ld.so.cache");
    if ((!via_ld_path && !via_cache) || lib.soname.empty() || under(lib.path, py.site_packages)) continue;
    const bool mapped = is_mapped(ctx, py, lib.path);
    const inventory::Library* own = own_copy(ctx, lib.soname);
    // RUNPATH comes before the cache: a cache entry loses to the copy torch ships unless it is mapped.
    if (own && !via_ld_path && !mapped) continue;
    // The process maps the environment's own copy (torch preloads its wheels' libraries by path): the
    // other file with that SONAME is not what torch uses.
    if (own && !mapped && is_mapped(ctx, py, own->path)) continue;
    if (!mapped && !lib.loader_pick) continue;
    std::string reference, reference_source;
    if (own) {
      reference = !own->package_version.empty() ? own->package_version : own->version;
      reference_source = own->path + (own->package.empty() ? "" : " (" + own->package + ")");
    } else {
      reference = reported_version(py, lib.name);
      reference_source = ctx.python_label();
      // torch's own number names the SONAME it loads: a .so.9 cannot be what a torch built with 8.x loads.
      auto r = knowledge::Version::parse(reference);
      if (!r || soname_major(lib.soname) != std::to_string(r->major())) continue;
    }
    if (reference.empty() || ctx.real_path(lib.path) == (own ? ctx.real_path(own->path) : "") ||
        !versions_differ(lib.version, reference))
      continue;

    Finding f;
    f.id = "libs.shadowed_" + lib.name;
    f.status = mapped ? Status::kFail : Status::kWarn;
    f.title = std::string(mapped ? "torch loads " : "The loader would give torch ") + lib.soname + " " + lib.version +
              " from " + parent_dir(lib.path) + " instead of " + (own ? "the " : "its ") + reference +
              (own && !own->package.empty() ? " of " + own->package : "");
    f.evidence = {{lib.soname + " found first", lib.version + " at " + lib.path,
                   join(lib.found_via, ", ") + (lib.version_source.empty() ? "" : "; version: " + lib.version_source)},
                  {own ? lib.soname + " the environment ships" : lib.name + " torch reports", reference, reference_source}};
    if (mapped) f.evidence.push_back({"mapped after import torch", lib.path, "/proc/self/maps of " + py.interpreter});
    f.explanation = "Both files have the SONAME " + lib.soname + ", so the loader takes whichever it finds first; "
                    "LD_LIBRARY_PATH is searched before the RUNPATH that points torch at its own copy. " +
                    std::string(lib.name == "cudnn"
                                    ? "torch requires the cuDNN it was built with (same major, at least its minor) and "
                                      "cuDNN's sub-libraries must all be one release."
                                    : "Symbols torch needs may be missing or behave differently.");
    if (via_ld_path) add_ld_path_fix(ctx, parent_dir(lib.path), f);
    if (via_cache && !own)
      f.add_fix("Remove " + parent_dir(lib.path) + " from the system loader configuration",
                {"grep -rl " + shell_quote(parent_dir(lib.path)) + " /etc/ld.so.conf /etc/ld.so.conf.d/",
                 "sudo ldconfig"},
                "needs root: delete the line the grep finds, then rebuild the cache; affects every program");
    f.details = {{"soname", lib.soname}, {"found", lib.path}, {"found_version", lib.version},
                 {"reference", reference}, {"reference_source", reference_source}, {"mapped", mapped}};
    out.push_back(std::move(f));
  }
}

// cuDNN 9's sub-libraries, dlopened by the environment's libcudnn.so.9: what the loader maps for each with
// this LD_LIBRARY_PATH and ld.so cache, against the file beside it. Needs the files (live or --root).
void check_cudnn_sublibraries(const DoctorContext& ctx, std::vector<Finding>& out) {
  const auto& py = *ctx.python;
  for (const auto& lib : ctx.inv.libraries) {
    if (lib.name != "cudnn" || !under(lib.path, py.site_packages) || !starts_with(lib.soname, "libcudnn.so.")) continue;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(lib.path, ec)) continue;  // a document from another machine
    const std::string dir = parent_dir(lib.path), major = soname_major(lib.soname);
    // This host's loader (search path, hwcaps, cache), with the judged inventory's LD_LIBRARY_PATH.
    static const platform::LdCache cache = platform::LdCache::load();
    abi::LoaderConfig cfg = abi::LoaderConfig::for_this_host(&cache);
    cfg.ld_library_path.clear();
    for (const auto& d : split(ctx.env("LD_LIBRARY_PATH"), ':'))
      if (!d.empty()) cfg.ld_library_path.push_back(d);
    abi::ObjectCache objects;
    abi::LoadGraph g;
    try {
      g = abi::build_load_graph(lib.path, {}, cfg, objects);
    } catch (const std::exception&) {
      continue;
    }
    std::vector<std::string> foreign;
    for (const auto& name : platform::RootFs("/").list(dir)) {
      if (!starts_with(name, "libcudnn_") || name != name.substr(0, name.find(".so.")) + ".so." + major) continue;
      int idx = abi::dlopen_from(g, g.root, name, cfg, objects);
      if (idx < 0) continue;
      const std::string mapped = g.objects[static_cast<std::size_t>(idx)].path;
      if (ctx.real_path(mapped) != ctx.real_path(dir + "/" + name) && !same_bytes(mapped, dir + "/" + name)) foreign.push_back(mapped);
    }
    if (foreign.empty()) continue;
    const std::string shipped = !lib.package_version.empty() ? lib.package_version : lib.version;
    const std::string other = cudnn_sublibrary_release(ctx, foreign.front());
    Finding f;
    f.id = "libs.shadowed_cudnn_sublibrary";
    f.status = Status::kFail;
    f.title = lib.soname + " of " + (lib.package.empty() ? dir : lib.package) + " " + shipped + " would load " +
              base_name(foreign.front()) + (other.empty() ? "" : " " + other) + " from " +
              parent_dir(foreign.front());
    for (const auto& m : foreign) {
      const std::string release = cudnn_sublibrary_release(ctx, m);
      f.evidence.push_back({base_name(m), m + (release.empty() ? "" : " (" + release + ")"),
                            "dlopen from " + lib.path + ": LD_LIBRARY_PATH before its RUNPATH"});
    }
    f.evidence.push_back({"LD_LIBRARY_PATH", ctx.env("LD_LIBRARY_PATH"), "environment"});
    f.explanation = "cuDNN 9 opens its sub-libraries by SONAME at run time; LD_LIBRARY_PATH is searched before "
                    "libcudnn.so.9's RUNPATH ($ORIGIN), so one process mixes two cuDNN releases and "
                    "torch.backends.cudnn.version() reports the other one's number.";
    for (const auto& m : foreign) {
      bool dup = false;
      for (const auto& fx : f.fixes) dup |= fx.summary.find(parent_dir(m) + " ") != std::string::npos;
      if (!dup) add_ld_path_fix(ctx, parent_dir(m), f);
    }
    f.details = {{"library", lib.path}, {"shipped", shipped}, {"sublibraries_elsewhere", foreign}, {"elsewhere_release", other}};
    out.push_back(std::move(f));
  }
}

}  // namespace

void check_library_shadowing(const DoctorContext& ctx, std::vector<Finding>& out) {
  if (!ctx.python || !ctx.python->torch_installed || ctx.torch_cuda().empty()) return;
  check_same_soname(ctx, out);
  check_cudnn_sublibraries(ctx, out);
}

}  // namespace gpucheck::doctor
