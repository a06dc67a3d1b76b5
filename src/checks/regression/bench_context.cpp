#include "checks/regression/bench_context.h"

#include <cstdint>
#include <cstdio>

#include "core/cuda_version.h"
#include "core/fnv1a.h"

namespace gpucheck::regression {

namespace {

std::string gpu_models(const BenchContext& c) {
  std::string s;
  for (const auto& g : c.gpus) s += (s.empty() ? "" : "+") + g.model;
  return s;
}

// Lower case, runs of anything but [a-z0-9.] as one '-'.
std::string slug(const std::string& s) {
  std::string out;
  for (char ch : s) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.';
    if (keep) out += c;
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.substr(0, 40);
}

// The version of the copy of `name` the loader picks, else of the first copy found.
std::string library_version(const inventory::Inventory& inv, const std::string& name) {
  const inventory::Library* first = nullptr;
  for (const auto& l : inv.libraries) {
    if (l.name != name) continue;
    if (l.loader_pick) return l.version;
    if (!first) first = &l;
  }
  return first ? first->version : "";
}

std::string text(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> key_fields(const BenchContext& c) {
  return {{"gpu", gpu_models(c)}, {"driver", c.driver},           {"cuda", c.cuda},
          {"cublas", c.cublas},   {"nccl", c.nccl},               {"torch", c.torch},
          {"tool_version", c.tool_version}, {"tool_build", c.tool_build}, {"cpu", c.cpu}};
}

std::string make_key(const BenchContext& c) {
  std::string canonical;
  for (const auto& [k, v] : key_fields(c)) canonical += k + "=" + v + "\n";
  const std::string hex = fnv1a_hex(canonical);
  std::string gpu = c.gpus.empty() ? "nogpu" : slug(c.gpus.front().model);
  if (c.gpus.size() > 1) gpu += "x" + std::to_string(c.gpus.size());
  std::string key = gpu;
  if (!c.driver.empty()) key += "-drv" + slug(c.driver);
  if (!c.cuda.empty()) key += "-cuda" + slug(c.cuda);
  return key + "-" + hex.substr(0, 12);
}

BenchContext context_from_inventory(const inventory::Inventory& inv, const std::string& tool_version,
                                    const std::string& tool_build) {
  BenchContext c;
  for (const auto& g : inv.gpus) c.gpus.push_back({g.name, g.uuid});
  if (inv.driver.present) c.driver = inv.driver.version;
  c.cuda = library_version(inv, "cudart");
  if (c.cuda.empty() && inv.driver.cuda_version > 0) c.cuda = "driver " + cuda_int_to_string(inv.driver.cuda_version);
  c.cublas = library_version(inv, "cublas");
  c.nccl = library_version(inv, "nccl");
  if (const auto* py = inventory::primary_python(inv); py && py->torch_installed) c.torch = py->torch_version;
  c.tool_version = tool_version;
  c.tool_build = tool_build;
  c.cpu = inv.system.cpu_model;
  c.cpu_count = inv.system.cpu_count;
  c.key = make_key(c);
  return c;
}

nlohmann::json to_json(const BenchContext& c) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : c.gpus) gpus.push_back({{"model", g.model}, {"uuid", g.uuid}});
  return {{"key", c.key},       {"gpus", gpus},           {"driver", c.driver},
          {"cuda", c.cuda},     {"cublas", c.cublas},     {"nccl", c.nccl},
          {"torch", c.torch},   {"tool_version", c.tool_version}, {"tool_build", c.tool_build},
          {"cpu", c.cpu},       {"cpu_count", c.cpu_count}};
}

BenchContext context_from_json(const nlohmann::json& j, bool& found) {
  BenchContext c;
  found = j.is_object() && j.contains("key");
  if (!j.is_object()) return c;
  if (j.contains("gpus") && j["gpus"].is_array())
    for (const auto& g : j["gpus"])
      if (g.is_object()) c.gpus.push_back({text(g, "model"), text(g, "uuid")});
  c.driver = text(j, "driver");
  c.cuda = text(j, "cuda");
  c.cublas = text(j, "cublas");
  c.nccl = text(j, "nccl");
  c.torch = text(j, "torch");
  c.tool_version = text(j, "tool_version");
  c.tool_build = text(j, "tool_build");
  c.cpu = text(j, "cpu");
  c.cpu_count = j.contains("cpu_count") && j["cpu_count"].is_number_integer() ? j["cpu_count"].get<int>() : 0;
  c.key = text(j, "key");
  return c;
}

std::vector<ContextDifference> context_differences(const BenchContext& base, const BenchContext& current) {
  std::vector<ContextDifference> out;
  auto a = key_fields(base), b = key_fields(current);
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].second != b[i].second) out.push_back({a[i].first, a[i].second, b[i].second, true});
  auto uuids = [](const BenchContext& c) {
    std::string s;
    for (const auto& g : c.gpus) s += (s.empty() ? "" : ",") + g.uuid;
    return s;
  };
  if (uuids(base) != uuids(current)) out.push_back({"gpu_uuids", uuids(base), uuids(current), false});
  return out;
}

}  // namespace gpucheck::regression
