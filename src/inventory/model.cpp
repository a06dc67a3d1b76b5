#include "inventory/model.h"

#include "core/text.h"

#include <algorithm>

#include "core/errors.h"
#include "core/files.h"

namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& o) { j = o ? json(*o) : json(nullptr); }
  static void from_json(const json& j, std::optional<T>& o) {
    if (j.is_null()) o.reset();
    else o = j.get<T>();
  }
};
}  // namespace nlohmann

namespace gpucheck::inventory {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Driver, present, version, cuda_version, source, error,
                                                kernel_module_version, library_path)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuPresence, checked, pci_devices, device_nodes, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Gpu, index, nvml_index, name, uuid, pci_bus_id, pci_device_id, cc_major,
                                                cc_minor, memory_total_bytes, ecc_mode, persistence_mode,
                                                mig_mode, sm_clock_max_mhz, mem_clock_max_mhz, pcie_gen_current,
                                                pcie_gen_max, pcie_width_current, pcie_width_max, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HostCompilerRange, compiler, min, max, min_source, max_source,
                                                min_enforced, max_enforced)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Toolkit, root, version, version_source, nvcc, found_via,
                                                is_usr_local_cuda, host_compilers, aliases)

namespace {
// Documents written before host_compilers existed carry only the newest GCC major (host_compiler_max).
void upgrade_old_toolkits(const nlohmann::json& j, std::vector<Toolkit>& toolkits) {
  if (!j.contains("toolkits") || !j["toolkits"].is_array()) return;
  const auto& arr = j["toolkits"];
  for (std::size_t i = 0; i < toolkits.size() && i < arr.size(); ++i) {
    const auto& t = arr[i];
    if (!toolkits[i].host_compilers.empty() || !t.is_object() || !t.contains("host_compiler_max") ||
        !t["host_compiler_max"].is_string() || t["host_compiler_max"].get<std::string>().empty())
      continue;
    HostCompilerRange r;
    r.compiler = "gcc";
    r.max = t["host_compiler_max"].get<std::string>();
    r.max_source = t.value("host_compiler_max_source", "");
    r.max_enforced = r.max_source.find("host_config.h") != std::string::npos;
    toolkits[i].host_compilers.push_back(r);
  }
}

// Documents written before nvcc_host_compiler_source existed carry both in one string:
// "/usr/bin/gcc (gcc on PATH, nvcc's default)" or "/opt/gcc-12/bin/gcc (NVCC_CCBIN)".
void split_old_host_compiler(Inventory& inv) {
  if (!inv.nvcc_host_compiler_source.empty()) return;
  std::string& v = inv.nvcc_host_compiler;
  for (const char* how : {" (gcc on PATH, nvcc's default)", " (NVCC_CCBIN)"}) {
    std::string suffix(how);
    if (v.size() > suffix.size() && v.compare(v.size() - suffix.size(), suffix.size(), suffix) == 0) {
      inv.nvcc_host_compiler_source = suffix.substr(2, suffix.size() - 3);
      v.resize(v.size() - suffix.size());
      return;
    }
  }
}
}  // namespace
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ToolkitChoice, consumer, root, version, reason)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Library, name, path, soname, version, version_source, found_via,
                                                loader_pick, links, package, package_version, version_error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Distribution, name, version, requires_dist, location)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SharedFile, path, owners, content_of, matched_by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PythonEnv, interpreter, version, prefix, kind, found_via,
                                                site_packages, error, torch_installed, torch_version, torch_path,
                                                torch_cuda, torch_cudnn, torch_nccl, torch_cxx11_abi,
                                                torch_arch_list, torch_gpu_refusal, cuda_available, cuda_error, torch_import_error,
                                                mapped_libraries, mapped_library_versions, packages, executable, torch_git_version,
                                                probe_seconds, import_errors, torch_numpy_error, extension_archs, kernel_refusal,
                                                stated_torch_requirements, build_refusal,
                                                distributions, shared_files)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Compiler, name, path, version, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(System, os_id, os_version_id, os_pretty, kernel, glibc,
                                                glibcxx_max, libstdcxx_path, cpu_model, cpu_flags, cpu_count,
                                                environment)

void to_json(nlohmann::json& j, const Inventory& inv) {
  j = {{"schema_version", inv.schema_version}, {"collected_at", inv.collected_at}, {"root", inv.root},
       {"hostname", inv.hostname},             {"driver", inv.driver},             {"gpu_presence", inv.gpu_presence}, {"gpus", inv.gpus},
       {"toolkits", inv.toolkits},             {"toolkit_choices", inv.toolkit_choices},
       {"libraries", inv.libraries},           {"pythons", inv.pythons},           {"compilers", inv.compilers},
       {"nvcc_host_compiler", inv.nvcc_host_compiler}, {"nvcc_host_compiler_source", inv.nvcc_host_compiler_source},
       {"system", inv.system}, {"notes", inv.notes}};
}

namespace {

/// An inventory with one default element in every list, serialised: the expected type of every field.
nlohmann::json inventory_model() {
  Inventory m;
  m.gpus.resize(1);
  m.toolkits.resize(1);
  m.toolkits[0].host_compilers.resize(1);
  m.toolkits[0].found_via.resize(1);
  m.toolkits[0].aliases.resize(1);
  m.toolkit_choices.resize(1);
  m.libraries.resize(1);
  m.libraries[0].found_via.resize(1);
  m.libraries[0].links.resize(1);
  m.pythons.resize(1);
  m.pythons[0].found_via.resize(1);
  m.pythons[0].site_packages.resize(1);
  m.pythons[0].torch_arch_list.resize(1);
  m.pythons[0].mapped_libraries.resize(1);
  m.compilers.resize(1);
  m.notes.resize(1);
  m.system.cpu_flags.resize(1);
  return m;
}

bool same_kind(const nlohmann::json& a, const nlohmann::json& b) {
  return (a.is_number() && b.is_number()) || a.type() == b.type();
}

/// The first field of `given` whose JSON type is not the one `model` has there ("gpus[1].cc_major"), or
/// "" when none differs where the model knows the type (an optional field is null in the model).
std::string mistyped_field(const nlohmann::json& given, const nlohmann::json& model, const std::string& path) {
  if (model.is_null()) return "";
  if (!same_kind(given, model)) return path.empty() ? "(document)" : path;
  if (model.is_object()) {
    for (auto it = given.begin(); it != given.end(); ++it)
      if (auto m = model.find(it.key()); m != model.end())
        if (auto r = mistyped_field(*it, *m, path.empty() ? it.key() : path + "." + it.key()); !r.empty()) return r;
  } else if (model.is_array() && !model.empty()) {
    for (std::size_t i = 0; i < given.size(); ++i)
      if (auto r = mistyped_field(given[i], model[0], path + "[" + std::to_string(i) + "]"); !r.empty()) return r;
  }
  return "";
}


/// The first field holding a number with a fraction or exponent where the model has a whole number
/// ("gpus[0].memory_total_bytes"), or "". nlohmann's get<unsigned long>() of 8.6e75 is undefined behaviour
/// (UBSan, found by fuzz.inventory), so such a document is refused before any conversion.
std::string fraction_in_whole_field(const nlohmann::json& given, const nlohmann::json& model, const std::string& path) {
  if ((model.is_number_integer() || model.is_number_unsigned()) && given.is_number_float()) return path;
  if (model.is_object() && given.is_object()) {
    for (auto it = given.begin(); it != given.end(); ++it)
      if (auto m = model.find(it.key()); m != model.end())
        if (auto r = fraction_in_whole_field(*it, *m, path.empty() ? it.key() : path + "." + it.key()); !r.empty())
          return r;
  } else if (model.is_array() && !model.empty() && given.is_array()) {
    for (std::size_t i = 0; i < given.size(); ++i)
      if (auto r = fraction_in_whole_field(given[i], model[0], path + "[" + std::to_string(i) + "]"); !r.empty()) return r;
  }
  return "";
}

}  // namespace

void from_json(const nlohmann::json& j, Inventory& inv) {
  if (!j.is_object() || !j.contains("schema_version"))
    throw InputError("not an inventory document (no schema_version); produce one with `gpucheck env --json`");
  if (std::string field = fraction_in_whole_field(j, inventory_model(), ""); !field.empty())
    throw InputError("malformed inventory document: " + on_one_line(terminal_safe(field)) + ": must be a whole number");
  try {
    Inventory d;
    inv.schema_version = j.value("schema_version", d.schema_version);
    inv.collected_at = j.value("collected_at", "");
    inv.root = j.value("root", "/");
    inv.hostname = j.value("hostname", "");
    inv.driver = j.value("driver", d.driver);
    inv.gpu_presence = j.value("gpu_presence", d.gpu_presence);
    inv.gpus = j.value("gpus", d.gpus);
    inv.toolkits = j.value("toolkits", d.toolkits);
    upgrade_old_toolkits(j, inv.toolkits);
    inv.toolkit_choices = j.value("toolkit_choices", d.toolkit_choices);
    inv.libraries = j.value("libraries", d.libraries);
    inv.pythons = j.value("pythons", d.pythons);
    inv.compilers = j.value("compilers", d.compilers);
    inv.nvcc_host_compiler = j.value("nvcc_host_compiler", "");
    inv.nvcc_host_compiler_source = j.value("nvcc_host_compiler_source", "");
    split_old_host_compiler(inv);
    inv.system = j.value("system", d.system);
    inv.notes = j.value("notes", d.notes);
    // A version this gpucheck does not know (schema_version "999") is read as far as its fields match,
    // and the judgement says so instead of passing in silence.
    const std::string major = inv.schema_version.substr(0, inv.schema_version.find('.'));  // "2.0" is 2
    if (major != "1" && major != "2")
      inv.notes.push_back("inventory schema_version '" + on_one_line(terminal_safe(inv.schema_version)) +
                          "' is unknown to this gpucheck (it reads 1 and 2): fields it does not know are ignored");
  } catch (const nlohmann::json::exception& e) {
    // nlohmann says what type it found, not where: name the field ("gpus[0].index: type must be ...").
    std::string what = e.what();
    if (auto bracket = what.find("] "); what.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos)
      what = what.substr(bracket + 2);
    std::string field = mistyped_field(j, inventory_model(), "");
    throw InputError(on_one_line(terminal_safe("malformed inventory document: " + (field.empty() ? "" : field + ": ") + what)));
  }
}

Inventory inventory_from_document(nlohmann::json doc, const std::string& name) {
  // A report (gpucheck env --json, gpucheck run's file) carries the inventory it judged.
  // Compared as JSON: value("kind", "") throws type_error on a kind that is no string (found by fuzz.inventory).
  if (doc.is_object() && doc.contains("kind") && doc["kind"] == "gpucheck.report") {
    if (!doc.contains("inventory") || doc["inventory"].is_null())
      throw InputError(name + ": this report has no inventory (written with --no-inventory?)");
    doc = doc["inventory"];
  }
  Inventory inv;
  from_json(doc, inv);
  return inv;
}

Inventory load_inventory(const std::string& path) { return inventory_from_document(read_json_file(path), path); }

JudgedPython judged_python(const Inventory& inv) {
  // An interpreter that could not be run is judged only when it was asked for by name.
  for (const char* route : {"--python", "VIRTUAL_ENV", "CONDA_PREFIX", "PATH"})
    for (const auto& p : inv.pythons) {
      bool via = std::find(p.found_via.begin(), p.found_via.end(), route) != p.found_via.end();
      if (via && (p.error.empty() || std::string(route) == "--python")) return {&p, route};
    }
  if (inv.pythons.empty()) return {};
  // A pasted report's environment (collect_env's or another format's): the only one, the reporter's.
  for (const auto& p : inv.pythons)
    for (const char* pasted : {"pasted", "collect_env"})
      if (std::find(p.found_via.begin(), p.found_via.end(), pasted) != p.found_via.end()) return {&p, kPastedReportRule};
  return {&inv.pythons.front(), "first found"};
}

const PythonEnv* primary_python(const Inventory& inv) { return judged_python(inv).env; }

}  // namespace gpucheck::inventory
