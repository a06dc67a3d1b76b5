#pragma once
// Helpers shared by the explain tests: the signatures from the source tree, a quick explain call, and
// readers for what a cause Finding keeps in its details (line numbers, captures, root, fix lines).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checks/explain/explainer.h"
#include "checks/explain/fix_facts.h"
#include "checks/explain/signature.h"
#include "core/files.h"

namespace gpucheck::explain::testing {

/// The part of the docs page `path` between the markers `begin` and `end` (nullopt when a marker is
/// missing). With GPUCHECK_UPDATE_DOCS=1 it is first rewritten to `table`, so a test that compares the two
/// both checks the page and regenerates it.
inline std::optional<std::string> docs_block(const std::string& path, const char* begin, const char* end,
                                             const std::string& table) {
  std::string doc = gpucheck::read_file(path);
  auto b = doc.find(begin), e = doc.find(end);
  if (b == std::string::npos || e == std::string::npos) return std::nullopt;
  const std::size_t from = b + std::strlen(begin);
  if (const char* update = std::getenv("GPUCHECK_UPDATE_DOCS"); update && std::string(update) == "1") {
    doc.replace(from, e - from, table);
    gpucheck::write_file_atomic(path, doc);
    return table;
  }
  return doc.substr(from, e - from);
}

inline const std::vector<Signature>& source_signatures() {
  static const auto sigs = load_signatures(std::string(GPUCHECK_SOURCE_DIR) + "/data/signatures");
  return sigs;
}

inline Explanation explain_string(const std::string& log, ScanOptions options = {},
                                  const inventory::Inventory* inv = nullptr) {
  return explain_text(log, source_signatures(), make_fact_call(inv, {}), options);
}

inline std::set<std::string> cause_ids(const Explanation& e) {
  std::set<std::string> ids;
  for (const auto& c : e.causes) ids.insert(c.id);
  return ids;
}

inline const Finding* find_cause(const Explanation& e, const std::string& id) {
  for (const auto& c : e.causes)
    if (c.id == id) return &c;
  return nullptr;
}

/// details.lines: the line number of each evidence entry, in order.
inline std::vector<std::uint64_t> lines(const Finding& c) {
  return c.details.at("lines").get<std::vector<std::uint64_t>>();
}

/// details.captures: the values captured from the matched (and context) lines.
inline std::map<std::string, std::string> captures(const Finding& c) {
  return c.details.at("captures").get<std::map<std::string, std::string>>();
}

inline bool is_root(const Finding& c) { return c.details.at("root").get<bool>(); }

/// The fix steps in rank order, each as one line: its summary, then its commands in backticks.
inline std::vector<std::string> fix_lines(const Finding& c) {
  std::vector<std::string> out;
  for (const auto& f : c.fixes) {
    std::string line = f.summary;
    for (std::size_t i = 0; i < f.commands.size(); ++i) line += (i ? " then `" : ": `") + f.commands[i] + "`";
    out.push_back(line);
  }
  return out;
}

}  // namespace gpucheck::explain::testing
