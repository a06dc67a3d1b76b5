// explain_similar_index: builds data/explain/similar.json (the similar-reports index) from case
// directories. A case is NAME.json + NAME.log: the corpus shape {source, thread, cause, fix, fix_confirmed,
// family}, or the older fixture shape {source, expected, root?}. Each case keeps only its distinctive
// lines: the evidence of the causes explain finds in it and its last error-looking lines, shortened.
//   explain_similar_index --signatures DIR --out FILE CASE_DIR...
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

#include "checks/explain/explainer.h"
#include "checks/explain/fix_facts.h"
#include "checks/explain/similar_reports.h"
#include "core/errors.h"
#include "core/files.h"

namespace fs = std::filesystem;
using namespace gpucheck;
using namespace gpucheck::explain;

namespace {

constexpr std::size_t kMaxLines = 16;
constexpr std::size_t kMaxLineChars = 200;

std::string shorten(std::string s) {
  if (s.size() <= kMaxLineChars) return s;
  std::size_t cut = kMaxLineChars;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return s.substr(0, cut);
}

SimilarCase read_case(const fs::path& json_path, const std::vector<Signature>& sigs) {
  SimilarCase c;
  c.name = json_path.stem().string();
  auto meta = read_json_file(json_path.string());
  for (const char* key : {"thread", "source"})  // the thread to read; the source post when it has none
    if (c.url.empty() && meta.contains(key) && meta[key].is_string()) c.url = meta[key].get<std::string>();
  if (meta.contains("cause") && meta["cause"].is_string()) {
    c.causes.push_back(meta["cause"]);
  } else {
    if (meta.contains("root") && meta["root"].is_string()) c.causes.push_back(meta["root"]);
    if (meta.contains("expected") && meta["expected"].is_array())
      for (const auto& e : meta["expected"])
        if (e.is_string() && std::find(c.causes.begin(), c.causes.end(), e.get<std::string>()) == c.causes.end())
          c.causes.push_back(e.get<std::string>());
  }
  if (meta.contains("fix") && meta["fix"].is_string()) c.fix = meta["fix"];
  c.fix_confirmed = meta.contains("fix_confirmed") && meta["fix_confirmed"].is_boolean() && meta["fix_confirmed"].get<bool>();
  if (meta.contains("family") && meta["family"].is_string()) c.family = meta["family"];
  fs::path log = json_path;
  log.replace_extension(".log");
  auto ex = explain_text(read_file(log.string()), sigs, make_fact_call(nullptr, {}));
  std::set<std::string> seen;
  auto add = [&](const Finding& f) {
    for (const auto& e : f.evidence)
      if (c.lines.size() < kMaxLines && seen.insert(e.value).second) c.lines.push_back(shorten(e.value));
  };
  for (const auto& f : ex.causes) add(f);
  add(ex.unknown);
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  std::string signatures, out;
  std::vector<std::string> dirs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--signatures" && i + 1 < argc) signatures = argv[++i];
    else if (a == "--out" && i + 1 < argc) out = argv[++i];
    else dirs.push_back(a);
  }
  if (signatures.empty() || out.empty()) {
    std::cerr << "usage: explain_similar_index --signatures DIR --out FILE CASE_DIR...\n";
    return 2;
  }
  try {
    auto sigs = load_signatures(signatures);
    std::vector<SimilarCase> cases;
    for (const auto& d : dirs) {
      std::error_code ec;
      if (!fs::is_directory(d, ec)) continue;  // the corpus directory may not exist yet
      std::vector<fs::path> metas;
      for (const auto& e : fs::directory_iterator(d))
        if (e.path().extension() == ".json" && fs::exists(fs::path(e.path()).replace_extension(".log"))) metas.push_back(e.path());
      std::sort(metas.begin(), metas.end());
      for (const auto& m : metas) {
        auto c = read_case(m, sigs);
        // Only a case with a thread to read is a similar report (logs made on a build machine are not).
        if (c.url.rfind("https://", 0) == 0 || c.url.rfind("http://", 0) == 0) cases.push_back(std::move(c));
      }
    }
    make_dirs(fs::path(out).parent_path().string());
    write_file_atomic(out, similar_index_json(std::move(cases)).dump(1) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "explain_similar_index: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
