#include "inventory/version_cache.h"

#include <sys/stat.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "core/json_input.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::inventory {
namespace {
// 2: readings of cuDNN 9 taken with another release's sub-libraries first on LD_LIBRARY_PATH named that
// release (issue 13); format 1 files may hold such a number, so they are an empty cache.
constexpr int kVersionCacheFormat = 2;
}  // namespace


VersionCache::VersionCache(std::string file) : file_(std::move(file)) {
  if (file_.empty()) return;
  // Only a regular file (or none yet) is a cache: a FIFO, device or directory there would hang or break
  // every `gpucheck env`, so such a cache is neither read nor written.
  struct stat st {};
  if (::stat(file_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    file_.clear();
    return;
  }
  std::string text;
  try {
    text = read_file(file_, std::size_t{16} << 20);
  } catch (const InputError&) {
    return;  // unreadable or oversized: start afresh, and the next save replaces it
  }
  auto j = parse_json_or_discarded(text);
  if (j.is_discarded() || !j.is_object() || !j.contains("format") || j.at("format") != kVersionCacheFormat || !j.contains("entries"))
    return;
  try {
    for (const auto& [path, e] : j.at("entries").items()) {
      if (!e.is_object()) continue;
      VersionReading r;
      r.version = e.value("version", "");
      r.source = e.value("source", "");
      std::string id = e.value("identity", "");
      if (!r.version.empty() && !id.empty()) entries_[path] = {id, r};
    }
  } catch (const nlohmann::json::exception&) {
    entries_.clear();  // a field of another type (value() throws): corrupt, so an empty cache, as promised
  }
}

bool VersionCache::lookup(const std::string& path, VersionReading& out) const {
  auto it = entries_.find(path);
  if (it == entries_.end() || it->second.first != file_identity(path)) return false;
  out = it->second.second;
  return true;
}

void VersionCache::store(const std::string& path, const VersionReading& reading) {
  if (file_.empty() || reading.version.empty() || !reading.error.empty()) return;
  std::string id = file_identity(path);
  if (id.empty()) return;
  entries_[path] = {id, reading};
  dirty_ = true;
}

void VersionCache::save() const {
  if (file_.empty() || !dirty_) return;
  nlohmann::json j = {{"format", kVersionCacheFormat}, {"entries", nlohmann::json::object()}};
  for (const auto& [path, e] : entries_)
    j["entries"][path] = {{"identity", e.first}, {"version", e.second.version}, {"source", e.second.source}};
  try {
    auto slash = file_.find_last_of('/');
    if (slash != std::string::npos && slash > 0) make_dirs(file_.substr(0, slash));
    write_file_atomic(file_, json_text(j, 1) + "\n");
  } catch (const InputError&) {
    // Read-only home, full disk: the inventory is still right, only the next run is slower.
  }
}

std::string default_version_cache_file() {
  std::string dir = cache_dir();
  return dir.empty() ? "" : dir + "/library-versions.json";
}

}  // namespace gpucheck::inventory
