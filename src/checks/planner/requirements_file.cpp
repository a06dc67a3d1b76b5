#include "checks/planner/requirements_file.h"

#include <filesystem>

#include "core/errors.h"
#include "core/files.h"
#include "core/text.h"

namespace gpucheck::planner {
namespace {

constexpr int kMaxNesting = 8;

std::string relative_to(const std::string& file, const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  return (std::filesystem::path(file).parent_path() / path).string();
}

void read_into(const std::string& path, bool constraint, int depth, std::vector<Ask>& out,
               std::vector<std::string>& notes) {
  if (depth > kMaxNesting) throw InputError(path + ": requirements files nested more than 8 deep");
  check_input_file(path);
  std::string text = read_file(path);
  std::vector<std::string> lines = split(text, '\n');
  std::string name = std::filesystem::path(path).filename().string();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::size_t first = i;
    std::string line = lines[i];
    while (!line.empty() && line.back() == '\r') line.pop_back();
    while (!line.empty() && line.back() == '\\' && i + 1 < lines.size()) {  // pip joins continuation lines
      line.pop_back();
      line += lines[++i];
    }
    if (auto hash = line.find('#'); hash != std::string::npos && (hash == 0 || std::isspace(static_cast<unsigned char>(line[hash - 1]))))
      line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    std::string origin = name + ":" + std::to_string(first + 1);
    if (line[0] == '-') {
      auto space = line.find_first_of(" =");
      std::string opt = line.substr(0, space), arg = space == std::string::npos ? "" : trim(line.substr(space + 1));
      if (opt == "-r" || opt == "--requirement" || opt == "-c" || opt == "--constraint") {
        if (arg.empty()) throw InputError(origin + ": " + opt + " without a file");
        read_into(relative_to(path, arg), constraint || opt == "-c" || opt == "--constraint", depth + 1, out, notes);
        continue;
      }
      notes.push_back(origin + ": '" + line + "' is a pip option, not a requirement; the plans do not apply it");
      continue;
    }
    out.push_back(ask_from_spec(line, origin));
    out.back().constraint = constraint;
  }
}

}  // namespace

Ask ask_from_spec(const std::string& spec, const std::string& origin) {
  Ask a;
  a.origin = origin;
  try {
    a.req = knowledge::pep440::Requirement::parse(spec);
  } catch (const InputError& e) {
    throw InputError(origin + ": " + e.what());
  }
  return a;
}

std::vector<Ask> read_requirements_file(const std::string& path, bool constraint, std::vector<std::string>& notes) {
  std::vector<Ask> out;
  read_into(path, constraint, 0, out, notes);
  return out;
}

}  // namespace gpucheck::planner
