#include "checks/planner/pin_guard.h"

#include "core/text.h"
#include "knowledge/pep440.h"

namespace gpucheck::planner {
namespace {

/// A command's words as the shell passes them to pip: split on blanks, one level of quotes removed.
std::vector<std::string> words_of(const std::string& command) {
  std::vector<std::string> out;
  std::string word;
  char quote = 0;
  for (char c : command) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

}  // namespace

std::vector<std::string> pins_broken_by(const Fix& fix, const std::vector<Ask>& asks) {
  std::vector<std::string> out;
  for (const auto& command : fix.commands)
    for (const auto& word : words_of(command)) {
      if (word.find("==") == std::string::npos || word.front() == '-') continue;
      auto req = knowledge::pep440::Requirement::try_parse(word);
      if (!req || req->specifiers.specs.size() != 1 || req->specifiers.specs[0].op != "==" ||
          req->specifiers.specs[0].wildcard)
        continue;
      const std::string version = req->specifiers.specs[0].version;
      for (const auto& a : asks)
        if (a.req.name == req->name && !a.req.specifiers.empty() && !a.req.specifiers.contains(version, true))
          out.push_back(word + " (excluded by " + a.label() + ")");
    }
  return out;
}

void bind_fixes_to_asks(std::vector<Finding>& findings, const std::vector<Ask>& asks) {
  for (auto& f : findings) {
    std::vector<Fix> kept;
    for (auto& fix : f.fixes) {
      auto broken = pins_broken_by(fix, asks);
      if (broken.empty()) {
        kept.push_back(std::move(fix));
        continue;
      }
      f.evidence.push_back({"fix left out", fix.summary + ": installs " + join(broken, ", "), "your -r/--for pins"});
    }
    for (std::size_t i = 0; i < kept.size(); ++i) kept[i].rank = static_cast<int>(i) + 1;
    f.fixes = std::move(kept);
  }
}

}  // namespace gpucheck::planner
