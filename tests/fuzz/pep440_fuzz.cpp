// Fuzz target: PEP 440 versions, specifier sets, PEP 508 requirements and markers (Requires-Dist of any
// installed distribution, a requirements file, `--for`): every line of the input is read as each of them.
// A reading is a value or nullopt, never an exception; a parsed version prints and re-parses to the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "knowledge/pep440.h"

using namespace gpucheck::pep440;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const MarkerEnvironment env = linux_marker_environment("3.11.7");
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  std::optional<Version> previous;
  while (std::getline(in, line)) {
    if (auto v = Version::parse(line)) {
      auto again = Version::parse(v->str());
      if (!again || compare(*v, *again) != 0) std::abort();  // str() is the normal form of the same version
      (void)v->public_version().str();
      if (previous) (void)compare(*previous, *v);
      previous = v;
    }
    if (auto s = SpecifierSet::parse(line)) {
      (void)s->str();
      if (previous) (void)s->contains(*previous, false);
      (void)s->contains(line);
    }
    if (auto r = Requirement::parse(line)) {
      (void)r->applies(env, "cuda");
      (void)r->specifiers.str();
    }
    (void)evaluate_marker(line, env);
    (void)normalize_name(line);
  }
  return 0;
}
