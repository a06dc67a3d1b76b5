#include "knowledge/kb_schema.h"

#include <map>

#include "core/text.h"

namespace gpucheck::knowledge {
namespace {

enum class Type { kString, kInt, kBool, kArray };

struct Field {
  const char* name;
  Type type;
};

struct Table {
  Table(const char* k, std::vector<Field> req, bool is_facts = true, const char* nested_key = nullptr,
        std::vector<Field> nested_req = {}, const char* nested_fact_key = nullptr, std::vector<Field> nested_fact_req = {})
      : key(k), required(std::move(req)), facts(is_facts), nested(nested_key), nested_required(std::move(nested_req)),
        nested_fact(nested_fact_key), nested_fact_required(std::move(nested_fact_req)) {}
  const char* key;               // top-level key of the fact array
  std::vector<Field> required;
  bool facts;                    // each element is a fact and needs its own source
  const char* nested;            // key of a nested fact array (packages[].releases)
  std::vector<Field> nested_required;
  const char* nested_fact;       // an optional object in a nested row that is a fact of its own, with its own
                                 // source (releases[].import_needs_rtld_global)
  std::vector<Field> nested_fact_required;
};

struct Schema {
  const char* file;
  const char* id;
  std::vector<Table> tables;
};

const std::vector<Schema>& schemas() {
  using T = Type;
  static const std::vector<Schema> s = {
      {"driver.json", "gpucheck.compat.driver/1",
       {{"toolkit_min_driver", {{"cuda", T::kString}, {"min_driver", T::kString}}},
        {"minor_version_compat", {{"cuda_major", T::kInt}, {"min_driver", T::kString}}},
        {"driver_error_strings", {{"text", T::kString}, {"meaning", T::kString}}}}},
      {"host_compilers.json", "gpucheck.compat.host_compilers/1",
       {{"nvcc_host_compilers",
         {{"cuda", T::kString}, {"gcc_min", T::kInt}, {"gcc_max", T::kInt}, {"clang_min", T::kInt},
          {"clang_max", T::kInt}}},
        {"override", {{"flag", T::kString}, {"knobs", T::kArray}}}}},
      {"cuda_archs.json", "gpucheck.compat.cuda_archs/1",
       {{"architectures", {{"cc", T::kString}, {"first_cuda", T::kString}, {"last_cuda", T::kString}}},
        {"compatibility_rules", {{"id", T::kString}, {"text", T::kString}}},
        {"error_strings", {{"text", T::kString}, {"meaning", T::kString}}},
        {"gpu_models", {{"name", T::kString}, {"cc", T::kString}}}}},
      {"torch.json", "gpucheck.compat.torch/1",
       {{"releases",
         {{"version", T::kString}, {"latest_patch", T::kString}, {"python_min", T::kString},
          {"python_max", T::kString}, {"cxx_standard", T::kInt}, {"pypi_default_cuda", T::kString},
          {"builds", T::kArray}},
         true, "builds",
         {{"tag", T::kString}, {"cuda", T::kString}, {"index_url", T::kString}, {"cxx11_abi", T::kBool},
          {"archs", T::kArray}}}}},
      {"torch_extensions.json", "gpucheck.compat.torch_extensions/1",
       {{"cuda_version_check", {{"torch", T::kString}, {"check", T::kString}}},
        {"compiler_bounds", {{"torch", T::kString}, {"cuda", T::kString}, {"gcc_max_exclusive", T::kInt}}},
        {"cuda_home_order", {{"order", T::kInt}, {"how", T::kString}}},
        {"arch_list", {{"torch", T::kString}, {"known", T::kArray}}}}},
      {"extensions.json", "gpucheck.compat.extensions/1",
       {{"packages", {{"name", T::kString}, {"releases", T::kArray}}, false, "releases",
         {{"versions", T::kString}, {"distribution", T::kString}, {"setup_imports_torch", T::kBool},
          {"build", T::kString}, {"needs_nvcc", T::kBool}, {"torch_abi_coupled", T::kBool}},
         "import_needs_rtld_global", {{"torch", T::kString}, {"why", T::kString}}}}},
      {"toolkit_installers.json", "gpucheck.compat.toolkit_installers/1",
       {{"runfiles", {{"cuda", T::kString}, {"release", T::kString}, {"runfile", T::kString}, {"url", T::kString}}},
        {"methods", {{"id", T::kString}, {"text", T::kString}}}}},
      // Written by scripts/gen-shared-packages; every member's row carries the wheel its file list came from.
      {"shared_packages.json", "gpucheck.compat.shared_packages/1",
       {{"groups", {{"distributions", T::kArray}, {"packages", T::kArray}, {"gpu_choice", T::kString},
                    {"sources", T::kArray}},
         false, "sources", {{"distribution", T::kString}, {"version", T::kString}}}}},
      // Written by scripts/gen-compat-pypi; every release row carries the file its metadata came from.
      {"pypi.json", "gpucheck.compat.pypi/1",
       {{"packages", {{"name", T::kString}, {"versions", T::kArray}}, false, "versions",
         {{"version", T::kString}, {"yanked", T::kBool}, {"requires_dist", T::kArray},
          {"linux_wheel_pythons", T::kArray}, {"sdist", T::kBool}}}}},
  };
  return s;
}

bool has_type(const nlohmann::json& v, Type t) {
  switch (t) {
    case Type::kString: return v.is_string();
    case Type::kInt: return v.is_number_integer();
    case Type::kBool: return v.is_boolean();
    case Type::kArray: return v.is_array();
  }
  return false;
}

const char* type_name(Type t) {
  switch (t) {
    case Type::kString: return "a string";
    case Type::kInt: return "an integer";
    case Type::kBool: return "a boolean";
    case Type::kArray: return "an array";
  }
  return "?";
}

void check_source(const nlohmann::json& fact, const std::string& where, std::vector<std::string>& errors) {
  auto it = fact.find("source");
  if (it == fact.end() || !it->is_string() || trim(it->get<std::string>()).empty()) {
    errors.push_back(where + ": no source (every fact needs the URL it was taken from)");
    return;
  }
  const std::string s = it->get<std::string>();
  if (!starts_with(s, "https://") && !starts_with(s, "http://"))
    errors.push_back(where + ": source '" + s + "' is not a URL");
}

void check_fields(const nlohmann::json& fact, const std::vector<Field>& fields, const std::string& where,
                  std::vector<std::string>& errors) {
  if (!fact.is_object()) {
    errors.push_back(where + ": not an object");
    return;
  }
  for (const auto& f : fields) {
    auto it = fact.find(f.name);
    if (it == fact.end()) errors.push_back(where + ": missing field '" + f.name + "'");
    else if (!has_type(*it, f.type))
      errors.push_back(where + ": field '" + f.name + "' must be " + type_name(f.type));
  }
}

}  // namespace

const std::vector<std::string>& compat_files() {
  static const std::vector<std::string> files = [] {
    std::vector<std::string> v;
    for (const auto& s : schemas()) v.push_back(s.file);
    return v;
  }();
  return files;
}

std::vector<std::string> validate_compat_document(const nlohmann::json& doc, const std::string& file_name) {
  std::vector<std::string> errors;
  const Schema* schema = nullptr;
  for (const auto& s : schemas())
    if (file_name == s.file) schema = &s;
  if (!schema) return {file_name + ": not a knowledge-base file (expected one of " + join(compat_files(), ", ") + ")"};
  if (!doc.is_object()) return {file_name + ": not a JSON object"};
  if (doc.value("schema", "") != schema->id)
    errors.push_back(file_name + ": schema must be \"" + std::string(schema->id) + "\"");
  for (const auto& table : schema->tables) {
    std::string base = file_name + ": " + table.key;
    auto it = doc.find(table.key);
    if (it == doc.end() || !it->is_array() || it->empty()) {
      errors.push_back(base + ": missing or empty fact table");
      continue;
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
      const auto& fact = (*it)[i];
      std::string where = base + "[" + std::to_string(i) + "]";
      check_fields(fact, table.required, where, errors);
      if (!fact.is_object()) continue;
      if (table.facts) check_source(fact, where, errors);
      if (!table.nested || !fact.contains(table.nested) || !fact[table.nested].is_array()) continue;
      const auto& nested = fact[table.nested];
      for (std::size_t k = 0; k < nested.size(); ++k) {
        std::string nwhere = where + "." + table.nested + "[" + std::to_string(k) + "]";
        check_fields(nested[k], table.nested_required, nwhere, errors);
        // Nested rows inherit the parent's source only when the parent is itself a fact.
        if (!table.facts && nested[k].is_object()) check_source(nested[k], nwhere, errors);
        if (!table.nested_fact || !nested[k].is_object() || !nested[k].contains(table.nested_fact)) continue;
        const auto& inner = nested[k][table.nested_fact];
        std::string iwhere = nwhere + "." + table.nested_fact;
        check_fields(inner, table.nested_fact_required, iwhere, errors);
        if (inner.is_object()) check_source(inner, iwhere, errors);
      }
    }
  }
  if (file_name == "torch_extensions.json") {
    auto it = doc.find("arch_list_error");
    if (it == doc.end() || !it->is_object()) errors.push_back(file_name + ": arch_list_error: missing");
    else check_source(*it, file_name + ": arch_list_error", errors);
  }
  return errors;
}

}  // namespace gpucheck::knowledge
