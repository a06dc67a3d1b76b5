#pragma once
// Fix and explanation templates: "{name}" takes a captured value, "{fn(a, b)}" asks the fact lookup
// (knowledge base, inventory, small string helpers) with arguments that are captured names or 'quoted'
// literals. A template whose placeholders do not all resolve yields nothing, so the next alternative (a
// more generic wording) is used instead. Values are inserted as text; nothing is ever executed.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpucheck::explain {

using Vars = std::map<std::string, std::string>;
/// Answers "{fn(args)}"; nullopt when the fact is not known.
using FactCall = std::function<std::optional<std::string>(const std::string& fn, const std::vector<std::string>& args)>;

/// The template with every placeholder replaced, or nullopt when one cannot be resolved.
/// "{{" and "}}" are literal braces.
std::optional<std::string> render_template(const std::string& tmpl, const Vars& vars, const FactCall& facts);

/// Placeholder names and functions used by `tmpl` (for validating signature files).
std::vector<std::string> template_placeholders(const std::string& tmpl);

}  // namespace gpucheck::explain
