#include "checks/acceptance/device_catalog.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::acceptance {
namespace {

[[noreturn]] void bad(const std::string& origin, const std::string& what) {
  throw InputError(origin + ": " + what);
}

Figure parse_figure(const nlohmann::json& j, const std::string& origin, const std::string& name) {
  if (!j.is_object()) bad(origin, "figures." + name + " is not an object");
  Figure f;
  if (!j.contains("value") || !j["value"].is_number() || !(j["value"].get<double>() > 0))
    bad(origin, "figures." + name + ".value must be a number above 0");
  f.value = j["value"].get<double>();
  if (!j.contains("source") || !j["source"].is_string() || !starts_with(j["source"].get<std::string>(), "https://"))
    bad(origin, "figures." + name + " has no source (an https:// URL)");
  f.source = j["source"].get<std::string>();
  if (j.contains("note") && j["note"].is_string()) f.note = j["note"].get<std::string>();
  // Tensor-core figures must be the dense ones: a sparse peak would let half-speed GPUs pass.
  if (starts_with(name, "tflops_") && name != "tflops_fp32" && !(j.contains("dense") && j["dense"] == true))
    bad(origin, "figures." + name + " is not marked dense (the figure without structured sparsity)");
  return f;
}

}  // namespace

const Product* DeviceCatalog::find(unsigned pci_device_id) const {
  for (const auto& p : products)
    if (std::find(p.pci_device_ids.begin(), p.pci_device_ids.end(), pci_device_id) != p.pci_device_ids.end()) return &p;
  return nullptr;
}

Product parse_product(const nlohmann::json& j, const std::string& origin) {
  static const std::vector<std::string> kFigures = {"memory_bandwidth_GBps", "pcie_gen", "pcie_width",
                                                    "nvlink_bidirectional_GBps", "tflops_fp32", "tflops_tf32",
                                                    "tflops_fp16", "tflops_bf16", "tflops_fp8"};
  if (!j.is_object()) bad(origin, "not a JSON object");
  Product p;
  p.file = origin;
  if (!j.contains("product") || !j["product"].is_string() || j["product"].get<std::string>().empty())
    bad(origin, "no product name");
  p.product = j["product"].get<std::string>();
  if (!j.contains("pci_id_source") || !j["pci_id_source"].is_string()) bad(origin, "no pci_id_source");
  if (!j.contains("pci_device_ids") || !j["pci_device_ids"].is_array() || j["pci_device_ids"].empty())
    bad(origin, "pci_device_ids must be a non-empty array");
  for (const auto& id : j["pci_device_ids"]) {
    std::string s = id.is_string() ? id.get<std::string>() : "";
    if (s.size() != 6 || !starts_with(s, "0x") || s.find_first_not_of("0123456789abcdef", 2) != std::string::npos)
      bad(origin, "pci_device_ids: '" + id.dump() + "' is not 0x followed by 4 lower-case hex digits");
    p.pci_device_ids.push_back(static_cast<unsigned>(std::stoul(s.substr(2), nullptr, 16)));
  }
  if (!j.contains("figures") || !j["figures"].is_object()) bad(origin, "no figures object");
  for (const auto& [name, fig] : j["figures"].items()) {
    if (std::find(kFigures.begin(), kFigures.end(), name) == kFigures.end()) bad(origin, "unknown figure '" + name + "'");
    p.figures[name] = parse_figure(fig, origin, name);
  }
  return p;
}

DeviceCatalog load_device_catalog(const std::string& devices_dir, const std::string& pcie_rates_file) {
  namespace fs = std::filesystem;
  DeviceCatalog c;
  std::error_code ec;
  std::vector<std::string> files;
  for (fs::directory_iterator it(devices_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (ends_with(name, ".json") && !ends_with(name, ".schema.json")) files.push_back(it->path().string());
  }
  if (ec) throw InputError(devices_dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    Product p = parse_product(read_json_file(f), f);
    for (unsigned id : p.pci_device_ids)
      if (const Product* other = c.find(id))
        throw InputError(fmt::format("{}: PCI id 0x{:04x} is also {}", f, id, other->file));
    c.products.push_back(std::move(p));
  }
  c.pcie = load_pcie_rates(pcie_rates_file);
  return c;
}

const std::vector<ContractMetric>& metric_contract() {
  static const std::vector<ContractMetric> kContract = {
      {"device.copy", "h2d_pinned_GBps", MetricKind::kHigherIsBetter},
      {"device.copy", "d2h_pinned_GBps", MetricKind::kHigherIsBetter},
      {"device.copy", "h2d_pageable_GBps", MetricKind::kHigherIsBetter},
      {"device.copy", "d2h_pageable_GBps", MetricKind::kHigherIsBetter},
      {"device.copy", "d2d_GBps", MetricKind::kHigherIsBetter},
      {"device.copy", "p2p_GBps", MetricKind::kHigherIsBetter},
      {"cublas.gemm", "tflops_fp32", MetricKind::kHigherIsBetter},
      {"cublas.gemm", "tflops_tf32", MetricKind::kHigherIsBetter},
      {"cublas.gemm", "tflops_fp16", MetricKind::kHigherIsBetter},
      {"cublas.gemm", "tflops_bf16", MetricKind::kHigherIsBetter},
      {"cublas.gemm", "tflops_fp8", MetricKind::kHigherIsBetter},
      {"device.memory", "bad_addresses", MetricKind::kMustBeZero},
      {"stress.gemm", "mismatches", MetricKind::kMustBeZero},
      {"stress.gemm", "tflops_sustained", MetricKind::kHigherIsBetter},
  };
  return kContract;
}

const ContractMetric* find_contract_metric(const std::string& probe, const std::string& name) {
  for (const auto& m : metric_contract())
    if (probe == m.probe && name == m.name) return &m;
  return nullptr;
}

std::optional<Reference> reference_for(const std::string& metric, const Product& p, const DeviceCatalog& c,
                                       const std::string& dtype) {
  auto fig = [&](const std::string& name) -> const Figure* {
    auto it = p.figures.find(name);
    return it == p.figures.end() ? nullptr : &it->second;
  };
  if (metric == "h2d_pinned_GBps" || metric == "d2h_pinned_GBps") {
    const Figure* gen = fig("pcie_gen");
    const Figure* width = fig("pcie_width");
    if (!gen || !width) return std::nullopt;
    auto v = c.pcie.link_GBps(static_cast<unsigned>(gen->value), static_cast<unsigned>(width->value));
    if (!v) return std::nullopt;
    return Reference{*v, fmt::format("PCIe gen {} x{} per direction {:.4g} GB/s", gen->value, width->value, *v),
                     gen->source + " ; " + c.pcie.source};
  }
  if (metric == "d2d_GBps") {
    const Figure* bw = fig("memory_bandwidth_GBps");
    if (!bw) return std::nullopt;
    // A copy reads and writes every byte it counts: at most half the memory bandwidth.
    return Reference{bw->value / 2, fmt::format("half the datasheet memory bandwidth {:.4g} GB/s", bw->value), bw->source};
  }
  std::string tflops = metric;
  if (metric == "tflops_sustained") {
    if (dtype.empty()) return std::nullopt;
    tflops = "tflops_" + dtype;
  }
  if (starts_with(tflops, "tflops_")) {
    const Figure* f = fig(tflops);
    if (!f) return std::nullopt;
    return Reference{f->value, fmt::format("datasheet {} {:.4g} TFLOP/s (dense)", tflops, f->value), f->source};
  }
  return std::nullopt;
}

}  // namespace gpucheck::acceptance
