#include "checks/acceptance/xid_table.h"

#include "core/errors.h"
#include "core/json_input.h"
#include "core/regular_file.h"
#include "core/text.h"

namespace gpucheck::acceptance {

const XidInfo* XidTable::find(int xid) const {
  auto it = xids.find(xid);
  return it == xids.end() ? nullptr : &it->second;
}

namespace {
std::string text_field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j[key].is_string()) throw InputError(where + ": '" + key + "' is not a string");
  return j[key].get<std::string>();
}
}  // namespace

XidTable parse_xid_table(const nlohmann::json& doc, const std::string& origin) {
  if (!doc.is_object() || !doc.contains("xids") || !doc["xids"].is_array())
    throw InputError(origin + ": no 'xids' array");
  if (!doc.contains("actions") || !doc["actions"].is_object()) throw InputError(origin + ": no 'actions' object");
  XidTable t;
  t.source = origin;
  for (const auto& row : doc["xids"]) {
    if (!row.is_object() || !row.contains("xid") || !row["xid"].is_number_integer())
      throw InputError(origin + ": an entry has no integer 'xid'");
    XidInfo x;
    x.xid = row["xid"].get<int>();
    std::string where = origin + ": Xid " + std::to_string(x.xid);
    x.mnemonic = text_field(row, "mnemonic", where);
    x.meaning = text_field(row, "meaning", where);
    x.kind = text_field(row, "kind", where);
    if (x.kind != "hardware" && x.kind != "driver" && x.kind != "application" && x.kind != "unclassified")
      throw InputError(where + ": kind '" + x.kind + "' is not hardware, driver, application or unclassified");
    x.immediate_action = text_field(row, "immediate_action", where);
    x.source = text_field(row, "source", where);
    if (!starts_with(x.source, "https://")) throw InputError(where + ": no source (an https:// URL)");
    if (!row.contains("fails_node") || !row["fails_node"].is_boolean()) throw InputError(where + ": no boolean 'fails_node'");
    x.fails_node = row["fails_node"].get<bool>();
    if (x.immediate_action.empty()) x.action = "no action published in NVIDIA's catalog yet";
    else if (doc["actions"].contains(x.immediate_action) && doc["actions"][x.immediate_action].is_string())
      x.action = doc["actions"][x.immediate_action].get<std::string>();
    else throw InputError(where + ": action '" + x.immediate_action + "' is not in 'actions'");
    if (!t.xids.emplace(x.xid, x).second) throw InputError(where + ": listed twice");
  }
  return t;
}

XidTable load_xid_table(const std::string& path) {
  std::string text = read_regular_file(path, 4u << 20);
  if (text.empty()) throw InputError(path + ": missing or unreadable (the Xid table of this installation)");
  return parse_xid_table(parse_json_input(text, path), path);
}

}  // namespace gpucheck::acceptance
