#include "envtools/cuda_env.h"

#include <cctype>

#include <algorithm>
#include <filesystem>

#include "checks/doctor/doctor_context.h"
#include "checks/doctor/fix_commands.h"
#include "knowledge/version.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::envtools {
namespace {

namespace fs = std::filesystem;

std::string found_list(const inventory::Inventory& inv) {
  std::vector<std::string> v;
  for (const auto& t : inv.toolkits) v.push_back(t.version + " at " + t.root);
  return v.empty() ? "none" : join(v, ", ");
}

std::string strip(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

/// `list` (colon-separated) without any entry in `drop`, with `first` in front.
std::string rebuild(const std::string& first, const std::string& list, const std::vector<std::string>& drop) {
  std::vector<std::string> out{first};
  for (const auto& e : split(list, ':')) {
    if (e.empty()) continue;
    std::string s = strip(e);
    if (std::find(drop.begin(), drop.end(), s) != drop.end()) continue;
    if (std::find(out.begin(), out.end(), s) != out.end()) continue;
    out.push_back(s);
  }
  return join(out, ":");
}

std::string lua_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

const inventory::Toolkit* find_toolkit(const inventory::Inventory& inv, const std::string& wanted_in) {
  std::string wanted = trim(wanted_in);
  std::vector<const inventory::Toolkit*> usable;
  for (const auto& t : inv.toolkits)
    if (!t.nvcc.empty() && !t.root.empty()) usable.push_back(&t);
  if (starts_with(wanted, "/")) {
    for (auto* t : usable)
      if (strip(t->root) == strip(wanted)) return t;
    // /usr/local/cuda -> /usr/local/cuda-13.0: the same toolkit through a symlink (only resolved, never run).
    std::error_code ec;
    fs::path real = fs::canonical(wanted, ec);
    for (auto* t : usable) {
      std::error_code ec_root;
      if (!ec && fs::canonical(t->root, ec_root) == real && !ec_root) return t;
    }
    throw InputError("no CUDA toolkit with nvcc at " + wanted + " (found: " + found_list(inv) + ")");
  }
  auto v = knowledge::Version::parse(wanted);
  if (!v || !v->suffix.empty() || !v->local.empty())
    throw InputError("use-cuda: '" + wanted + "' is not a CUDA version (e.g. 11.8, 12, 12.1.105) or a toolkit root");
  const inventory::Toolkit* best = nullptr;
  for (auto* t : usable) {
    auto tv = knowledge::Version::parse(t->version);
    if (!tv) continue;
    bool match = true;
    for (std::size_t i = 0; i < v->parts.size(); ++i) match = match && tv->part(i) == v->parts[i];
    if (!match) continue;
    bool better = !best || knowledge::compare_versions(t->version, best->version) > 0 ||
                  (knowledge::compare_versions(t->version, best->version) == 0 && starts_with(t->root, "/usr/local/cuda-") &&
                   !starts_with(best->root, "/usr/local/cuda-"));
    if (better) best = t;
  }
  return best;
}

const inventory::Toolkit& select_toolkit(const inventory::Inventory& inv, const std::string& wanted) {
  if (const auto* t = find_toolkit(inv, wanted)) return *t;
  throw InputError("no CUDA " + trim(wanted) + " toolkit with nvcc found (found: " + found_list(inv) + ")");
}

std::string toolkits_found(const inventory::Inventory& inv) { return found_list(inv); }

std::vector<ShellExport> cuda_exports(const inventory::Inventory& inv, const inventory::Toolkit& t,
                                      const std::string& path, const std::string& ld_library_path) {
  std::vector<std::string> drop_bin{"/usr/local/cuda/bin"}, drop_lib{"/usr/local/cuda/lib64", "/usr/local/cuda/lib"};
  for (const auto& o : inv.toolkits) {
    drop_bin.push_back(strip(o.root) + "/bin");
    drop_lib.push_back(strip(o.root) + "/lib64");
    drop_lib.push_back(strip(o.root) + "/lib");
  }
  std::string root = strip(t.root);
  return {{"CUDA_HOME", root},
          {"CUDA_PATH", root},
          {"PATH", rebuild(root + "/bin", path, drop_bin)},
          {"LD_LIBRARY_PATH", rebuild(doctor::toolkit_lib_dir(t), ld_library_path, drop_lib)}};
}

std::string shell_exports(const inventory::Inventory& inv, const inventory::Toolkit& t, const std::string& path,
                          const std::string& ld_library_path) {
  std::string out;
  for (const auto& e : cuda_exports(inv, t, path, ld_library_path)) out += "export " + e.name + "=" + shell_quote(e.value) + "\n";
  return out;
}

std::vector<std::string> write_modulefiles(const inventory::Inventory& inv, const std::string& dir,
                                           std::vector<std::string>* refused) {
  std::vector<std::string> written;
  for (const auto& f : modulefiles(inv, refused)) {
    std::string path = dir + "/" + f.relative_path;
    make_dirs(path.substr(0, path.rfind('/')));
    write_file_atomic(path, f.content);
    written.push_back(path);
  }
  return written;
}

std::string module_version(const inventory::Inventory& inv, const inventory::Toolkit& t) {
  std::string mm = doctor::major_minor(t.version);
  int same = 0;
  for (const auto& o : inv.toolkits)
    if (!o.nvcc.empty() && doctor::major_minor(o.version) == mm) ++same;
  return same > 1 ? t.version : mm;
}

namespace {

// A toolkit's version comes from files under its root (version.json, version.txt, dist-info) or a --from
// document: it becomes a file name and text inside Tcl braces and Lua strings, so only a plain version
// (12.4.1, 13.0.48, 12.1.105+cuda) may; "12.4.1} ; exec ..." or "13.0/../../etc/x" is refused.
bool plain_version(const std::string& v) {
  if (v.empty() || v.size() > 64 || !std::isdigit(static_cast<unsigned char>(v[0]))) return false;
  if (v.find("..") != std::string::npos) return false;
  for (unsigned char c : v)
    if (!std::isalnum(c) && c != '.' && c != '_' && c != '+' && c != '-') return false;
  return true;
}

}  // namespace

std::vector<ModuleFile> modulefiles(const inventory::Inventory& inv, std::vector<std::string>* refused) {
  std::vector<ModuleFile> out;
  std::vector<std::string> names;
  std::string first_refusal;
  // One bad toolkit used to cost every good one its modulefile (reliability-3 N15); with `refused` it is
  // only left out.
  auto refuse = [&](const std::string& why) {
    if (!refused) throw InputError(why);
    refused->push_back(why);
    if (first_refusal.empty()) first_refusal = why;
  };
  for (const auto& t : inv.toolkits) {
    if (t.nvcc.empty() || t.root.empty() || doctor::major_minor(t.version).empty()) continue;
    if (t.root.find_first_of("{}\n\r\"\\") != std::string::npos) {
      refuse("modulefiles: toolkit root '" + on_one_line(terminal_safe(t.root)) + "' has characters a modulefile cannot hold");
      continue;
    }
    if (!plain_version(t.version)) {
      refuse("modulefiles: the toolkit at " + on_one_line(terminal_safe(t.root)) + " says its version is '" +
             on_one_line(terminal_safe(t.version)) + "', which is not a version number; no modulefile written for it");
      continue;
    }
    std::string ver = module_version(inv, t);
    if (std::find(names.begin(), names.end(), ver) != names.end()) continue;  // same version twice: first wins
    names.push_back(ver);
    std::string root = strip(t.root), lib = doctor::toolkit_lib_dir(t);
    std::string what = "CUDA " + t.version + " toolkit at " + root;
    out.push_back({"tcl/cuda/" + ver,
                   "#%Module1.0\n"
                   "## " + what + " (written by gpucheck modulefiles)\n"
                   "proc ModulesHelp { } { puts stderr {" + what + "} }\n"
                   "module-whatis {" + what + "}\n"
                   "conflict cuda\n"
                   "setenv CUDA_HOME {" + root + "}\n"
                   "setenv CUDA_PATH {" + root + "}\n"
                   "prepend-path PATH {" + root + "/bin}\n"
                   "prepend-path LD_LIBRARY_PATH {" + lib + "}\n"});
    out.push_back({"lua/cuda/" + ver + ".lua",
                   "-- " + what + " (written by gpucheck modulefiles)\n"
                   "whatis(" + lua_quote(what) + ")\n"
                   "help(" + lua_quote(what) + ")\n"
                   "conflict(\"cuda\")\n"
                   "family(\"cuda\")\n"
                   "setenv(\"CUDA_HOME\", " + lua_quote(root) + ")\n"
                   "setenv(\"CUDA_PATH\", " + lua_quote(root) + ")\n"
                   "prepend_path(\"PATH\", " + lua_quote(root + "/bin") + ")\n"
                   "prepend_path(\"LD_LIBRARY_PATH\", " + lua_quote(lib) + ")\n"});
  }
  if (out.empty() && !first_refusal.empty()) throw InputError(first_refusal);
  if (out.empty()) throw InputError("modulefiles: no CUDA toolkit with nvcc found (found: " + found_list(inv) + ")");
  return out;
}

}  // namespace gpucheck::envtools
