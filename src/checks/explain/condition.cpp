#include "checks/explain/condition.h"

#include <stdexcept>

#include "core/errors.h"
#include "knowledge/version.h"

namespace gpucheck::explain {

Condition parse_condition(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("fact") || !j.at("fact").is_string())
    throw std::invalid_argument("a condition is {\"fact\": NAME, OP: ARG}: " + j.dump());
  Condition c;
  c.fact = j.at("fact").get<std::string>();
  int ops = 0;
  if (j.contains("equals")) {
    ++ops;
    c.op = Condition::Op::kEquals;
    c.values = {j.at("equals").get<std::string>()};
    c.text = c.fact + " equals " + c.values[0];
  }
  if (j.contains("in")) {
    ++ops;
    c.op = Condition::Op::kIn;
    c.values = j.at("in").get<std::vector<std::string>>();
    std::string all;
    for (const auto& v : c.values) all += (all.empty() ? "" : "|") + v;
    c.text = c.fact + " in " + all;
  }
  if (j.contains("matches")) {
    ++ops;
    c.op = Condition::Op::kMatches;
    c.regex = compile_named_regex(j.at("matches").get<std::string>(), false);
    c.text = c.fact + " matches " + c.regex->source;
  }
  if (j.contains("version")) {
    ++ops;
    c.op = Condition::Op::kVersion;
    c.values = {j.at("version").get<std::string>()};
    try {
      knowledge::satisfies("0", c.values[0]);  // the specifiers are checked when the file loads
    } catch (const InputError& e) {
      throw std::invalid_argument(std::string("condition version: ") + e.what());
    }
    c.text = c.fact + " " + c.values[0];
  }
  if (j.contains("present")) {
    ++ops;
    c.op = Condition::Op::kPresent;
    c.present = j.at("present").get<bool>();
    c.text = c.fact + (c.present ? " present" : " absent");
  }
  if (ops != 1) throw std::invalid_argument("a condition needs exactly one of equals, in, matches, version, present: " + j.dump());
  return c;
}

std::vector<Condition> parse_conditions(const nlohmann::json& j) {
  std::vector<Condition> out;
  if (j.is_object()) out.push_back(parse_condition(j));
  else if (j.is_array())
    for (const auto& e : j) out.push_back(parse_condition(e));
  else throw std::invalid_argument("conditions are an array of objects: " + j.dump());
  return out;
}

bool holds(const Condition& c, const std::map<std::string, std::string>& facts) {
  auto it = facts.find(c.fact);
  if (c.op == Condition::Op::kPresent) return (it != facts.end()) == c.present;
  if (it == facts.end()) return false;
  const std::string& v = it->second;
  switch (c.op) {
    case Condition::Op::kEquals: return v == c.values[0];
    case Condition::Op::kIn:
      for (const auto& x : c.values)
        if (v == x) return true;
      return false;
    case Condition::Op::kMatches: return c.regex->search(v, false);
    case Condition::Op::kVersion:
      if (!knowledge::Version::parse(v)) return false;
      return knowledge::satisfies(v, c.values[0]);
    case Condition::Op::kPresent: break;
  }
  return false;
}

}  // namespace gpucheck::explain
