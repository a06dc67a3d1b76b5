#include "model/fleet_details.h"

#include "model/json_fields.h"

namespace gpucheck::model {

nlohmann::json to_json(const FleetDetails& d) {
  return {{"nodes", d.nodes},
          {"rejected", d.rejected},
          {"outlier_z", d.peer.outlier_z},
          {"min_relative", d.peer.min_relative},
          {"min_peers", d.peer.min_peers}};
}

FleetDetails fleet_details(const model::Report& r) {
  FleetDetails d;
  d.nodes = whole(member(r.details, "nodes"));
  d.rejected = whole(member(r.details, "rejected"));
  d.peer.outlier_z = number_at(r.details, "outlier_z", d.peer.outlier_z);
  d.peer.min_relative = number_at(r.details, "min_relative", d.peer.min_relative);
  if (member(r.details, "min_peers").is_number_integer()) d.peer.min_peers = whole(member(r.details, "min_peers"));
  return d;
}

}  // namespace gpucheck::model
