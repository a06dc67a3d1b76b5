#include "platform/dist_info.h"

#include <cctype>
#include <sstream>

#include "core/text.h"

namespace gpucheck::inventory {

std::string normalize_package_name(const std::string& name) {
  std::string out;
  bool sep = false;
  for (char c : trim(name)) {
    if (c == '-' || c == '_' || c == '.') {
      sep = true;
      continue;
    }
    if (sep && !out.empty()) out += '-';
    sep = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::pair<std::string, std::string> parse_dist_info_name(const std::string& dirname) {
  std::string stem;
  if (ends_with(dirname, ".dist-info")) stem = dirname.substr(0, dirname.size() - 10);
  else if (ends_with(dirname, ".egg-info")) stem = dirname.substr(0, dirname.size() - 9);
  else return {"", ""};
  // Wheel rule: the name part never contains '-' (it is escaped to '_'), so the first '-' splits.
  auto dash = stem.find('-');
  if (dash == std::string::npos) return {normalize_package_name(stem), ""};
  std::string version = stem.substr(dash + 1);
  auto py = version.find("-py");  // egg-info: name-1.0-py3.11
  if (py != std::string::npos) version = version.substr(0, py);
  return {normalize_package_name(stem.substr(0, dash)), version};
}

std::map<std::string, std::string> read_dist_infos(const RootFs& fs, const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs.list(dir)) {
    auto [name, version] = parse_dist_info_name(entry);
    if (name.empty()) continue;
    if (version.empty()) {
      std::string meta = fs.read(path_join(path_join(dir, entry), "METADATA"), 1u << 16);
      if (meta.empty()) meta = fs.read(path_join(path_join(dir, entry), "PKG-INFO"), 1u << 16);
      std::istringstream in(meta);
      std::string line;
      while (std::getline(in, line)) {
        if (starts_with(line, "Version:")) {
          version = trim(line.substr(8));
          break;
        }
        if (line.empty()) break;  // end of the header block
      }
    }
    out[name] = version;
  }
  return out;
}

}  // namespace gpucheck::inventory
