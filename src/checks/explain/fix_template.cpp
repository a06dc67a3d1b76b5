#include "checks/explain/fix_template.h"

#include "core/text.h"

namespace gpucheck::explain {
namespace {

std::optional<std::string> resolve(const std::string& expr, const Vars& vars, const FactCall& facts) {
  std::string e = trim(expr);
  auto open = e.find('(');
  if (open == std::string::npos) {
    auto it = vars.find(e);
    if (it == vars.end() || it->second.empty()) return std::nullopt;
    return it->second;
  }
  if (e.back() != ')' || !facts) return std::nullopt;
  std::string fn = trim(e.substr(0, open));
  std::vector<std::string> args;
  std::string inner = e.substr(open + 1, e.size() - open - 2);
  if (!trim(inner).empty()) {
    for (auto& raw : split(inner, ',')) {
      std::string a = trim(raw);
      if (a.size() >= 2 && a.front() == '\'' && a.back() == '\'') {
        args.push_back(a.substr(1, a.size() - 2));
      } else if (a.find('(') != std::string::npos) {  // nested call: env_toolkit_root(env_torch_cuda())
        auto v = resolve(a, vars, facts);
        if (!v) return std::nullopt;
        args.push_back(*v);
      } else {
        auto it = vars.find(a);
        if (it == vars.end() || it->second.empty()) return std::nullopt;
        args.push_back(it->second);
      }
    }
  }
  auto v = facts(fn, args);
  if (!v || v->empty()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::string> render_template(const std::string& tmpl, const Vars& vars, const FactCall& facts) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    char c = tmpl[i];
    if (c == '{' && i + 1 < tmpl.size() && tmpl[i + 1] == '{') { out += '{'; ++i; continue; }
    if (c == '}' && i + 1 < tmpl.size() && tmpl[i + 1] == '}') { out += '}'; ++i; continue; }
    if (c != '{') { out += c; continue; }
    auto close = tmpl.find('}', i);
    if (close == std::string::npos) return std::nullopt;
    auto v = resolve(tmpl.substr(i + 1, close - i - 1), vars, facts);
    if (!v) return std::nullopt;
    out += *v;
    i = close;
  }
  return out;
}

std::vector<std::string> template_placeholders(const std::string& tmpl) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{' && i + 1 < tmpl.size() && tmpl[i + 1] == '{') { ++i; continue; }
    if (tmpl[i] != '{') continue;
    auto close = tmpl.find('}', i);
    if (close == std::string::npos) break;
    out.push_back(trim(tmpl.substr(i + 1, close - i - 1)));
    i = close;
  }
  return out;
}

}  // namespace gpucheck::explain
