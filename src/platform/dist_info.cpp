#include "platform/dist_info.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>

#include "core/regular_file.h"
#include "core/text.h"

namespace gpucheck::platform {

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

namespace {

// The header block of METADATA / PKG-INFO: "Key: value" lines up to the first empty line.
void read_headers(const std::string& meta, std::string& version, std::vector<std::string>& requires_dist) {
  std::istringstream in(meta);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) break;
    if (starts_with(line, "Version:") && version.empty()) version = trim(line.substr(8));
    else if (starts_with(line, "Requires-Dist:")) requires_dist.push_back(trim(line.substr(14)));
  }
}

// requires.txt of an egg-info: unconditional lines come before the first "[extra]" / "[:marker]" section.
std::vector<std::string> egg_requires(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (starts_with(line, "[")) break;
    if (!line.empty() && line.front() != '#') out.push_back(line);
  }
  return out;
}

// One CSV field list; RECORD quotes a path that holds a comma or a quote.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  // Most RECORD lines have no quote: split at the commas in one pass per field (torch's and the CUDA
  // wheels' RECORDs are ~30,000 lines; appending character by character was most of their reading).
  if (line.find('"') == std::string::npos) {
    out.clear();
    std::size_t start = 0;
    for (;;) {
      std::size_t comma = line.find(',', start);
      std::string field = line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (field.find('\r') != std::string::npos) field.erase(std::remove(field.begin(), field.end(), '\r'), field.end());
      out.push_back(std::move(field));
      if (comma == std::string::npos) return out;
      start = comma + 1;
    }
  }
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

std::string urlsafe_b64_nopad(const unsigned char* data, std::size_t n) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  for (std::size_t i = 0; i < n; i += 3) {
    unsigned v = data[i] << 16 | (i + 1 < n ? data[i + 1] << 8 : 0) | (i + 2 < n ? data[i + 2] : 0);
    out += k[(v >> 18) & 63];
    out += k[(v >> 12) & 63];
    if (i + 1 < n) out += k[(v >> 6) & 63];
    if (i + 2 < n) out += k[v & 63];
  }
  return out;
}

}  // namespace

std::vector<DistInfo> read_distributions(const RootFs& fs, const std::string& site) {
  std::vector<DistInfo> out;
  for (const auto& entry : fs.list(site)) {
    auto [name, version] = parse_dist_info_name(entry);
    if (name.empty()) continue;
    DistInfo d;
    d.dir = path_join(site, entry);
    d.name = name;
    std::string meta = fs.read(path_join(d.dir, "METADATA"), 1u << 20);
    if (meta.empty()) meta = fs.read(path_join(d.dir, "PKG-INFO"), 1u << 20);
    read_headers(meta, d.version, d.requires_dist);
    if (ends_with(entry, ".egg-info") && d.requires_dist.empty())
      d.requires_dist = egg_requires(fs.read(path_join(d.dir, "requires.txt"), 1u << 20));
    if (d.version.empty()) d.version = version;
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<RecordEntry> read_record(const RootFs& fs, const std::string& dist_info_dir) {
  std::vector<RecordEntry> out;
  std::istringstream in(fs.read(path_join(dist_info_dir, "RECORD"), 64u << 20));
  std::string line;
  while (std::getline(in, line)) {
    auto f = csv_fields(line);
    if (f.empty() || f[0].empty()) continue;
    long long size = -1;
    if (f.size() > 2 && !f[2].empty() && f[2].size() < 19 && f[2].find_first_not_of("0123456789") == std::string::npos)
      size = std::stoll(f[2]);
    out.push_back({f[0], f.size() > 1 ? f[1] : "", size});
  }
  return out;
}

std::string record_hash_of_file(const RootFs& fs, const std::string& guest_path) {
  // A path RECORD names may be a link to a device or a FIFO in a venv another user writes: never opened.
  const UniqueFd fd(open_regular_file(fs.host(guest_path)));
  if (!fd.valid()) return "";
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return "";
  std::vector<char> buf(1u << 20);
  for (;;) {
    ssize_t n = read_fully(fd.get(), buf.data(), buf.size());
    if (n < 0) return "";
    if (n == 0) break;
    if (EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(n)) != 1) return "";
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx.get(), md, &len) != 1) return "";
  return "sha256=" + urlsafe_b64_nopad(md, len);
}

}  // namespace gpucheck::platform
