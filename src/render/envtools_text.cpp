// `gpucheck use-cuda` and `gpucheck modulefiles`. use-cuda's text is exactly the shell lines, so that
// `eval "$(gpucheck use-cuda 11.8)"` works (a version not installed gets its ways to install, on stderr); modulefiles lists what it wrote and how to use it.
#include "render/text_blocks.h"

namespace gpucheck::render::text {

void use_cuda(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  // A version not installed: no shell lines, the ways to install it (cli sends this text to stderr).
  for (const auto* f : r.findings()) finding_block(*f, out, o);
  if (r.details.is_object()) out << r.details.value("shell", "");
}

void modulefiles(const report::Report& r, std::ostream& out, const RenderOptions& o) {
  // A toolkit left out (its version or root cannot be written safely): said even under --quiet.
  for (const auto* f : r.findings()) out << "FAIL " << f->summary << "\n";
  if (o.quiet || !r.details.is_object()) return;
  for (const auto& w : r.details.value("written", std::vector<std::string>{})) out << "wrote " << w << "\n";
  const std::string dir = r.details.value("dir", "");
  out << "use with: module use " << dir << "/tcl   (Environment Modules)  or  module use " << dir << "/lua   (Lmod)\n";
}

}  // namespace gpucheck::render::text
