#include "render/text_blocks.h"

namespace gpucheck::render::text {

void explain(const report::Report& r, std::ostream& out, const RenderOptions& o) { findings(r, out, o); }

}  // namespace gpucheck::render::text
