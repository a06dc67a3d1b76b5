// `gpucheck modulefiles`: what it wrote and how to use it. (use-cuda's text is exactly its shell lines, so
// that `eval "$(gpucheck use-cuda 11.8)"` works: render_text() prints them as they are.)
#include "render/text_blocks.h"

namespace gpucheck::render::text {

void modulefiles(const model::Report& r, const model::ModulefilesDetails& d, std::ostream& out,
                 const RenderOptions& o) {
  // A toolkit left out (its version or root cannot be written safely): said even under --quiet.
  for (const auto* f : r.findings()) out << "FAIL " << f->summary << "\n";
  if (o.quiet) return;
  for (const auto& w : d.written) out << "wrote " << w << "\n";
  out << "use with: module use " << d.dir << "/tcl   (Environment Modules)  or  module use " << d.dir
      << "/lua   (Lmod)\n";
}

}  // namespace gpucheck::render::text
