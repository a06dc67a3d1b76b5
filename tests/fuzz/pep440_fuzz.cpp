// Fuzz target: PEP 440 versions, specifier sets, PEP 508 requirements and markers (Requires-Dist of any
// installed distribution, a requirements file, `--for`): every line of the input is read as each of them.
// A reading is a value, nullopt or a pep440::ParseError (what the CLI turns into exit 2), never another
// exception; a parsed version prints and re-parses to the same; a parsed set prints and re-parses to the same.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "knowledge/pep440.h"

using namespace gpucheck::knowledge::pep440;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const MarkerEnv env = [] {
    MarkerEnv e = MarkerEnv::linux_cpython("3.11.7");
    e.extras = {"cuda"};
    return e;
  }();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  std::optional<Version> previous;
  while (std::getline(in, line)) {
    if (auto v = Version::parse(line)) {
      auto again = Version::parse(v->str());
      if (!again || compare(*v, *again) != 0 || again->str() != v->str()) std::abort();  // str() is the normal form
      (void)v->public_version().str();
      if (previous) (void)compare(*previous, *v);
      previous = v;
    }
    if (auto s = SpecifierSet::try_parse(line)) {
      auto again = SpecifierSet::try_parse(s->str());
      if (!again || again->str() != s->str()) std::abort();
      if (previous) (void)s->contains(*previous), (void)s->contains(*previous, true);
      (void)s->contains(line);
    }
    if (auto r = Requirement::try_parse(line)) {
      (void)r->applies(env);  // parse read the marker: evaluating it cannot throw
      (void)r->specifiers.str();
      (void)r->str();
    }
    try {
      (void)evaluate_marker(line, env);
    } catch (const ParseError&) {
    }
    (void)normalize_name(line);
  }
  return 0;
}
