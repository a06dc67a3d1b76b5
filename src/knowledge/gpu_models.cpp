#include "knowledge/gpu_models.h"

#include <cctype>

#include "core/errors.h"
#include "core/files.h"
#include "knowledge/kb_schema.h"

namespace gpucheck::knowledge {

std::vector<GpuModel> load_gpu_models(const std::string& compat_dir) {
  const std::string path = compat_dir + "/cuda_archs.json";
  auto doc = read_json_file(path);
  auto errors = validate_compat_document(doc, "cuda_archs.json");
  if (!errors.empty()) throw InputError("knowledge base " + compat_dir + ": " + errors.front());
  std::vector<GpuModel> out;
  for (const auto& f : doc.at("gpu_models")) out.push_back({f.at("name"), f.at("cc"), f.at("source")});
  return out;
}

std::optional<GpuModel> gpu_model(const std::vector<GpuModel>& table, const std::string& gpu_name) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  const GpuModel* best = nullptr;
  for (const auto& m : table) {
    for (std::size_t at = gpu_name.find(m.name); at != std::string::npos; at = gpu_name.find(m.name, at + 1)) {
      std::size_t end = at + m.name.size();
      bool whole = (at == 0 || !word(gpu_name[at - 1])) && (end == gpu_name.size() || !word(gpu_name[end]));
      if (!whole) continue;
      if (!best || m.name.size() > best->name.size()) best = &m;
      break;
    }
  }
  if (!best) return std::nullopt;
  return *best;
}

}  // namespace gpucheck::knowledge
