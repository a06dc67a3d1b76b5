#pragma once
// `gpucheck fleet merge`'s own part of its Report (Report.details), typed: written by
// report/fleet_report.cpp (from what commands::fleet_merge read), read through this struct, never by key.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/peer_outlier.h"
#include "model/report.h"

namespace gpucheck::model {

struct FleetDetails {
  std::uint64_t nodes = 0;     // node reports given, readable or not
  std::uint64_t rejected = 0;  // nodes to drain
  PeerRule peer;               // the outlier rule the nodes were held to
};

nlohmann::json to_json(const FleetDetails& d);
/// The fleet details of `r`; lenient: a missing or mistyped field keeps its default.
FleetDetails fleet_details(const model::Report& r);

}  // namespace gpucheck::model
