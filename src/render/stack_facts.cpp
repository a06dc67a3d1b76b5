#include "render/stack_facts.h"

#include <map>

#include <fmt/format.h>

#include "model/json_fields.h"

namespace gpucheck::render {
using model::count_at;
using model::text_at;

namespace {


std::string cuda_version_text(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

}  // namespace

std::vector<std::pair<std::string, std::string>> stack_facts(const model::Report& r) {
  std::vector<std::pair<std::string, std::string>> out;
  const nlohmann::json& inv = r.inventory;
  if (!inv.is_object()) return out;
  if (auto d = inv.find("driver"); d != inv.end() && d->is_object()) {
    if (d->value("present", false)) {
      out.emplace_back("driver", text_at(*d, "version"));
      int cuda = count_at(*d, "cuda_version");
      if (cuda > 0) out.emplace_back("CUDA (driver)", cuda_version_text(cuda));
    } else {
      out.emplace_back("driver", "none (" + text_at(*d, "error") + ")");
    }
  }
  if (auto g = inv.find("gpus"); g != inv.end() && g->is_array()) {
    std::map<std::string, int> by_name;  // "8 x NVIDIA H200 (sm_90)"
    for (auto& gpu : *g)
      if (gpu.is_object())
        by_name[fmt::format("{} (sm_{}{})", text_at(gpu, "name"), count_at(gpu, "cc_major"), count_at(gpu, "cc_minor"))]++;
    std::string text;
    for (auto& [name, n] : by_name) text += (text.empty() ? "" : ", ") + fmt::format("{} x {}", n, name);
    out.emplace_back("GPUs", text.empty() ? "none visible" : text);
  }
  if (auto t = inv.find("toolkits"); t != inv.end() && t->is_array() && !t->empty()) {
    std::string text;
    for (auto& tk : *t)
      if (tk.is_object()) text += (text.empty() ? "" : ", ") + text_at(tk, "version") + " at " + text_at(tk, "root");
    out.emplace_back("toolkits", text);
  }
  if (auto p = inv.find("pythons"); p != inv.end() && p->is_array() && !p->empty() && (*p)[0].is_object()) {
    const auto& py = (*p)[0];
    out.emplace_back("python", text_at(py, "executable") + " (" + text_at(py, "version") + ")");
    std::string torch = text_at(py, "torch_version");
    if (!torch.empty()) {
      std::string cuda = text_at(py, "torch_cuda");
      out.emplace_back("torch", torch + (cuda.empty() ? " (CPU build)" : " (CUDA " + cuda + ")"));
    }
  }
  return out;
}

}  // namespace gpucheck::render
