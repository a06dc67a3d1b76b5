#pragma once
// Requirements as users have them: `--for SPEC`, pip's requirements files (-r) and constraints files (-c),
// read as pip reads them (comments, line continuations, nested -r/-c relative to the file, option lines).
#include <string>
#include <vector>

#include "checks/planner/resolver.h"

namespace gpucheck::planner {

/// One `--for` argument ("bmtrain>=0.2.1", "torch<2.0.0,>=1.10", "flash_attn==2.7.4.post1").
/// Throws InputError with a one-line reason.
Ask ask_from_spec(const std::string& spec, const std::string& origin = "--for");

/// The requirements (or, with `constraint`, constraints) of a pip requirements file. Option lines pip
/// would apply to the install (--index-url, --pre, ...) are not requirements: each is named in `notes`.
/// Throws InputError for an unreadable file, a line that is no requirement, or -r nested too deep.
std::vector<Ask> read_requirements_file(const std::string& path, bool constraint, std::vector<std::string>& notes);

}  // namespace gpucheck::planner
