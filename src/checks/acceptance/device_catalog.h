#pragma once
// The GPU products gpucheck knows the datasheet figures of (data/devices/*.json, schema
// data/devices/product.schema.json) and the PCIe rates by generation (THE table, core/pcie_rates.h),
// and which figure each probe metric is held against (docs/acceptance.md, "The metric contract").
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/pcie_rates.h"

namespace gpucheck::acceptance {

struct Figure {
  double value = 0;
  std::string source;  // URL
  std::string note;
};

struct Product {
  std::string product;  // "NVIDIA H100 SXM5 80GB"
  std::string file;     // where it was read
  std::vector<unsigned> pci_device_ids;
  std::map<std::string, Figure> figures;  // "memory_bandwidth_GBps", "pcie_gen", "tflops_fp16", ...
};

struct DeviceCatalog {
  std::vector<Product> products;
  PcieRates pcie;  // per lane and direction, by generation

  const Product* find(unsigned pci_device_id) const;
};

/// One product document; throws InputError naming `origin` and the field when it is malformed
/// (a figure without a source, a tensor figure not marked dense, an id that is not 0xNNNN).
Product parse_product(const nlohmann::json& j, const std::string& origin);
/// Every *.json of `devices_dir` except *.schema.json, and the PCIe table (data/links/pcie.json). Throws
/// InputError on a malformed or unreadable file, or a PCI id claimed by two products.
DeviceCatalog load_device_catalog(const std::string& devices_dir, const std::string& pcie_rates_file);

/// What a metric is held against.
struct Reference {
  double value = 0;
  std::string basis;   // "datasheet tflops_fp16 989.4", "half the datasheet memory bandwidth 3350 GB/s"
  std::string source;  // URL(s)
};

/// The reference for `metric` (a contract name) on `product`, or nullopt when the contract gives it none
/// or the product lacks the figure. `dtype` names the type of tflops_sustained (stress.gemm's evidence).
std::optional<Reference> reference_for(const std::string& metric, const Product& product, const DeviceCatalog& catalog,
                                       const std::string& dtype = "");

/// The metrics of the contract: probe id -> metric names, and how each is judged.
enum class MetricKind { kHigherIsBetter, kMustBeZero };
struct ContractMetric {
  const char* probe;
  const char* name;
  MetricKind kind;
};
const std::vector<ContractMetric>& metric_contract();
const ContractMetric* find_contract_metric(const std::string& probe, const std::string& name);

}  // namespace gpucheck::acceptance
