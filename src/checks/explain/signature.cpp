#include "checks/explain/signature.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "core/errors.h"
#include "core/files.h"

namespace gpucheck::explain {

namespace {

std::vector<std::string> string_list(const nlohmann::json& j, const char* key) {
  std::vector<std::string> v;
  if (!j.contains(key)) return v;
  const auto& a = j.at(key);
  if (a.is_string()) v.push_back(a.get<std::string>());
  else
    for (const auto& e : a) v.push_back(e.get<std::string>());
  return v;
}

Signature parse_one(const nlohmann::json& s, const std::string& origin) {
  Signature sig;
  sig.id = s.at("id").get<std::string>();
  sig.kind = s.value("kind", "cause");
  if (sig.kind != "cause" && sig.kind != "context") throw std::invalid_argument("kind must be cause or context");
  sig.title = string_list(s, "title");
  sig.explanation = string_list(s, "explanation");
  sig.consequence_of = string_list(s, "consequence_of");
  sig.overridden_by = string_list(s, "overridden_by");
  if (s.contains("reclassify"))
    for (const auto& r : s.at("reclassify")) {
      Signature::Reclassify rc;
      rc.condition = r.value("if", "");
      if (r.contains("when")) rc.when = parse_conditions(r.at("when"));
      if (rc.condition.empty() && rc.when.empty()) throw std::invalid_argument("reclassify needs \"if\" or \"when\"");
      rc.id = r.at("id").get<std::string>();
      sig.reclassify.push_back(std::move(rc));
    }
  if (s.contains("when")) sig.when = parse_conditions(s.at("when"));
  if (s.contains("unless")) sig.unless = parse_conditions(s.at("unless"));
  sig.threshold = s.value("threshold", 1.0);
  if (!(sig.threshold > 0.0) || sig.threshold > 100.0) throw std::invalid_argument("threshold must be > 0");
  sig.min_confidence = s.value("min_confidence", kDefaultMinConfidence);
  if (!(sig.min_confidence >= 0.0 && sig.min_confidence <= 1.0)) throw std::invalid_argument("min_confidence must be 0..1");
  sig.sources = string_list(s, "sources");
  sig.file = origin;
  if (sig.kind == "cause" && (sig.title.empty() || sig.explanation.empty()))
    throw std::invalid_argument("a cause needs a title and an explanation");
  if (sig.sources.empty()) throw std::invalid_argument("no sources");
  auto parse_pattern = [&](const nlohmann::json& p, bool signal) {
    Pattern pat;
    pat.signal = signal;
    pat.literals = string_list(p, "literals");
    if (pat.literals.empty()) throw std::invalid_argument("pattern without literals: " + p.dump());
    for (const auto& l : pat.literals)
      if (l.size() < 4) throw std::invalid_argument("literal too short to prefilter: '" + l + "'");
    pat.window = static_cast<int>(json_int(p, "window", 1, 1, 4));
    pat.confidence = p.value("confidence", 0.9);
    if (!(pat.confidence > 0.0 && pat.confidence <= 1.0)) throw std::invalid_argument("confidence must be in (0, 1]");
    pat.anchored = p.value("anchored", false);
    if (signal) {
      if (!p.contains("weight")) throw std::invalid_argument("a signal needs a weight: " + p.dump());
      pat.weight = p.at("weight").get<double>();
      if (!(pat.weight > 0.0 && pat.weight <= 1.0)) throw std::invalid_argument("weight must be in (0, 1]");
      pat.confidence = p.value("confidence", pat.weight);
      pat.name = p.value("name", "");
    }
    if (p.contains("sets")) pat.sets = p.at("sets").get<std::map<std::string, std::string>>();
    try {
      pat.regex = compile_named_regex(p.at("regex").get<std::string>(), p.value("icase", false));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("regex " + p.at("regex").dump() + ": " + e.what());
    }
    if (signal && pat.name.empty()) pat.name = pat.regex.source;
    sig.patterns.push_back(std::move(pat));
  };
  if (s.contains("patterns"))
    for (const auto& p : s.at("patterns")) parse_pattern(p, false);
  if (s.contains("signals")) {
    if (sig.kind != "cause") throw std::invalid_argument("signals belong to causes, not context signatures");
    for (const auto& p : s.at("signals")) parse_pattern(p, true);
  }
  if (sig.patterns.empty()) throw std::invalid_argument("no patterns");
  if (s.contains("fix"))
    for (const auto& f : s.at("fix")) {
      FixStep step;
      if (f.is_string()) step.alternatives.push_back(f.get<std::string>());
      else step.alternatives = f.get<std::vector<std::string>>();
      sig.fix.push_back(std::move(step));
    }
  return sig;
}

}  // namespace

std::vector<Signature> parse_signatures(const nlohmann::json& doc, const std::string& origin) {
  std::vector<Signature> out;
  if (!doc.is_object() || !doc.contains("signatures") || !doc.at("signatures").is_array())
    throw InputError(origin + ": not a signatures document (no \"signatures\" array)");
  for (const auto& s : doc.at("signatures")) {
    // Named for the message only; a wrongly typed id is reported by parse_one like any other field.
    std::string id = s.is_object() && s.contains("id") && s["id"].is_string() ? s["id"].get<std::string>() : "?";
    try {
      out.push_back(parse_one(s, origin));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(origin + ": signature '" + id + "': " + e.what());
    } catch (const std::invalid_argument& e) {
      throw InputError(origin + ": signature '" + id + "': " + e.what());
    } catch (const InputError& e) {
      throw InputError(origin + ": signature '" + id + "': " + e.what());
    }
  }
  return out;
}

std::vector<Signature> load_signatures(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError("signature directory not found: " + dir);
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<Signature> all;
  std::set<std::string> ids;
  for (const auto& f : files) {
    for (auto& s : parse_signatures(read_json_file(f), f)) {
      if (!ids.insert(s.id).second) throw InputError(f + ": duplicate signature id '" + s.id + "'");
      all.push_back(std::move(s));
    }
  }
  if (all.empty()) throw InputError("no signatures in " + dir);
  return all;
}

}  // namespace gpucheck::explain
