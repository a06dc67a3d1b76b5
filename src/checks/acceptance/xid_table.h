#pragma once
// NVIDIA's Xid catalogue as gpucheck reads it (data/kernel/xid.json, written by scripts/gen-xid-table from
// NVIDIA's Xid catalog and its R555 Xid listing): per Xid what it means, whether NVIDIA names hardware, the
// driver or the application as its cause, what to do, and whether it leaves the node unfit for work.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace gpucheck::acceptance {

struct XidInfo {
  int xid = 0;
  std::string mnemonic;          // "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS"
  std::string meaning;           // "GPU has fallen off the bus"
  std::string kind;              // hardware | driver | application | unclassified
  std::string immediate_action;  // NVIDIA's bucket: "RESTART_BM"
  std::string action;            // the bucket in words: "reboot the node (bare metal)"
  bool fails_node = false;       // the node is unfit for the next job until someone acts
  std::string source;            // the URLs beside the fact
};

struct XidTable {
  std::map<int, XidInfo> xids;
  std::string source;  // the file it was read from
  const XidInfo* find(int xid) const;
};

/// Strict: throws InputError naming the field when the document is not a valid table.
XidTable parse_xid_table(const nlohmann::json& doc, const std::string& origin);
/// data/kernel/xid.json of this installation (core/paths.h data_path).
XidTable load_xid_table(const std::string& path);

}  // namespace gpucheck::acceptance
